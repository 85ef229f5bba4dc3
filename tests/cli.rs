//! The one-shot command-line commands of `punct`: output format and bad arguments.

use std::process::{Command, Output};

fn punct(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(args)
        .output()
        .expect("punct runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

#[test]
fn perft_divide_lists_sorted_moves_then_the_total() {
    let pos = "Wc5c6d6/Bf5f6f7 w 2";
    let out = punct(&["perft", "1", pos]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let (total_line, move_lines) = lines.split_last().expect("output");
    let moves: Vec<&str> = move_lines
        .iter()
        .map(|l| {
            l.strip_suffix(": 1")
                .expect("each move counts 1 at depth 1")
        })
        .collect();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert_eq!(*total_line, format!("Nodes searched: {}", moves.len()));
    // The same position as three arguments gives the same output.
    let three = punct(&["perft", "1", "Wc5c6d6/Bf5f6f7", "w", "2"]);
    assert_eq!(stdout(&three), text);
    // `moves` lists exactly the divide's moves.
    let listed = stdout(&punct(&["moves", pos]));
    assert_eq!(listed.lines().collect::<Vec<_>>(), moves);
}

#[test]
fn variant_flag_changes_the_rules() {
    // After White's first drop, Black may drop into the centre in the basic game only.
    let pos = "Wc5c6d6 b 1";
    let standard = stdout(&punct(&["moves", pos])).lines().count();
    let basic = stdout(&punct(&["--variant", "basic", "moves", pos]))
        .lines()
        .count();
    assert!(basic > standard, "basic {basic} standard {standard}");
    assert!(stdout(&punct(&["moves", "startpos"])).lines().count() > 4000);
}

#[test]
fn bad_arguments_give_one_line_on_stderr_and_status_2() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "1", "junk"],
        &["--variant", "foo", "moves"],
        &["--variant"],
        &["frob"],
        &["moves", "-", "w"],
        &["moves", "Wc5c6d6/Bf5f6f8 w 2"],
    ] {
        let out = punct(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
