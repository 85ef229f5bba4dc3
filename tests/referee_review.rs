//! `punct-referee review`: a PGN game in, the same game out with an evaluation comment after
//! every move (`{+0.45/12}`, White's point of view) and marks with the engine's better move.

use std::process::Command;

use punct::referee::records::pgn::read_games;

const REFEREE: &str = env!("CARGO_BIN_EXE_punct-referee");
const PUNCT: &str = env!("CARGO_BIN_EXE_punct");

#[test]
fn review_writes_an_annotated_pgn() {
    let dir = std::env::temp_dir().join(format!("punct-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    let output = dir.join("out.pgn");
    // White throws away its first move in the centre-less corner, then a normal game; the
    // second game starts from a position (FEN) with Black to move.
    std::fs::write(
        &input,
        "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[FEN \"- w 0\"]\n\n\
         1. c5c6d6 {0.100s} f5f6f7 2. m5m6n6 p10p11q11 3. e3e4f4 *\n\n\
         [Event \"t\"]\n[White \"c\"]\n[Black \"d\"]\n[FEN \"Wc5c6d6 b 1\"]\n\n\
         1... f5f6f7 2. m5m6n6 *\n\n",
    )
    .unwrap();
    let st = Command::new(REFEREE)
        .args([
            "review",
            "-engine",
            &format!("cmd={PUNCT}"),
            "name=punct",
            "st=0.05",
        ])
        .arg("-pgn")
        .arg(&input)
        .arg("-out")
        .arg(&output)
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&output).unwrap();
    let games = read_games(&text);
    assert_eq!(games.len(), 2, "{text}");
    assert_eq!(
        games[0].moves,
        ["c5c6d6", "f5f6f7", "m5m6n6", "p10p11q11", "e3e4f4"]
    );
    assert_eq!(games[1].moves, ["f5f6f7", "m5m6n6"]);
    assert_eq!(games[0].tag("White"), Some("a"));
    assert!(games[0]
        .tag("Annotator")
        .is_some_and(|a| a.contains("punct st=0.05")));
    // One comment per move (plus the start's), each `{+D.DD/N ...}` or `{+MN/N ...}`.
    let comments: Vec<&str> = text
        .split('{')
        .skip(1)
        .map(|c| c.split('}').next().unwrap())
        .collect();
    assert_eq!(comments.len(), 5 + 1 + 2 + 1, "{text}");
    for c in &comments {
        let body = c.strip_prefix("start ").unwrap_or(c);
        let score = body.split('/').next().unwrap();
        assert!(
            score.starts_with('+') || score.starts_with('-'),
            "comment '{c}' in {text}"
        );
        let depth: String = body
            .split('/')
            .nth(1)
            .unwrap()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        assert!(depth.parse::<u32>().unwrap() >= 1, "{c}");
        if c.contains("??") || c.contains("?!") || c.contains(" ? ") {
            assert!(c.contains("; better "), "a mark names the better move: {c}");
        }
    }
    assert!(text.contains("1... f5f6f7"), "{text}");
    // Bad arguments are refused with status 2.
    let st = Command::new(REFEREE)
        .args(["review", "-engine", "cmd=x"])
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
