//! The referee and strength levels: the options reach the engine like any other, the report
//! and the records name the level (PGN `WhiteElo`/`WhiteLevel`), and `-ratings` fits players on
//! a scale fixed by anchors, from the records of several runs.

use crate::referee_common::{output_of, read_jsonl, referee, tmpdir};

const ENGINE: &str = env!("CARGO_BIN_EXE_punct");

#[test]
fn a_level_is_named_in_the_report_and_the_records() {
    let dir = tmpdir("levels-report");
    let (pgn, jsonl) = (dir.join("g.pgn"), dir.join("g.jsonl"));
    let (code, out, err) = output_of(referee().args([
        "-engine",
        &format!("cmd={ENGINE}"),
        "name=club",
        "option.UCI_LimitStrength=true",
        "option.UCI_Elo=1000",
        "-engine",
        &format!("cmd={ENGINE}"),
        "name=novice",
        "option.Skill Level=1",
        "-each",
        "st=0.05",
        "-games",
        "2",
        "-random-openings",
        "plies=2",
        "-pgnout",
        pgn.to_str().unwrap(),
        "-jsonl",
        jsonl.to_str().unwrap(),
    ]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Level: club  UCI_Elo 1000"), "{out}");
    assert!(out.contains("Level: novice  Skill Level 1"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Each game names both levels; the Elo only for the one set by UCI_Elo.
    assert_eq!(text.matches("Elo \"1000\"]").count(), 2, "{text}");
    assert_eq!(text.matches("Level \"UCI_Elo 1000\"]").count(), 2);
    assert_eq!(text.matches("Level \"Skill Level 1\"]").count(), 2);
    assert!(text.contains("[WhiteElo \"1000\"]") && text.contains("[BlackElo \"1000\"]"));
    let games: Vec<_> = (read_jsonl(&jsonl).into_iter())
        .filter(|g| g["type"] == "game")
        .collect();
    assert!(games.iter().any(|g| g["white_level"] == "Skill Level 1"));
    assert!(games.iter().any(|g| g["black_level"] == "Skill Level 1"));
}

#[test]
fn full_strength_options_name_no_level() {
    let (code, out, err) = output_of(referee().args([
        "-engine",
        &format!("cmd={ENGINE}"),
        "name=a",
        "option.Skill Level=20",
        "option.UCI_Elo=1200",
        "-engine",
        "cmd=builtin:safe",
        "name=b",
        "-each",
        "nodes=200",
        "-games",
        "2",
    ]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.contains("Level:"), "{out}");
}

/// A run of built-in players, recorded.
fn builtin_run(path: &std::path::Path, a: &str, b: &str, games: u32) {
    let (code, out, err) = output_of(referee().args([
        "-engine",
        &format!("cmd=builtin:{a}"),
        &format!("name={a}"),
        "-engine",
        &format!("cmd=builtin:{b}"),
        &format!("name={b}"),
        "-games",
        &games.to_string(),
        "-random-openings",
        "plies=2",
        "-jsonl",
        path.to_str().unwrap(),
        "-ratinginterval",
        "0",
    ]));
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn ratings_fit_several_runs_on_the_anchored_scale() {
    let dir = tmpdir("levels-ratings");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    builtin_run(&a, "safe", "random", 40);
    builtin_run(&b, "greedy", "safe", 20);
    let claims = dir.join("claims.tsv");
    std::fs::write(&claims, "# name elo\nsafe 300\nrandom 100\n").unwrap();
    let (table, plot) = (dir.join("t.md"), dir.join("p.svg"));
    let (code, out, err) = output_of(referee().args([
        "-ratings",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        a.to_str().unwrap(), // the same file twice counts once
        "-anchor",
        "safe=300",
        "-claims",
        claims.to_str().unwrap(),
        "-table",
        table.to_str().unwrap(),
        "-plot",
        plot.to_str().unwrap(),
    ]));
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(std::fs::read_to_string(&table).unwrap(), out);
    let row = |name: &str| -> Vec<String> {
        let line = (out.lines())
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("{name}: {out}"));
        line.split('|').map(|c| c.trim().to_string()).collect()
    };
    assert_eq!(row("safe")[3], "300");
    assert_eq!(row("safe")[4], "anchor");
    let elo = |name: &str| row(name)[3].parse::<f64>().unwrap();
    // safe beats random and loses to greedy: the ratings say so, on safe's scale.
    assert!(elo("random") < 300.0 && elo("greedy") > 300.0, "{out}");
    assert_eq!(row("random")[6], "40");
    assert_eq!(row("safe")[6], "60");
    assert!(out.contains("games; within ±100 of the claim:"), "{out}");
    assert!(out.contains("| safe - random (step) | +200 |"), "{out}");
    assert!(std::fs::read_to_string(&plot)
        .unwrap()
        .contains("safe = 300 (anchor)"));
}

#[test]
fn ratings_refuse_what_they_cannot_fit() {
    let dir = tmpdir("levels-ratings-bad");
    let a = dir.join("a.jsonl");
    builtin_run(&a, "safe", "random", 2);
    let f = a.to_str().unwrap();
    for (args, says) in [
        (vec!["-ratings", f], "at least one -anchor"),
        (
            vec!["-ratings", "-anchor", "safe=300"],
            "needs the JSONL logs",
        ),
        (
            vec!["-ratings", f, "-anchor", "nobody=5"],
            "anchor nobody played no game",
        ),
        (vec!["-ratings", f, "-anchor", "safe"], "expected NAME=ELO"),
        (
            vec!["-ratings", f, "-anchor", "safe=1", "-bogus", "x"],
            "unknown flag '-bogus'",
        ),
        (
            vec!["-ratings", "/nonexistent.jsonl", "-anchor", "safe=1"],
            "nonexistent",
        ),
    ] {
        let (code, out, err) = output_of(referee().args(&args));
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let (code, out, _) = output_of(referee().args(["-ratings", "--help"]));
    assert_eq!(code, Some(0));
    assert!(out.contains("usage: punct-referee -ratings"), "{out}");
}
