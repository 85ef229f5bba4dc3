//! Lazy SMP (`Threads` > 1): the search with helper threads still finds wins and blocks
//! threats, answers legal moves, stops at once, and counts every thread's nodes; through the
//! binary, `setoption name Threads` gives one legal `bestmove` per `go`, `stop` and `quit` work.
//!
//! What each test relies on (a win exists, a threat exists) is checked with the rules library.

use std::sync::atomic::Ordering;
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::common;
use crate::engine_common;

use common::winning_moves;
use engine_common::{legal_bestmove, Engine, LONG};
use punct::engine::search::Searcher;
use punct::engine::types::{Limits, Score, SearchControl, SearchResult};
use punct::rules::notation::position_to_string;
use punct::{parse_move, parse_position, Position, Variant};

/// Black to move; black wins by a drop (from `engine_search.rs`).
const DROP_WIN: &str = "Bc9c10c11/Bd7d8d9/Be6d6f6/Wg1h2i3/Bg6h6i6/Wj3k3k4/Wj4j5k6/Bj7k7l7/Wj13k13k14/Wk16k15k17/Bl6k5l5/Wl8l9l10/Wl11l12l13/Bi6j6j5/Wk6k5k7/Wl8l7l6/Bj6k6k5 b 23";
/// White to move; white wins only by shifting a piece.
const SHIFT_WIN: &str = "Wb1c1c2/Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/Be4d4e3/We10d9f10/Wg6f5f6/Bg7h8h9/Wg13g12h14/Bg14h15i16/Bh11h10i11/Wi12h12h13/Wj15i14i13/Wj17j16i15/Be2d2f2/Wf10g11g12/Bh11h12h13/Bh15h14i15 w 36";
/// Black to move; White threatens to connect, few of Black's moves stop it.
const MUST_BLOCK: &str = "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We3e4d4/We10d9f10/Bf5f6g6/Bf11f12f13/Bg4g3g5/Bg7h8h9/Bg10g11h11/Wg13g12h14/Bg14h15i16/Wj17j16i15 b 17";

fn pos(text: &str) -> Position {
    parse_position(text, Variant::Standard).unwrap()
}

fn searcher(threads: usize) -> Searcher {
    let mut s = Searcher::new(8);
    s.set_threads(threads);
    s
}

fn search(s: &mut Searcher, p: &Position, limits: Limits) -> SearchResult {
    let r = s.search(p, &limits, &SearchControl::default(), &mut |_| {});
    p.check_move(r.best.expect("a move")).unwrap();
    r
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn two_threads_find_wins_in_one() {
    for text in [DROP_WIN, SHIFT_WIN] {
        let mut p = pos(text);
        let wins = winning_moves(&mut p);
        assert!(!wins.is_empty());
        let mut s = searcher(2);
        for d in [1, 2, 3] {
            let r = search(&mut s, &p, depth(d));
            assert!(wins.contains(&r.best.unwrap()), "depth {d}: {r:?}");
            assert_eq!(r.score, Score::Mate(1));
        }
    }
}

#[test]
fn two_threads_block_a_loss_in_one() {
    let mut p = pos(MUST_BLOCK);
    assert!(winning_moves(&mut p).is_empty());
    let mut s = searcher(2);
    let movetime = Limits {
        movetime: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    for limits in [depth(1), depth(2), depth(4), movetime] {
        let r = search(&mut s, &p, limits.clone());
        let mv = r.best.unwrap();
        p.make(mv);
        // White threatens a win in one; after the answer, it has none.
        assert!(winning_moves(&mut p).is_empty(), "{limits:?}: {mv}");
        p.unmake();
        assert!(!matches!(r.score, Score::Mate(n) if n < 0), "{r:?}");
    }
}

#[test]
fn two_threads_with_a_depth_limit_answer_at_that_depth() {
    // Whichever thread completes the depth first ends the search (see `Searcher::search`):
    // the answer is a full search to that depth, and the last line reported says so.
    // No mate at these depths: the main thread would stop at a mate before the depth.
    let mut opening = Position::new(Variant::Standard);
    for mv in ["c5c6d6", "f5f6f7"] {
        opening.play(parse_move(mv).unwrap()).unwrap();
    }
    for p in [pos(MUST_BLOCK), opening] {
        let text = position_to_string(&p);
        let mut s = searcher(2);
        for d in [3, 5] {
            let mut lines = Vec::new();
            let r = s.search(&p, &depth(d), &SearchControl::default(), &mut |info| {
                lines.push(info.clone())
            });
            let best = r.best.expect("a move");
            p.check_move(best).unwrap();
            assert_eq!(r.depth, d, "{text}: {r:?}");
            let last = lines.last().expect("an info line");
            assert_eq!(last.depth, d, "{last:?}");
            assert_eq!(last.pv.first(), Some(&best), "{last:?}");
        }
    }
}

#[test]
fn nodes_count_every_thread() {
    let p = Position::new(Variant::Standard);
    let mut s = searcher(2);
    let limits = Limits {
        movetime: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let r = search(&mut s, &p, limits);
    let per_thread = s.last_thread_nodes().to_vec();
    assert_eq!(per_thread.len(), 2);
    assert!(per_thread.iter().all(|&n| n > 0), "{per_thread:?}");
    assert_eq!(r.nodes, per_thread.iter().sum::<u64>());

    // A node limit is on the total: the main thread stops when both together reach it.
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let r = search(&mut s, &pos(MUST_BLOCK), limits);
    let per_thread = s.last_thread_nodes().to_vec();
    assert!(per_thread.iter().all(|&n| n > 0), "{per_thread:?}");
    // Threads publish their counts every 32 nodes, so the total overshoots a little.
    assert!((5_000..=5_300).contains(&r.nodes), "{}", r.nodes);
    assert!(per_thread[0] < 5_000, "{per_thread:?}");

    // Back to one thread: one count, and the search is the one-thread search again.
    s.set_threads(1);
    s.clear();
    let one = search(&mut s, &pos(MUST_BLOCK), depth(4));
    assert_eq!(s.last_thread_nodes(), [one.nodes]);
    let fresh = search(&mut searcher(1), &pos(MUST_BLOCK), depth(4));
    assert_eq!((one.best, one.nodes), (fresh.best, fresh.nodes));
}

#[test]
fn seed_changes_nothing_with_one_thread() {
    let p = pos(MUST_BLOCK);
    let base = search(&mut searcher(1), &p, depth(4));
    let mut s = searcher(1);
    s.set_seed(12345);
    let seeded = search(&mut s, &p, depth(4));
    assert_eq!((base.best, base.nodes), (seeded.best, seeded.nodes));
}

#[test]
fn stop_ends_a_two_thread_search_at_once() {
    let ctl = Arc::new(SearchControl::default());
    let worker = {
        let ctl = Arc::clone(&ctl);
        thread::spawn(move || {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let mut s = searcher(2);
            let r = s.search(&pos(MUST_BLOCK), &limits, &ctl, &mut |_| {});
            (r, Instant::now(), s.last_thread_nodes().to_vec())
        })
    };
    thread::sleep(Duration::from_millis(300));
    let stopped_at = Instant::now();
    ctl.stop.store(true, Ordering::Relaxed);
    let (r, ended, per_thread) = worker.join().unwrap();
    pos(MUST_BLOCK).check_move(r.best.unwrap()).unwrap();
    let latency = ended.duration_since(stopped_at);
    eprintln!("stop to result, 2 threads: {latency:?}");
    assert!(latency < Duration::from_millis(100), "{latency:?}");
    assert!(per_thread.iter().all(|&n| n > 0), "{per_thread:?}");
}

#[test]
fn the_binary_searches_on_two_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("setoption name Seed value 7");
    e.send("position startpos moves c5c6d6");
    e.send("isready");
    let lines = e.until("readyok", LONG);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    let p = {
        let mut p = Position::new(Variant::Standard);
        p.play(parse_move("c5c6d6").unwrap()).unwrap();
        p
    };

    // `go movetime`: exactly one legal bestmove, in about the time given.
    let t = Instant::now();
    e.send("go movetime 200");
    let lines = e.until("bestmove", LONG);
    let took = t.elapsed();
    let mv = legal_bestmove(lines.last().unwrap(), &p);
    assert!(took < Duration::from_millis(1000), "{took:?}");
    // The final info line's PV starts with the move played (a referee checks it).
    let info = &lines[lines.len() - 2];
    let pv = info
        .split(" pv ")
        .nth(1)
        .unwrap_or_else(|| panic!("{info}"));
    assert_eq!(pv.split_whitespace().next(), Some(mv.to_string().as_str()));
    e.send("isready");
    let after = e.until("readyok", LONG);
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:#?}"
    );

    // `go infinite` holds its answer until `stop`, then answers at once.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", LONG);
    let latency = t.elapsed();
    eprintln!("stop to bestmove, 2 threads: {latency:?}");
    assert!(latency < Duration::from_millis(200), "{latency:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    legal_bestmove(lines.last().unwrap(), &p);

    // `quit` mid-search exits at once, with status 0.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let status = e
        .wait_exit(Duration::from_secs(1))
        .expect("exit within a second of quit");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_panic_in_the_main_search_halts_the_helpers() {
    // The report callback panics: the search must unwind (not wait forever for the helpers
    // of an infinite search), so that the engine can recover.
    let (tx, rx) = channel();
    thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut s = searcher(2);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            s.search(
                &pos(MUST_BLOCK),
                &limits,
                &SearchControl::default(),
                &mut |_| panic!("a report fails"),
            )
        }));
        let _ = tx.send(outcome.is_err());
    });
    let unwound = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("the search ends");
    assert!(unwound);
}
