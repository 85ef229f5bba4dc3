//! Candidate lists ordered by the learned model (`OrderModel` > 0): a move's key is the
//! picker's score plus `OrderModel * logit / 100`. The lists are those of scoring every legal
//! move, but a move whose key cannot reach the list is never described: once `n` keys are
//! known, the `n`-th best bounds the rest. Drops are first bounded a whole shape at a time
//! (bit-sliced sums of per-cell bounds, as `filter_drops` does with the plain weights), then
//! one by one; shifts one by one.

use std::collections::BinaryHeap;

use super::{
    history_bonus, key_index, key_score, sort_key, take_best, Candidates, MovePicker, SHAPES,
};
use crate::engine::search::order_model::{self, Context, LogitBound, Model};
use crate::engine::search::params::Params;
use crate::engine::search::sliced::{Sliced, MAX_PLANES};
use crate::engine::search::threats::{any_drop, threat_cached, TouchCache};
use crate::rules::cellset::CellSet;
use crate::rules::geometry::{board_cells, Cell};
use crate::rules::movegen::MoveSink;
use crate::rules::moves::Move;
use crate::rules::piece::{Kind, Placement, PLACEMENT_SLOTS};
use crate::rules::position::Position;

/// Largest per-cell number the bit-sliced bounds hold: three cells and a PÜNCT excess add
/// up to less than 2^12, within `MAX_PLANES`.
const QUANTA: i32 = (1 << 10) - 1;
const _: () = assert!(4 * QUANTA < 1 << (MAX_PLANES - 1));

impl MovePicker {
    /// The threat stoppers (best first, at most `block_cap`), the best `n` other moves by the
    /// model's keys, and whether those are all there are (as `candidates`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn candidates_by_model(
        &mut self,
        pos: &Position,
        n: usize,
        block_cap: usize,
        params: &Params,
        history: &[i32],
        touch_cache: &mut TouchCache,
        out: &mut Candidates,
    ) -> bool {
        let paths = self.compute_weights(pos, params);
        let found = threat_cached(pos, touch_cache);
        out.decisive = found.is_some_and(|t| t.decisive);
        let ctx = Context::from_parts(pos, &[], paths, found.map(|t| (t.zone, t.decisive)));
        let model = order_model::model();
        let om = params.order_model;
        let bound = ctx.logit_bound(model);
        // A dot's most to a key in hundredths: its picker weight (x16) and its logit bound
        // (x OrderModel / 100) in one number; then the same less the minimum, in quanta that
        // fit the bit-sliced sums.
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for c in board_cells() {
            let i = c.index();
            let v = 1600 * self.weights[i] + om * bound.cell[i];
            self.cell_quanta[i] = v;
            self.cell_bound[i] = 1600 * self.weights[i] + om * bound.cell_but_contact[i];
            (lo, hi) = (lo.min(v), hi.max(v));
        }
        // The PÜNCT space's middle-distance weight over the least, in the same quanta: the
        // shapes' sums add it.
        let excess_max = bound.punct_excess().map(|(_, x)| om * x).max().unwrap_or(0);
        let quantum = ((hi - lo).max(excess_max) / QUANTA + 1).max(1);
        let in_quanta = |x: i32| (x + quantum - 1) / quantum;
        for c in board_cells() {
            let i = c.index();
            self.cell_quanta[i] = in_quanta(self.cell_quanta[i] - lo);
        }
        let puncts = Sliced::from_sets(
            bound
                .punct_excess()
                .map(|(set, x)| (set, in_quanta(om * x))),
        );
        let sliced = Sliced::from_values(&self.cell_quanta, board_cells());
        let colour = pos.side_to_move().index();
        let max_bonus =
            (self.shape_history_max[colour]).map(|h| history_bonus(h.max(0), params.history_div));
        let mut sums = std::mem::take(&mut self.model_sums);
        let mut moves = std::mem::take(&mut self.all);
        let mut blockers = std::mem::take(&mut self.block_keys);
        let mut rest = std::mem::take(&mut self.rest_keys);
        moves.clear();
        blockers.clear();
        rest.clear();
        // The best `n` keys so far, the worst on top (a heap of no more than `n`: the bound
        // to beat is always the current one).
        let mut rest = BinaryHeap::from(rest);
        let mut sink = ModelSink {
            picker: self,
            pos,
            params,
            history,
            colour,
            hist_base: colour * PLACEMENT_SLOTS,
            ctx: &ctx,
            model,
            cold_base: ctx.cold_base(model),
            bound: &bound,
            sliced: &sliced,
            puncts: &puncts,
            quantum,
            lowest: lo,
            max_bonus,
            zone: found.map(|t| t.zone),
            n,
            worst: None,
            need: i64::MIN,
            lifted: None,
            sums: &mut sums,
            summed: 0,
            moves: &mut moves,
            blockers: &mut blockers,
            rest: &mut rest,
        };
        pos.generate(&mut sink);
        take_best(&mut blockers, usize::MAX);
        let mut rest = rest.into_vec();
        take_best(&mut rest, n);
        let capped = blockers.len().min(block_cap);
        // The slot's buffers are reused (no allocation once grown).
        let fill = |v: &mut Vec<Move>, keys: &[u64]| {
            v.clear();
            v.extend(keys.iter().map(|&k| moves[key_index(k)]));
        };
        fill(&mut out.blockers, &blockers[..capped]);
        fill(&mut out.extra_blockers, &blockers[capped..]);
        fill(&mut out.rest, &rest);
        self.block_keys = blockers;
        self.rest_keys = rest;
        self.all = moves;
        self.model_sums = sums;
        let complete = out.rest.len() < n;
        // One last drop stands for all (as in `candidates`).
        if pos.hand_total(pos.side_to_move()) == 1 {
            let is_drop = |m: &Move| matches!(m, Move::Drop(_));
            if !out.blockers.iter().any(is_drop) {
                out.rest.retain(|m| !is_drop(m));
                out.blockers.extend(any_drop(pos));
            }
        }
        complete
    }
}

/// Takes the legal moves as they are generated and keys the ones that may make the list.
/// Keys index `moves`, which grows in generation order: ties rank as in full scoring.
struct ModelSink<'a> {
    picker: &'a MovePicker,
    pos: &'a Position,
    params: &'a Params,
    history: &'a [i32],
    /// The side to move (an index), and its first slot in `history`.
    colour: usize,
    hist_base: usize,
    ctx: &'a Context,
    model: &'a Model,
    cold_base: i32,
    bound: &'a LogitBound,
    /// `cell_quanta` bit-sliced, one quantum standing for `quantum` hundredths over `lowest`.
    sliced: &'a Sliced,
    /// Each PÜNCT space's middle-distance weight over the least, in the same quanta.
    puncts: &'a Sliced,
    quantum: i32,
    lowest: i32,
    /// Per shape (`kind * 6 + orientation`), the largest history bonus of the side to move.
    max_bonus: [i32; SHAPES],
    /// The opponent's threat zone: the moves meeting it are stoppers, all keyed.
    zone: Option<CellSet>,
    n: usize,
    /// The `n`-th best key of the non-stoppers so far.
    worst: Option<u64>,
    /// The hundredths a later non-stopper's bound must reach to beat `worst`: its score is
    /// at most `hundredths / 100 + 1` (truncating `logit * OrderModel / 100` adds less than
    /// 1), and it loses a tie, coming later. So it cannot reach the list below
    /// `100 * score(worst)` (`i64::MIN` while the list is not full: every move may).
    need: i64,
    /// The piece being shifted: its cell, lift feature, lift penalty and whether lifting it
    /// meets the threat zone (shifts come piece by piece).
    lifted: Option<(Cell, u8, i32, bool)>,
    /// Per shape (`kind * 6 + orientation`), the sums of `sliced` over its three cells, found
    /// on first use (bit `i` of `summed`).
    sums: &'a mut [Sliced],
    summed: u64,
    moves: &'a mut Vec<Move>,
    blockers: &'a mut Vec<u64>,
    rest: &'a mut BinaryHeap<u64>,
}

impl ModelSink<'_> {
    #[inline]
    fn history_bonus(&self, pl: Placement) -> i32 {
        history_bonus(
            self.history[self.hist_base + pl.index()],
            self.params.history_div,
        )
    }

    /// Whether the key of a non-stopper landing on `pl` cannot reach the list (`lift`,
    /// `penalty`: the shift's lift feature and lift penalty; `h`: its history bonus).
    #[inline]
    fn cannot_reach(&self, pl: Placement, lift: Option<u8>, penalty: i32, h: i32) -> bool {
        let om = self.params.order_model;
        let cells: i32 = (pl.cells().iter())
            .map(|c| self.picker.cell_bound[c.index()])
            .sum();
        let logit = self.bound.fixed(pl, lift) + self.bound.contact(self.ctx, pl);
        let hundredths = cells + om * logit + 100 * (h - 16 * penalty);
        (hundredths as i64) < self.need
    }

    /// The largest history bonus of the placements of `kind` in orientation `o`, and the
    /// PÜNCT spaces of those with a bonus (0 elsewhere).
    #[inline]
    fn history_of(&self, kind: Kind, o: u8) -> (i32, CellSet) {
        let shape = kind.index() * 6 + o as usize;
        (
            self.max_bonus[shape],
            self.picker.history_cells[self.colour][shape],
        )
    }

    /// The sums of `sliced` over the cells of each placement of `kind` in orientation `o`,
    /// plus its PÜNCT's excess (`puncts`).
    fn sums(&mut self, kind: Kind, o: u8) -> &Sliced {
        let i = kind.index() * 6 + o as usize;
        if self.summed & 1 << i == 0 {
            let [a, b] = kind.minor_offsets(o);
            (self.sliced).sum_at_offsets_plus(a, b, self.puncts, &mut self.sums[i]);
            self.summed |= 1 << i;
        }
        &self.sums[i]
    }

    /// The PÜNCT spaces of `domain` where a move of `kind` in orientation `o` may still reach
    /// the list, found for the whole shape at once (a superset of those `cannot_reach`
    /// keeps): `fixed` bounds the move's fixed logit part but the PÜNCT's excess (which the
    /// sums hold), `bonus` its history bonus less its lift penalty (x16).
    fn worth_a_look(
        &mut self,
        kind: Kind,
        o: u8,
        domain: CellSet,
        fixed: i32,
        bonus: i32,
    ) -> CellSet {
        if self.worst.is_none() || domain.is_empty() {
            return domain;
        }
        // A later move is kept by `cannot_reach` only if its hundredths reach `need`; they
        // are at most quantum * (its quanta) + 3 * lowest + the fixed part.
        let om = self.params.order_model as i64;
        let need = self.need - 3 * self.lowest as i64 - om * fixed as i64 - 100 * bonus as i64;
        let q = self.quantum as i64;
        let quanta = need.div_euclid(q) + (need.rem_euclid(q) != 0) as i64;
        let quanta = quanta.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        self.sums(kind, o).at_least(quanta, domain)
    }

    /// Finds the lift feature, lift penalty and threat contact of the piece on `from`, once
    /// per piece.
    fn lift(&mut self, from: Cell) -> (u8, i32, bool) {
        if self.lifted.is_none_or(|(f, ..)| f != from) {
            let pos = self.pos;
            let old = pos.top_piece(from).map(|id| pos.piece(id).placement);
            let (lift, touches) = old.map_or((0, false), |old| self.ctx.lift_of(pos, old));
            let penalty = old.map_or(0, |old| {
                (old.cells().iter())
                    .map(|c| self.picker.lift_penalty[c.index()])
                    .sum()
            });
            self.lifted = Some((from, lift, penalty, touches));
        }
        let (_, lift, penalty, touches) = self.lifted.expect("set above");
        (lift, penalty, touches)
    }

    fn set_worst(&mut self) {
        let worst = *self.rest.peek().expect("the list is full");
        self.worst = Some(worst);
        self.need = 100 * key_score(worst) as i64;
    }

    /// Keys move `m` (history bonus `h`; `penalty`: its lift penalty, 0 for a drop).
    fn describe(&mut self, m: Move, h: i32, penalty: i32, stopper: bool) {
        let om = self.params.order_model;
        // A cold drop meets no weighted space: its key is its history and two weights.
        let cold = match m {
            Move::Drop(pl) => (self.ctx)
                .cold_drop_logit(self.model, self.cold_base, pl)
                .map(|logit| h + logit * om / 100),
            _ => None,
        };
        let s = match cold {
            Some(s) => {
                debug_assert_eq!(self.picker.score(self.pos, m, self.params, self.history), h);
                s
            }
            None => {
                let f = self.ctx.features(self.pos, m);
                let logit = f.map_or(0, |f| self.model.score(&f));
                // The picker's score (`MovePicker::score`) from what the sink found already.
                let weights: i32 = (m.placement().iter().flat_map(|pl| pl.cells()))
                    .map(|c| self.picker.weights[c.index()])
                    .sum();
                let picked = 16 * (weights - penalty) + h;
                debug_assert_eq!(
                    picked,
                    self.picker.score(self.pos, m, self.params, self.history)
                );
                picked + logit * om / 100
            }
        };
        // Indices grow in generation order (ties rank as in full scoring); a move that
        // does not make the list takes none.
        let key = sort_key(s, self.moves.len());
        if stopper {
            self.moves.push(m);
            self.blockers.push(key);
        } else if self.rest.len() < self.n {
            self.moves.push(m);
            self.rest.push(key);
            if self.rest.len() == self.n {
                self.set_worst();
            }
        } else if self.worst.is_some_and(|worst| key < worst) {
            self.moves.push(m);
            *self.rest.peek_mut().expect("the list is full") = key;
            self.set_worst();
        }
    }
}

impl MoveSink for ModelSink<'_> {
    fn drops(&mut self, kind: Kind, o: u8, puncts: CellSet) {
        let [a, b] = kind.minor_offsets(o);
        let stop = match self.zone {
            Some(z) => puncts & (z | z.shifted_down(a) | z.shifted_down(b)),
            None => CellSet::EMPTY,
        };
        let fixed = self.bound.drop_fixed_base(kind, o);
        let (max_bonus, with_history) = self.history_of(kind, o);
        let domain = puncts - stop;
        let worth = stop
            | self.worth_a_look(kind, o, domain - with_history, fixed, 0)
            | self.worth_a_look(kind, o, domain & with_history, fixed, max_bonus);
        // In generation order (ascending cells), as `Vec<Move>` takes them.
        for p in worth {
            let pl = Placement::new_unchecked(kind, p, o);
            let h = self.history_bonus(pl);
            let stopper = stop.contains(p);
            if !stopper && self.cannot_reach(pl, None, 0, h) {
                continue;
            }
            self.describe(Move::Drop(pl), h, 0, stopper);
        }
    }

    fn shift_targets(&mut self, from: Cell, kind: Kind) -> Option<CellSet> {
        self.worst?;
        let (lift, penalty, lift_touches) = self.lift(from);
        if lift_touches {
            // Every shift of the piece is a stopper.
            return None;
        }
        let mut targets = CellSet::EMPTY;
        for o in 0..kind.orientations() {
            if let Some(z) = self.zone {
                let [a, b] = kind.minor_offsets(o);
                targets |= z | z.shifted_down(a) | z.shifted_down(b);
            }
            let fixed = self.bound.shift_fixed_base(kind, o, lift);
            let (max_bonus, with_history) = self.history_of(kind, o);
            let lifting = -16 * penalty;
            targets |= self.worth_a_look(kind, o, CellSet::BOARD - with_history, fixed, lifting)
                | self.worth_a_look(kind, o, with_history, fixed, max_bonus + lifting);
        }
        Some(targets)
    }

    fn shift(&mut self, from: Cell, to: Placement) {
        let (lift, penalty, lift_touches) = self.lift(from);
        let stopper =
            lift_touches || (self.zone).is_some_and(|z| to.cells().iter().any(|&c| z.contains(c)));
        let h = self.history_bonus(to);
        if !stopper && self.cannot_reach(to, Some(lift), penalty, h) {
            return;
        }
        self.describe(Move::Shift { from, to }, h, penalty, stopper);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_position;
    use crate::rules::position::Variant;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The lists by brute force: every legal move keyed by the picker's score plus the
    /// model's logit, the stoppers (moves meeting the threat zone, or lifting a piece that
    /// does) apart, the best `n` of the others.
    fn full_scoring(
        picker: &mut MovePicker,
        pos: &Position,
        n: usize,
        params: &Params,
        history: &[i32],
    ) -> (Vec<Move>, Vec<Move>) {
        let paths = picker.compute_weights(pos, params);
        let found = threat_cached(pos, &mut TouchCache::default());
        let ctx = Context::from_parts(pos, &[], paths, found.map(|t| (t.zone, t.decisive)));
        let zone = found.map_or(CellSet::EMPTY, |t| t.zone);
        let (mut stoppers, mut rest) = (Vec::new(), Vec::new());
        for (i, m) in pos.legal_moves().into_iter().enumerate() {
            let Some(pl) = m.placement() else { continue };
            let lift_meets = match m {
                Move::Shift { from, .. } => pos
                    .top_piece(from)
                    .is_some_and(|id| ctx.lift_of(pos, pos.piece(id).placement).1),
                _ => false,
            };
            let stopper = lift_meets || pl.cells().iter().any(|&c| zone.contains(c));
            let logit = ctx
                .features(pos, m)
                .map_or(0, |f| order_model::model().score(&f));
            let s = picker.score(pos, m, params, history) + logit * params.order_model / 100;
            let keyed = (sort_key(s, i), m);
            if stopper {
                stoppers.push(keyed);
            } else {
                rest.push(keyed);
            }
        }
        stoppers.sort();
        rest.sort();
        rest.truncate(n);
        let moves = |v: Vec<(u64, Move)>| v.into_iter().map(|(_, m)| m).collect();
        (moves(stoppers), moves(rest))
    }

    /// The bounded lists (shape filter, per-move bound, heap) are exactly those of scoring
    /// every move, with and without history, at several lengths, on the mid-game positions.
    #[test]
    fn bounded_lists_equal_full_scoring() {
        let text = include_str!("../../../../tournaments/midgame.txt");
        let positions: Vec<Position> = (text.lines())
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| parse_position(l, Variant::Standard).expect("a mid-game position"))
            .filter(|p| !p.is_finished() && p.hand_total(p.side_to_move()) > 1)
            .collect();
        assert!(positions.len() >= 100, "{}", positions.len());
        let params = Params::default();
        assert!(params.order_model > 0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(34);
        let mut picker = MovePicker::new(2);
        let (mut with_stoppers, mut shifts) = (0, 0);
        for (k, pos) in positions.iter().enumerate() {
            let mut history = vec![0i32; 2 * PLACEMENT_SLOTS];
            if k % 2 == 1 {
                for h in history.iter_mut() {
                    if rng.gen_bool(0.05) {
                        *h = rng.gen_range(1..1 << 16);
                    }
                }
            }
            for n in [1, 6, 13, 32] {
                picker.start(&history);
                let mut out = Candidates::default();
                let complete = picker.candidates_by_model(
                    pos,
                    n,
                    usize::MAX,
                    &params,
                    &history,
                    &mut TouchCache::default(),
                    &mut out,
                );
                let (stoppers, rest) = full_scoring(&mut picker, pos, n, &params, &history);
                assert_eq!(out.blockers, stoppers, "position {k}, n {n}");
                assert_eq!(out.rest, rest, "position {k}, n {n}");
                assert_eq!(complete, rest.len() < n);
                with_stoppers += !stoppers.is_empty() as usize;
                shifts += rest.iter().any(|m| matches!(m, Move::Shift { .. })) as usize;
            }
        }
        // Both kinds of move and of list occur.
        assert!(with_stoppers > 0 && shifts > 0, "{with_stoppers} {shifts}");
    }
}
