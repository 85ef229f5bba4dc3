//! The centre race's exact solver (`race::win_in_three`) against brute force: on positions of
//! the race (standard game, one or two pieces in hand each) it finds a win within three plies
//! exactly when one exists by playing every move and every reply (the last ply's wins in one by
//! `find_win`, itself checked against every legal move in `engine_tactics`). The searching
//! engine then plays such a win with `mate 2` or better.
//!
//! `PUNCT_EXHAUSTIVE=1` checks more positions.

use crate::common;

use common::{biased_choice, exhaustive};
use punct::engine::search::race::{in_race, win_in_three, win_in_three_within};
use punct::engine::search::threats::{find_win, move_touches, threat};
use punct::engine::search::Searcher;
use punct::engine::types::{Limits, Score, SearchControl};
use punct::{Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Whether `mv` wins within three plies, by playing it and every reply.
fn brute_wins_in_three(p: &mut Position, mv: Move) -> bool {
    let us = p.side_to_move();
    p.make(mv);
    let wins = match p.outcome() {
        Some(o) => o.winner == Some(us),
        None => p.legal_moves().into_iter().all(|r| {
            p.make(r);
            let lost = match p.outcome() {
                Some(o) => o.winner == Some(us),
                None => find_win(p).is_some(),
            };
            p.unmake();
            lost
        }),
    };
    p.unmake();
    wins
}

/// A race position: drops at random until both players hold at most `hand` pieces, with
/// shifts mixed in (biased towards stacks and bridges); `None` if the game ended first.
fn race_position(rng: &mut Xoshiro256PlusPlus, hand: u8) -> Option<Position> {
    let mut p = Position::new(Variant::Standard);
    while !in_race(&p, hand) {
        if p.is_finished() {
            return None;
        }
        let legal = p.legal_moves();
        let drops: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Drop(_)))
            .collect();
        let mv = if !drops.is_empty() && rng.gen_bool(0.8) {
            drops[rng.gen_range(0..drops.len())]
        } else {
            biased_choice(&p, &legal, rng)
        };
        p.make(mv);
    }
    // A few plies of shifts into the race (the centre fills up with moved pieces).
    for _ in 0..rng.gen_range(0..6) {
        if p.is_finished() {
            return None;
        }
        let shifts: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Shift { .. }))
            .collect();
        if shifts.is_empty() {
            break;
        }
        let mv = biased_choice(&p, &shifts, rng);
        p.make(mv);
    }
    (!p.is_finished()).then_some(p)
}

#[test]
fn wins_in_three_agree_with_brute_force_in_the_race() {
    let target = if exhaustive() { 400 } else { 60 };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let (mut positions, mut found, mut centre_wins) = (0, 0, 0);
    let (mut total_ms, mut max_ms) = (0.0f64, 0.0f64);
    let (mut total_played, mut max_played) = (0u64, 0u64);
    let mut stopped = 0;
    let mut wins_in_one = 0;
    let mut searcher = Searcher::new(4);
    while positions < target {
        let hand = rng.gen_range(1..=2);
        let Some(mut p) = race_position(&mut rng, hand) else {
            continue;
        };
        positions += 1;
        let legal = p.legal_moves();
        let t = std::time::Instant::now();
        let solver = win_in_three(&mut p, &legal);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        (total_ms, max_ms) = (total_ms + ms, max_ms.max(ms));
        let (again, played) = win_in_three_within(&mut p, &legal, u64::MAX, &mut || false).unwrap();
        assert_eq!(again, solver);
        (total_played, max_played) = (total_played + played, max_played.max(played));
        // Within a smaller budget: the same answer, or out of budget; never a wrong answer.
        for budget in [0, played / 4, played / 2] {
            match win_in_three_within(&mut p, &legal, budget, &mut || false) {
                Ok((mv, _)) => assert_eq!(mv, solver, "{p}: budget {budget}"),
                Err(n) => assert!(n > budget),
            }
        }
        let brute: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| brute_wins_in_three(&mut p, mv))
            .collect();
        match solver {
            Some(mv) => assert!(brute.contains(&mv), "{p}: {mv} does not win in three"),
            None => assert!(brute.is_empty(), "{p}: missed {brute:?}"),
        }
        // A win in one comes first when there is one.
        if find_win(&p).is_some() {
            let mv = solver.expect("a win in one is a win in three");
            let us = p.side_to_move();
            p.make(mv);
            assert_eq!(p.outcome().and_then(|o| o.winner), Some(us), "{p}");
            p.unmake();
            wins_in_one += 1;
        }
        // Move by move, not only the first found.
        for &mv in &legal {
            let one = win_in_three(&mut p, &[mv]).is_some();
            assert_eq!(one, brute.contains(&mv), "{p}: {mv}");
        }
        // Out of budget or stopped, it gives up (unless a win in one or the first move
        // answers at once).
        let at_once =
            solver.is_some_and(|mv| Some(mv) == legal.first().copied()) || find_win(&p).is_some();
        if !at_once && played > 1 {
            assert!(
                win_in_three_within(&mut p, &legal, 0, &mut || false).is_err(),
                "{p}"
            );
        }
        if !at_once && played >= 1024 {
            let mut asked = 0;
            let r = win_in_three_within(&mut p, &legal, u64::MAX, &mut || {
                asked += 1;
                true
            });
            assert!(matches!(r, Err(n) if n < 600), "{p}: {r:?}");
            assert_eq!(asked, 1);
            stopped += 1;
            // Asked about once every 256 moves played, not at every step.
            let mut asked = 0;
            let r = win_in_three_within(&mut p, &legal, u64::MAX, &mut || {
                asked += 1;
                false
            });
            assert_eq!(r.map(|(mv, _)| mv), Ok(solver));
            assert!(
                (played / 256 - 1..=played / 256 + 1).contains(&asked),
                "{asked}"
            );
        }
        // A proof cut short by the budget is no answer, even on the last move tried.
        if let Some(mv) = solver.filter(|_| !at_once) {
            let (_, need) = win_in_three_within(&mut p, &[mv], u64::MAX, &mut || false).unwrap();
            if need > 2 {
                let r = win_in_three_within(&mut p, &[mv], need - 2, &mut || false);
                assert!(r.is_err(), "{p}: {mv} {r:?}");
            }
        }
        if let Some(mv) = solver {
            found += 1;
            let us = p.side_to_move();
            p.make(mv);
            centre_wins += (p.hand_total(us) <= 1) as u32;
            p.unmake();
            // The engine plays a win within three plies and says so.
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let r = searcher.search(&p, &limits, &SearchControl::default(), &mut |_| {});
            let best = r.best.expect("a move");
            assert!(brute.contains(&best), "{p}: engine played {best}");
            assert!(
                matches!(r.score, Score::Mate(1 | 2)),
                "{p}: {best} {:?}",
                r.score
            );
        }
    }
    eprintln!(
        "{positions} race positions, {found} with a win in three ({centre_wins} by a last drop); \
         solver {:.1} ms and {} moves played on average, {max_ms:.1} ms and {max_played} at most",
        total_ms / positions as f64,
        total_played / positions
    );
    assert!(
        found > 0,
        "no position with a win in three: the test checks nothing"
    );
    assert!(stopped > 0, "the stop callback was never tried");
    assert!(wins_in_one > 0, "no position with a win in one");
}

/// Race positions (found by a seeded search over `race_position`) with a win in one for the
/// side to move, where other moves also decide: `E111` has last drops that end the game without
/// the mover's win (Black's count does not lead), the others have slower wins in three (a shift,
/// then any drop wins the centre count or connects). Each layout is checked by brute force below.
const WIN_IN_ONE_AMONG_OTHERS: [&str; 3] = [
    // Black to move: a7a6a8 (the last drop) does not win, d10-d7e7e6 does.
    "Wa5a4a3/Wb2a2b1/Wb3c3d3/Bb7c7d7/Bb9b8c10/Bc11d12e12/Wd5d6e6/Bd10e11f11/Be1f1g1/Be4e3e2/Be8d8f8/Bf5f6g6/Wf14f13f12/Bh2i2i3/Wh4h5i5/Wh7h6i6/Bh12h11i12/Bh14g13g14/Wi4h3g3/Wj16i16j17/Wk3j3k4/Wk15k14j13/Bl5k5l6/Wl8k7l7/Bl16l17k17/Bm11l11m12/Bn9m9l9/Wn16n17o16/Wo7n6m5/Wp11o11q11/Wf14f13g13/Bk5j4j3/Bl5l6m5 b 41",
    // White to move: l13-l11k11m12 wins in three, a7a6a8 at once.
    "Wa4a5b5/Bb3a2a3/Bc3b2c2/Wc7b6c6/Wd5c4c5/Bd6e6f6/Bd12e13f14/We3f3g3/Be4f4g4/Be8e7f8/Be12f13g14/Wf1g1g2/Bg10f9g11/Wh9h10i10/Bh12g12i12/Wh14g13f12/Wi3h3j4/Bi6h5g5/Bi14j15k15/Wj6j5k5/Wk13l13l12/Bk14j14l15/Wl10m10m11/Wm7m6m5/Bm15m14m16/Wn9m9l8/Bn10o10o11/Wo8n7p9/Bo16o15p16/Wp11p10o9/Wq13q14q15/Bh5i5j6/Bk15j15i14/Wl13k13m14 w 44",
    // White to move: c8-g8h9h10 wins in three, b9b10c10 at once.
    "Ba5a6b5/Wb3a2a3/Wc2b2c3/Wc5d5e5/Wc7b7d7/Wc8b8a7/Bd6c6e6/Be2d1e1/Be11d10d9/Wf3f2g4/Wf8f7f9/Bf10e9g10/Wf14e13d12/Bg12g13h13/Bh2h1h3/Bh14i14i13/Wj3k4l5/Wj10j11i11/Bj12i12j13/Bj15i15h15/Bk5k6l6/Bl9k8j7/Bl11m12m13/Wl13k12k13/Bl14l15l16/Wm9l8n9/Wm11n11n12/Wm17l17k17/Wn16n15m14/Bo9o8p9/Wp14o13o14/Bb5b6b7/Be6d6d7/Wk17l17l16 w 40",
];

/// With a win in one on the board the solver answers a move that wins at once, even when moves
/// listed before it end the game without our win (a losing or drawing last drop) or win only in
/// three: the win-in-one shortcut (`wins_at_once`) must not be skipped nor take a game over as
/// a win.
#[test]
fn a_win_in_one_is_answered_before_slower_wins_and_moves_that_end_the_game() {
    let (mut ending_first, mut slower_first) = (0, 0);
    for text in WIN_IN_ONE_AMONG_OTHERS {
        let mut p = punct::parse_position(text, Variant::Standard).unwrap();
        let us = p.side_to_move();
        let legal = p.legal_moves();
        let (mut at_once, mut ends, mut slower, mut rest) = (vec![], vec![], vec![], vec![]);
        for &mv in &legal {
            p.make(mv);
            let outcome = p.outcome();
            p.unmake();
            match outcome {
                Some(o) if o.winner == Some(us) => at_once.push(mv),
                Some(_) => ends.push(mv),
                None if brute_wins_in_three(&mut p, mv) => slower.push(mv),
                None => rest.push(mv),
            }
        }
        assert!(!at_once.is_empty(), "{text}: no win in one");
        assert!(find_win(&p).is_some(), "{text}");
        ending_first += !ends.is_empty() as u32;
        slower_first += !slower.is_empty() as u32;
        // The moves that end the game without our win first, then the slower wins, the rest,
        // and the wins in one last; and each kind alone before the wins in one.
        let all: Vec<Move> = [&ends[..], &slower, &rest, &at_once].concat();
        let first_ends: Vec<Move> = [&ends[..], &at_once].concat();
        let first_slower: Vec<Move> = [&slower[..], &at_once].concat();
        for list in [all, first_ends, first_slower] {
            let answer = win_in_three(&mut p, &list);
            assert!(
                answer.is_some_and(|mv| at_once.contains(&mv)),
                "{text}: answered {answer:?}, wins at once {at_once:?}"
            );
        }
    }
    assert!(
        ending_first > 0 && slower_first > 0,
        "{ending_first} {slower_first}"
    );
}

/// Black to move (found by a seeded search over `race_position`, then Black's piece on i15
/// taken off so that Black holds two pieces): after `c3-c7b6c8` (and six other moves) Black
/// threatens a connection that no White move touching the threat zone can stop, but White
/// holds one piece and the centre count is tied, so White's last drop, far from the zone, ends
/// the game in a draw: no win in three.
const LAST_DROP_REFUTES: &str = "Wa4a5a6/Bb4a3b3/Wb6b7b8/Bc3c2d4/Bc7c8d9/Bd6c5c6/Bd10c10b10/Wd11c11d12/We4e3f4/We9f9g10/Bf5e5g5/Bf7e7f6/Bf11f10g11/Wf13e12f12/Wh5h6i6/Bh11i12j13/Wi3i4i5/Wi16h15j16/Bj3i2h1/Bj6k6l6/Wk7j7l7/Wk15l16m16/Bl5l4m5/Wm10n10n11/Bm14l13k13/Bn8n9m9/Wn13n12m11/Wn16o16p17/Wp9o8q10/Bp13o13q13/Wl7k7j7/Bm14m13n13/Wo16n16p17 b 41";

/// Against a decisive threat the solver tries only replies that touch its zone, and the
/// opponent's last drop, which ends the game: left out, the solver would claim a win that a
/// drawing last drop refutes.
#[test]
fn a_drawing_last_drop_of_the_opponent_refutes_a_threat() {
    let mut p = punct::parse_position(LAST_DROP_REFUTES, Variant::Standard).unwrap();
    let us = p.side_to_move();
    let mv = punct::parse_move("c3-c7b6c8").unwrap();
    p.make(mv);
    assert_eq!(p.hand_total(!us), 1, "White's next drop is its last");
    assert_eq!(
        p.hand_total(us),
        2,
        "Black's is not: the flag is about the opponent"
    );
    let [w, b] = p.centre_count();
    assert_eq!(w, b, "a tied count: a last drop draws");
    assert!(find_win(&p).is_none(), "White has no win in one");
    let zone = threat(&p)
        .filter(|t| t.decisive)
        .expect("Black threatens")
        .zone;
    let (mut drawing_drops, mut touching) = (0, 0);
    for r in p.legal_moves() {
        let touches = move_touches(&p, r, zone);
        p.make(r);
        match p.outcome() {
            Some(o) => {
                assert!(matches!(r, Move::Drop(_)), "{r}");
                assert_eq!(o.winner, None, "{r}: the last drop draws");
                assert!(!touches, "{r} touches the zone");
                drawing_drops += 1;
            }
            None => {
                assert!(touches || find_win(&p).is_some(), "{r}");
                if touches {
                    // No reply touching the zone stops Black's threat.
                    assert!(find_win(&p).is_some(), "{r} stops the threat");
                    touching += 1;
                }
            }
        }
        p.unmake();
    }
    assert!(
        drawing_drops > 0 && touching > 0,
        "{drawing_drops} {touching}"
    );
    p.unmake();
    assert!(!brute_wins_in_three(&mut p, mv));
    assert_eq!(win_in_three(&mut p, &[mv]), None);
    // Every move agrees with brute force, and so does the whole list.
    let legal = p.legal_moves();
    let brute: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| brute_wins_in_three(&mut p, m))
        .collect();
    for &m in &legal {
        assert_eq!(
            win_in_three(&mut p, &[m]).is_some(),
            brute.contains(&m),
            "{m}"
        );
    }
    match win_in_three(&mut p, &legal) {
        Some(m) => assert!(brute.contains(&m), "{m}"),
        None => assert!(brute.is_empty(), "{brute:?}"),
    }
}
