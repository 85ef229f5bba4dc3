//! Misbehaving engines: each fault gets the right result and reason, the run goes on, and no
//! engine process is left behind.

use crate::referee_common;

use std::time::Duration;

use referee_common::*;

/// Plays one colour-swapped pair of `bad` (a mock in `mode`) against builtin:random.
fn pair_against(
    test: &str,
    mode: &str,
    extra_mock: &str,
    extra: &[&str],
) -> (Option<i32>, Vec<serde_json::Value>, String) {
    let dir = tmpdir(test);
    let t = tag(test);
    let jsonl = dir.join("games.jsonl");
    let out = referee()
        .args([
            "-engine",
            &format!("cmd={MOCK}"),
            "name=bad",
            &format!("args=--mode {mode} --after 3 --tag {t} {extra_mock}"),
            "tc=1+0.01",
            "-engine",
            "cmd=builtin:random",
            "name=rnd",
            "-games",
            "2",
            "-ping-ms",
            "1000",
            "-startup-ms",
            "3000",
            "-jsonl",
        ])
        .arg(&jsonl)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let left = leftovers(&t, Duration::from_secs(2));
    assert!(
        left.is_empty(),
        "{mode}: processes left behind: {left:?}\n{stdout}"
    );
    let objs = read_jsonl(&jsonl);
    (out.status.code(), games(&objs), stdout)
}

/// Both games lost by `bad` for `reason`, each after `bad_moves` moves of its own.
fn assert_bad_loses(mode: &str, extra_mock: &str, reason: &str, bad_moves: usize) {
    let (code, games, stdout) = pair_against(mode, mode, extra_mock, &[]);
    assert_eq!(code, Some(0), "{mode}: {stdout}");
    assert_eq!(
        games.len(),
        2,
        "{mode}: the run must go on after a fault\n{stdout}"
    );
    for g in &games {
        assert_eq!(s(&g["reason"]), reason, "{mode}: {g}");
        let bad_white = g["white"] == "bad";
        assert_eq!(
            s(&g["result"]),
            if bad_white { "0-1" } else { "1-0" },
            "{mode}: {g}"
        );
        assert_eq!(g["fault_player"], 0, "{mode}");
        let moves = g["moves"].as_array().unwrap().len();
        let bad = if bad_white {
            moves.div_ceil(2)
        } else {
            moves / 2
        };
        assert_eq!(bad, bad_moves, "{mode}: bad played {bad} moves: {g}");
    }
}

#[test]
fn crash_mid_game_disconnects_and_engine_restarts() {
    assert_bad_loses("crash", "", "disconnect", 3);
}

#[test]
fn hang_loses_on_time_and_the_whole_group_is_killed() {
    // The hanging engine also has a sleeping child in its process group.
    assert_bad_loses("hang", "--spawn-child", "time_forfeit", 3);
}

#[test]
fn never_answering_isready_stalls() {
    assert_bad_loses("no-readyok", "", "stall", 0);
}

#[test]
fn illegal_move_loses() {
    assert_bad_loses("illegal", "", "illegal_move", 3);
}

#[test]
fn garbage_loses_as_illegal_move() {
    assert_bad_loses("garbage", "", "illegal_move", 3);
}

#[test]
fn exceeding_the_clock_loses_on_time() {
    assert_bad_loses("slow", "--delay-ms 1300", "time_forfeit", 3);
    // The output says what a loss on time means, once, after the summary.
    let (_, games, stdout) = pair_against("slow-note", "slow", "--delay-ms 1300", &[]);
    assert!(
        s(&games[0]["reason_text"]).contains("ms past its clock"),
        "{}",
        games[0]
    );
    let notes: Vec<&str> = (stdout.lines())
        .filter(|l| l.starts_with("Time losses: "))
        .collect();
    assert!(
        notes.len() == 1 && notes[0].contains("timemargin"),
        "{stdout}"
    );
}

#[test]
fn slow_start_within_the_deadline_plays_normally() {
    let (code, games, stdout) = pair_against("slow-start-ok", "slow-start", "--delay-ms 1000", &[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.get("fault_player").is_none(), "{g}");
        assert!(g["moves"].as_array().unwrap().len() > 6);
    }
}

#[test]
fn slow_start_beyond_the_deadline_stalls() {
    let (code, games, _) = pair_against(
        "slow-start-stall",
        "slow-start",
        "--delay-ms 1500",
        &["-startup-ms", "300"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g["reason"] == "stall"));
}

#[test]
fn strict_stops_at_the_first_failure() {
    let (code, games, stdout) = pair_against("strict", "illegal", "", &["-strict"]);
    assert_eq!(code, Some(4), "{stdout}");
    assert_eq!(games.len(), 1);
}

#[cfg(unix)] // signals; on Windows the job of a hung engine is killed by the test above
#[test]
fn sigint_while_an_engine_hangs_kills_its_group_at_once() {
    let t = tag("sigint-hang");
    let mut child = referee()
        .args([
            "-engine",
            &format!("cmd={MOCK}"),
            &format!("args=--mode hang --after 2 --spawn-child --tag {t}"),
            "tc=60",
            "-engine",
            "cmd=builtin:random",
            "-games",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the engine and its child run and the engine hangs in its third move.
    let end = std::time::Instant::now() + Duration::from_secs(10);
    while procs_with_tag(&t).len() < 2 {
        assert!(
            std::time::Instant::now() < end,
            "engine and its child should be running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let asked = std::time::Instant::now();
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "the referee took {:?}",
        asked.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    let left = leftovers(&t, Duration::from_secs(2));
    assert!(left.is_empty(), "left behind: {left:?}");
}
