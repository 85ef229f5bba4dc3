//! Exact tactics against the rules library alone, on positions from playouts biased towards
//! stacks and bridges (both variants): the root's wins and stoppers (`root_tactics`) agree with
//! playing every legal move, and the searching engine plays a win whenever one exists (with
//! `mate 1`), a stopper whenever one exists, and says `mate -1` when none does.
//!
//! 25,000 positions in CI; `PUNCT_EXHAUSTIVE=1` runs 100,000 and checks the search on all of
//! them.

use crate::common;

use common::{biased_choice, exhaustive, winning_moves};
use punct::engine::search::paths::distance;
use punct::engine::search::threats::{find_win, root_tactics, threat, RootTactics};
use punct::engine::search::{SearchMode, Searcher};
use punct::engine::types::{Limits, Score, SearchControl};
use punct::{parse_cell, parse_move, parse_position, Colour, Kind, Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The moves after which the opponent has not won and has no winning move, by playing each
/// (the opponent's one-move wins by `find_win`, itself checked against every move below).
fn brute_stoppers(p: &mut Position) -> Vec<Move> {
    let them = !p.side_to_move();
    let mut out = Vec::new();
    for mv in p.legal_moves() {
        p.make(mv);
        let ok = match p.outcome() {
            Some(o) => o.winner != Some(them),
            None => find_win(p).is_none(),
        };
        p.unmake();
        if ok {
            out.push(mv);
        }
    }
    out
}

/// Whether the opponent could win at once if it were to move (null move through the notation).
fn opponent_threatens(p: &Position) -> bool {
    let text = p.to_string();
    let mut f: Vec<&str> = text.split(' ').collect();
    f[1] = if f[1] == "w" { "b" } else { "w" };
    match parse_position(&f.join(" "), p.variant()) {
        Ok(mut q) if !q.is_finished() => !winning_moves(&mut q).is_empty(),
        _ => false,
    }
}

/// A playout move: half the time the best for the mover's connection distance among a few
/// random moves (so that games reach threats and wins), else `biased_choice` (stacks, bridges).
fn playout_move(p: &mut Position, legal: &[Move], rng: &mut Xoshiro256PlusPlus) -> Move {
    if rng.gen_bool(0.5) {
        return biased_choice(p, legal, rng);
    }
    let us = p.side_to_move();
    let mut best = (u32::MAX, legal[0]);
    for _ in 0..24 {
        let mv = legal[rng.gen_range(0..legal.len())];
        p.make(mv);
        let d = distance(p.top_view(us), p.empty_cells(), p.top_view(!us), 2);
        p.unmake();
        if d < best.0 {
            best = (d, mv);
        }
    }
    best.1
}

fn engine_answer(s: &mut Searcher, p: &Position, depth: u32) -> (Move, Score) {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    let r = s.search(p, &limits, &SearchControl::default(), &mut |_| {});
    (r.best.expect("a move"), r.score)
}

#[derive(Default, Debug)]
struct Counts {
    positions: u64,
    wins: u64,
    shift_wins: u64,
    threatened: u64,
    defended: u64,
    lost: u64,
    searched: u64,
    search_ms: u128,
}

fn run(variant: Variant, seed: u64, target: u64, search_all: bool, mode: SearchMode) -> Counts {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut c = Counts::default();
    let mut searcher = Searcher::new(4);
    searcher.set_mode(mode);
    while c.positions < target {
        let mut p = Position::new(variant);
        while !p.is_finished() && c.positions < target {
            c.positions += 1;
            let legal = p.legal_moves();
            let wins = winning_moves(&mut p);
            let tactics = root_tactics(&mut p, &legal);
            if !wins.is_empty() {
                c.wins += 1;
                c.shift_wins += wins.iter().any(|m| matches!(m, Move::Shift { .. })) as u64;
                match tactics {
                    RootTactics::Win(m) => assert!(wins.contains(&m), "{p}: {m} does not win"),
                    other => panic!("{p}: wins {wins:?} missed, got {other:?}"),
                }
            } else {
                assert!(
                    !matches!(tactics, RootTactics::Win(_)),
                    "{p}: false win {tactics:?}"
                );
                let threatened = opponent_threatens(&p);
                if threatened {
                    c.threatened += 1;
                    let brute = brute_stoppers(&mut p);
                    match &tactics {
                        RootTactics::Stoppers(s) => {
                            let (mut a, mut b) = (s.clone(), brute.clone());
                            a.sort();
                            b.sort();
                            assert_eq!(a, b, "{p}: stoppers differ");
                        }
                        // A threat that only draws (a last drop on an equal centre count) is
                        // not a winning threat: every move must then keep the game going.
                        RootTactics::Open => assert_eq!(brute.len(), legal.len(), "{p}"),
                        RootTactics::Win(_) => unreachable!(),
                    }
                    if brute.is_empty() {
                        c.lost += 1;
                    } else {
                        c.defended += 1;
                    }
                }
            }
            // The search itself: on every decided position (and all with the flag), at depth 1
            // and 2 (and 3 with the flag), the move must be a win, else a stopper, and the score must say so.
            let decided = !wins.is_empty() || matches!(tactics, RootTactics::Stoppers(_));
            if decided || search_all {
                c.searched += 1;
                let t = std::time::Instant::now();
                let depths: &[u32] = if search_all { &[1, 2, 3] } else { &[1, 2] };
                for &depth in depths {
                    let (mv, score) = engine_answer(&mut searcher, &p, depth);
                    match &tactics {
                        RootTactics::Win(_) => {
                            assert!(wins.contains(&mv), "{p} d{depth}: {mv} does not win");
                            assert_eq!(score, Score::Mate(1), "{p} d{depth}");
                        }
                        RootTactics::Stoppers(s) if s.is_empty() => {
                            assert_eq!(score, Score::Mate(-1), "{p} d{depth}: lost");
                        }
                        RootTactics::Stoppers(s) => {
                            assert!(s.contains(&mv), "{p} d{depth}: {mv} does not stop");
                            assert_ne!(score, Score::Mate(-1), "{p} d{depth}: not lost");
                        }
                        RootTactics::Open => {}
                    }
                }
                c.search_ms += t.elapsed().as_millis();
            }
            let mv = playout_move(&mut p, &legal, &mut rng);
            p.make(mv);
        }
    }
    c
}

#[test]
fn wins_and_blocks_are_exact_on_stacked_and_bridged_positions() {
    let scale = if exhaustive() { 4 } else { 1 };
    let mut total = Counts::default();
    for (variant, seed, n) in [
        (Variant::Standard, 11, 15_000 * scale),
        (Variant::Basic, 12, 10_000 * scale),
    ] {
        let c = run(variant, seed, n, exhaustive(), SearchMode::AlphaBeta);
        eprintln!("{variant:?}: {c:?}");
        total.positions += c.positions;
        total.wins += c.wins;
        total.shift_wins += c.shift_wins;
        total.threatened += c.threatened;
        total.defended += c.defended;
        total.lost += c.lost;
    }
    // Enough of each case for the comparison to mean something.
    assert!(total.positions >= 25_000 * scale, "{total:?}");
    assert!(total.wins > 1_000 && total.shift_wins > 100, "{total:?}");
    assert!(total.defended > 200 && total.lost > 50, "{total:?}");
}

/// `SearchMode puct` keeps the same exact tactics: a win when one exists (`mate 1`), a stopper
/// when one exists, `mate -1` when none does (fewer positions: the rules part is the same).
#[test]
fn puct_plays_wins_and_stoppers_as_exactly() {
    let scale = if exhaustive() { 4 } else { 1 };
    let mut total = Counts::default();
    for (variant, seed, n) in [
        (Variant::Standard, 21, 3_000 * scale),
        (Variant::Basic, 22, 2_000 * scale),
    ] {
        let c = run(variant, seed, n, false, SearchMode::Puct);
        eprintln!("puct {variant:?}: {c:?}");
        total.wins += c.wins;
        total.defended += c.defended;
        total.lost += c.lost;
    }
    assert!(
        total.wins > 100 && total.defended > 20 && total.lost > 5,
        "{total:?}"
    );
}

/// The position from the issue: Black wins by `d8-d12e12f12` (a bridge landing) or by moving
/// the bridge piece `i14-h14g14f14`; the engine missed both before the root checked wins.
#[test]
fn a_win_by_a_bridge_landing_is_played_at_every_depth() {
    let text = "Bb9a8b10/Wd7d6e6/Bd8c8b8/Bd12c11e13/Wf14f13f12/Wg11h12i12/Bh15h14g13/Bi5h4g3/Bj6i6i7/Bj14i14j13/Wk12j12k13/Bl5l4m5/Bl9m9n9/Wl14k14k15/Bl15m16m17/Wm11l11n11/Wm13l13m12/Bm15n15n16/Wn13n14o13/Wo8p8p9/Bo16o15p16/Wp11o11p12/Bp15p14q15/Bi14i13i12/Bm16l16k15/Wo13n13m12 b 49";
    let mut p = parse_position(text, Variant::Standard).unwrap();
    let wins = winning_moves(&mut p);
    for w in ["d8-d12e12f12", "i14-h14g14f14"] {
        assert!(wins.iter().any(|m| m.to_string() == w), "{w} wins");
    }
    let mut s = Searcher::new(4);
    for depth in 1..=4 {
        let (mv, score) = engine_answer(&mut s, &p, depth);
        assert!(wins.contains(&mv), "depth {depth}: {mv}");
        assert_eq!(score, Score::Mate(1));
    }
}

/// White connects west to the rest by either of two C drops on the line c3..c7, `c4c3c5` and
/// `c6c5c7` (the west chains end next to c3 and c7, the east chain next to c5; the C on
/// c4..c6 meets no west chain), and by nothing else: White holds no S (an S on those spaces
/// would have c5 as its PÜNCT). So c5 is a minor dot of both completing drops of one shape
/// (`p + D = (p + 2D) - D`), and the threat zone must still hold it: Black's triangle on
/// b4 b5 c5 stops both drops while touching no other space of the zone.
const TWO_C_DROPS: &str = "Wb2a2c2/Ba3a4b3/Ba5a6b6/Wa7b7b8/Bc8d8d7/Bd3d4d5/Wd6e6f6/Wg6h6i6/Wj6k6l6/Wm7n8o9/Wp10q11q12/Wo14o15p14/Wm15m16n15/Wq14q13p12/Wk16l16l15/Wi16j16k17 b 16";

/// The threat zone holds a space that is a minor dot of two completing drops of one shape, and
/// the stoppers that touch only it are found (`CompletingDrops::cells` unions the minor dots).
#[test]
fn a_minor_dot_shared_by_two_completing_drops_is_in_the_zone() {
    let mut p = parse_position(TWO_C_DROPS, Variant::Standard).unwrap();
    assert!(!p.is_finished());
    assert_eq!(p.in_hand(Colour::White, Kind::S), 0);
    let c5 = parse_cell("c5").unwrap();
    // White's one-move wins, seen by passing for Black: exactly the two C drops.
    p.make(Move::Pass);
    let mut threats: Vec<String> = winning_moves(&mut p)
        .iter()
        .map(|m| m.to_string())
        .collect();
    p.unmake();
    threats.sort();
    assert_eq!(threats, ["c4c3c5", "c6c5c7"]);
    let zone = threat(&p).expect("White threatens").zone;
    assert!(zone.contains(c5), "c5 is on both threats");
    // Black's triangle b4 b5 c5 stops both; its other spaces are outside the zone.
    let triangle = parse_move("b4b5c5").unwrap();
    let others = triangle.placement().unwrap().cells();
    assert!(others
        .iter()
        .filter(|&&c| c != c5)
        .all(|&c| !zone.contains(c)));
    let brute = brute_stoppers(&mut p);
    assert!(brute.contains(&triangle), "{brute:?}");
    let legal = p.legal_moves();
    assert_eq!(root_tactics(&mut p, &legal), RootTactics::Stoppers(brute));
}
