//! The tree below the root: principal variation search with the transposition table, threat
//! extensions, reverse futility, null move, killers and history, and late-move reductions.

use std::sync::atomic::Ordering;

use crate::engine::search::busy::BusyTable;
use crate::engine::search::facts::{Facts, NO_EVAL};
use crate::engine::search::paths::{distance_within, near_paths};
use crate::engine::search::threats::{
    find_win_cached, move_touches, threat_is_decisive, threat_moves,
};
use crate::engine::search::tt::{TtBound, TtHit, MATE, MATE_BOUND};
use crate::engine::search::worker::{terminal_score, Worker, INFINITY, MAX_PLY, THREAT_CACHE};
use crate::rules::cellset::CellSet;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement, PLACEMENT_SLOTS};
use crate::rules::position::{Position, Variant};

/// The state of one interior node while its moves are searched.
/// What a node returns instead of a loss when moves were pruned there: the loss is not
/// proven (an unsearched move may escape), but all that was searched loses.
const UNPROVEN_LOSS: i32 = -(MATE_BOUND - 1);
/// Nodes between looks at the clock and the stop flag.
const POLL_MASK: u64 = 31;
/// No null move once a player holds this many pieces or fewer (standard game).
const NULL_RACE_HAND: u8 = 3;
/// Most threatening moves searched per position.
const THREAT_MOVES_CAP: usize = 32;
/// Spaces a connection may lack for one move to threaten it (two pieces of three).
const THREAT_RANGE: u32 = 6;
/// With several threads, nodes at least this deep defer a move another thread is searching.
const DEFER_MIN_DEPTH: i32 = 2;

struct Node {
    pub(super) depth: i32,
    pub(super) ply: usize,
    pub(super) side: Colour,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) best: i32,
    pub(super) best_move: Option<Move>,
    /// Moves searched so far (late ones are reduced).
    pub(super) searched: usize,
}

/// What searching one move of a node led to.
enum Visit {
    Searched,
    /// The move failed high: the node is done.
    Cut,
    /// The search was stopped: the node's result means nothing.
    Aborted,
    /// Another thread is searching the move: it comes last (see `busy`).
    Deferred,
}

/// The score a table entry lets a node return at once: at a non-PV node, from a search at
/// least `depth` deep whose bound settles the window.
fn tt_cut(hit: TtHit, pv_node: bool, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    let settles = match hit.bound {
        TtBound::Exact => true,
        TtBound::Lower => hit.score >= beta,
        TtBound::Upper => hit.score <= alpha,
    };
    (!pv_node && hit.depth as i32 >= depth && settles).then_some(hit.score)
}

/// Whether a player of the standard game is a few drops from the last one (a tempo decides).
fn near_last_drop(pos: &Position) -> bool {
    pos.variant() == Variant::Standard
        && pos
            .hand_total(Colour::White)
            .min(pos.hand_total(Colour::Black))
            <= NULL_RACE_HAND
}

/// Where one move of the side to move could start a threat to win: the spaces on its
/// connections lacking at most [`THREAT_RANGE`] spaces (an opponent's dot counted as one), the
/// whole board when its last drops are near, `None` when neither.
fn threat_area(pos: &Position) -> Option<CellSet> {
    let us = pos.side_to_move();
    if pos.variant() == Variant::Standard && pos.hand_total(us) <= 2 {
        return Some(!CellSet::EMPTY);
    }
    let (own, opp) = (pos.top_view(us), pos.top_view(!us));
    let empty = pos.empty_cells();
    let d = distance_within(own, empty, opp, 1, THREAT_RANGE);
    if d > THREAT_RANGE {
        return None;
    }
    near_paths(own, empty, opp, 1, d, THREAT_RANGE - d).map(|(_, zone)| zone)
}

/// The history slots (ranges of placement indices) a cut by `pl` rewards, by `grain`
/// (`HistoryGrain`): the placement alone, its kind on its PÜNCT cell in every orientation, or
/// every kind and orientation on that cell. The slots are read one placement at a time, so a
/// coarser grain shares what one placement learnt with its neighbours.
fn history_group(pl: Placement, grain: i32, mut each: impl FnMut(std::ops::Range<usize>)) {
    let slot = pl.index();
    match grain {
        0 => each(slot..slot + 1),
        1 => each(slot - slot % 6..slot - slot % 6 + 6),
        _ => {
            for kind in Kind::ALL {
                let first = Placement::slot(kind, pl.punct(), 0);
                each(first..first + 6);
            }
        }
    }
}

impl Worker<'_> {
    pub(super) fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.aborted
            || self.nodes >= self.node_limit
            || (self.nodes & POLL_MASK == 0 && self.poll())
        {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let side = pos.side_to_move();
        if let Some(outcome) = pos.outcome() {
            return terminal_score(outcome, side, ply);
        }
        if pos.repetitions() >= 2 {
            return 0;
        }
        let key = pos.hash();
        let pv_node = beta - alpha > 1;
        // The table's cut comes before the one-move win is looked for: only a node that had
        // none stores an entry, so a cut here returns what the node would (and saves the look).
        let mut probed = None;
        if depth > 0 && ply < MAX_PLY {
            let hit = self.tt.probe(key, ply);
            if let Some(score) = hit.and_then(|h| tt_cut(h, pv_node, depth, alpha, beta)) {
                return score;
            }
            probed = Some(hit);
        }
        let mut facts = match self.facts.probe(key) {
            Some(facts) => facts,
            None => Facts {
                key,
                win: find_win_cached(pos, &mut self.touches),
                eval: NO_EVAL,
                threatened: None,
            },
        };
        if let Some(win) = facts.win {
            self.facts.store(&facts);
            self.pv[ply].push(win);
            return MATE - ply as i32 - 1;
        }
        let mut depth = depth;
        if depth <= 0 && ply < MAX_PLY && ply <= self.extension_limit && ply > 0 {
            // The horizon does not hide a one-move loss: against a winning threat the node is
            // searched one more ply (its stoppers), and so on along a chain of threats.
            if self.threatened(pos, &mut facts) {
                depth = 1;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            let eval = self.static_eval(pos, &mut facts);
            // A leaf facing a winning threat is worse than its evaluation says: the threat
            // found (cached) but not searched.
            if self.params.leaf_threat > 0 && self.threatened(pos, &mut facts) {
                return eval - self.params.leaf_threat;
            }
            return eval;
        }
        self.facts.store(&facts);
        let mut tt_move = None;
        if let Some(hit) = probed.unwrap_or_else(|| self.tt.probe(key, ply)) {
            tt_move = hit.mv;
            if let Some(score) = tt_cut(hit, pv_node, depth, alpha, beta) {
                return score;
            }
        }
        // Reverse futility: far enough above beta near the horizon, and facing no threat to
        // connect next move (which the evaluation cannot see), the node is taken to hold.
        if !pv_node
            && self.params.rfp_margin > 0
            && depth <= self.params.rfp_depth
            && ply > 0
            && beta.abs() < MATE_BOUND
            && !near_last_drop(pos)
        {
            let eval = self.static_eval(pos, &mut facts);
            if eval - self.params.rfp_margin * depth >= beta && !self.threatened(pos, &mut facts) {
                self.tt
                    .store(key, ply, tt_move, eval, depth as u32, TtBound::Lower);
                return eval;
            }
        }
        // Null move: when passing still leaves the opponent below beta after a reduced search,
        // a real move will too. Not in the centre race (a tempo there is worth a game), nor
        // twice in a row, nor near mate scores.
        if !pv_node
            && self.params.null_move_r > 0
            && depth >= self.params.null_min_depth
            && ply > 0
            && !pos.last_was_pass()
            && beta.abs() < MATE_BOUND
            && !near_last_drop(pos)
            && self.static_eval(pos, &mut facts) >= beta
        {
            let r = self.params.null_move_r;
            pos.make(Move::Pass);
            let score = -self.negamax(pos, depth - 1 - r, ply + 1, -beta, -beta + 1);
            pos.unmake();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                return score.min(MATE_BOUND - 1);
            }
        }
        let mut node = Node {
            depth,
            ply,
            side,
            alpha,
            beta,
            best: -INFINITY,
            best_move: None,
            searched: 0,
        };
        // The TT move and the killers first, before the (costly) candidate list: most cuts
        // at the frontier come from a killer, and then no list is needed.
        let mut early: [Option<Move>; 3] = [None; 3];
        let mut deferred: Vec<(Move, bool)> = Vec::new();
        let killers = self.killers[ply];
        for (k, (mv, forcing)) in [(tt_move, true), (killers[0], false), (killers[1], false)]
            .into_iter()
            .enumerate()
        {
            let Some(mv) = mv else { continue };
            if early.contains(&Some(mv)) || mv == Move::Pass || pos.check_move(mv).is_err() {
                continue;
            }
            early[k] = Some(mv);
            match self.search_or_defer(pos, &mut node, mv, forcing, key, &mut deferred) {
                Visit::Aborted => return 0,
                Visit::Cut => break,
                Visit::Searched | Visit::Deferred => {}
            }
        }
        if node.best < beta {
            let width =
                (self.params.width_base + self.params.width_per_depth * (depth - 1)) as usize;
            self.picker.pick(
                pos,
                ply,
                width,
                self.params.block_cap as usize,
                tt_move,
                killers,
                self.params,
                self.history,
                &mut self.touches,
                depth >= self.params.order_model_depth,
            );
            if ply <= self.params.threat_moves_ply as usize
                && depth >= 2
                && !self.picker.only_stoppers(ply)
            {
                let Some(threats) = self.threat_moves(pos, key) else {
                    return 0;
                };
                self.picker.promote(ply, &threats);
            }
            let n = self.picker.len(ply);
            for i in 0..n {
                let (mv, forcing) = self.picker.get(ply, i);
                if early.contains(&Some(mv)) {
                    continue;
                }
                match self.search_or_defer(pos, &mut node, mv, forcing, key, &mut deferred) {
                    Visit::Aborted => return 0,
                    Visit::Cut => break,
                    Visit::Searched | Visit::Deferred => {}
                }
            }
        }
        // The moves another thread was on: by now their results are mostly in the table.
        if node.best < beta {
            for (mv, forcing) in deferred {
                match self.search_move(pos, &mut node, mv, forcing) {
                    Visit::Aborted => return 0,
                    Visit::Cut => break,
                    Visit::Searched | Visit::Deferred => {}
                }
            }
        }
        // Every capped stopper lost: the ones beyond the cap are tried too, until one holds.
        if node.best <= -MATE_BOUND && node.best < beta {
            let mut i = 0;
            while i < self.picker.overflow(ply).len() && node.best <= -MATE_BOUND {
                let mv = self.picker.overflow(ply)[i];
                i += 1;
                if early.contains(&Some(mv)) {
                    continue;
                }
                match self.search_move(pos, &mut node, mv, true) {
                    Visit::Aborted => return 0,
                    Visit::Cut => break,
                    Visit::Searched | Visit::Deferred => {}
                }
            }
        }
        // The moves left out against a winning threat lose one ply later than an immediate
        // loss: the score must not claim a shorter mate than that.
        if self.picker.only_stoppers(ply) && node.best < -(MATE - ply as i32 - 2) {
            node.best = -(MATE - ply as i32 - 2);
        }
        let Node {
            mut best,
            best_move,
            ..
        } = node;
        if best <= -MATE_BOUND && !self.picker.is_complete(ply) {
            best = UNPROVEN_LOSS;
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if best_move.is_some() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.tt
            .store(key, ply, best_move, best, depth.max(0) as u32, bound);
        best
    }

    /// The node's static evaluation, computed once per position and kept in its facts.
    fn static_eval(&mut self, pos: &Position, facts: &mut Facts) -> i32 {
        if facts.eval == NO_EVAL {
            facts.eval = self.evaluation(pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            self.facts.store(facts);
        }
        facts.eval
    }

    /// Whether the opponent threatens to win next move, found once per position and kept in
    /// its facts.
    fn threatened(&mut self, pos: &Position, facts: &mut Facts) -> bool {
        if facts.threatened.is_none() {
            facts.threatened = Some(threat_is_decisive(pos, &mut self.touches));
            self.facts.store(facts);
        }
        facts.threatened == Some(true)
    }

    /// The moves of `pos` (hash `key`) that threaten to win next move, found once per search
    /// and position (at most [`THREAT_MOVES_CAP`], a few positions near the root ask).
    /// `None` when the search was stopped while they were looked for (each move is played).
    pub(super) fn threat_moves(&mut self, pos: &mut Position, key: u64) -> Option<Vec<Move>> {
        let slot = (key % THREAT_CACHE as u64) as usize;
        if let Some((k, moves)) = &self.threat_cache[slot] {
            if *k == key {
                return Some(moves.clone());
            }
        }
        let mut threats = Vec::new();
        if let Some(zone) = threat_area(pos) {
            let mut all = Vec::new();
            pos.legal_moves_into(&mut all);
            all.retain(|&mv| move_touches(pos, mv, zone));
            let (clock, ctl, halt, armed) =
                (&mut self.clock, self.ctl, self.halt, self.clock_armed);
            let mut stop = || {
                ctl.stopped() || halt.load(Ordering::Relaxed) || (armed && clock.hard_expired(ctl))
            };
            if !threat_moves(pos, &all, &mut self.touches, &mut threats, &mut stop) {
                self.aborted = true;
                return None;
            }
        }
        threats.truncate(THREAT_MOVES_CAP);
        self.threat_cache[slot] = Some((key, threats.clone()));
        Some(threats)
    }

    /// Searches one move of `node` of hash `key`, or, with several threads, defers it to
    /// `deferred` when it is not the node's first and another thread is searching it.
    fn search_or_defer(
        &mut self,
        pos: &mut Position,
        node: &mut Node,
        mv: Move,
        forcing: bool,
        key: u64,
        deferred: &mut Vec<(Move, bool)>,
    ) -> Visit {
        let busy = match self.busy {
            Some(busy) if node.depth >= DEFER_MIN_DEPTH => busy,
            _ => return self.search_move(pos, node, mv, forcing),
        };
        let move_key = BusyTable::key(key, mv);
        if node.searched > 0 && busy.is_busy(move_key) {
            deferred.push((mv, forcing));
            return Visit::Deferred;
        }
        busy.start(move_key);
        let visit = self.search_move(pos, node, mv, forcing);
        busy.finish(move_key);
        visit
    }

    /// Searches one move of `node` (principal variation search with late-move reductions)
    /// and takes its score into the node's bounds.
    fn search_move(
        &mut self,
        pos: &mut Position,
        node: &mut Node,
        mv: Move,
        forcing: bool,
    ) -> Visit {
        let Node {
            depth,
            ply,
            alpha,
            beta,
            ..
        } = *node;
        let i = node.searched;
        node.searched += 1;
        pos.make(mv);
        let mut score;
        if i == 0 {
            score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
        } else {
            let reduce = if !forcing
                && i >= self.params.lmr_min_move as usize
                && depth >= self.params.lmr_min_depth
            {
                1 + (i >= 4 * self.params.lmr_min_move as usize && depth >= 4) as i32
            } else {
                0
            };
            score = -self.negamax(pos, depth - 1 - reduce, ply + 1, -alpha - 1, -alpha);
            if reduce > 0 && score > alpha && !self.aborted {
                score = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha);
            }
            if score > alpha && score < beta && !self.aborted {
                score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            }
        }
        pos.unmake();
        if self.aborted {
            return Visit::Aborted;
        }
        if score > node.best {
            node.best = score;
            if score > alpha {
                node.best_move = Some(mv);
                node.alpha = score;
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                head[ply].clear();
                head[ply].push(mv);
                head[ply].extend_from_slice(&tail[0]);
                if score >= beta {
                    if !forcing {
                        self.reward(node.side, mv, depth, ply);
                    }
                    return Visit::Cut;
                }
            }
        }
        Visit::Searched
    }

    fn reward(&mut self, side: Colour, mv: Move, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some(pl) = mv.placement() {
            let base = side.index() * PLACEMENT_SLOTS;
            history_group(pl, self.params.history_grain, |slots| {
                for slot in slots {
                    let h = &mut self.history[base + slot];
                    *h = (*h + depth * depth).min(1 << 20);
                    self.picker.note_history(side.index(), slot, *h);
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_grain_groups_exactly_the_placements_it_names() {
        use crate::rules::geometry::Cell;
        let all: Vec<Placement> = Kind::ALL
            .into_iter()
            .flat_map(|k| {
                Cell::all()
                    .iter()
                    .flat_map(move |&c| (0..6).map(move |o| (k, c, o)))
            })
            .filter_map(|(k, c, o)| Placement::new(k, c, o))
            .collect();
        for (n, &pl) in all.iter().enumerate().step_by(7) {
            for grain in 0..=2 {
                let mut slots = Vec::new();
                history_group(pl, grain, |r| slots.extend(r));
                let rewarded: Vec<Placement> = all
                    .iter()
                    .copied()
                    .filter(|q| slots.contains(&q.index()))
                    .collect();
                let expected: Vec<Placement> = all
                    .iter()
                    .copied()
                    .filter(|q| match grain {
                        0 => *q == pl,
                        1 => q.kind() == pl.kind() && q.punct() == pl.punct(),
                        _ => q.punct() == pl.punct(),
                    })
                    .collect();
                assert_eq!(rewarded, expected, "placement #{n} {pl}, grain {grain}");
                assert!(slots.iter().all(|&s| s < PLACEMENT_SLOTS));
            }
        }
    }
}
