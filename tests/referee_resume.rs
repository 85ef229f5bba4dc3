//! Kill the referee mid-run (SIGKILL or, on Windows, TerminateProcess; SIGINT on Unix), then
//! `-resume`: no game lost or played twice, no engine left behind, and the same games and
//! statistics as an uninterrupted run.

use crate::referee_common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee_common::*;
use serde_json::Value;

const GAMES: usize = 24;

/// (game, result, reason, moves) of each game.
type Outcomes = Vec<(u64, String, String, Vec<String>)>;
/// Outcomes and final statistics of a run.
type RunResult = (Outcomes, Value);

fn command(dir: &Path, t: &str) -> Command {
    let mut c = referee();
    c.args([
        "-engine",
        &format!("cmd={MOCK}"),
        "name=mock",
        &format!("args=--mode slow --after 0 --delay-ms 3 --tag {t}"),
        "tc=60+0.1",
        "-engine",
        "cmd=builtin:random",
        "name=rnd",
        "-games",
        &GAMES.to_string(),
        "-concurrency",
        "2",
        "-random-openings",
        "plies=2",
        "-srand",
        "9",
        "-ratinginterval",
        "0",
        "-jsonl",
    ])
    .arg(dir.join("g.jsonl"))
    .arg("-pgnout")
    .arg(dir.join("g.pgn"))
    .stdout(Stdio::null());
    c
}

/// (game, result, reason, moves) of every game, by game number.
fn outcomes(objs: &[Value]) -> Outcomes {
    let mut v: Vec<_> = games(objs)
        .iter()
        .map(|g| {
            let moves = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| s(&m["move"]))
                .collect();
            (
                g["game"].as_u64().unwrap(),
                s(&g["result"]),
                s(&g["reason"]),
                moves,
            )
        })
        .collect();
    v.sort();
    v
}

fn final_stats(objs: &[Value]) -> Value {
    let summary = objs.iter().rev().find(|v| v["type"] == "summary").unwrap();
    let e = &summary["encounters"][0];
    serde_json::json!([
        e["wins"],
        e["losses"],
        e["draws"],
        e["ptnml"],
        summary["games"]
    ])
}

fn reference() -> RunResult {
    let dir = tmpdir("resume-ref");
    let status = command(&dir, &tag("resume-ref")).status().unwrap();
    assert!(status.success());
    let objs = read_jsonl(&dir.join("g.jsonl"));
    (outcomes(&objs), final_stats(&objs))
}

/// How the referee is stopped mid-run.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// Killed outright: `Child::kill` (SIGKILL on Unix, TerminateProcess on Windows).
    Kill,
    /// SIGINT, as Ctrl-C sends it.
    #[cfg(unix)]
    Interrupt,
}

fn kill_and_resume(name: &str, stop: Stop) {
    let dir = tmpdir(name);
    let t = tag(name);
    let journal = dir.join("g.jsonl");
    let mut child = command(&dir, &t).spawn().unwrap();
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let n = std::fs::read_to_string(&journal)
            .map(|s| s.matches("\"type\":\"game\"").count())
            .unwrap_or(0);
        if n >= 6 {
            break;
        }
        assert!(Instant::now() < end, "the run made no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    match stop {
        Stop::Kill => child.kill().unwrap(),
        #[cfg(unix)]
        // SAFETY: sending a signal to our own child process.
        Stop::Interrupt => unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        },
    }
    let status = child.wait().unwrap();
    #[cfg(unix)]
    if stop == Stop::Interrupt {
        assert_eq!(status.code(), Some(130));
    }
    let _ = status;
    let left = leftovers(&t, Duration::from_secs(3));
    assert!(left.is_empty(), "{name}: engines left behind: {left:?}");
    let before = games(&read_jsonl(&journal)).len();
    assert!(before < GAMES, "killed too late to test anything");
    // A crash while writing leaves torn records: resume must cut them off.
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&journal)
        .unwrap();
    f.write_all(b"{\"type\":\"game\",\"game\":99,\"whi")
        .unwrap();
    let mut p = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("g.pgn"))
        .unwrap();
    p.write_all(b"[Event \"torn\"]\n[Round \"99\"]\n\n1. c5c6d6 {0.1")
        .unwrap();
    // Closed before the resume, as a crash would leave them: Windows refuses to replace a file
    // another handle holds open.
    drop((f, p));

    let status = command(&dir, &t).arg("-resume").status().unwrap();
    assert!(status.success());
    assert!(leftovers(&t, Duration::from_secs(2)).is_empty());

    let objs = read_jsonl(&journal);
    let numbers: Vec<u64> = games(&objs)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    let unique: BTreeSet<u64> = numbers.iter().copied().collect();
    assert_eq!(
        numbers.len(),
        GAMES,
        "a game was lost or played twice: {numbers:?}"
    );
    assert_eq!(unique, (1..=GAMES as u64).collect());
    let (ref_outcomes, ref_stats) = reference_once();
    assert_eq!(outcomes(&objs), *ref_outcomes);
    assert_eq!(final_stats(&objs), *ref_stats);

    // The PGN holds each game once and replays legally.
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[Round ").count(), GAMES);
    let out = referee()
        .arg("-check-pgn")
        .arg(dir.join("g.pgn"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn reference_once() -> &'static RunResult {
    static REF: std::sync::OnceLock<RunResult> = std::sync::OnceLock::new();
    REF.get_or_init(reference)
}

#[test]
fn kill_then_resume_loses_and_repeats_nothing() {
    kill_and_resume("resume-kill", Stop::Kill);
}

#[cfg(unix)] // signals; Windows' Ctrl-C needs a console shared with the test
#[test]
fn sigint_then_resume_loses_and_repeats_nothing() {
    kill_and_resume("resume-int", Stop::Interrupt);
}

#[test]
fn resume_with_other_settings_is_refused() {
    let dir = tmpdir("resume-other");
    let t = tag("resume-other");
    let mut c = command(&dir, &t);
    c.args(["-rounds", "1"]);
    assert!(c.status().unwrap().success());
    let status = command(&dir, &t)
        .args(["-srand", "10", "-resume"])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    // Without -resume an existing journal is not overwritten.
    let status = command(&dir, &t).status().unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn overwrite_replaces_the_records_of_an_earlier_run() {
    let dir = tmpdir("overwrite");
    let t = tag("overwrite");
    assert!(command(&dir, &t).status().unwrap().success());
    let first = read_jsonl(&dir.join("g.jsonl"));
    assert_eq!(games(&first).len(), GAMES);
    // Same flags again: refused without -overwrite, a complete fresh run with it.
    assert_eq!(command(&dir, &t).status().unwrap().code(), Some(2));
    let status = command(&dir, &t).arg("-overwrite").status().unwrap();
    assert!(status.success());
    let second = read_jsonl(&dir.join("g.jsonl"));
    assert_eq!(
        games(&second).len(),
        GAMES,
        "only the new run's games are kept"
    );
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), GAMES);
    // -overwrite and -resume contradict each other.
    let status = command(&dir, &t)
        .args(["-overwrite", "-resume"])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    assert!(leftovers(&t, Duration::from_secs(5)).is_empty());
}
