//! Hostile engines (docs/referee.md, "Reliability"): an engine that floods its output, never
//! reads its input, or crashes while a child keeps its pipe open can neither hang nor bloat the
//! referee, and loses for the right reason in bounded time.

use crate::referee_common;

use std::time::Duration;

use referee_common::*;

/// How far above a quiet match the referee's peak memory may go under a flood. On Linux a quiet
/// match peaks at about 4.5 MB and a flood adds a few queued lines; Windows' peak working set
/// also counts the mapped system libraries (about 15 MB under Wine). Before the queue was
/// bounded, a 16 MB flood inside one move added about 8.5 MB and an endless one grew by gigabytes.
const FLOOD_ALLOWANCE_KB: i64 = 5_500;

/// The ceiling of a flood's peak memory: this platform's quiet match (the mock playing random
/// legal moves against builtin:random, two short games), measured once, plus the allowance.
fn memory_ceiling_kb() -> i64 {
    static QUIET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    let quiet = *QUIET.get_or_init(|| {
        let (m, games) = hostile_pair("quiet", "random", "", &["-each", "tc=10", "-maxmoves", "2"]);
        assert_eq!(games.len(), 2, "the quiet match: {}", m.stdout);
        m.max_rss_kb
    });
    quiet + FLOOD_ALLOWANCE_KB
}

/// One colour-swapped pair of a mock in `mode` (with `mock_args`) against builtin:random.
fn hostile_pair(
    test: &str,
    mode: &str,
    mock_args: &str,
    extra: &[&str],
) -> (Measured, Vec<serde_json::Value>) {
    let dir = tmpdir(test);
    let t = tag(test);
    let jsonl = dir.join("games.jsonl");
    let mut cmd = referee();
    cmd.args([
        "-engine",
        &format!("cmd={MOCK}"),
        "name=bad",
        &format!("args=--mode {mode} --tag {t} {mock_args}"),
        "-engine",
        "cmd=builtin:random",
        "name=rnd",
        "-games",
        "2",
        "-jsonl",
    ])
    .arg(&jsonl)
    .args(extra);
    let m = run_measured(&mut cmd, Duration::from_secs(30));
    let left = leftovers(&t, Duration::from_secs(2));
    assert!(
        left.is_empty(),
        "{mode}: left behind: {left:?}\n{}",
        m.stdout
    );
    let objs = if jsonl.exists() {
        read_jsonl(&jsonl)
    } else {
        Vec::new()
    };
    (m, games(&objs))
}

#[test]
fn a_flooding_engine_forfeits_on_time_with_flat_memory() {
    let (m, games) = hostile_pair("flood", "flood", "--after 2", &["-each", "tc=1+0.01"]);
    eprintln!(
        "flood: 2 games in {:?}, referee peak RSS {} KB",
        m.wall, m.max_rss_kb
    );
    assert_eq!(m.code, Some(0), "the run must end by itself\n{}", m.stdout);
    assert_eq!(games.len(), 2, "{}", m.stdout);
    for g in &games {
        assert_eq!(s(&g["reason"]), "time_forfeit", "{g}");
        assert_eq!(g["fault_player"], 0, "{g}");
        // The forfeit comes on the clock (1 s + 50 ms margin; slack for a loaded machine), not
        // when the flood stops (it never does).
        let text = s(&g["reason_text"]);
        let ms: u64 = text
            .split('(')
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no time in '{text}'"));
        assert!(ms < 2500, "forfeit after {ms} ms: {text}");
    }
    assert!(
        m.max_rss_kb < memory_ceiling_kb(),
        "referee peak RSS {} KB, ceiling {} KB",
        m.max_rss_kb,
        memory_ceiling_kb()
    );
}

#[test]
fn a_flood_inside_a_legal_move_keeps_memory_flat() {
    // 16 MB of info lines before each move of the first two: the game goes on normally.
    let (m, games) = hostile_pair(
        "flood-move",
        "flood",
        "--after 0 --flood-mb 16",
        &["-each", "tc=60", "-maxmoves", "2"],
    );
    eprintln!(
        "16 MB floods: {:?}, referee peak RSS {} KB",
        m.wall, m.max_rss_kb
    );
    assert_eq!(m.code, Some(0), "{}", m.stdout);
    assert_eq!(games.len(), 2, "{}", m.stdout);
    for g in &games {
        assert!(g.get("fault_player").is_none(), "{g}");
        assert_eq!(s(&g["reason"]), "max_moves", "{g}");
    }
    assert!(
        m.max_rss_kb < memory_ceiling_kb(),
        "referee peak RSS {} KB, ceiling {} KB",
        m.max_rss_kb,
        memory_ceiling_kb()
    );
}

#[test]
fn an_engine_that_does_not_read_its_input_stalls_in_bounded_time() {
    // 200 KB of options fill the pipe of an engine that stopped reading after `uciok`.
    let pad = "x".repeat(100_000);
    let (o1, o2) = (format!("option.Pad1={pad}"), format!("option.Pad2={pad}"));
    let (m, games) = hostile_pair(
        "deaf",
        "deaf",
        "",
        &["-ping-ms", "700", "-each", "tc=10", &o1, &o2],
    );
    eprintln!("deaf engine: 2 games in {:?}", m.wall);
    assert_eq!(m.code, Some(0), "the run must end by itself\n{}", m.stdout);
    assert_eq!(games.len(), 2, "{}", m.stdout);
    for g in &games {
        assert_eq!(s(&g["reason"]), "stall", "{g}");
        // Wine's pipes take the 200 KB without blocking the writer, so there the stall is seen
        // by the ping that follows: the same fault, found one step later.
        let text = s(&g["reason_text"]);
        assert!(
            text.contains("does not read its input")
                || (cfg!(windows) && text.contains("no readyok in time")),
            "{g}"
        );
    }
    // Two detections of 0.7 s each, plus starting the engines.
    assert!(m.wall < Duration::from_secs(5), "took {:?}", m.wall);
}

#[test]
fn a_crash_is_seen_even_when_a_child_keeps_the_pipe_open() {
    let (m, games) = hostile_pair(
        "crash-child",
        "crash",
        "--after 3 --spawn-child --child-keeps-pipe",
        &["-each", "tc=20"],
    );
    assert_eq!(m.code, Some(0), "{}", m.stdout);
    assert_eq!(games.len(), 2, "{}", m.stdout);
    for g in &games {
        assert_eq!(s(&g["reason"]), "disconnect", "{g}");
        assert_eq!(g["fault_player"], 0, "{g}");
    }
    // Not after the 20 s clock: the exit itself is the disconnection.
    assert!(m.wall < Duration::from_secs(5), "took {:?}", m.wall);
}

/// `-compliance` against an engine that floods `info` lines for ever at its first `go`: the
/// step that waits for that `bestmove` fails, named, within its deadline (10 s); the engine
/// is then killed, so the later steps fail at once instead of each waiting out its own
/// deadline (before: over a minute). Memory stays flat, no process is left behind.
#[test]
fn compliance_fails_a_flooding_engine_in_bounded_time_naming_the_step() {
    let t = tag("compliance-flood");
    let mut cmd = referee();
    cmd.args([
        "-compliance",
        &format!("cmd={MOCK}"),
        "name=flooder",
        &format!("args=--mode flood --after 0 --tag {t}"),
    ]);
    let m = run_measured(&mut cmd, Duration::from_secs(60));
    eprintln!(
        "compliance flood: {:?}, referee peak RSS {} KB\n{}",
        m.wall, m.max_rss_kb, m.stdout
    );
    assert_eq!(m.code, Some(1), "a failed checklist exits 1\n{}", m.stdout);
    assert!(m.wall < Duration::from_secs(30), "took {:?}", m.wall);
    // The handshake and the steps before the first `go` pass; the first search is the step
    // that fails, and it says what it waited for.
    let first_failure = m
        .stdout
        .lines()
        .find(|l| l.contains("FAILED"))
        .unwrap_or_else(|| panic!("no failed step\n{}", m.stdout));
    assert!(
        first_failure.starts_with(" 6. position startpos, go depth 1: legal bestmove: FAILED: no 'bestmove' within 10000 ms"),
        "{first_failure}"
    );
    assert!(m
        .stdout
        .contains("engine not running (killed after step 6 missed its deadline)"));
    assert!(m.stdout.contains("passed,"), "{}", m.stdout);
    assert!(
        m.max_rss_kb < memory_ceiling_kb(),
        "referee peak RSS {} KB, ceiling {} KB",
        m.max_rss_kb,
        memory_ceiling_kb()
    );
    let left = leftovers(&t, Duration::from_secs(2));
    assert!(left.is_empty(), "left behind: {left:?}");
}
