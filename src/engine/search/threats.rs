//! One-move wins and threats: the moves that win at once, the spaces every stopper of the
//! opponent's one-move wins must touch, and the root's exact tactics. Which placements
//! complete a connection is found set-wise in [`touch`](super::touch); no move is played
//! except where a doc says so.

pub use crate::engine::search::touch::TouchCache;
use crate::engine::search::touch::{connecting_shifts, may_connect, CompletingDrops};
use crate::rules::cellset::CellSet;
use crate::rules::geometry::central_cells;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::{Position, Variant, PIECES_PER_PLAYER};

/// The PÜNCT spaces of drops of `kind`/`o` with all three dots in `area` and one in `hit`.
#[inline]
fn drop_puncts(kind: Kind, o: u8, area: CellSet, hit: CellSet) -> CellSet {
    let [a, b] = kind.minor_offsets(o);
    let touch = hit | hit.shifted_down(a) | hit.shifted_down(b);
    area & area.shifted_down(a) & area.shifted_down(b) & touch
}

/// Any legal drop of the side to move.
pub fn any_drop(pos: &Position) -> Option<Move> {
    let side = pos.side_to_move();
    let area = pos.drop_area();
    for kind in Kind::ALL {
        if pos.in_hand(side, kind) == 0 {
            continue;
        }
        for o in 0..kind.orientations() {
            if let Some(p) = drop_puncts(kind, o, area, area).first() {
                return Some(Move::Drop(Placement::new_unchecked(kind, p, o)));
            }
        }
    }
    None
}

/// A shift of the side to move that wins: landings that would complete a connection are
/// found set-wise per movable piece, then checked (see [`connecting_shifts`]).
fn shift_win(pos: &Position, cache: &mut TouchCache) -> Option<Move> {
    let us = pos.side_to_move();
    let own = pos.top_view(us);
    let any = cache.get(own).any();
    pos.pieces().find_map(|(id, piece)| {
        let from = piece.placement.punct();
        if piece.colour != us || !may_connect(from, any) {
            return None;
        }
        connecting_shifts(pos, cache, own, id)
            .next()
            .map(|to| Move::Shift { from, to })
    })
}

/// A move that wins at once for the side to move: a connection, or in the standard game a
/// last drop with more central dots. Cheap when no piece could join two sides.
pub fn find_win(pos: &Position) -> Option<Move> {
    find_win_cached(pos, &mut TouchCache::default())
}

/// The standard game's centre counts `(them, the side to move)` when the opponent holds its
/// last piece (its drop ends the game by the count), else `None`.
fn last_drop_counts(pos: &Position) -> Option<(u8, u8)> {
    let them = !pos.side_to_move();
    if pos.variant() != Variant::Standard || pos.hand_total(them) != 1 {
        return None;
    }
    let [w, b] = pos.centre_count();
    Some(if them == Colour::White {
        (w, b)
    } else {
        (b, w)
    })
}

/// [`find_win`] with a cache of the sets it derives from top views.
pub fn find_win_cached(pos: &Position, cache: &mut TouchCache) -> Option<Move> {
    if pos.is_finished() {
        return None;
    }
    let us = pos.side_to_move();
    if pos.variant() == Variant::Standard && pos.hand_total(us) == 1 {
        let [w, b] = pos.centre_count();
        let (mine, theirs) = if us == Colour::White { (w, b) } else { (b, w) };
        // Drops never touch the centre, so the count after the drop is the count now.
        if mine > theirs {
            if let Some(mv) = any_drop(pos) {
                return Some(mv);
            }
        }
    }
    let touch = cache.get(pos.top_view(us));
    if !touch.near() {
        return None;
    }
    if pos.hand_total(us) > 0 {
        if let Some(pl) = CompletingDrops::new(pos, us, touch).first() {
            return Some(Move::Drop(pl));
        }
    }
    if pos.hand_total(us) == PIECES_PER_PLAYER {
        return None;
    }
    shift_win(pos, cache)
}

/// The moves among `moves` after which the mover threatens to win next move (a connection in
/// one, or a last drop ahead on the centre count), written to `out`: forcing moves, which the
/// opponent must answer with a stopper. A move that ends the game is not among them.
/// `stop` is asked every few moves; false when it said stop (`out` is then partial).
pub fn threat_moves(
    pos: &mut Position,
    moves: &[Move],
    cache: &mut TouchCache,
    out: &mut Vec<Move>,
    stop: &mut dyn FnMut() -> bool,
) -> bool {
    out.clear();
    for (i, &mv) in moves.iter().enumerate() {
        if i % THREAT_POLL == THREAT_POLL - 1 && stop() {
            return false;
        }
        pos.make(mv);
        if pos.outcome().is_none() {
            // The mover's wins as if it could move again.
            pos.make(Move::Pass);
            if pos.outcome().is_none() && find_win_cached(pos, cache).is_some() {
                out.push(mv);
            }
            pos.unmake();
        }
        pos.unmake();
    }
    true
}

/// Moves played by [`threat_moves`] between two looks at its stop signal.
const THREAT_POLL: usize = 16;

/// Every space a move of the side to move may have to touch (by landing or lifting) to stop
/// the opponent's one-move wins, or `None` when the opponent has none: the spaces of each
/// winning drop or shift (with the shifted piece's own spaces), the opponent's dots joined to
/// the sides, and the centre when the opponent's last drop would win or draw the count.
pub fn threat_zone(pos: &Position) -> Option<CellSet> {
    threat(pos).map(|t| t.zone)
}

/// The opponent's one-move threats (see [`threat_zone`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Every move that stops the threats touches this zone.
    pub zone: CellSet,
    /// The opponent has a winning move (not only a drawing last drop): every move of the side
    /// to move that does not touch the zone loses at once.
    pub decisive: bool,
}

/// [`threat_zone`] with whether the threat is a win (see [`Threat`]).
pub fn threat(pos: &Position) -> Option<Threat> {
    threat_cached(pos, &mut TouchCache::default())
}

/// [`threat`] with a cache of the sets it derives from top views.
pub fn threat_cached(pos: &Position, cache: &mut TouchCache) -> Option<Threat> {
    let them = !pos.side_to_move();
    let mut decisive = false;
    let mut zone = CellSet::EMPTY;
    let mut threatened = false;
    let own = pos.top_view(them);
    let touch = cache.get(own);
    if touch.near() {
        let chains = touch.chains();
        let drops = CompletingDrops::new(pos, them, touch);
        if !drops.any.is_empty() {
            threatened = true;
            zone |= drops.cells();
        }
        let any = touch.any();
        for (id, piece) in pos.pieces() {
            if piece.colour != them || !may_connect(piece.placement.punct(), any) {
                continue;
            }
            for to in connecting_shifts(pos, cache, own, id) {
                threatened = true;
                for c in to.cells().into_iter().chain(piece.placement.cells()) {
                    zone.insert(c);
                }
            }
        }
        if threatened {
            zone |= chains;
            decisive = true;
        }
    }
    if let Some((theirs, mine)) = last_drop_counts(pos) {
        if theirs >= mine {
            threatened = true;
            decisive |= theirs > mine;
            zone |= central_cells();
        }
    }
    threatened.then_some(Threat { zone, decisive })
}

/// Whether the opponent has a winning move (the `decisive` of [`threat_cached`], which this
/// equals): the same look, but it stops at the first winning move and builds no zone, which
/// a leaf asking only this does not need.
pub fn threat_is_decisive(pos: &Position, cache: &mut TouchCache) -> bool {
    if last_drop_counts(pos).is_some_and(|(theirs, mine)| theirs > mine) {
        return true;
    }
    let them = !pos.side_to_move();
    let own = pos.top_view(them);
    let touch = cache.get(own);
    if !touch.near() {
        return false;
    }
    if !CompletingDrops::new(pos, them, touch).any.is_empty() {
        return true;
    }
    let any = touch.any();
    pos.pieces().any(|(id, piece)| {
        piece.colour == them
            && may_connect(piece.placement.punct(), any)
            && connecting_shifts(pos, cache, own, id).next().is_some()
    })
}

/// What the rules decide at the root before any search (see [`root_tactics`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootTactics {
    /// This move wins at once.
    Win(Move),
    /// The opponent threatens to win next move: exactly these moves stop every threat (all
    /// others lose at once). Empty when none does: the position is lost.
    Stoppers(Vec<Move>),
    /// Neither: the search decides.
    Open,
}

/// The root's exact tactics over `moves` (the legal moves, or the `searchmoves` among them):
/// a winning move if one exists, else, against a winning threat, the moves after which the
/// opponent has no winning move, each checked by playing it. Stoppers are looked for only among
/// the moves that touch the threat zone (every stopper does, see [`threat`]) and own last drops
/// (which end the game).
pub fn root_tactics(pos: &mut Position, moves: &[Move]) -> RootTactics {
    if pos.is_finished() || moves.is_empty() {
        return RootTactics::Open;
    }
    let us = pos.side_to_move();
    let wins = |pos: &mut Position, mv: Move| {
        pos.make(mv);
        let won = pos.outcome().is_some_and(|o| o.winner == Some(us));
        pos.unmake();
        won
    };
    if let Some(win) = find_win(pos) {
        if moves.contains(&win) {
            return RootTactics::Win(win);
        }
        // Restricted by `searchmoves`: look for a win among the allowed moves.
        if let Some(&mv) = moves.iter().find(|&&mv| wins(pos, mv)) {
            return RootTactics::Win(mv);
        }
    }
    let Some(t) = threat(pos).filter(|t| t.decisive) else {
        return RootTactics::Open;
    };
    let last_drop = pos.hand_total(us) == 1;
    let stoppers = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let candidate =
                move_touches(pos, mv, t.zone) || (last_drop && matches!(mv, Move::Drop(_)));
            candidate && stops_threats(pos, mv)
        })
        .collect();
    RootTactics::Stoppers(stoppers)
}

/// Whether after `mv` the opponent neither has won nor can win with one move.
pub fn stops_threats(pos: &mut Position, mv: Move) -> bool {
    let them = !pos.side_to_move();
    pos.make(mv);
    let stops = match pos.outcome() {
        Some(o) => o.winner != Some(them),
        None => find_win(pos).is_none(),
    };
    pos.unmake();
    stops
}

/// Whether a move lands on or lifts a piece off a space of `zone`.
pub fn move_touches(pos: &Position, mv: Move, zone: CellSet) -> bool {
    let lands = mv
        .placement()
        .is_some_and(|pl| pl.cells().iter().any(|&c| zone.contains(c)));
    let lifts = match mv {
        Move::Shift { from, .. } => pos.top_piece(from).is_some_and(|id| {
            pos.piece(id)
                .placement
                .cells()
                .iter()
                .any(|&c| zone.contains(c))
        }),
        _ => false,
    };
    lands || lifts
}
