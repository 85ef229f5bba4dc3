//! One search thread: its tables, limits and clock, and the node counting and polling that
//! the root (`root.rs`) and the tree (`tree.rs`) share.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::engine::search::busy::BusyTable;
use crate::engine::search::evaluate::evaluate;
use crate::engine::search::facts::FactsTable;
use crate::engine::search::movepick::MovePicker;
use crate::engine::search::nnue::{Accumulator, NetEval, Network};
use crate::engine::search::params::Params;
use crate::engine::search::threats::TouchCache;
use crate::engine::search::timeman::Clock;
use crate::engine::search::tt::{TranspositionTable, MATE, MATE_BOUND};
use crate::engine::types::{Limits, Score, SearchControl};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, PLACEMENT_SLOTS};
use crate::rules::position::Outcome;

/// Deepest iteration and deepest ply.
pub(super) const MAX_DEPTH: u32 = 64;
pub(super) const MAX_PLY: usize = 96;
pub(super) const INFINITY: i32 = MATE + 1;

/// Positions whose threatening moves are kept per search.
pub(super) const THREAT_CACHE: usize = 1024;

pub(super) struct Worker<'a> {
    pub(super) params: &'a Params,
    /// The network and this thread's accumulator, or `None` for the hand evaluation.
    pub(super) nnue: Option<NetEval<'a>>,
    pub(super) tt: &'a TranspositionTable,
    /// With several threads: the moves being searched (see `busy`).
    pub(super) busy: Option<&'a BusyTable>,
    pub(super) history: &'a mut [i32],
    /// The facts of positions, shared by the threads.
    pub(super) facts: &'a FactsTable,
    pub(super) killers: Vec<[Option<Move>; 2]>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) picker: &'a mut MovePicker,
    pub(super) touches: TouchCache,
    pub(super) ctl: &'a SearchControl,
    pub(super) halt: &'a AtomicBool,
    /// Every thread's published node count; this thread's is `thread_nodes[index]`.
    pub(super) thread_nodes: &'a [AtomicU64],
    /// 0 for the main thread.
    pub(super) index: usize,
    /// For helpers: the seed of their root shuffle.
    pub(super) shuffle_seed: Option<u64>,
    /// Set at the end of `run` when an iteration was completed.
    pub(super) line: Option<Line>,
    pub(super) clock: Clock,
    /// Whether the clock may abort the search (not during the first iteration).
    pub(super) clock_armed: bool,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) aborted: bool,
    pub(super) seldepth: usize,
    /// Plies beyond which the horizon is no longer extended against threats.
    pub(super) extension_limit: usize,
    /// Per position near the root, its moves that threaten to win (see `threat_moves`).
    pub(super) threat_cache: Vec<Option<(u64, Vec<Move>)>>,
    /// The root move that last raised alpha in the current iteration, with its score and PV:
    /// what an interrupted iteration has learnt (a lower bound on the root at that depth).
    pub(super) partial: Option<(i32, Vec<Move>)>,
}

/// The score of a finished game for the side to move, `ply` moves from the root.
pub(super) fn terminal_score(outcome: Outcome, side: Colour, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(w) if w == side => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

/// Reported centipawns stay within this. Beyond it lie only the search's internal bounds for
/// lines that lose (or win) in every searched variation without proof, which must not read as
/// mate-sized scores: they are reported as this many centipawns.
pub const REPORTED_CP_MAX: i32 = 5_000;

/// An internal score as a UCI score: proven mates as `mate`, everything else as `cp` within
/// `±REPORTED_CP_MAX`.
pub fn uci_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-((MATE + score + 1) / 2))
    } else {
        Score::Cp(score.clamp(-REPORTED_CP_MAX, REPORTED_CP_MAX))
    }
}

/// The root's moves: the legal ones, restricted to `searchmoves` when any of those is legal.
pub(super) fn root_move_list(pos: &crate::rules::position::Position, limits: &Limits) -> Vec<Move> {
    let moves = pos.legal_moves();
    if limits.searchmoves.is_empty() {
        return moves;
    }
    let allowed: Vec<Move> = (moves.iter().copied())
        .filter(|m| limits.searchmoves.contains(m))
        .collect();
    if allowed.is_empty() {
        moves
    } else {
        allowed
    }
}

/// The tables of one search thread, kept between searches (they are big).
pub(super) struct ThreadTables {
    pub(super) history: Vec<i32>,
    /// Kept between searches for its buffers (its lists are forgotten at each search).
    pub(super) picker: MovePicker,
    pub(super) accumulator: Accumulator,
}

impl ThreadTables {
    pub(super) fn new() -> ThreadTables {
        ThreadTables {
            history: vec![0; 2 * PLACEMENT_SLOTS],
            picker: MovePicker::new(MAX_PLY + 1),
            accumulator: Accumulator::new(),
        }
    }

    pub(super) fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
    }
}

/// A thread's answer: its best line of its deepest completed iteration.
pub(super) struct Line {
    pub(super) depth: u32,
    pub(super) seldepth: u32,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
}

/// What the search threads share.
#[derive(Copy, Clone)]
pub(super) struct Shared<'a> {
    pub(super) params: &'a Params,
    pub(super) net: Option<&'a Network>,
    pub(super) tt: &'a TranspositionTable,
    pub(super) busy: Option<&'a BusyTable>,
    pub(super) facts: &'a FactsTable,
    pub(super) ctl: &'a SearchControl,
    /// Set when the main thread is done: the helpers stop.
    pub(super) halt: &'a AtomicBool,
    /// Nodes searched per thread (published every few nodes), by thread index.
    pub(super) nodes: &'a [AtomicU64],
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        shared: Shared<'a>,
        tables: &'a mut ThreadTables,
        index: usize,
        limits: &Limits,
    ) -> Worker<'a> {
        tables.picker.start(&tables.history);
        Worker {
            params: shared.params,
            nnue: shared.net.map(|net| NetEval {
                net,
                acc: &mut tables.accumulator,
            }),
            tt: shared.tt,
            busy: shared.busy,
            history: &mut tables.history,
            facts: shared.facts,
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            picker: &mut tables.picker,
            touches: TouchCache::for_search(),
            ctl: shared.ctl,
            halt: shared.halt,
            thread_nodes: shared.nodes,
            index,
            shuffle_seed: None,
            line: None,
            clock: Clock::new(limits, shared.ctl),
            clock_armed: true,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            aborted: false,
            seldepth: 0,
            extension_limit: 0,
            threat_cache: vec![None; THREAT_CACHE],
            partial: None,
        }
    }

    /// Nodes searched by all threads so far.
    pub(super) fn total_nodes(&self) -> u64 {
        let others: u64 = (self.thread_nodes.iter().enumerate())
            .filter(|&(i, _)| i != self.index)
            .map(|(_, n)| n.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }

    /// The static evaluation of `pos` (side to move's view): the network's, else the hand one.
    #[inline]
    pub(super) fn evaluation(&mut self, pos: &crate::rules::position::Position) -> i32 {
        match &mut self.nnue {
            Some(n) => n.evaluate(pos, self.params),
            None => evaluate(pos, self.params),
        }
    }

    /// Looks at the stop flag, node limit and clock; true when the search must end.
    #[inline]
    pub(super) fn poll(&mut self) -> bool {
        self.thread_nodes[self.index].store(self.nodes, Ordering::Relaxed);
        if !self.aborted
            && (self.total_nodes() >= self.node_limit
                || self.ctl.stopped()
                || self.halt.load(Ordering::Relaxed)
                || (self.clock_armed && self.clock.hard_expired(self.ctl)))
        {
            self.aborted = true;
        }
        self.aborted
    }
}
