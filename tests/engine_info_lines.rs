//! The `info` lines of searches stopped at random times, as a GUI reads them: the depth never
//! falls back, the node count neither, no line is repeated, a line of an unfinished
//! iteration is a lower bound deeper than the last complete one (Stockfish's convention), and
//! the last main line names the move played. Stops land anywhere: in the first iterations,
//! in the middle of one after its improvements were reported, right after one completed.

use crate::engine_common::{Engine, LONG};

use std::thread;
use std::time::Duration;

use punct::{Position, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The fields of an `info depth` line the checks need.
#[derive(Debug)]
struct Info {
    depth: u32,
    multipv: u32,
    bound: Option<String>,
    nodes: u64,
    pv: Vec<String>,
    /// The line without `time`, `nps` and `hashfull`: what must differ between two lines.
    gist: String,
}

fn parse_info(line: &str) -> Info {
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = |key: &str| -> Option<&str> {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1).copied()
    };
    let number = |key: &str| -> u64 {
        value(key)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in '{line}'"))
    };
    let pv = match words.iter().position(|w| *w == "pv") {
        Some(i) => words[i + 1..].iter().map(|w| w.to_string()).collect(),
        None => Vec::new(),
    };
    let mut gist = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(words[i], "time" | "nps" | "hashfull") {
            i += 2;
            continue;
        }
        gist.push(words[i]);
        i += 1;
    }
    Info {
        depth: number("depth") as u32,
        multipv: number("multipv") as u32,
        bound: (words.iter())
            .find(|w| **w == "lowerbound" || **w == "upperbound")
            .map(|w| w.to_string()),
        nodes: number("nodes"),
        pv,
        gist: gist.join(" "),
    }
}

/// Checks one search's output, from its `go` to its `bestmove` line.
fn check_search(lines: &[String], what: &str) {
    let (last, infos) = lines.split_last().expect("a bestmove line");
    let best = last
        .split_whitespace()
        .nth(1)
        .expect("bestmove names a move");
    let infos: Vec<(&String, Info)> = (infos.iter())
        .filter(|l| l.starts_with("info depth"))
        .map(|l| (l, parse_info(l)))
        .collect();
    assert!(!infos.is_empty(), "{what}: no info line: {lines:#?}");
    let mut seen = std::collections::HashSet::new();
    let mut complete = 0;
    let mut last_main: Option<&Info> = None;
    let final_line = infos.len() - 1;
    for (k, (line, info)) in infos.iter().enumerate() {
        assert!(seen.insert(*line), "{what}: '{line}' twice: {lines:#?}");
        if k > 0 {
            let before = &infos[k - 1].1;
            assert!(
                info.depth >= before.depth && info.nodes >= before.nodes,
                "{what}: depth or nodes fall back at '{line}': {lines:#?}"
            );
        }
        if info.multipv != 1 {
            continue;
        }
        if let Some(m) = last_main {
            assert_ne!(
                m.gist, info.gist,
                "{what}: '{line}' says nothing new: {lines:#?}"
            );
            // Every iteration gone past was shown complete (the last line may be a helper
            // thread's deeper one).
            assert!(
                info.depth == m.depth || m.bound.is_none() || k == final_line,
                "{what}: depth {} left unfinished before '{line}': {lines:#?}",
                m.depth
            );
        }
        last_main = Some(info);
        match info.bound.as_deref() {
            None => complete = complete.max(info.depth),
            Some("lowerbound") => assert!(
                info.depth > complete,
                "{what}: a bound at a completed depth, '{line}': {lines:#?}"
            ),
            Some(b) => panic!("{what}: {b} in '{line}'"),
        }
    }
    let main = last_main.expect("a main line");
    assert_eq!(
        main.pv.first().map(String::as_str),
        Some(best),
        "{what}: the last main line and bestmove disagree: {lines:#?}"
    );
}

/// A position some plies into a random game, as `position startpos moves ...`.
fn random_start(rng: &mut Xoshiro256PlusPlus) -> String {
    let mut pos = Position::new(Variant::Standard);
    let mut moves = Vec::new();
    for _ in 0..rng.gen_range(0..14) {
        let legal = pos.legal_moves();
        let Some(&mv) = legal.choose(rng) else { break };
        pos.make(mv);
        if pos.is_finished() {
            pos.unmake();
            break;
        }
        moves.push(mv.to_string());
    }
    if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

/// Searches `n` positions with `options`, each either `go infinite` stopped after a random
/// 0..400 ms or `go movetime` of a random 20..400 ms, and checks every search's lines.
fn searches_stopped_at_random(seed: u64, n: usize, options: &[&str]) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut e = Engine::start();
    for o in options {
        e.send(o);
    }
    for k in 0..n {
        let position = random_start(&mut rng);
        e.send("ucinewgame");
        e.send(&position);
        let what = if rng.gen_bool(0.5) {
            let wait = rng.gen_range(0..400);
            e.send("go infinite");
            thread::sleep(Duration::from_millis(wait));
            e.send("stop");
            format!("search {k} ({options:?}), stopped after {wait} ms, {position}")
        } else {
            let t = rng.gen_range(20..400);
            e.send(&format!("go movetime {t}"));
            format!("search {k} ({options:?}), movetime {t}, {position}")
        };
        let lines = e.until("bestmove", LONG);
        check_search(&lines, &what);
    }
}

#[test]
fn info_lines_never_fall_back_nor_repeat_when_stopped_at_random_times() {
    searches_stopped_at_random(48, 30, &[]);
}

#[test]
fn info_lines_with_two_threads_and_multipv_keep_the_same_order() {
    searches_stopped_at_random(4801, 12, &["setoption name Threads value 2"]);
    searches_stopped_at_random(4802, 8, &["setoption name MultiPV value 3"]);
}

#[test]
fn the_checks_find_a_depth_that_falls_back_and_a_repeated_line() {
    let ok = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let base = [
        "info depth 6 seldepth 6 multipv 1 score cp 5 nodes 100 nps 1 time 1 hashfull 0 pv a2a3a4",
        "info depth 7 seldepth 7 multipv 1 score cp 9 lowerbound nodes 200 nps 1 time 2 hashfull 0 pv b2b3b4",
    ];
    let mut good = ok(&base);
    good.push("bestmove b2b3b4".into());
    check_search(&good, "good");
    let bad: [&[&str]; 4] = [
        // The case: the interrupted iteration given at the depth before.
        &[
            base[1],
            "info depth 6 seldepth 7 multipv 1 score cp 9 nodes 200 nps 1 time 2 hashfull 0 pv b2b3b4",
            "bestmove b2b3b4",
        ],
        // The final line printed twice, but for the clock.
        &[
            base[0],
            "info depth 6 seldepth 6 multipv 1 score cp 5 nodes 100 nps 1 time 2 hashfull 1 pv a2a3a4",
            "bestmove a2a3a4",
        ],
        // An iteration never shown complete before a deeper one.
        &[
            "info depth 6 seldepth 6 multipv 1 score cp 9 lowerbound nodes 100 nps 1 time 1 hashfull 0 pv b2b3b4",
            "info depth 7 seldepth 7 multipv 1 score cp 9 lowerbound nodes 300 nps 1 time 3 hashfull 0 pv b2b3b4",
            "info depth 7 seldepth 7 multipv 1 score cp 9 lowerbound nodes 400 nps 1 time 4 hashfull 0 pv b2b3b4",
            "bestmove b2b3b4",
        ],
        // A bound at a depth already complete.
        &[
            base[0],
            "info depth 6 seldepth 6 multipv 1 score cp 9 lowerbound nodes 300 nps 1 time 3 hashfull 0 pv b2b3b4",
            "bestmove b2b3b4",
        ],
    ];
    for lines in bad {
        let lines = ok(lines);
        let caught = std::panic::catch_unwind(|| check_search(&lines, "bad")).is_err();
        assert!(caught, "not caught: {lines:#?}");
    }
}
