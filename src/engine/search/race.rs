//! Exact wins within three plies: a move after which the opponent has no win and every reply
//! leaves a win in one (or ends the game in our favour). It is the solver of the centre race's
//! last plies: a player with one piece left wins by dropping it while ahead on the centre
//! count, so "get ahead where no reply can catch up" is a win in three the rules can prove.
//! It holds for connections too (a double threat). The search calls it at the root, where
//! width caps could leave such a plan unsearched.
//!
//! Exactness rests on two facts checked elsewhere against the rules: [`find_win`] finds every
//! win in one, and every move that stops a winning threat touches the zone of [`threat`].

use crate::engine::search::threats::{
    any_drop, find_win_cached, move_touches, threat_cached, TouchCache,
};
use crate::rules::moves::Move;
use crate::rules::position::{Position, Variant};
use crate::Colour;

/// Whether the game may be in the centre race: the standard game with few pieces in hand on
/// both sides, where a last drop is at most a few plies away. Outside it [`win_in_three`] still
/// answers exactly, only at a cost the search does not pay there.
pub fn in_race(pos: &Position, hand: u8) -> bool {
    pos.variant() == Variant::Standard
        && !pos.is_finished()
        && pos.hand_total(Colour::White) <= hand
        && pos.hand_total(Colour::Black) <= hand
}

/// A move among `moves` (legal in `pos`) that wins within three plies, a win in one first.
/// `None` when no such move exists: the answer is exact either way.
pub fn win_in_three(pos: &mut Position, moves: &[Move]) -> Option<Move> {
    win_in_three_within(pos, moves, u64::MAX, &mut || false).map_or(None, |(mv, _)| mv)
}

/// [`win_in_three`] within a budget of moves played (the cost is one to a few thousand per
/// root move), giving up too when `stop` says so (asked every few hundred moves): the answer
/// and the moves played, or `Err` with the moves played when it gave up first.
pub fn win_in_three_within(
    pos: &mut Position,
    moves: &[Move],
    budget: u64,
    stop: &mut dyn FnMut() -> bool,
) -> Result<(Option<Move>, u64), u64> {
    let mut solver = Solver {
        stop,
        us: pos.side_to_move(),
        cache: TouchCache::default(),
        replies: Vec::with_capacity(1024),
        played: 0,
        budget,
        asked: 0,
    };
    if pos.is_finished() {
        return Ok((None, 0));
    }
    if find_win_cached(pos, &mut solver.cache).is_some() {
        // `moves` may leave the engine's pick out (searchmoves): any winning one will do.
        if let Some(&mv) = moves.iter().find(|&&mv| solver.wins_at_once(pos, mv)) {
            return Ok((Some(mv), solver.played));
        }
    }
    for &mv in moves {
        if solver.gives_up() {
            return Err(solver.played);
        }
        pos.make(mv);
        solver.played += 1;
        let wins = match pos.outcome() {
            Some(o) => o.winner == Some(solver.us),
            None => solver.forced(pos),
        };
        pos.unmake();
        if wins {
            return Ok((Some(mv), solver.played));
        }
    }
    if solver.played > solver.budget {
        return Err(solver.played);
    }
    Ok((None, solver.played))
}

struct Solver<'a> {
    stop: &'a mut dyn FnMut() -> bool,
    us: Colour,
    cache: TouchCache,
    replies: Vec<Move>,
    /// Moves played so far, against `budget`.
    played: u64,
    budget: u64,
    /// `played / 256` when `stop` was last asked.
    asked: u64,
}

impl Solver<'_> {
    /// Out of budget, or told to stop (asked every 256 moves played).
    fn gives_up(&mut self) -> bool {
        if self.played > self.budget {
            return true;
        }
        if self.played / 256 != self.asked {
            self.asked = self.played / 256;
            if (self.stop)() {
                self.budget = 0;
                return true;
            }
        }
        false
    }

    fn wins_at_once(&mut self, pos: &mut Position, mv: Move) -> bool {
        pos.make(mv);
        self.played += 1;
        let won = pos.outcome().is_some_and(|o| o.winner == Some(self.us));
        pos.unmake();
        won
    }

    /// A reply of the opponent refutes when after it we have neither won nor a win in one.
    fn refutes(&mut self, pos: &mut Position, r: Move) -> bool {
        pos.make(r);
        self.played += 1;
        let holds = match pos.outcome() {
            Some(o) => o.winner != Some(self.us),
            None => find_win_cached(pos, &mut self.cache).is_none(),
        };
        pos.unmake();
        holds
    }

    /// With the opponent to move (game not over): whether every reply loses, at once or to a
    /// win in one of ours. Out of budget it answers "no" (the caller then gives up).
    fn forced(&mut self, pos: &mut Position) -> bool {
        if find_win_cached(pos, &mut self.cache).is_some() {
            return false;
        }
        // Our winning threats as the opponent sees them (the side not to move's wins).
        let zone = threat_cached(pos, &mut self.cache)
            .filter(|t| t.decisive)
            .map(|t| t.zone);
        if zone.is_none() {
            // No win of ours stands: almost any reply keeps it so. A drop is tried first (no
            // list needed), then every reply until one refutes.
            if let Some(r) = any_drop(pos) {
                if self.refutes(pos, r) {
                    return false;
                }
            }
        }
        let mut list = std::mem::take(&mut self.replies);
        pos.legal_moves_into(&mut list);
        let last_drop = pos.hand_total(!self.us) == 1;
        let mut forced = true;
        for &r in &list {
            // Against a decisive threat only moves touching its zone can stop it; a last drop
            // ends the game, so it is judged by playing it.
            if let Some(z) = zone {
                let stopper_kind =
                    move_touches(pos, r, z) || (last_drop && matches!(r, Move::Drop(_)));
                if !stopper_kind {
                    continue;
                }
            }
            if self.gives_up() || self.refutes(pos, r) {
                forced = false;
                break;
            }
        }
        self.replies = list;
        forced
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_position;

    #[test]
    fn race_needs_the_standard_game_and_few_pieces_in_hand() {
        let start = Position::new(Variant::Standard);
        assert!(!in_race(&start, 2));
        assert!(in_race(&start, 18));
        assert!(!in_race(&Position::new(Variant::Basic), 18));
        let pos = parse_position("Wc5c6d6/Bf5f6f7 w 2", Variant::Standard).unwrap();
        assert!(in_race(&pos, 17) && !in_race(&pos, 16));
    }
}
