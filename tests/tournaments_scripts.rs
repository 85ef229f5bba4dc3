//! The shell scripts of `tournaments/` that run matches: `ladder-rungs.sh` plays each rung it
//! is given, keeps one log and one record per rung, and refuses to start without its engines.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const ENGINE: &str = env!("CARGO_BIN_EXE_punct");
const REFEREE: &str = env!("CARGO_BIN_EXE_punct-referee");

fn ladder(out: &Path, base: &str) -> std::process::Output {
    Command::new("bash")
        .arg(Path::new(ROOT).join("tournaments/ladder-rungs.sh"))
        .arg(out)
        .current_dir(ROOT)
        .env("NEW", ENGINE)
        .env("BASE", base)
        .env("REFEREE", REFEREE)
        .env("GAMES", "2")
        .env("RUNGS", "nodes=300 st=0.02")
        .env("SRAND", "77")
        .output()
        .expect("bash runs")
}

#[test]
fn ladder_rungs_plays_every_rung_and_records_each() {
    let dir = std::env::temp_dir().join(format!("punct-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = ladder(&dir, ENGINE);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (rung, name, srand) in [("nodes=300", "nodes-300", 77), ("st=0.02", "st-0.02", 78)] {
        assert!(
            stdout.contains(&format!("== {rung}: 2 games (srand {srand})")),
            "{stdout}"
        );
        let log = std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap();
        assert!(log.contains("Score of new vs base"), "{log}");
        let record = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).unwrap();
        let games = (record.lines())
            .filter(|l| l.contains("\"game\":") && l.contains("\"moves\":"))
            .count();
        assert_eq!(games, 2, "{name}: {record}");
        assert!(
            record.contains(&format!("\"black_tc\":\"{rung}\"")),
            "{name}"
        );
    }
    // The summary lines reach the terminal.
    assert_eq!(
        stdout.matches("Score of new vs base").count(),
        2,
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ladder_rungs_refuses_a_missing_engine() {
    let dir = std::env::temp_dir().join(format!("punct-ladder-missing-{}", std::process::id()));
    let out = ladder(&dir, "/nonexistent/punct");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/punct is missing"), "{err}");
    assert!(!dir.join("nodes-300.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

fn calibrate(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = Command::new("bash");
    c.arg(Path::new(ROOT).join("tournaments/calibrate-levels.sh"))
        .arg(out)
        .args(extra)
        .current_dir(ROOT)
        .env("ENGINE", ENGINE)
        .env("REFEREE", REFEREE)
        .env("TC", "st=0.05")
        .env("TOP", "2")
        .env("ANCHORS", "safe=300");
    for k in [
        "GAMES",
        "TOP_GAMES",
        "SKIP_GAMES",
        "FAR_GAMES",
        "ANCHOR_GAMES",
    ] {
        c.env(k, "2");
    }
    c.output().expect("bash runs")
}

#[test]
fn calibrate_levels_plays_its_pairs_resumes_and_fits_them() {
    let dir = std::env::temp_dir().join(format!("punct-calibrate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = calibrate(&dir, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Neighbours, two apart, full strength above the top, the lowest against the anchor.
    for pair in [
        "L0-L1", "L1-L2", "L2-full", "L0-L2", "L1-full", "L0-safe", "L1-safe",
    ] {
        assert!(
            stdout.contains(&format!("== {pair}: 2 games at st=0.05")),
            "{pair}: {stdout}"
        );
        let record = std::fs::read_to_string(dir.join(format!("{pair}.jsonl"))).unwrap();
        assert_eq!(record.matches("\"type\":\"game\"").count(), 2, "{pair}");
    }
    let l1 = std::fs::read_to_string(dir.join("L1-L2.jsonl")).unwrap();
    assert!(
        l1.contains("\"white_level\":\"Skill Level 1\"")
            || l1.contains("\"black_level\":\"Skill Level 1\"")
    );
    let table = std::fs::read_to_string(dir.join("levels.md")).unwrap();
    for row in [
        "| L0 |",
        "| L1 |",
        "| L2 |",
        "| full |",
        "| safe | - | 300 | anchor |",
    ] {
        assert!(table.contains(row), "{row}: {table}");
    }
    assert!(std::fs::read_to_string(dir.join("levels.svg"))
        .unwrap()
        .contains("<circle"));
    let claims = std::fs::read_to_string(dir.join("claims.tsv")).unwrap();
    assert_eq!(claims.lines().count(), 20, "{claims}");
    // Run again: every pair is finished and comes back from its journal.
    let again = calibrate(&dir, &[]);
    assert!(again.status.success());
    let log = std::fs::read_to_string(dir.join("L0-L1.log")).unwrap();
    assert!(
        log.contains("Resuming: 2 of 2 games already finished"),
        "{log}"
    );
    let l0 = std::fs::read_to_string(dir.join("L0-L1.jsonl")).unwrap();
    assert_eq!(l0.matches("\"type\":\"game\"").count(), 2);
    // --merge fits the games without playing.
    let merged = calibrate(&dir, &["--merge"]);
    assert!(String::from_utf8_lossy(&merged.stdout).contains("| L2 |"));
    let _ = std::fs::remove_dir_all(&dir);
}
