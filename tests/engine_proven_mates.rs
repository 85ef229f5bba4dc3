//! Mate scores must be proven: with width caps the search may leave out the one move that
//! escapes, and then it must not report a forced loss for the side whose moves were pruned.
//! Each reported short mate is checked here by playing every move with the rules library.

use punct::engine::search::Searcher;
use punct::engine::threats::find_win;
use punct::engine::types::{Limits, Score, SearchControl};
use punct::{Colour, Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const GAMES: u64 = 4;

/// Whether the side to move wins at once (a winning move exists), by the rules alone.
fn wins_in_one(p: &mut Position) -> bool {
    let us = p.side_to_move();
    let won = |p: &Position| p.outcome().is_some_and(|o| o.winner == Some(us));
    if let Some(mv) = find_win(p) {
        p.make(mv);
        let w = won(p);
        p.unmake();
        if w {
            return true;
        }
    }
    for mv in p.legal_moves() {
        p.make(mv);
        let w = won(p);
        p.unmake();
        if w {
            return true;
        }
    }
    false
}

/// Whether every move of the side to move loses: the game ends lost or the opponent wins in one.
fn lost_in_one(p: &mut Position, us: Colour) -> bool {
    for mv in p.legal_moves() {
        p.make(mv);
        let lost = match p.outcome() {
            Some(o) => o.winner == Some(!us),
            None => wins_in_one(p),
        };
        p.unmake();
        if !lost {
            return false;
        }
    }
    true
}

/// Checks a mate claim of 1 or 2 moves (UCI counting: up to 2 or 4 plies) for the side to move of `p` with best move `best`.
fn claim_holds(p: &Position, score: Score, best: punct::Move) -> Option<bool> {
    let mut p = p.clone();
    let us = p.side_to_move();
    match score {
        Score::Mate(1) => {
            // A win in one or two plies: the move wins, or every reply ends the game lost.
            p.make(best);
            if p.outcome().is_some() {
                return Some(p.outcome().is_some_and(|o| o.winner == Some(us)));
            }
            let replies = p.legal_moves();
            Some(replies.into_iter().all(|r| {
                p.make(r);
                let won = p.outcome().is_some_and(|o| o.winner == Some(us));
                p.unmake();
                won
            }))
        }
        Score::Mate(-1) => Some(lost_in_one(&mut p, us)),
        Score::Mate(2) => {
            p.make(best);
            if p.outcome().is_some() {
                return Some(p.outcome().is_some_and(|o| o.winner == Some(us)));
            }
            let them = p.side_to_move();
            Some(lost_in_one(&mut p, them))
        }
        _ => None,
    }
}

/// Positions along games of a depth-1 search against itself after a few random plies: they
/// reach blocking fights, where short mates are claimed.
fn game_positions(games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut s = Searcher::new(4);
    for g in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7 + g);
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() && p.ply() < 120 {
            let mv = if p.ply() < 6 {
                *p.legal_moves().choose(&mut rng).unwrap()
            } else {
                let limits = Limits {
                    depth: Some(1),
                    ..Limits::default()
                };
                s.search(&p, &limits, &SearchControl::default(), &mut |_| {})
                    .best
                    .unwrap()
            };
            p.make(mv);
            if !p.is_finished() {
                out.push(p.clone());
            }
        }
    }
    out
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn narrow_searches_claim_only_proven_mates() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (i, pos) in game_positions(GAMES).iter().enumerate() {
        let mut s = Searcher::new(4);
        for (name, value) in [("WidthBase", 1), ("WidthPerDepth", 0), ("BlockCap", 1)] {
            s.params_mut().set(name, value).unwrap();
        }
        for depth in [2, 3] {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = s.search(pos, &limits, &SearchControl::default(), &mut |_| {});
            if let Some(ok) = claim_holds(pos, r.score, r.best.unwrap()) {
                checked += 1;
                if !ok {
                    eprintln!("wrong: {pos} depth {depth} {:?} {:?}", r.score, r.best);
                    wrong.push((i, depth, r.score));
                }
            }
        }
    }
    eprintln!("mate claims checked: {checked}");
    assert!(wrong.is_empty(), "unproven mate claims: {wrong:?}");
}
