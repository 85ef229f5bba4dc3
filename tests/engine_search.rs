//! The search: tactics (wins in one, blocks, lost positions), determinism, limits, stop,
//! pondering, MultiPV, bench, and play against a random mover.
//!
//! Test positions come from the engine's own games (`examples/search_bench.rs selfplay`); what
//! each test relies on (a win exists, a threat exists, every move loses) is checked here with
//! the rules library alone: moves are played and the outcome read.

use crate::common;
use crate::engine_common::{stop_after, WINE_SLACK};

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::winning_moves;
use punct::engine::search::bench;
use punct::engine::search::params::Params;
use punct::engine::search::threats::{find_win, threat_zone};
use punct::engine::search::Searcher;
use punct::engine::types::{Limits, Score, SearchControl, SearchInfo, SearchResult};
use punct::{parse_move, parse_position, Colour, Move, Position, Variant};
use rand::seq::SliceRandom;
use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Black to move; black wins by a drop (and only by drops).
const DROP_WIN: &str = "Bc9c10c11/Bd7d8d9/Be6d6f6/Wg1h2i3/Bg6h6i6/Wj3k3k4/Wj4j5k6/Bj7k7l7/Wj13k13k14/Wk16k15k17/Bl6k5l5/Wl8l9l10/Wl11l12l13/Bi6j6j5/Wk6k5k7/Wl8l7l6/Bj6k6k5 b 23";
/// White to move; white wins only by shifting a piece.
const SHIFT_WIN: &str = "Wb1c1c2/Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/Be4d4e3/We10d9f10/Wg6f5f6/Bg7h8h9/Wg13g12h14/Bg14h15i16/Bh11h10i11/Wi12h12h13/Wj15i14i13/Wj17j16i15/Be2d2f2/Wf10g11g12/Bh11h12h13/Bh15h14i15 w 36";
/// Black to move; White threatens to connect, few of Black's moves stop it.
const MUST_BLOCK: &str = "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We3e4d4/We10d9f10/Bf5f6g6/Bf11f12f13/Bg4g3g5/Bg7h8h9/Bg10g11h11/Wg13g12h14/Bg14h15i16/Wj17j16i15 b 17";
/// White to move; Black has threats no single move stops.
const LOST: &str = "Wc6b5a5/Wd7d8e9/Be2e1e3/Bf4f5f6/Bg9h10i11/Bh8g7i9/Bi12j12j13/Bj9i8h7/Wj10k11l12/Wj11i10h9/Bj15j14k16/Bk12k13k14/Wm13n13o14/Wp15p16q16/We9f9g9/Wh9h10i9/Bi11i10j11/Wk11k12l12/Bi10h9h10 w 32";

fn pos(text: &str) -> Position {
    parse_position(text, Variant::Standard).unwrap()
}

/// The same position with the other side to move (a null move, through the notation).
fn flipped(text: &str) -> Position {
    let mut fields: Vec<&str> = text.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    pos(&fields.join(" "))
}

fn has_winning_move(p: &mut Position) -> bool {
    let us = p.side_to_move();
    // A candidate from the engine first (fast), confirmed by the rules; else every move.
    if let Some(mv) = find_win(p) {
        p.make(mv);
        let won = p.outcome().is_some_and(|o| o.winner == Some(us));
        p.unmake();
        if won {
            return true;
        }
    }
    !winning_moves(p).is_empty()
}

fn search(p: &Position, depth: u32) -> (SearchResult, Vec<SearchInfo>) {
    let mut s = Searcher::new(8);
    let mut infos = Vec::new();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = s.search(p, &limits, &SearchControl::default(), &mut |i| {
        infos.push(i.clone())
    });
    (r, infos)
}

/// A fresh search to `depth` with the options `set` changes from their defaults.
fn search_with(p: &Position, depth: u32, set: impl FnOnce(&mut Params)) -> SearchResult {
    let mut s = Searcher::new(8);
    set(s.params_mut());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    s.search(p, &limits, &SearchControl::default(), &mut |_| {})
}

#[test]
fn finds_a_winning_drop() {
    let mut p = pos(DROP_WIN);
    let wins = winning_moves(&mut p);
    assert!(!wins.is_empty());
    assert!(wins.iter().all(|m| matches!(m, Move::Drop(_))));
    for depth in [1, 2, 3] {
        let (r, infos) = search(&p, depth);
        assert!(wins.contains(&r.best.unwrap()), "depth {depth}: {r:?}");
        assert_eq!(r.score, Score::Mate(1));
        assert_eq!(infos.last().unwrap().score, Score::Mate(1));
    }
}

#[test]
fn finds_a_winning_shift() {
    let mut p = pos(SHIFT_WIN);
    let wins = winning_moves(&mut p);
    assert!(!wins.is_empty());
    assert!(wins.iter().all(|m| matches!(m, Move::Shift { .. })));
    for depth in [1, 2] {
        let (r, _) = search(&p, depth);
        assert!(wins.contains(&r.best.unwrap()), "depth {depth}: {r:?}");
        assert_eq!(r.score, Score::Mate(1));
    }
}

#[test]
fn blocks_a_threat_to_connect() {
    // White would win if it were White's move; Black cannot win at once.
    assert!(has_winning_move(&mut flipped(MUST_BLOCK)));
    let mut p = pos(MUST_BLOCK);
    assert!(winning_moves(&mut p).is_empty());
    for depth in [1, 2] {
        let (r, _) = search(&p, depth);
        let mv = r.best.unwrap();
        p.make(mv);
        assert!(
            winning_moves(&mut p).is_empty(),
            "depth {depth}: {mv} lets White connect"
        );
        p.unmake();
        assert!(!matches!(r.score, Score::Mate(n) if n < 0), "{r:?}");
    }
}

#[test]
fn every_stopping_move_meets_the_threat_zone() {
    let mut p = pos(MUST_BLOCK);
    let zone = threat_zone(&p).expect("White threatens to connect");
    let mut stoppers = 0;
    for mv in p.legal_moves() {
        let lifted = match mv {
            Move::Shift { from, .. } => p.top_piece(from).map(|i| p.piece(i).placement.cells()),
            _ => None,
        };
        let meets = mv
            .placement()
            .map(|pl| pl.cells())
            .into_iter()
            .chain(lifted)
            .flatten()
            .any(|c| zone.contains(c));
        p.make(mv);
        let stops = !has_winning_move(&mut p);
        p.unmake();
        if stops {
            stoppers += 1;
            assert!(meets, "{mv} stops the threat outside the zone");
        }
    }
    assert!(stoppers > 0);
    // No threat, no zone: the start position.
    assert!(threat_zone(&Position::new(Variant::Standard)).is_none());
}

#[test]
fn a_double_threat_is_scored_as_lost() {
    let mut p = pos(LOST);
    // Every White move leaves Black a winning reply.
    for mv in p.legal_moves() {
        p.make(mv);
        let lost = p.outcome().is_some_and(|o| o.winner == Some(Colour::Black))
            || has_winning_move(&mut p);
        assert!(lost, "{mv} holds");
        p.unmake();
    }
    for depth in [1, 2] {
        let (r, _) = search(&p, depth);
        assert_eq!(r.score, Score::Mate(-1), "depth {depth}");
        assert!(r.best.is_some());
    }
}

#[test]
fn search_is_deterministic() {
    let p = pos(MUST_BLOCK);
    let (a, ia) = search(&p, 3);
    let (b, ib) = search(&p, 3);
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    // The line closing each iteration (root improvements are reported only after a time).
    let pvs = |v: &[SearchInfo]| {
        v.iter()
            .enumerate()
            .filter(|(k, i)| v.get(k + 1).is_none_or(|n| n.depth != i.depth))
            .map(|(_, i)| (i.depth, i.nodes, i.pv.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(pvs(&ia), pvs(&ib));
    // The same searcher after `clear` repeats itself too.
    let mut s = Searcher::new(8);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let r1 = s.search(&p, &limits, &SearchControl::default(), &mut |_| {});
    s.clear();
    let r2 = s.search(&p, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!((r1.best, r1.nodes), (r2.best, r2.nodes));
    assert_eq!((r1.best, r1.nodes), (a.best, a.nodes));
}

#[test]
fn bench_node_count_is_stable() {
    let a = bench::run(&mut Searcher::new(8), 2);
    let b = bench::run(&mut Searcher::new(8), 2);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.positions, bench::positions().len());
    assert!(a.nodes > a.positions as u64);
}

#[test]
fn searchmoves_are_respected() {
    let p = Position::new(Variant::Standard);
    let allowed = vec![
        parse_move("a2a3a4").unwrap(),
        parse_move("q16q15p15").unwrap(),
    ];
    for m in &allowed {
        p.check_move(*m).unwrap();
    }
    let mut s = Searcher::new(8);
    let limits = Limits {
        depth: Some(2),
        searchmoves: allowed.clone(),
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let r = s.search(&p, &limits, &SearchControl::default(), &mut |i| {
        infos.push(i.pv[0])
    });
    assert!(allowed.contains(&r.best.unwrap()));
    assert!(infos.iter().all(|m| allowed.contains(m)));
}

#[test]
fn node_limit_is_respected() {
    let p = pos(MUST_BLOCK);
    let mut s = Searcher::new(8);
    let limits = Limits {
        nodes: Some(700),
        ..Limits::default()
    };
    let r = s.search(&p, &limits, &SearchControl::default(), &mut |_| {});
    assert!(r.nodes <= 700, "{}", r.nodes);
    assert!(r.nodes >= 600, "{}", r.nodes);
    assert!(r.best.is_some());
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (r, took) = stop_after(pos(MUST_BLOCK), limits, Duration::from_millis(300));
    assert!(r.best.is_some());
    assert!(took < Duration::from_millis(100));
}

#[test]
fn stop_before_start_still_gives_a_move() {
    let ctl = SearchControl::default();
    ctl.stop.store(true, Ordering::Relaxed);
    let p = pos(MUST_BLOCK);
    let r = Searcher::new(8).search(&p, &Limits::default(), &ctl, &mut |_| {});
    p.check_move(r.best.unwrap()).unwrap();
}

#[test]
fn movetime_is_respected() {
    let p = Position::new(Variant::Standard);
    let limits = Limits {
        movetime: Some(Duration::from_millis(150)),
        move_overhead: Duration::from_millis(10),
        ..Limits::default()
    };
    // The search aims at 140 ms (movetime less the overhead). The bound allows for a test
    // machine busy with the other tests; `examples/search_bench.rs movetime` measures the
    // overshoot on a quiet one.
    // The table is made first, as `setoption name Hash` makes it before any `go`.
    let mut searcher = Searcher::new(8);
    let start = Instant::now();
    let r = searcher.search(&p, &limits, &SearchControl::default(), &mut |_| {});
    let took = start.elapsed();
    assert!(took <= Duration::from_millis(190) + WINE_SLACK, "{took:?}");
    assert!(took >= Duration::from_millis(140), "{took:?}");
    assert!(r.best.is_some());
}

#[test]
fn pondering_stops_the_clock_until_ponderhit() {
    let ctl = Arc::new(SearchControl::default());
    ctl.pondering.store(true, Ordering::Relaxed);
    let worker = {
        let ctl = Arc::clone(&ctl);
        std::thread::spawn(move || {
            let limits = Limits {
                movetime: Some(Duration::from_millis(50)),
                ..Limits::default()
            };
            Searcher::new(8).search(&pos(MUST_BLOCK), &limits, &ctl, &mut |_| {});
            Instant::now()
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    assert!(!worker.is_finished(), "the clock ran while pondering");
    let hit = Instant::now();
    ctl.pondering.store(false, Ordering::Relaxed);
    let ended = worker.join().unwrap();
    let after = ended.duration_since(hit);
    // The 50 ms are counted from the hit (a clock that ran while pondering would stop at once);
    // 150 ms of slack for a thread woken late on a loaded machine.
    assert!(after >= Duration::from_millis(20), "{after:?}");
    assert!(after < Duration::from_millis(200), "{after:?}");
}

#[test]
fn multipv_reports_distinct_lines() {
    let p = pos(MUST_BLOCK);
    let mut s = Searcher::new(8);
    let limits = Limits {
        depth: Some(2),
        multipv: 3,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    s.search(&p, &limits, &SearchControl::default(), &mut |i| {
        infos.push(i.clone())
    });
    let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == 2).collect();
    let lines: Vec<usize> = last.iter().map(|i| i.multipv).collect();
    assert_eq!(lines, vec![1, 2, 3]);
    let firsts: std::collections::HashSet<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn finished_game_has_no_move() {
    let mut p = pos(DROP_WIN);
    let win = winning_moves(&mut p)[0];
    p.make(win);
    let (r, _) = search(&p, 2);
    assert_eq!(r.best, None);
}

/// Depth-limited search against a seeded random mover, colours alternating.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn beats_random_play() {
    const GAMES: u64 = 10;
    let mut engine_wins = 0;
    let mut lengths = Vec::new();
    for game in 0..GAMES {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1000 + game);
        let engine_colour = if game % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let mut s = Searcher::new(8);
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() && p.ply() < 300 {
            let mv = if p.side_to_move() == engine_colour {
                let limits = Limits {
                    depth: Some(1),
                    ..Limits::default()
                };
                s.search(&p, &limits, &SearchControl::default(), &mut |_| {})
                    .best
                    .unwrap()
            } else {
                *p.legal_moves().choose(&mut rng).unwrap()
            };
            p.make(mv);
        }
        if p.outcome().and_then(|o| o.winner) == Some(engine_colour) {
            engine_wins += 1;
        }
        lengths.push(p.ply());
    }
    eprintln!("engine won {engine_wins} of {GAMES}; game lengths {lengths:?}");
    assert!(engine_wins >= 9, "{engine_wins} of {GAMES}");
}

/// An interrupted search answers with what it reported: the best move's line and score.
#[test]
fn interrupted_search_answers_with_its_reported_line() {
    let p = pos(MUST_BLOCK);
    let mut agreed = 0;
    for nodes in [1_500, 4_000, 9_000, 20_000] {
        let mut s = Searcher::new(8);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut infos: Vec<SearchInfo> = Vec::new();
        let r = s.search(&p, &limits, &SearchControl::default(), &mut |i| {
            infos.push(i.clone())
        });
        let last = infos.last().expect("depth 1 completes within the limit");
        if last.pv.first() == r.best.as_ref() {
            assert_eq!(r.ponder, last.pv.get(1).copied(), "nodes {nodes}");
            assert_eq!(r.score, last.score, "nodes {nodes}");
            agreed += 1;
        }
    }
    assert!(agreed > 0);
}

/// Black to move (a game lost to `builtin:greedy`): after `f6f5f7` White has a double threat
/// (`j14k15l16`), whose rank in the static order of White's replies was below the width.
const DOUBLE_THREAT_NEXT: &str = "Wa6b7c8/Be12e13f12/Bf8f9f10/Wf11e10d9/Bg6h6i6/Bg11g12g13/Wg14f13h14/Bi5j5k6/Bj2j3j4/Wn16m16o16/Wq16p16p17/Wf11g12g13 b 13";

#[test]
fn a_double_threat_one_ply_ahead_is_seen() {
    use punct::engine::search::race::win_in_three;
    let mut p = pos(DOUBLE_THREAT_NEXT);
    // The premise, by the exact solver (itself checked against brute force in engine_race):
    // after the move played in the game White wins within three plies.
    p.make(parse_move("f6f5f7").unwrap());
    let replies = p.legal_moves();
    assert!(win_in_three(&mut p, &replies).is_some());
    p.unmake();
    // The control runs without the coverable-dots and centre-reach terms, the leaf threat
    // penalty and the learned move ordering too: with any of them the search steers clear of
    // this one without the moves.
    for (threat_plies, holds) in [(1, true), (0, false)] {
        let r = search_with(&p, 5, |o| {
            o.threat_moves_ply = threat_plies;
            if !holds {
                o.cover_weight = 0;
                o.centre_reach_late = 0;
                o.leaf_threat = 0;
                o.order_model = 0;
            }
        });
        let mv = r.best.unwrap();
        p.make(mv);
        let replies = p.legal_moves();
        let lost = win_in_three(&mut p, &replies).is_some();
        p.unmake();
        // Without the threatening moves the engine walks into it (what this test guards).
        assert_eq!(!lost, holds, "ThreatMovesPly {threat_plies}: {mv}");
    }
}

/// Reverse futility prunes a node only when it faces no winning threat: even at its most
/// aggressive (a margin of 1 over the whole allowed depth) it must not hide a forced win in
/// three (a double threat) that the search without it proves. Positions come from seeded
/// games where both sides move at random half the time and play a depth-1 search otherwise,
/// which makes threats common; each win is checked with the exact solver.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn reverse_futility_never_hides_a_win_in_three() {
    use punct::engine::search::race::win_in_three;
    let search_at = |p: &Position, margin: i32| {
        search_with(p, 3, |o| {
            o.rfp_margin = margin;
            o.rfp_depth = 3;
        })
    };
    let mut proven = 0;
    // Games until ten wins in three were checked (how many games that takes moves with the
    // embedded network, which the helper plays with).
    for game in 0..120u64 {
        if proven >= 10 {
            break;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7000 + game);
        // The positions' generator: a depth-1 search that does not fear threats at its
        // leaves, so that double threats arise (it is not the engine under test). Its order
        // is pinned too: the positions must not move with the engine's defaults.
        let mut helper = Searcher::new(8);
        helper.params_mut().leaf_threat = 0;
        helper.params_mut().order_contact = 1;
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() && p.ply() < 60 {
            let without = search_at(&p, 0);
            if matches!(without.score, Score::Mate(2)) {
                let mut q = p.clone();
                let moves = q.legal_moves();
                assert!(win_in_three(&mut q, &moves).is_some(), "{p}");
                let with = search_at(&p, 1);
                assert_eq!(with.score, Score::Mate(2), "RfpMargin 1 in {p}");
                proven += 1;
                break;
            }
            let mv = if rng.gen_bool(0.5) {
                *p.legal_moves().choose(&mut rng).unwrap()
            } else {
                let limits = Limits {
                    depth: Some(1),
                    ..Limits::default()
                };
                helper
                    .search(&p, &limits, &SearchControl::default(), &mut |_| {})
                    .best
                    .unwrap()
            };
            p.make(mv);
        }
    }
    eprintln!("{proven} forced wins in three checked");
    assert!(proven >= 10, "only {proven} positions with a win in three");
}

/// `LeafThreat`: a leaf whose side to move faces a winning threat is scored lower by the
/// penalty. At its maximum a depth-1 search therefore plays a move after which the mover
/// threatens to win (by the threat detector) and the opponent has no win in one, whenever the
/// rules offer one; with the penalty at 0 it does not always (the control). Positions from
/// seeded half-random games, as above, with open roots (no win in one, no threat to stop).
#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn leaf_threat_penalty_makes_a_depth_one_search_threaten() {
    use punct::engine::search::threats::threat;
    let best_at =
        |p: &Position, penalty: i32| search_with(p, 1, |o| o.leaf_threat = penalty).best.unwrap();
    // After `mv` the mover threatens to win, and the opponent cannot win first.
    let threatens = |p: &Position, mv: Move| {
        let mut q = p.clone();
        q.make(mv);
        !q.is_finished() && find_win(&q).is_none() && threat(&q).is_some_and(|t| t.decisive)
    };
    let (mut checked, mut control_missed) = (0, 0);
    for game in 0..30u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9100 + game);
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() && p.ply() < 50 {
            let moves = p.legal_moves();
            let open = find_win(&p).is_none() && threat_zone(&p).is_none();
            if open && p.ply() >= 8 && moves.iter().any(|&m| threatens(&p, m)) {
                let mv = best_at(&p, 5000);
                assert!(threatens(&p, mv), "LeafThreat 5000 played {mv} in {p}");
                control_missed += !threatens(&p, best_at(&p, 0)) as usize;
                checked += 1;
            }
            p.make(*moves.choose(&mut rng).unwrap());
        }
    }
    eprintln!("{checked} positions, the control missed {control_missed}");
    assert!(
        checked >= 30,
        "only {checked} positions with a threatening move"
    );
    assert!(
        control_missed > 0,
        "the control never differs: the test shows nothing"
    );
}

/// The better move of the iteration under way is shared through the control (for an answer
/// given before the search ends) at that iteration's depth as a lower bound, never at a depth
/// already shown as complete; it is cleared before each report, so that the watchdog never
/// repeats a reported line.
#[test]
fn the_iteration_under_way_shares_its_better_move_at_its_own_depth() {
    let positions = bench::positions();
    let mut seen = 0;
    for (k, p) in positions.iter().enumerate() {
        let ctl = SearchControl::default();
        let mut s = Searcher::new(8);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut at_reports = Vec::new();
        s.search(p, &limits, &ctl, &mut |i| {
            at_reports.push((i.depth, ctl.take_partial()));
        });
        for (depth, partial) in at_reports {
            assert!(
                partial.is_none(),
                "position {k}: a partial line at depth {depth}'s report"
            );
        }
        assert!(
            ctl.take_partial().is_none(),
            "position {k}: cleared at the end"
        );
        // Watched from another thread while iterations run: each shared line is of an
        // iteration deeper than every one completed when it was taken.
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let ctl = SearchControl::default();
        let done = std::sync::atomic::AtomicBool::new(false);
        let completed = std::sync::atomic::AtomicU32::new(0);
        let shared = std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                let mut lines = Vec::new();
                while !done.load(Ordering::Relaxed) {
                    let before = completed.load(Ordering::SeqCst);
                    if let Some(line) = ctl.take_partial() {
                        lines.push((before, line));
                    }
                    std::thread::yield_now();
                }
                lines
            });
            Searcher::new(8).search(p, &limits, &ctl, &mut |i| {
                if i.bound == punct::engine::types::Bound::Exact {
                    completed.store(i.depth, Ordering::SeqCst);
                }
            });
            done.store(true, Ordering::Relaxed);
            watcher.join().unwrap()
        });
        for (before, line) in shared {
            seen += 1;
            assert!(
                line.depth > before && line.bound == punct::engine::types::Bound::Lower,
                "position {k}: {line:?} after depth {before} completed"
            );
            assert!(p.check_move(line.pv[0]).is_ok(), "position {k}: {line:?}");
        }
    }
    assert!(seen > 0, "no iteration shared a better move");
}
