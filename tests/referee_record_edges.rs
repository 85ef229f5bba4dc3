//! The records a run leaves, without running games: PGN tags that read back exactly whatever
//! the names hold, and the journal that `-resume` continues from (one record per game number,
//! a torn tail cut off, another configuration refused).

use crate::referee_common;

use punct::referee::cli::{parse_args, Command};
use punct::referee::players::player::Score;
use punct::referee::records::jsonl::JsonlWriter;
use punct::referee::records::pgn::{format_game, read_games};
use punct::referee::records::record::{GameRecord, MoveRecord};
use punct::referee::records::resume::{fingerprint, load_journal, rewrite_pgn};
use punct::referee::settings::RunConfig;
use referee_common::tmpdir;
use serde_json::json;

fn record(game: u64, white: &str, result: &str) -> GameRecord {
    GameRecord {
        game,
        round: 1,
        pair: game.div_ceil(2),
        white: white.into(),
        black: "B".into(),
        white_player: 0,
        black_player: 1,
        variant: "standard".into(),
        opening_index: game,
        opening: "- w 0".into(),
        white_tc: "10+0.1".into(),
        black_tc: "10+0.1".into(),
        white_level: None,
        black_level: None,
        result: result.into(),
        reason: "connection".into(),
        reason_text: "White wins by connection".into(),
        termination: "normal".into(),
        fault_player: None,
        moves: vec![MoveRecord {
            mv: "c5c6d6".into(),
            ms: 12.0,
            score: Some(Score::Cp(-4)),
            depth: Some(3),
            nodes: None,
            overhead_us: None,
            clock_ms: None,
            budget_ms: None,
        }],
        final_position: "Wc5c6d6 b 1".into(),
        overhead_median_us: None,
        date: "2026.11.26".into(),
    }
}

/// Catches: tag values with a backslash written unescaped (`referee/pgn.rs`, `escape`).
#[test]
fn tag_values_with_backslashes_and_quotes_read_back_exactly() {
    for name in [
        r"C:\engines\punct.exe",
        r"ends with a backslash\",
        r#"a \"quoted\" \ name"#,
        r"\\",
    ] {
        let text = format_game(&record(1, name, "1-0"), r"ev\nt");
        // PGN escapes a backslash as two, a quote as backslash-quote.
        let escaped = name.replace('\\', r"\\").replace('"', r#"\""#);
        assert!(
            text.contains(&format!("[White \"{escaped}\"]\n")),
            "{name}: {text}"
        );
        assert!(text.contains("[Event \"ev\\\\nt\"]\n"), "{text}");
        let games = read_games(&text);
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(games[0].tag("White"), Some(name), "{text}");
        assert_eq!(games[0].tag("Event"), Some(r"ev\nt"));
        assert_eq!(games[0].moves, vec!["c5c6d6"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
    }
}

fn run_config(args: &str) -> RunConfig {
    let args: Vec<String> = args.split_whitespace().map(String::from).collect();
    match parse_args(&args).unwrap() {
        Command::Run(cfg) => *cfg,
        other => panic!("{other:?}"),
    }
}

const RUN: &str =
    "-engine cmd=builtin:random name=a -engine cmd=builtin:random name=b -games 4 -jsonl j.jsonl";

#[test]
fn the_fingerprint_ignores_only_what_may_change_on_resume() {
    let base = fingerprint(&run_config(RUN));
    assert_eq!(base.len(), 16);
    assert!(base.chars().all(|c| c.is_ascii_hexdigit()));
    for same in [
        "-concurrency 2",
        "-resume",
        "-overwrite",
        "-strict",
        "-ratinginterval 3",
    ] {
        let fp = fingerprint(&run_config(&format!("{RUN} {same}")));
        assert_eq!(fp, base, "{same}");
    }
    for other in ["-games 6", "-srand 5", "-rounds 2"] {
        let fp = fingerprint(&run_config(&format!("{RUN} {other}")));
        assert_ne!(fp, base, "{other}");
    }
}

/// Catches: resume keeping a second record of a game number (`referee/resume.rs`,
/// `load_journal`): the game would count twice in the statistics and appear twice in the PGN.
#[test]
fn resume_keeps_the_first_record_of_each_game_and_cuts_a_torn_tail() {
    let dir = tmpdir("records-journal");
    let path = dir.join("j.jsonl");
    {
        let mut w = JsonlWriter::append(&path).unwrap();
        w.write("start", json!({ "fingerprint": "f00d" })).unwrap();
        for (game, result) in [
            (1, "1-0"),
            (2, "0-1"),
            (1, "0-1"),
            (3, "1/2-1/2"),
            (2, "1-0"),
        ] {
            w.write_game(&record(game, "A", result)).unwrap();
        }
    }
    let intact = std::fs::metadata(&path).unwrap().len();
    // A crash in the middle of writing the next record.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"type\":\"game\",\"game\":4,\"res");
    std::fs::write(&path, &text).unwrap();

    let games = load_journal(&path, "f00d").unwrap();
    let seen: Vec<(u64, &str)> = games.iter().map(|g| (g.game, g.result.as_str())).collect();
    assert_eq!(seen, vec![(1, "1-0"), (2, "0-1"), (3, "1/2-1/2")]);
    assert_eq!(std::fs::metadata(&path).unwrap().len(), intact);

    let err = load_journal(&path, "beef").unwrap_err();
    assert!(err.contains("another configuration"), "{err}");
    assert!(load_journal(&dir.join("none.jsonl"), "f00d")
        .unwrap()
        .is_empty());
    // A journal that exists but cannot be read is an error, not a fresh start.
    let err = load_journal(&dir, "f00d").unwrap_err();
    assert!(err.contains(&dir.display().to_string()), "{err}");

    // The PGN is rewritten from the journal's games, once each.
    let pgn = dir.join("j.pgn");
    std::fs::write(&pgn, "stale").unwrap();
    rewrite_pgn(&pgn, &games, "ev").unwrap();
    let back = read_games(&std::fs::read_to_string(&pgn).unwrap());
    let rounds: Vec<_> = back.iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds, vec!["1", "2", "3"]);
    assert!(!dir.join("j.pgn.tmp").exists());
}

/// The date of `days` since 1970-01-01, counted out year by year and month by month (a second
/// way to the same date as the referee's).
fn civil_by_counting(mut days: u64) -> String {
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut year = 1970;
    while days >= if leap(year) { 366 } else { 365 } {
        days -= if leap(year) { 366 } else { 365 };
        year += 1;
    }
    let lengths = [
        31,
        if leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 0;
    while days >= lengths[month] {
        days -= lengths[month];
        month += 1;
    }
    format!("{year:04}.{:02}.{:02}", month + 1, days + 1)
}

#[test]
fn pgn_date_is_today_in_utc() {
    let day = || {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        civil_by_counting(secs / 86_400)
    };
    assert_eq!(civil_by_counting(0), "1970.01.01");
    assert_eq!(civil_by_counting(11_016), "2000.02.29");
    let before = day();
    let today = punct::referee::records::pgn::today();
    let after = day();
    assert!(today == before || today == after, "{today}, not {before}");
}

#[test]
fn move_text_lines_are_filled_up_to_79_characters() {
    let mut g = record(5, "A", "0-1");
    g.black_tc = "40/60+1".into();
    g.moves = (0..60)
        .map(|i| MoveRecord {
            mv: format!("c{}-d{}e{}f{}", i % 9 + 1, i % 7 + 1, i % 5 + 1, i % 3 + 1),
            ms: 1234.5,
            score: Some([Score::Mate(3), Score::Mate(-2), Score::Cp(-75)][i % 3]),
            depth: Some(9),
            nodes: None,
            overhead_us: None,
            clock_ms: None,
            budget_ms: None,
        })
        .collect();
    let text = format_game(&g, "ev");
    assert!(
        text.contains("[TimeControl \"10+0.1 / 40/60+1\"]\n"),
        "{text}"
    );
    assert!(
        text.contains("{+M3/9 1.234s}") && text.contains("{-M2/9 1.234s}"),
        "{text}"
    );
    assert!(text.contains("{-0.75/9 1.234s}"), "{text}");
    let lines: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
    assert!(lines.len() > 10, "{text}");
    for pair in lines.windows(2) {
        let (line, next) = (pair[0], pair[1]);
        if next.is_empty() {
            break;
        }
        assert!(line.len() <= 79, "{line}");
        // The next line's first token would not have fitted (a comment up to its brace, a
        // move number with its move).
        let first = if next.starts_with('{') {
            &next[..=next.find('}').unwrap()]
        } else {
            let number = next.split(' ').next().unwrap();
            let end = if number.ends_with('.') {
                number.len() + 1 + next[number.len() + 1..].split(' ').next().unwrap().len()
            } else {
                number.len()
            };
            &next[..end]
        };
        assert!(line.len() + 1 + first.len() > 79, "{line} / {first}");
    }
    // Same time controls are written once.
    let text = format_game(&record(6, "A", "1-0"), "ev");
    assert!(text.contains("[TimeControl \"10+0.1\"]\n"), "{text}");
    let back = read_games(&format_game(&g, "ev"));
    assert_eq!(back[0].moves.len(), 60);
}
