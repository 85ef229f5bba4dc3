//! Strength levels (`Skill Level`, `UCI_LimitStrength` + `UCI_Elo`): the options as announced
//! and checked, the level named at each `go`, legal moves within the clock at the lowest and
//! highest levels, the same moves from the same `Seed`, `stop` at once, a win in one always
//! taken and a threat to win always stopped, and full strength untouched when they are off.
//! Wins and stoppers are checked with the rules library alone.

use crate::common::winning_moves;
use crate::engine_common::{Engine, LONG};

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use punct::engine::search::skill::{self, LEVELS};
use punct::engine::search::Searcher;
use punct::engine::types::{Level, Limits, SearchControl};
use punct::{parse_position, Move, Position, Variant};

/// Mid-game positions of the engine's own games (tournaments/midgame.txt).
fn midgame(n: usize) -> Vec<Position> {
    let text = include_str!("../tournaments/midgame.txt");
    (text.lines())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(n)
        .map(|l| parse_position(l.trim(), Variant::Standard).unwrap())
        .collect()
}

fn level(skill: f64) -> Option<Level> {
    Some(Level { skill })
}

/// One search at `skill` with `seed`, one thread, a fresh searcher.
fn pick(pos: &Position, skill: f64, seed: u64, movetime_ms: u64) -> (Move, Duration) {
    let mut s = Searcher::new(8);
    s.set_seed(seed);
    let limits = Limits {
        movetime: Some(Duration::from_millis(movetime_ms)),
        move_overhead: Duration::from_millis(10),
        level: level(skill),
        ..Limits::default()
    };
    let start = Instant::now();
    let r = s.search(pos, &limits, &SearchControl::default(), &mut |_| {});
    (r.best.expect("a move"), start.elapsed())
}

#[test]
fn uci_lists_the_strength_options_under_stockfish_names() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", LONG);
    let find = |prefix: &str| {
        (lines.iter())
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix}: {lines:#?}"))
            .clone()
    };
    assert_eq!(
        find("option name UCI_LimitStrength "),
        "option name UCI_LimitStrength type check default false"
    );
    assert_eq!(
        find("option name Skill Level "),
        "option name Skill Level type spin default 20 min 0 max 20"
    );
    let elo = find("option name UCI_Elo ");
    let words: Vec<&str> = elo.split_whitespace().collect();
    assert_eq!(&words[..5], ["option", "name", "UCI_Elo", "type", "spin"]);
    let num = |key: &str| -> i64 {
        let i = words.iter().position(|w| *w == key).unwrap();
        words[i + 1].parse().unwrap()
    };
    let (min, max) = (num("min"), num("max"));
    assert!(max - min >= 1000, "the range must span 1,000 Elo: {elo}");
    assert!((min..=max).contains(&num("default")), "{elo}");
    assert_eq!((min, max), (skill::ELO_MIN as i64, skill::ELO_MAX as i64));
}

#[test]
fn each_go_names_the_level_and_bad_values_change_nothing() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    let go = |e: &mut Engine| {
        e.send("position startpos moves c5c6d6");
        e.send("go movetime 200");
        e.until("bestmove", LONG)
    };
    let level_lines = |lines: &[String]| -> Vec<String> {
        (lines.iter())
            .filter(|l| l.starts_with("info string level"))
            .cloned()
            .collect()
    };
    assert!(
        level_lines(&go(&mut e)).is_empty(),
        "full strength names no level"
    );
    e.send("setoption name Skill Level value 3");
    let named = level_lines(&go(&mut e));
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(
        named[0].starts_with("info string level Skill Level 3 (UCI_Elo "),
        "{named:?}"
    );
    // Out of range, or not a number: an error, and the level stays 3.
    for bad in ["21", "-1", "three", ""] {
        e.send(&format!("setoption name Skill Level value {bad}"));
        let lines = e.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains("Skill Level")),
            "{bad}: {lines:?}"
        );
    }
    assert!(level_lines(&go(&mut e))[0].contains("Skill Level 3 "));
    // UCI_LimitStrength wins over Skill Level, as in Stockfish.
    let mid = (skill::ELO_MIN + skill::ELO_MAX) / 2;
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {mid}"));
    let named = level_lines(&go(&mut e));
    assert!(
        named[0].starts_with(&format!("info string level UCI_Elo {mid} ")),
        "{named:?}"
    );
    e.send(&format!(
        "setoption name UCI_Elo value {}",
        skill::ELO_MAX + 1
    ));
    e.send("setoption name UCI_LimitStrength value maybe");
    let lines = e.sync();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        2,
        "{lines:?}"
    );
    assert!(level_lines(&go(&mut e))[0].contains(&format!("UCI_Elo {mid} ")));
    e.send("setoption name UCI_LimitStrength value false");
    e.send("setoption name Skill Level value 20");
    assert!(level_lines(&go(&mut e)).is_empty());
}

#[test]
fn the_lowest_and_highest_levels_play_legal_moves_within_the_time() {
    // 40 ms a move, and 60 ms of slack for a thread that is on time but waits for a core on
    // a machine busy with the other tests. The least of three tries counts: a level that
    // overruns does so every time, a scheduling delay does not repeat.
    // `examples/time_discipline` measures the overshoot on a quiet machine.
    let budget = Duration::from_millis(40 + 60);
    for pos in midgame(6) {
        for skill in [0.0, (LEVELS.len() - 1) as f64, 14.5] {
            let tries: Vec<(Move, Duration)> = (0..3).map(|_| pick(&pos, skill, 1, 40)).collect();
            for (mv, _) in &tries {
                pos.check_move(*mv).unwrap();
            }
            let took = tries.iter().map(|t| t.1).min().unwrap();
            assert!(took <= budget, "skill {skill}: {took:?} on {pos}");
        }
    }
}

#[test]
fn a_level_replays_its_moves_from_its_seed_and_another_seed_varies_them() {
    let positions = midgame(8);
    for skill in [0.0, 6.5, 16.0] {
        let moves = |seed| -> Vec<Move> {
            positions
                .iter()
                .map(|p| pick(p, skill, seed, 5_000).0)
                .collect()
        };
        let first = moves(7);
        assert_eq!(first, moves(7), "skill {skill}");
        if skill < 15.0 {
            // A drawn move: another seed draws another one somewhere.
            assert_ne!(first, moves(8), "skill {skill}");
        }
    }
}

/// After `mv` the opponent has not won (a last drop may end the game in a draw) and cannot
/// win at once.
fn holds(pos: &Position, mv: Move) -> bool {
    let mut p = pos.clone();
    p.play(mv).unwrap();
    match p.outcome() {
        Some(o) => o.winner != Some(!pos.side_to_move()),
        None => winning_moves(&mut p).is_empty(),
    }
}

/// Some move stops the opponent's threats.
fn stoppable(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| holds(pos, m))
}

#[test]
fn every_level_takes_a_win_in_one_and_stops_a_threat_to_win() {
    // Positions of random games where the side to move can win at once, and the same with
    // the other side to move (a null move, through the notation): it faces a threat to win.
    let mut wins = Vec::new();
    let mut threats = Vec::new();
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(11);
    while wins.len() < 6 || threats.len() < 6 {
        let mut pos = Position::new(Variant::Standard);
        while !pos.is_finished() {
            if !winning_moves(&mut pos).is_empty() {
                wins.push(pos.clone());
                let text = pos.to_string();
                let mut fields: Vec<&str> = text.split(' ').collect();
                fields[1] = if fields[1] == "w" { "b" } else { "w" };
                if let Ok(mut other) = parse_position(&fields.join(" "), Variant::Standard) {
                    if !other.is_finished()
                        && winning_moves(&mut other).is_empty()
                        && stoppable(&other)
                    {
                        threats.push(other);
                    }
                }
                break;
            }
            let moves = pos.legal_moves();
            let mv = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
            pos.play(mv).unwrap();
        }
    }
    for skill in [0.0, 3.0, 9.0, 15.0, 19.0] {
        for pos in &wins {
            let (mv, _) = pick(pos, skill, 3, 2_000);
            let mut p = pos.clone();
            assert!(
                winning_moves(&mut p).contains(&mv),
                "skill {skill} missed a win on {pos}"
            );
        }
        for pos in threats.iter().take(6) {
            let (mv, _) = pick(pos, skill, 3, 2_000);
            assert!(holds(pos, mv), "skill {skill} let {mv} through on {pos}");
        }
    }
}

#[test]
fn a_level_answers_stop_at_once() {
    let pos = midgame(1).remove(0);
    let ctl = Arc::new(SearchControl::default());
    let worker = {
        let ctl = Arc::clone(&ctl);
        std::thread::spawn(move || {
            let limits = Limits {
                infinite: true,
                level: level(19.0),
                ..Limits::default()
            };
            let r = Searcher::new(8).search(&pos, &limits, &ctl, &mut |_| {});
            (r, Instant::now())
        })
    };
    std::thread::sleep(Duration::from_millis(5));
    let stopped_at = Instant::now();
    ctl.stop.store(true, Ordering::SeqCst);
    let (r, ended) = worker.join().unwrap();
    assert!(r.best.is_some());
    assert!(ended.duration_since(stopped_at) < Duration::from_millis(100));
}

#[test]
fn with_the_options_off_the_engine_searches_as_at_full_strength() {
    // The same fixed-node searches with no level and with the options set to full strength
    // explicitly, over the protocol: same moves, same node counts.
    let run = |setup: &[&str]| -> Vec<String> {
        let mut e = Engine::start();
        e.send("uci");
        e.until("uciok", LONG);
        for s in setup {
            e.send(s);
        }
        let mut out = Vec::new();
        for pos in midgame(3) {
            e.send(&format!("position fen {pos}"));
            e.send("go nodes 3000");
            let lines = e.until("bestmove", LONG);
            assert!(!lines.iter().any(|l| l.starts_with("info string level")));
            // Everything but the clock's figures.
            out.extend(lines.iter().map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                (w.iter().enumerate())
                    .filter(|&(i, t)| {
                        let clock = |w: &str| matches!(w, "time" | "nps");
                        !(clock(t) || i > 0 && clock(w[i - 1]))
                    })
                    .map(|(_, t)| *t)
                    .collect::<Vec<_>>()
                    .join(" ")
            }));
        }
        out
    };
    let plain = run(&[]);
    let explicit = run(&[
        "setoption name UCI_LimitStrength value false",
        "setoption name Skill Level value 20",
        "setoption name UCI_Elo value 1500",
    ]);
    assert_eq!(plain, explicit);
    assert!(plain.iter().filter(|l| l.starts_with("bestmove")).count() == 3);
}
