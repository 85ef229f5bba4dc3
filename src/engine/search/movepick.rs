//! Selective move lists: every legal move gets a cheap score from per-space weights (own and
//! opponent's near-shortest paths, contact, the centre as the last drop nears) plus history;
//! a node searches the TT move, every move that may stop an opponent's one-move threat, and
//! the best `width` of the rest.

use std::cmp::Reverse;

mod by_model;

use crate::engine::search::evaluate::centre_phase;
use crate::engine::search::order_model;
use crate::engine::search::params::Params;
use crate::engine::search::paths::near_paths;
use crate::engine::search::sliced::{kth_largest, Sliced};
use crate::engine::search::threats::{
    any_drop, move_touches as touches, threat_cached, threat_zone, TouchCache,
};
use crate::rules::cellset::CellSet;
use crate::rules::geometry::Cell;
use crate::rules::geometry::{board_cells, central_cells, GRID_LEN};
use crate::rules::movegen::MoveSink;
use crate::rules::moves::Move;
use crate::rules::piece::PLACEMENT_SLOTS;
use crate::rules::piece::{Kind, Placement};
use crate::rules::position::{Position, Variant};

/// Paths longer than this are not worth steering the ordering.
const ZONE_CAP: u32 = 24;
/// Near-shortest paths: at most this much longer than the shortest.
const ZONE_SLACK: u32 = 1;
/// Candidate lists kept per search: 2^12 positions.
const LIST_CACHE_BITS: u32 = 12;
/// Moves kept per candidate list beyond the stoppers (more than any usual width).
const CACHED_WIDTH: usize = 32;
/// Root moves that meet the opponent's threat zone come first.
const BLOCKER_BONUS: i32 = 1 << 24;

pub struct MovePicker {
    /// Per ply: the moves to search, with whether each is exempt from reductions.
    lists: Vec<Vec<(Move, bool)>>,
    /// Per ply: whether the list and its overflow hold every move that does not lose at once
    /// (no pruning), so that a loss found over them is proven.
    complete: Vec<bool>,
    /// Per ply: the threat stoppers beyond `BlockCap`, searched only when every move of the
    /// list loses (a cap must not turn a defended position into a loss).
    overflow: Vec<Vec<Move>>,
    /// Per ply: the opponent threatens a win, and the list holds only the stoppers.
    only_stoppers: Vec<bool>,
    all: Vec<Move>,
    /// Sort keys of the scored moves (see `sort_key`), and the two halves they are split into.
    scored: Vec<u64>,
    block_keys: Vec<u64>,
    rest_keys: Vec<u64>,
    weights: Vec<i32>,
    /// The spaces with a nonzero weight: drops elsewhere are scored only if needed.
    hot: CellSet,
    /// Drops away from `hot`, by kind, orientation and PÜNCT spaces (generation order).
    cold: Vec<(Kind, u8, CellSet)>,
    cache: Vec<Candidates>,
    /// Cells of own pieces that lie on own near paths: lifting them costs.
    lift_penalty: Vec<i32>,
    /// Per drop shape (`kind * 6 + orientation`): the PÜNCT spaces worth scoring, i.e. the
    /// stoppers and the drops that may rank among the best (see `filter_drops`).
    drop_filter: [CellSet; SHAPES],
    /// Per colour and shape (`kind * 6 + orientation`), the largest history value (it bounds
    /// how far history can lift a move), and the
    /// PÜNCT spaces of the placements with a history value above 0 (most have none).
    shape_history_max: [[i32; SHAPES]; 2],
    history_cells: [[CellSet; SHAPES]; 2],
    /// At least `n` non-stopper drops have a key of this or more (see `filter_drops`): a
    /// non-stopper shift below it cannot make the list.
    shift_cutoff: Option<i32>,
    /// Landing sums below this cannot lift a shift to `shift_cutoff`, whatever its history.
    shift_keep: Option<i32>,
    /// The weights bit-sliced (as `filter_drops` last found them).
    sliced_weights: Sliced,
    /// Per drop shape, the landing sums `filter_drops` found (for kinds in hand only).
    shape_sums: [Sliced; SHAPES],
    shape_summed: [bool; SHAPES],
    /// Per cell, the most a dot there adds to a key, in hundredths (see `by_model`).
    cell_bound: Vec<i32>,
    /// `cell_bound` less its minimum, in coarser units (see `by_model`).
    cell_quanta: Vec<i32>,
    /// Per drop shape, the sums of `cell_quanta` (see `by_model`; boxed so that the sink
    /// borrows it without a copy).
    model_sums: Box<[Sliced]>,
}

/// Drop shapes indexed `kind * 6 + orientation`.
const SHAPES: usize = 36;

/// The shape (`kind * 6 + orientation`) of a placement slot (see `Placement::index`).
#[inline]
fn slot_shape(slot: usize) -> usize {
    slot / (GRID_LEN * 6) * 6 + slot % 6
}

/// The PÜNCT space of a placement slot (`None` off the board).
#[inline]
fn slot_punct(slot: usize) -> Option<Cell> {
    Cell::from_index(slot / 6 % GRID_LEN)
}

impl MovePicker {
    /// Forgets the candidate lists (they are valid within one search only) and takes note
    /// of the history table the search starts with (`history[colour * PLACEMENT_SLOTS + i]`).
    pub fn start(&mut self, history: &[i32]) {
        self.cache.iter_mut().for_each(Candidates::forget);
        for colour in 0..2 {
            let table = &history[colour * PLACEMENT_SLOTS..(colour + 1) * PLACEMENT_SLOTS];
            let by_shape = &mut self.shape_history_max[colour];
            *by_shape = [0; SHAPES];
            self.history_cells[colour] = [CellSet::EMPTY; SHAPES];
            for (slot, &h) in table.iter().enumerate() {
                if h > 0 {
                    let shape = slot_shape(slot);
                    by_shape[shape] = by_shape[shape].max(h);
                    if let Some(p) = slot_punct(slot) {
                        self.history_cells[colour][shape].insert(p);
                    }
                }
            }
        }
    }

    /// The largest history value of `colour` (an index).
    fn history_max(&self, colour: usize) -> i32 {
        self.shape_history_max[colour]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
    }

    /// The history value of `colour` (an index) at placement slot `slot` has grown to `h`.
    #[inline]
    pub fn note_history(&mut self, colour: usize, slot: usize, h: i32) {
        let shape = slot_shape(slot);
        let max = &mut self.shape_history_max[colour][shape];
        *max = (*max).max(h);
        if let Some(p) = slot_punct(slot).filter(|_| h > 0) {
            self.history_cells[colour][shape].insert(p);
        }
    }

    /// Sets `drop_filter`: every stopper drop, and the other drops that may be among the best
    /// `n` non-stoppers. Their weight sums are found for all PÜNCT spaces at once (bit-sliced);
    /// the `n`-th best sum `t` among drops bounds the `n`-th best key of all moves from below,
    /// and history adds at most `max_bonus`, so drops whose sum is below
    /// `t - max_bonus / 16` cannot make the list. Exact: the lists are those of full scoring.
    fn filter_drops(&mut self, pos: &Position, n: usize, zone: Option<CellSet>, max_bonus: i32) {
        let us = pos.side_to_move();
        let hot = self.hot;
        let weights = Sliced::from_values(&self.weights, hot);
        let scores = &mut self.shape_sums;
        self.shape_summed = [false; SHAPES];
        let mut domains = [CellSet::EMPTY; SHAPES];
        let mut stoppers = [CellSet::EMPTY; SHAPES];
        for kind in Kind::ALL {
            if pos.in_hand(us, kind) == 0 {
                continue;
            }
            for o in 0..kind.orientations() {
                let i = kind.index() * 6 + o as usize;
                let [a, b] = kind.minor_offsets(o);
                let puncts = pos.drop_puncts(kind, o);
                let warm = puncts & (hot | hot.shifted_down(a) | hot.shifted_down(b));
                let stop = match zone {
                    Some(z) => warm & (z | z.shifted_down(a) | z.shifted_down(b)),
                    None => CellSet::EMPTY,
                };
                stoppers[i] = stop;
                domains[i] = warm - stop;
                scores[i] = weights.sum_at_offsets(a, b);
                self.shape_summed[i] = true;
            }
        }
        let threshold = kth_largest(scores, &domains, n);
        // Drops come first in generation order, so a shift tying them ranks behind them too;
        // history bonuses are never negative.
        self.shift_cutoff = threshold.map(|t| t * 16);
        self.shift_keep = threshold.map(|t| t - max_bonus / 16);
        self.sliced_weights = weights;
        for i in 0..SHAPES {
            self.drop_filter[i] = match threshold {
                Some(t) => {
                    stoppers[i] | self.shape_sums[i].at_least(t - max_bonus / 16, domains[i])
                }
                None => stoppers[i] | domains[i],
            };
        }
    }

    pub fn new(plies: usize) -> MovePicker {
        MovePicker {
            lists: vec![Vec::new(); plies],
            complete: vec![true; plies],
            overflow: vec![Vec::new(); plies],
            only_stoppers: vec![false; plies],
            all: Vec::with_capacity(8192),
            scored: Vec::with_capacity(8192),
            block_keys: Vec::with_capacity(256),
            rest_keys: Vec::with_capacity(8192),
            weights: vec![0; GRID_LEN],
            hot: CellSet::EMPTY,
            cold: Vec::new(),
            cache: (0..1 << LIST_CACHE_BITS)
                .map(|_| Candidates::reserved())
                .collect(),
            lift_penalty: vec![0; GRID_LEN],
            drop_filter: [CellSet::EMPTY; SHAPES],
            shape_history_max: [[0; SHAPES]; 2],
            history_cells: [[CellSet::EMPTY; SHAPES]; 2],
            shift_cutoff: None,
            shift_keep: None,
            sliced_weights: Sliced::ZERO,
            shape_sums: [Sliced::ZERO; SHAPES],
            shape_summed: [false; SHAPES],
            cell_bound: vec![0; GRID_LEN],
            cell_quanta: vec![0; GRID_LEN],
            model_sums: vec![Sliced::ZERO; SHAPES].into_boxed_slice(),
        }
    }

    #[inline]
    pub fn len(&self, ply: usize) -> usize {
        self.lists[ply].len()
    }

    #[inline]
    pub fn get(&self, ply: usize, i: usize) -> (Move, bool) {
        self.lists[ply][i]
    }

    /// Puts `moves` in the list at `ply` right after its forcing head (the TT move and the
    /// stoppers), as forcing moves, each once: threats to win are searched early and in full.
    pub fn promote(&mut self, ply: usize, moves: &[Move]) {
        let list = &mut self.lists[ply];
        list.retain(|(m, forcing)| *forcing || !moves.contains(m));
        let head = list.iter().take_while(|(_, forcing)| *forcing).count();
        let new: Vec<(Move, bool)> = (moves.iter())
            .filter(|m| !list.iter().any(|(l, _)| l == *m))
            .map(|&m| (m, true))
            .collect();
        list.splice(head..head, new);
    }

    /// The stoppers left out of the list at `ply` by the cap (see `overflow`).
    #[inline]
    pub fn overflow(&self, ply: usize) -> &[Move] {
        &self.overflow[ply]
    }

    /// Whether the list at `ply` holds only the stoppers of a winning threat: every other move
    /// loses to the opponent's next move.
    #[inline]
    pub fn only_stoppers(&self, ply: usize) -> bool {
        self.only_stoppers[ply]
    }

    /// Whether the list at `ply` left out no move that might avoid a loss.
    #[inline]
    pub fn is_complete(&self, ply: usize) -> bool {
        self.complete[ply]
    }

    /// Sets the per-space weights; returns each player's near paths (the side to move first),
    /// which the learned model describes moves against too.
    fn compute_weights(&mut self, pos: &Position, params: &Params) -> [Option<(u32, CellSet)>; 2] {
        self.weights.iter_mut().for_each(|w| *w = 0);
        self.lift_penalty.iter_mut().for_each(|w| *w = 0);
        let us = pos.side_to_move();
        let empty = pos.empty_cells();
        let mut hot = CellSet::EMPTY;
        let mut add = |set: CellSet, w: i32, out: &mut Vec<i32>| {
            if w != 0 {
                hot |= set;
                for c in set {
                    out[c.index()] += w;
                }
            }
        };
        let mut paths = [None; 2];
        for (i, (colour, weight)) in [(us, params.order_own_path), (!us, params.order_opp_path)]
            .into_iter()
            .enumerate()
        {
            let own = pos.top_view(colour);
            let opp = pos.top_view(!colour);
            paths[i] = near_paths(own, empty, opp, params.opp_cover_cost, ZONE_CAP, ZONE_SLACK);
            if let Some((_, zone)) = paths[i] {
                add(zone - own, weight, &mut self.weights);
                if colour == us {
                    add(zone & own, weight, &mut self.lift_penalty);
                } else {
                    // Covering the opponent's path dots (by a shift) blocks too.
                    add(zone & own, weight, &mut self.weights);
                }
            }
        }
        let own = pos.top_view(us);
        add(own.expand() - own, params.order_contact, &mut self.weights);
        let centre_w = params.order_centre * centre_phase(pos) / 256;
        add(central_cells() - own, centre_w, &mut self.weights);
        // Lift penalties were added to `hot` too; it only needs to be a superset.
        self.hot = hot;
        paths
    }

    #[inline]
    fn score(&self, pos: &Position, mv: Move, params: &Params, history: &[i32]) -> i32 {
        let Some(pl) = mv.placement() else { return 0 };
        let mut s: i32 = pl.cells().iter().map(|c| self.weights[c.index()]).sum();
        if let Move::Shift { from, .. } = mv {
            if let Some(id) = pos.top_piece(from) {
                let old = pos.piece(id).placement;
                s -= old
                    .cells()
                    .iter()
                    .map(|c| self.lift_penalty[c.index()])
                    .sum::<i32>();
            }
        }
        let h = history[pos.side_to_move().index() * PLACEMENT_SLOTS + pl.index()];
        s * 16 + history_bonus(h, params.history_div)
    }

    /// All `moves` sorted best first (for the root's first iteration).
    pub fn order_root(
        &mut self,
        pos: &Position,
        moves: &[Move],
        params: &Params,
        history: &[i32],
    ) -> Vec<Move> {
        self.compute_weights(pos, params);
        let threat = threat_zone(pos);
        let mut logits = Vec::new();
        if params.order_model > 0 {
            order_model::score_moves(pos, moves, params, &mut logits);
        }
        let mut scored: Vec<(i32, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut s = self.score(pos, m, params, history);
                s += logits.get(i).map_or(0, |l| l * params.order_model / 100);
                if threat.is_some_and(|zone| touches(pos, m, zone)) {
                    s += BLOCKER_BONUS;
                }
                (s, i)
            })
            .collect();
        scored.sort_by_key(|&(s, i)| (Reverse(s), i));
        let mut order: Vec<Move> = scored.into_iter().map(|(_, i)| moves[i]).collect();
        // A last drop (standard game) ends the game: keep one near the front.
        if pos.variant() == Variant::Standard && pos.hand_total(pos.side_to_move()) == 1 {
            if let Some(i) = order.iter().position(|m| matches!(m, Move::Drop(_))) {
                let drop = order.remove(i);
                order.insert(1.min(order.len()), drop);
            }
        }
        order
    }

    /// Fills the list for `ply`: the TT move, threat stoppers (capped), killers, then the best
    /// of the rest up to `width`. The candidates of a position are kept for the rest of the
    /// search (iterative deepening meets every interior node again, one ply deeper).
    #[allow(clippy::too_many_arguments)]
    pub fn pick(
        &mut self,
        pos: &Position,
        ply: usize,
        width: usize,
        block_cap: usize,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        params: &Params,
        history: &[i32],
        touch_cache: &mut TouchCache,
        use_model: bool,
    ) {
        let key = pos.hash();
        let slot = (key >> (64 - LIST_CACHE_BITS)) as usize;
        let use_model = use_model && params.order_model > 0;
        let cached = {
            let c = &self.cache[slot];
            c.valid
                && c.key == key
                && c.by_model == use_model
                && (c.complete || c.rest.len() >= width)
        };
        if !cached {
            let n = width.max(CACHED_WIDTH);
            // The slot's buffers are reused: no allocation once they have grown.
            let mut entry = std::mem::take(&mut self.cache[slot]);
            entry.complete = if use_model {
                self.candidates_by_model(
                    pos,
                    n,
                    block_cap,
                    params,
                    history,
                    touch_cache,
                    &mut entry,
                )
            } else {
                self.candidates(pos, n, block_cap, params, history, touch_cache, &mut entry)
            };
            entry.by_model = use_model;
            entry.key = key;
            entry.valid = true;
            self.cache[slot] = entry;
        }
        let c = &self.cache[slot];
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let tt = tt_move.filter(|m| c.blockers.contains(m) || c.rest.contains(m));
        if let Some(m) = tt {
            list.push((m, true));
        }
        list.extend(
            c.blockers
                .iter()
                .filter(|&&m| Some(m) != tt)
                .map(|&m| (m, true)),
        );
        // Against a winning threat every other move loses at once: only stoppers are searched.
        let only_stoppers = c.decisive && !c.blockers.is_empty();
        self.only_stoppers[ply] = only_stoppers;
        let mut taken = if only_stoppers { width } else { 0 };
        for k in killers.into_iter().flatten() {
            if Some(k) != tt && c.rest.contains(&k) && taken < width {
                list.push((k, false));
                taken += 1;
            }
        }
        for &m in &c.rest {
            if taken >= width {
                break;
            }
            if Some(m) != tt && !killers.contains(&Some(m)) {
                list.push((m, false));
                taken += 1;
            }
        }
        let overflow = &mut self.overflow[ply];
        overflow.clear();
        overflow.extend(c.extra_blockers.iter().filter(|&&m| Some(m) != tt));
        // Against a winning threat only the stoppers matter (every other move loses at once).
        self.complete[ply] = c.decisive || (c.complete && c.rest.len() <= width);
        if list.is_empty() && !pos.is_finished() {
            list.push((Move::Pass, true));
        }
        self.lists[ply] = list;
    }

    /// The threat stoppers (best first, at most `block_cap`), the best `n` other moves, and
    /// whether those are all there are. One last drop is always a stopper (see below).
    #[allow(clippy::too_many_arguments)]
    fn candidates(
        &mut self,
        pos: &Position,
        n: usize,
        block_cap: usize,
        params: &Params,
        history: &[i32],
        touch_cache: &mut TouchCache,
        out: &mut Candidates,
    ) -> bool {
        self.compute_weights(pos, params);
        let found = threat_cached(pos, touch_cache);
        let threat = found.map(|t| t.zone);
        let us = pos.side_to_move();
        // With one piece left, the own last drop ends the game too: not a plain loss.
        let last_drop = pos.hand_total(us) == 1;
        out.decisive = found.is_some_and(|t| t.decisive);
        if let Some(zone) = threat {
            // Every move meeting the threat zone must be looked at, so it must be hot.
            self.hot |= zone;
        }
        let max_bonus = history_bonus(
            self.history_max(pos.side_to_move().index()),
            params.history_div,
        );
        self.filter_drops(pos, n, threat, max_bonus);
        let mut all = std::mem::take(&mut self.all);
        let mut scored = std::mem::take(&mut self.scored);
        let mut cold = std::mem::take(&mut self.cold);
        all.clear();
        scored.clear();
        cold.clear();
        let mut sink = ScoringSink {
            picker: self,
            pos,
            params,
            history,
            all: &mut all,
            scored: &mut scored,
            cold: &mut cold,
            zone: threat,
            lifted_from: None,
            lift: 0,
            lift_touches: false,
            targets: [None; 6],
        };
        pos.generate(&mut sink);
        let mut blockers = std::mem::take(&mut self.block_keys);
        let mut rest = std::mem::take(&mut self.rest_keys);
        blockers.clear();
        rest.clear();
        match threat {
            Some(zone) => {
                for &k in &scored {
                    if touches(pos, all[key_index(k)], zone) {
                        blockers.push(k);
                    } else {
                        rest.push(k);
                    }
                }
            }
            None => rest.extend_from_slice(&scored),
        }
        take_best(&mut blockers, usize::MAX);
        take_best(&mut rest, n);
        let Candidates {
            blockers: block_moves,
            extra_blockers,
            rest: rest_moves,
            ..
        } = out;
        block_moves.clear();
        extra_blockers.clear();
        rest_moves.clear();
        let capped = blockers.len().min(block_cap);
        block_moves.extend(blockers[..capped].iter().map(|&k| all[key_index(k)]));
        extra_blockers.extend(blockers[capped..].iter().map(|&k| all[key_index(k)]));
        rest_moves.extend(rest.iter().map(|&k| all[key_index(k)]));
        // Too few scored moves: fill up with cold drops.
        'fill: for &(kind, o, puncts) in &cold {
            for p in puncts {
                if rest_moves.len() >= n {
                    break 'fill;
                }
                rest_moves.push(Move::Drop(Placement::new_unchecked(kind, p, o)));
            }
        }
        let complete = rest_moves.len() < n;
        // With one piece left in the standard game, dropping it ends the game on the centre
        // count: all such drops are alike (none touches the centre), so one stands for all.
        // It is a stopper too (it ends the game), so against a winning threat the stoppers
        // and that drop are all the moves that do not lose at once.
        if last_drop {
            let is_drop = |m: &Move| matches!(m, Move::Drop(_));
            if !block_moves.iter().any(is_drop) {
                rest_moves.retain(|m| !is_drop(m));
                if let Some(drop) = any_drop(pos) {
                    block_moves.push(drop);
                }
            }
        }
        self.all = all;
        self.scored = scored;
        self.cold = cold;
        self.block_keys = blockers;
        self.rest_keys = rest;
        complete
    }
}

/// The candidate moves of one position.
#[derive(Clone, Default)]
struct Candidates {
    key: u64,
    valid: bool,
    blockers: Vec<Move>,
    /// The stoppers beyond the cap, best first.
    extra_blockers: Vec<Move>,
    rest: Vec<Move>,
    /// `rest` holds every move that is not a stopper.
    complete: bool,
    /// The opponent threatens a win: moves other than `blockers` lose at once.
    decisive: bool,
    /// Ordered by the learned model (`candidates_by_model`).
    by_model: bool,
}

impl Candidates {
    /// An entry with room for the lists of a typical position, reserved when the picker is
    /// made: the cache's vectors then stop growing as its slots are first used, and a
    /// long-running engine's memory is what it was after the first search (issue 36's soak).
    fn reserved() -> Candidates {
        Candidates {
            blockers: Vec::with_capacity(RESERVED_MOVES),
            extra_blockers: Vec::with_capacity(RESERVED_MOVES),
            rest: Vec::with_capacity(RESERVED_MOVES),
            ..Candidates::default()
        }
    }

    /// Invalid from now on; a list grown past the reserved room gives it back, so that a slot
    /// keeps no more than a typical position needs from one search to the next.
    fn forget(&mut self) {
        self.valid = false;
        for list in [&mut self.blockers, &mut self.extra_blockers, &mut self.rest] {
            if list.capacity() > RESERVED_MOVES {
                list.clear();
                list.shrink_to(RESERVED_MOVES);
            }
        }
    }
}

/// Moves of room per list of a cache entry (`2 * CACHED_WIDTH`; 6 bytes a move).
const RESERVED_MOVES: usize = 2 * CACHED_WIDTH;

/// Scores moves as they are generated: every shift, and the drops that meet a hot space.
struct ScoringSink<'a> {
    picker: &'a MovePicker,
    pos: &'a Position,
    params: &'a Params,
    history: &'a [i32],
    all: &'a mut Vec<Move>,
    scored: &'a mut Vec<u64>,
    cold: &'a mut Vec<(Kind, u8, CellSet)>,
    /// The opponent's threat zone: shifts meeting it are stoppers and always kept.
    zone: Option<CellSet>,
    /// The piece whose shifts are being scored, its lift penalty, and whether lifting it
    /// meets the threat zone.
    lifted_from: Option<Cell>,
    lift: i32,
    lift_touches: bool,
    /// Per kind, the PÜNCT spaces a shift may land on and still make the list or stop the
    /// threat (found on first use).
    targets: [Option<CellSet>; 6],
}

impl MoveSink for ScoringSink<'_> {
    #[inline]
    fn drops(&mut self, kind: Kind, o: u8, puncts: CellSet) {
        let [a, b] = kind.minor_offsets(o);
        let hot = self.picker.hot;
        let warm = puncts & (hot | hot.shifted_down(a) | hot.shifted_down(b));
        let scored = warm & self.picker.drop_filter[kind.index() * 6 + o as usize];
        let w = &self.picker.weights;
        let base = self.pos.side_to_move().index() * PLACEMENT_SLOTS;
        let div = self.params.history_div;
        for p in scored {
            let i = p.index();
            let s = w[i] + w[(i as i32 + a) as usize] + w[(i as i32 + b) as usize];
            let pl = Placement::new_unchecked(kind, p, o);
            let h = self.history[base + pl.index()];
            self.scored
                .push(sort_key(s * 16 + history_bonus(h, div), self.all.len()));
            self.all.push(Move::Drop(pl));
        }
        let rest = puncts - warm;
        if !rest.is_empty() {
            self.cold.push((kind, o, rest));
        }
    }

    fn shift_targets(&mut self, from: Cell, kind: Kind) -> Option<CellSet> {
        let keep = self.picker.shift_keep?;
        let (pos, picker, zone) = (self.pos, self.picker, self.zone);
        if let Some(z) = zone {
            // Lifting a piece off the threat zone makes every shift of it a stopper.
            let old = pos.top_piece(from).map(|id| pos.piece(id).placement);
            if old.is_some_and(|pl| pl.cells().iter().any(|&c| z.contains(c))) {
                return None;
            }
        }
        let set = self.targets[kind.index()].get_or_insert_with(|| {
            let board = board_cells();
            let mut set = CellSet::EMPTY;
            for o in 0..kind.orientations() {
                let [a, b] = kind.minor_offsets(o);
                let i = kind.index() * 6 + o as usize;
                set |= if picker.shape_summed[i] {
                    picker.shape_sums[i].at_least(keep, board)
                } else {
                    picker
                        .sliced_weights
                        .sum_at_offsets(a, b)
                        .at_least(keep, board)
                };
                if let Some(z) = zone {
                    set |= z | z.shifted_down(a) | z.shifted_down(b);
                }
            }
            set
        });
        Some(*set)
    }

    #[inline]
    fn shift(&mut self, from: Cell, to: Placement) {
        // Shifts come piece by piece: the lift penalty is found once per piece.
        if self.lifted_from != Some(from) {
            self.lifted_from = Some(from);
            let old = self
                .pos
                .top_piece(from)
                .map(|id| self.pos.piece(id).placement);
            self.lift = old.map_or(0, |pl| {
                pl.cells()
                    .iter()
                    .map(|c| self.picker.lift_penalty[c.index()])
                    .sum::<i32>()
            });
            self.lift_touches = match (old, self.zone) {
                (Some(pl), Some(z)) => pl.cells().iter().any(|&c| z.contains(c)),
                _ => false,
            };
        }
        let w = &self.picker.weights;
        let cells = to.cells();
        let land: i32 = cells.iter().map(|c| w[c.index()]).sum();
        let h = self.history[self.pos.side_to_move().index() * PLACEMENT_SLOTS + to.index()];
        let s = (land - self.lift) * 16 + history_bonus(h, self.params.history_div);
        if let Some(cutoff) = self.picker.shift_cutoff {
            let stopper = self.lift_touches
                || self
                    .zone
                    .is_some_and(|z| cells.iter().any(|&c| z.contains(c)));
            if s < cutoff && !stopper {
                return;
            }
        }
        self.scored.push(sort_key(s, self.all.len()));
        self.all.push(Move::Shift { from, to });
    }
}

/// The ordering bonus of a history value; most are 0, and a division is slow.
#[inline]
fn history_bonus(h: i32, div: i32) -> i32 {
    if h == 0 {
        0
    } else {
        h / div.max(1)
    }
}

/// A score and a generation index packed so that ascending keys mean the highest score
/// first, then the lowest index (one integer comparison instead of a tuple's).
#[inline]
fn sort_key(score: i32, index: usize) -> u64 {
    let biased = (score as u32) ^ 0x8000_0000; // order-preserving i32 -> u32
    (((u32::MAX - biased) as u64) << 32) | index as u64
}

#[inline]
fn key_score(key: u64) -> i32 {
    ((u32::MAX - (key >> 32) as u32) ^ 0x8000_0000) as i32
}

#[inline]
fn key_index(key: u64) -> usize {
    (key & 0xffff_ffff) as usize
}

/// Keeps the `n` best keys (highest score, then lowest index) in order.
fn take_best(v: &mut Vec<u64>, n: usize) {
    if v.len() > n && n > 0 {
        v.select_nth_unstable(n - 1);
    }
    v.truncate(n);
    v.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_order_by_score_then_index() {
        let mut v = vec![
            sort_key(5, 3),
            sort_key(-7, 0),
            sort_key(5, 1),
            sort_key(i32::MAX, 9),
            sort_key(i32::MIN, 2),
            sort_key(0, 4),
        ];
        assert!(v
            .iter()
            .all(|&k| [5, -7, i32::MAX, i32::MIN, 0].contains(&key_score(k))));
        assert_eq!(key_score(sort_key(-7, 0)), -7);
        take_best(&mut v, 4);
        let got: Vec<usize> = v.iter().map(|&k| key_index(k)).collect();
        assert_eq!(got, vec![9, 1, 3, 4]);
    }

    #[test]
    fn a_slot_maps_to_the_shape_and_punct_of_its_placement() {
        let mut seen = [0usize; SHAPES];
        for kind in Kind::ALL {
            for &p in Cell::all() {
                for o in 0..kind.orientations() {
                    if let Some(pl) = Placement::new(kind, p, o) {
                        let shape = slot_shape(pl.index());
                        assert_eq!(shape, pl.kind().index() * 6 + pl.orientation() as usize);
                        assert_eq!(slot_punct(pl.index()), Some(pl.punct()));
                        seen[shape] += 1;
                    }
                }
            }
        }
        // Every shape of every kind has placements (a kind has fewer than 6 orientations
        // when it is symmetric).
        for kind in Kind::ALL {
            for o in 0..6 {
                let n = seen[kind.index() * 6 + o];
                assert_eq!(n > 0, o < kind.orientations() as usize, "{kind:?} {o}");
            }
        }
    }
}
