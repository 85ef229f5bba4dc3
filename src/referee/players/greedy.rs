//! `builtin:greedy`: a one-ply player, the rung of the ladder between `builtin:random` and the
//! engine. It decides with the rules library alone:
//!
//! 1. A winning move if it has one: a move after which the rules say it has won (connection,
//!    or the centre count of its 18th drop). Found exactly by [`winning_moves`].
//! 2. Otherwise the moves in the order of [`Scorer`] (connection distances and centre, ties in
//!    an order drawn from the seeded generator), and the first one after which the opponent
//!    has no winning move is played: a stopper when the opponent threatens, a move that gives
//!    nothing away otherwise. When the opponent threatens (its winning moves if it could move
//!    now), a move that touches none of the cells a threat depends on cannot stop it and is
//!    skipped unchecked; each other move costs one exact check ([`opponent_wins_after`]).
//! 3. When no move passes (lost) or the checks run out ([`MAX_CHECKS`], or the time budget),
//!    the best-scored move.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use rand::Rng;

use crate::referee::players::greedy_score::{cell_set, Scorer};
use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Axis, Cell};
use crate::rules::movegen::MoveSink;
use crate::rules::moves::Move;
use crate::rules::piece::{Kind, Placement};
use crate::rules::position::{EndReason, Position};

/// Exact "does the opponent win after this move" checks per decision at most.
pub const MAX_CHECKS: usize = 400;

/// Gaps (cells not yet the player's) a single move can fill: one piece covers three cells.
const MAX_GAPS: usize = 3;

/// The cells not in `own` that lie on some chain joining two opposite sides with at most
/// [`MAX_GAPS`] cells outside `own`. A move can only connect by covering one of them: after any
/// move the mover's top view is within its top view before plus the three cells it lands on
/// (lifting an own piece only shows what lay below it).
pub fn connection_zone(own: CellSet) -> CellSet {
    let mut zone = CellSet::EMPTY;
    for axis in Axis::ALL {
        let (a, b) = axis.sides();
        let from_a = gap_layers(own, a.cells());
        let from_b = gap_layers(own, b.cells());
        // A cell outside `own` reached with i gaps from one side and j from the other (itself
        // counted in both) lies on a chain with i + j - 1 gaps.
        for i in 1..=MAX_GAPS {
            zone |= from_a[i] & from_b[MAX_GAPS + 1 - i];
        }
    }
    zone - own
}

/// `layers[k]`: the cells reachable from `side` through at most `k` cells outside `own`.
fn gap_layers(own: CellSet, side: CellSet) -> [CellSet; MAX_GAPS + 1] {
    let mut layers = [CellSet::EMPTY; MAX_GAPS + 1];
    layers[0] = (side & own).flood(own);
    for k in 1..=MAX_GAPS {
        let seeds = layers[k - 1].expand() | side;
        layers[k] = seeds.flood(own | seeds);
    }
    layers
}

/// Collects the moves whose landing cells meet `zone` (others are not generated when the
/// generator can skip them).
struct ZoneSink {
    zone: CellSet,
    /// Cells within two steps of the zone: a piece's dots are within two steps of its PÜNCT.
    near: CellSet,
    moves: Vec<Move>,
}

impl ZoneSink {
    fn new(zone: CellSet) -> ZoneSink {
        ZoneSink {
            zone,
            near: zone.expand().expand(),
            moves: Vec::new(),
        }
    }

    fn meets(&self, p: Placement) -> bool {
        p.cells().iter().any(|&c| self.zone.contains(c))
    }
}

impl MoveSink for ZoneSink {
    fn drops(&mut self, kind: Kind, orientation: u8, puncts: CellSet) {
        for c in puncts & self.near {
            let p = Placement::new_unchecked(kind, c, orientation);
            if self.meets(p) {
                self.moves.push(Move::Drop(p));
            }
        }
    }

    fn shift(&mut self, from: Cell, to: Placement) {
        if self.meets(to) {
            self.moves.push(Move::Shift { from, to });
        }
    }

    fn shift_targets(&mut self, _from: Cell, _kind: Kind) -> Option<CellSet> {
        Some(self.near)
    }
}

/// The moves after which the side to move has won, at most `limit` of them (all of them, in
/// generation order, when `limit` is large): only moves covering a cell of the
/// [`connection_zone`] are tried, plus every drop when it is the mover's last one.
pub fn winning_moves(pos: &mut Position, limit: usize) -> Vec<Move> {
    let me = pos.side_to_move();
    let mut candidates = Vec::new();
    let zone = connection_zone(pos.top_view(me));
    if !zone.is_empty() {
        let mut sink = ZoneSink::new(zone);
        pos.generate(&mut sink);
        candidates = sink.moves;
    }
    if pos.hand_total(me) == 1 {
        // The 18th drop ends the game on the centre count (standard game).
        let mut all = Vec::new();
        pos.generate(&mut all);
        candidates.extend(all.into_iter().filter(|m| matches!(m, Move::Drop(_))));
    }
    let mut wins = Vec::new();
    for mv in candidates {
        pos.make(mv);
        let won = pos.outcome().is_some_and(|o| o.winner == Some(me));
        pos.unmake();
        if won && !wins.contains(&mv) {
            wins.push(mv);
            if wins.len() >= limit {
                break;
            }
        }
    }
    wins
}

/// Whether, after `mv` by the side to move, the opponent has won or has a winning move.
pub fn opponent_wins_after(pos: &mut Position, mv: Move) -> bool {
    let opp = !pos.side_to_move();
    pos.make(mv);
    let wins = match pos.outcome() {
        Some(o) => o.winner == Some(opp),
        None => !winning_moves(pos, 1).is_empty(),
    };
    pos.unmake();
    wins
}

/// The cells a move changes: where it lands and, for a shift, where the piece was.
fn touched(pos: &Position, mv: Move) -> CellSet {
    match mv {
        Move::Drop(p) => cell_set(p),
        Move::Shift { from, to } => {
            let id = pos.top_piece(from).expect("a shift starts on a piece");
            cell_set(to) | cell_set(pos.piece(id).placement)
        }
        Move::Pass => CellSet::EMPTY,
    }
}

/// The opponent's threats, each as the cells it depends on: a move of ours that touches none of
/// them leaves that winning move legal and winning. `None` when they cannot be listed (the
/// last move was a pass, so a null move would end the game).
///
/// A threat is a winning move `w` of the opponent if it moved now. It depends on the cells `w`
/// lands on and leaves (its legality), the opponent's top view after it (the connection) and,
/// for a win on the centre count, the central hexagon.
pub fn threats(pos: &mut Position) -> Option<Vec<CellSet>> {
    if pos.last_was_pass() || pos.is_finished() {
        return None;
    }
    let opp = !pos.side_to_move();
    pos.make(Move::Pass);
    let mut deps = HashSet::new();
    for w in winning_moves(pos, usize::MAX) {
        let mut cells = touched(pos, w);
        pos.make(w);
        cells |= pos.top_view(opp);
        if pos
            .outcome()
            .is_some_and(|o| o.reason != EndReason::Connection)
        {
            cells |= central_cells();
        }
        pos.unmake();
        deps.insert(cells);
    }
    pos.unmake();
    Some(deps.into_iter().collect())
}

/// Whether `mv` ends the game by itself (the mover's last drop) whatever else it does.
fn ends_game(pos: &Position, mv: Move) -> bool {
    matches!(mv, Move::Drop(_)) && pos.hand_total(pos.side_to_move()) == 1
}

/// What one decision did (for tests and logs).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub mv: Move,
    pub why: Why,
    /// Exact checks made.
    pub checks: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The only legal move.
    Forced,
    /// It wins at once.
    Wins,
    /// The best-scored (or, for `builtin:safe`, the first drawn) move after which the opponent
    /// cannot win at once.
    Safe,
    /// Nothing checked was safe (or the budget ran out): the best-scored (first drawn) move.
    BestScore,
}

/// Chooses a move for the side to move (the game must not be over). `budget` bounds the time
/// spent on exact checks; within it, the choice depends only on the position and `rng`.
pub fn choose<R: Rng>(pos: &mut Position, rng: &mut R, budget: Duration) -> Decision {
    choose_by(pos, rng, budget, Order::Score)
}

/// `builtin:safe`'s choice: as [`choose`], but the moves in a random order: a win if there is
/// one, else a random move after which the opponent cannot win at once (the weakest anchor of
/// the strength scale: it knows what a win in one is, and nothing more).
pub fn choose_safe<R: Rng>(pos: &mut Position, rng: &mut R, budget: Duration) -> Decision {
    choose_by(pos, rng, budget, Order::Random)
}

/// The order moves are tried in.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Order {
    /// By [`Scorer`], ties at random.
    Score,
    /// At random.
    Random,
}

fn choose_by<R: Rng>(pos: &mut Position, rng: &mut R, budget: Duration, by: Order) -> Decision {
    let start = Instant::now();
    let moves = pos.legal_moves();
    if moves.len() <= 1 {
        return Decision {
            mv: moves.first().copied().unwrap_or(Move::Pass),
            why: Why::Forced,
            checks: 0,
        };
    }
    if let Some(&mv) = winning_moves(pos, 1).first() {
        return Decision {
            mv,
            why: Why::Wins,
            checks: 0,
        };
    }
    let mut order: Vec<(i32, u64, Move)> = match by {
        Order::Score => {
            let mut scorer = Scorer::new(pos);
            moves
                .iter()
                .map(|&m| (scorer.score(m), rng.gen(), m))
                .collect()
        }
        Order::Random => moves.iter().map(|&m| (0, rng.gen(), m)).collect(),
    };
    order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let threats = threats(pos);
    let mut checks = 0;
    for &(_, _, mv) in &order {
        if let Some(deps) = threats.as_ref().filter(|d| !d.is_empty()) {
            let t = touched(pos, mv);
            if !ends_game(pos, mv) && !deps.iter().all(|d| d.intersects(t)) {
                continue;
            }
        }
        if checks >= MAX_CHECKS || start.elapsed() > budget {
            break;
        }
        checks += 1;
        if !opponent_wins_after(pos, mv) {
            return Decision {
                mv,
                why: Why::Safe,
                checks,
            };
        }
    }
    Decision {
        mv: order[0].2,
        why: Why::BestScore,
        checks,
    }
}
