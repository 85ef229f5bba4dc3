//! The centre race's exact solver (`race::win_in_three`) against brute force: on positions of
//! the race (standard game, one or two pieces in hand each) it finds a win within three plies
//! exactly when one exists by playing every move and every reply (the last ply's wins in one by
//! `find_win`, itself checked against every legal move in `engine_tactics`). The searching
//! engine then plays such a win with `mate 2` or better.
//!
//! `PUNCT_EXHAUSTIVE=1` checks more positions.

mod common;

use common::{biased_choice, exhaustive};
use punct::engine::race::{in_race, win_in_three, win_in_three_within};
use punct::engine::search::Searcher;
use punct::engine::threats::find_win;
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
