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
