//! Mate scores must be proven: with width caps the search may leave out the one move that
//! escapes, and then it must not report a forced loss for the side whose moves were pruned.
//! Each reported short mate is checked here by playing every move with the rules library.

use punct::engine::search::threats::find_win;
use punct::engine::search::{SearchMode, Searcher};
use punct::engine::types::{Limits, Score, SearchControl};
use punct::{Colour, Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

const GAMES: u64 = 8;

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

/// Checks a mate claim of 1 or 2 moves either way (UCI counting: up to 2 or 4 plies) for the
/// side to move of `p` with best move `best`; `None` for other scores.
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
        Score::Mate(-2) => Some(lost_in_two(&mut p, us)),
        _ => None,
    }
}

/// Whether the side to move has a move after which the game is won or every reply loses in
/// one (slow: every move is tried).
fn wins_in_two_by_every_move(p: &mut Position) -> bool {
    let me = p.side_to_move();
    for mv in p.legal_moves() {
        p.make(mv);
        let won = match p.outcome() {
            Some(o) => o.winner == Some(me),
            None => lost_in_one(p, !me),
        };
        p.unmake();
        if won {
            eprintln!("found by trying every move: {mv}");
            return true;
        }
    }
    false
}

/// Whether every move of the side to move `us` loses within two moves of the opponent: the
/// game ends lost, or the opponent then has a win in one, or a move after which every reply
/// loses in one. The opponent's second kind of win is looked for with a full-width search and
/// the move it finds is proven by the rules (`claim_holds`), so a wrong search cannot prove a
/// claim; the worst it can do is fail to find a win, and then the claim counts as wrong.
fn lost_in_two(p: &mut Position, us: Colour) -> bool {
    let mut witness_search = Searcher::new(4);
    for mv in p.legal_moves() {
        p.make(mv);
        let lost = match p.outcome() {
            Some(o) => o.winner == Some(!us),
            None => {
                wins_in_one(p) || {
                    let limits = Limits {
                        depth: Some(3),
                        ..Limits::default()
                    };
                    let r =
                        witness_search.search(p, &limits, &SearchControl::default(), &mut |_| {});
                    (matches!(r.score, Score::Mate(1 | 2))
                        && claim_holds(p, r.score, r.best.unwrap()) == Some(true))
                        || {
                            eprintln!("witness search failed: {r:?}, trying every move");
                            wins_in_two_by_every_move(p)
                        }
                }
            }
        };
        p.unmake();
        if !lost {
            return false;
        }
    }
    true
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
    let mut checked = std::collections::BTreeMap::<String, u32>::new();
    let mut wrong = Vec::new();
    let mut narrow = Searcher::new(4);
    for (name, value) in [("WidthBase", 1), ("WidthPerDepth", 0), ("BlockCap", 1)] {
        narrow.params_mut().set(name, value).unwrap();
    }
    // The default widths as well: the narrow searches rightly claim no mate in 2 either way
    // (they cannot prove one), the default search does, and those claims are checked too.
    let mut searchers = [narrow, Searcher::new(4)];
    for (i, pos) in game_positions(GAMES).iter().enumerate() {
        for (which, depth) in [(0, 2), (0, 3), (0, 4), (1, 3), (1, 4)] {
            let s = &mut searchers[which];
            s.clear();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = s.search(pos, &limits, &SearchControl::default(), &mut |_| {});
            if let Some(ok) = claim_holds(pos, r.score, r.best.unwrap()) {
                *checked.entry(format!("{:?}", r.score)).or_insert(0) += 1;
                if !ok {
                    eprintln!("wrong: {pos} depth {depth} {:?} {:?}", r.score, r.best);
                    wrong.push((i, depth, r.score));
                }
            }
        }
    }
    eprintln!("mate claims checked: {checked:?}");
    assert!(wrong.is_empty(), "unproven mate claims: {wrong:?}");
    // Every kind of claim checked here occurs; without them the test would pass having
    // checked nothing.
    for kind in ["Mate(1)", "Mate(-1)", "Mate(2)", "Mate(-2)"] {
        assert!(checked.contains_key(kind), "{kind}: {checked:?}");
    }
}

/// `SearchMode puct` proves mates in its tree (MCTS-Solver): every short mate it claims, at
/// default and narrow widths, holds by the rules.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn puct_claims_only_proven_mates() {
    let mut checked = std::collections::BTreeMap::<String, u32>::new();
    let mut wrong = Vec::new();
    let mut narrow = Searcher::new(4);
    for (name, value) in [("PuctWidth", 2), ("BlockCap", 1)] {
        narrow.params_mut().set(name, value).unwrap();
    }
    let mut searchers = [narrow, Searcher::new(4)];
    searchers
        .iter_mut()
        .for_each(|s| s.set_mode(SearchMode::Puct));
    for (i, pos) in game_positions(GAMES / 2).iter().enumerate() {
        for (which, nodes) in [(0, 200), (1, 400)] {
            let s = &mut searchers[which];
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = s.search(pos, &limits, &SearchControl::default(), &mut |_| {});
            pos.check_move(r.best.unwrap()).unwrap();
            if let Some(ok) = claim_holds(pos, r.score, r.best.unwrap()) {
                *checked.entry(format!("{:?}", r.score)).or_insert(0) += 1;
                if !ok {
                    eprintln!("wrong: {pos} nodes {nodes} {:?} {:?}", r.score, r.best);
                    wrong.push((i, nodes, r.score));
                }
            }
        }
    }
    eprintln!("puct mate claims checked: {checked:?}");
    assert!(wrong.is_empty(), "unproven mate claims: {wrong:?}");
    for kind in ["Mate(1)", "Mate(-1)", "Mate(2)"] {
        assert!(checked.contains_key(kind), "{kind}: {checked:?}");
    }
}
