//! The search: iterative deepening over a principal variation search with aspiration windows,
//! a transposition table, selective move lists (width caps, late-move reductions) and exact
//! one-move threat handling at every node (see `movepick` and `threats`).
//!
//! With `Threads` > 1 the search is lazy SMP: helper threads search the same root beside the
//! main one, sharing only the transposition table; they search in a slightly shuffled root
//! order (seeded by `Seed`) and, from the second helper on, skip staggered depths, so that
//! they do not just repeat the main thread. The main thread alone reports and chooses the
//! move (taking a helper's line if it is deeper and better).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::evaluate::evaluate;
use crate::engine::movepick::MovePicker;
use crate::engine::params::Params;
use crate::engine::race;
use crate::engine::threats::{
    distance_within, find_win_cached, move_touches, near_paths, root_tactics, threat_cached,
    threat_moves, RootTactics, TouchCache,
};
use crate::engine::timeman::{allocate, TimeLimits};
use crate::engine::tt::{TranspositionTable, TtBound, MATE, MATE_BOUND};
use crate::engine::types::{Bound, Limits, Score, SearchControl, SearchInfo, SearchResult};
use crate::rules::cellset::CellSet;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement, PLACEMENT_SLOTS};
use crate::rules::position::{Outcome, Position, Variant};

/// Deepest iteration and deepest ply.
const MAX_DEPTH: u32 = 64;
const MAX_PLY: usize = 96;
const INFINITY: i32 = MATE + 1;
/// What a node returns instead of a loss when moves were pruned there: the loss is not
/// proven (an unsearched move may escape), but all that was searched loses.
const UNPROVEN_LOSS: i32 = -(MATE_BOUND - 1);
/// Nodes between looks at the clock and the stop flag.
const POLL_MASK: u64 = 31;
/// Pieces in hand (each player at most) from which the root solves the centre race's last plies.
const RACE_HAND: u8 = 2;
/// No null move once a player holds this many pieces or fewer (standard game).
const NULL_RACE_HAND: u8 = 3;
/// The solver's budget in moves played: about a tenth of the soft time limit (it plays some
/// 2,000 moves per ms), at least a few ms, and without a clock twice the node limit.
const RACE_MOVES_PER_MS: u64 = 200;
const RACE_MIN_BUDGET: u64 = 5_000;
const RACE_MAX_BUDGET: u64 = 2_000_000;
/// Positions whose threatening moves are kept per search, and most such moves searched.
const THREAT_CACHE: usize = 1024;
const THREAT_MOVES_CAP: usize = 32;
/// Spaces a connection may lack for one move to threaten it (two pieces of three).
const THREAT_RANGE: u32 = 6;
/// Root improvements are reported only after this much time (no flood of info lines).
const IMPROVEMENT_REPORT_AFTER: Duration = Duration::from_millis(100);

/// Entries of the cache of per-position facts (2^16 entries, about 1.5 MB).
const CACHE_BITS: u32 = 16;
const NO_EVAL: i32 = i32::MIN;

/// What a position alone determines, kept across iterations: its one-move win and its
/// static evaluation (leaves are met again at every iteration).
#[derive(Copy, Clone)]
struct Facts {
    key: u64,
    win: Option<Move>,
    eval: i32,
    /// Whether the opponent threatens to win next move (found at the horizon only).
    threatened: Option<bool>,
    valid: bool,
}

const NO_FACTS: Facts = Facts {
    key: 0,
    win: None,
    eval: NO_EVAL,
    threatened: None,
    valid: false,
};

/// The tables of one search thread, kept between searches (they are big).
struct ThreadTables {
    facts: Vec<Facts>,
    history: Vec<i32>,
    /// Kept between searches for its buffers (its lists are forgotten at each search).
    picker: MovePicker,
}

impl ThreadTables {
    fn new() -> ThreadTables {
        ThreadTables {
            facts: vec![NO_FACTS; 1 << CACHE_BITS],
            history: vec![0; 2 * PLACEMENT_SLOTS],
            picker: MovePicker::new(MAX_PLY + 1),
        }
    }

    fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.facts.iter_mut().for_each(|f| *f = NO_FACTS);
    }
}

/// The search with its tables; lives on the worker thread between searches.
pub struct Searcher {
    /// The parameters the cached evaluations were made with.
    facts_params: Params,
    params: Params,
    hash_mb: usize,
    seed: u64,
    tt: TranspositionTable,
    main: ThreadTables,
    /// One per thread beyond the main one.
    helpers: Vec<ThreadTables>,
    /// Nodes of each thread in the last search, main thread first.
    last_thread_nodes: Vec<u64>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            params: Params::default(),
            hash_mb,
            seed: 0,
            tt: TranspositionTable::new(hash_mb),
            main: ThreadTables::new(),
            helpers: Vec::new(),
            facts_params: Params::default(),
            last_thread_nodes: Vec::new(),
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_size(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.tt = TranspositionTable::new(mb);
    }

    /// Search threads: the main one and `n - 1` helpers, whose tables are made here, once.
    pub fn set_threads(&mut self, n: usize) {
        self.helpers.resize_with(n.max(1) - 1, ThreadTables::new);
    }

    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Seeds the helpers' root shuffles; the main thread uses no randomness, so with one
    /// thread the seed changes nothing.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt from earlier searches (new game, Clear Hash).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(ThreadTables::clear);
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// Per mille of the transposition table in use.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits` until done or `ctl.stop`; reports progress to `report`.
    /// Helpers, if any, search beside the main thread until it is done.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        ctl: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        if self.facts_params != self.params {
            for tables in std::iter::once(&mut self.main).chain(&mut self.helpers) {
                tables.facts.iter_mut().for_each(|f| *f = NO_FACTS);
            }
            self.facts_params = self.params.clone();
        }
        let shared = Shared {
            params: &self.params,
            tt: &self.tt,
            ctl,
            halt: &AtomicBool::new(false),
            nodes: &(0..self.threads())
                .map(|_| AtomicU64::new(0))
                .collect::<Vec<_>>(),
        };
        // Helpers have no limits of their own but the shared node budget (the main thread may
        // be off its core a while): they end when the main thread does.
        let helper_limits = Limits {
            infinite: true,
            nodes: limits.nodes,
            searchmoves: limits.searchmoves.clone(),
            multipv: 1,
            ..Limits::default()
        };
        let seed = self.seed;
        let (mut result, main_line, helper_lines) = std::thread::scope(|scope| {
            // Halts the helpers however the main thread's search ends, even by a panic (the
            // scope waits for them).
            let halt = HaltOnDrop(shared.halt);
            let helpers: Vec<_> = (self.helpers.iter_mut().enumerate())
                .map(|(i, tables)| {
                    let mut pos = pos.clone();
                    let helper_limits = &helper_limits;
                    scope.spawn(move || {
                        let mut worker = Worker::new(shared, tables, i + 1, helper_limits);
                        worker.shuffle_seed = Some(seed);
                        worker.run(&mut pos, helper_limits, &mut |_| {});
                        worker.line.take()
                    })
                })
                .collect();
            let mut worker = Worker::new(shared, &mut self.main, 0, limits);
            let result = worker.run(&mut pos.clone(), limits, report);
            drop(halt);
            let lines: Vec<Option<Line>> = (helpers.into_iter())
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (result, worker.line.take(), lines)
        });
        self.last_thread_nodes = shared
            .nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect();
        result.nodes = self.last_thread_nodes.iter().sum();
        log::debug!("nodes by thread: {:?}", self.last_thread_nodes);
        // Not with a depth limit (the answer is the one at that depth) nor with MultiPV.
        let voting = limits.depth.is_none() && limits.multipv <= 1;
        let deeper = main_line
            .filter(|_| voting)
            .and_then(|main| deeper_line(&main, helper_lines));
        if let Some(line) = deeper {
            log::debug!("a helper's line: depth {} {:?}", line.depth, line.pv);
            report(&SearchInfo {
                depth: line.depth,
                seldepth: line.seldepth.max(line.depth),
                multipv: 1,
                score: uci_score(line.score.clamp(-MATE, MATE)),
                bound: Bound::Exact,
                nodes: result.nodes,
                time: result.time,
                hashfull: self.tt.hashfull(),
                pv: line.pv.clone(),
            });
            result.best = line.pv.first().copied();
            result.ponder = line.pv.get(1).copied();
            result.score = uci_score(line.score.clamp(-MATE, MATE));
            result.depth = line.depth;
        }
        result
    }

    /// Nodes searched by each thread in the last search, main thread first.
    pub fn last_thread_nodes(&self) -> &[u64] {
        &self.last_thread_nodes
    }
}

/// A thread's answer: its best line of its deepest completed iteration.
struct Line {
    depth: u32,
    seldepth: u32,
    score: i32,
    pv: Vec<Move>,
}

/// Stockfish 8's vote: a helper that completed a deeper iteration than the main thread with
/// a better score has the better answer (the deepest such, then the best).
fn deeper_line(main: &Line, helpers: Vec<Option<Line>>) -> Option<Line> {
    (helpers.into_iter().flatten())
        .filter(|l| l.depth > main.depth && l.score > main.score)
        .max_by_key(|l| (l.depth, l.score))
}

/// Sets its flag when dropped.
struct HaltOnDrop<'a>(&'a AtomicBool);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What the search threads share.
#[derive(Copy, Clone)]
struct Shared<'a> {
    params: &'a Params,
    tt: &'a TranspositionTable,
    ctl: &'a SearchControl,
    /// Set when the main thread is done: the helpers stop.
    halt: &'a AtomicBool,
    /// Nodes searched per thread (published every few nodes), by thread index.
    nodes: &'a [AtomicU64],
}

/// Which iterations helpers 2, 3, ... skip, by `(helper - 2) % 20`: depth `d` is skipped when
/// `(d + ply + phase) / size` is odd (Stockfish 9's scheme), so that they run ahead of the
/// main thread at staggered depths. Helper 1 skips none: with two threads, skipping every
/// other depth made the main thread's tree to a given depth 20-70% larger (it met the
/// helper's deeper results and failed its aspiration windows), searching every depth made it
/// smaller than alone.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
/// A helper moves each root move at most this many places from the static order.
const ROOT_SHUFFLE: usize = 3;

/// Whether thread `index` leaves out the iteration at `depth` (never the main thread, 0, nor
/// the first helper).
fn skips_depth(index: usize, depth: u32, ply: u32) -> bool {
    let i = match index {
        0 | 1 => return false,
        n => (n - 2) % SKIP_SIZE.len(),
    };
    (depth + ply + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// A helper's root order: each move at most `ROOT_SHUFFLE` places from where it was, drawn
/// from `seed` and the thread's index.
fn shuffle_root(moves: &mut [Move], seed: u64, index: usize) {
    let stream = (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ stream);
    let mut keyed: Vec<(usize, Move)> = (moves.iter().enumerate())
        .map(|(i, &m)| (i + rng.gen_range(0..=ROOT_SHUFFLE), m))
        .collect();
    keyed.sort_by_key(|&(k, _)| k);
    for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
        *slot = m;
    }
}

/// The clock of one search: time limits start after `ponderhit`.
struct Clock {
    started: Instant,
    /// Start of the timed part (search start, or the moment pondering ended).
    timed_from: Instant,
    limits: Option<TimeLimits>,
    pondering: bool,
}

impl Clock {
    fn new(limits: &Limits, ctl: &SearchControl) -> Clock {
        let now = Instant::now();
        Clock {
            started: now,
            timed_from: now,
            limits: allocate(limits),
            pondering: ctl.is_pondering(),
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn update_ponder(&mut self, ctl: &SearchControl) {
        if self.pondering && !ctl.is_pondering() {
            self.pondering = false;
            self.timed_from = Instant::now();
        }
    }

    fn hard_expired(&mut self, ctl: &SearchControl) -> bool {
        self.update_ponder(ctl);
        match self.limits {
            Some(l) if !self.pondering => self.timed_from.elapsed() >= l.hard,
            _ => false,
        }
    }

    fn soft_expired(&mut self, ctl: &SearchControl) -> bool {
        self.update_ponder(ctl);
        match self.limits {
            Some(l) if !self.pondering => self.timed_from.elapsed() >= l.soft,
            _ => false,
        }
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    /// Depth of the last iteration that searched this move (0: only ordered).
    depth: u32,
    /// Whether `score` is exact (else an upper bound).
    exact: bool,
    /// It threatens to win next move: searched at every depth, past the root width too.
    threat: bool,
    pv: Vec<Move>,
}

/// The state of one interior node while its moves are searched.
struct Node {
    depth: i32,
    ply: usize,
    side: Colour,
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Option<Move>,
    /// Moves searched so far (late ones are reduced).
    searched: usize,
}

/// What searching one move of a node led to.
enum Visit {
    Searched,
    /// The move failed high: the node is done.
    Cut,
    /// The search was stopped: the node's result means nothing.
    Aborted,
}

struct Worker<'a> {
    params: &'a Params,
    tt: &'a TranspositionTable,
    history: &'a mut [i32],
    facts: &'a mut [Facts],
    killers: Vec<[Option<Move>; 2]>,
    pv: Vec<Vec<Move>>,
    picker: &'a mut MovePicker,
    touches: TouchCache,
    ctl: &'a SearchControl,
    halt: &'a AtomicBool,
    /// Every thread's published node count; this thread's is `thread_nodes[index]`.
    thread_nodes: &'a [AtomicU64],
    /// 0 for the main thread.
    index: usize,
    /// For helpers: the seed of their root shuffle.
    shuffle_seed: Option<u64>,
    /// Set at the end of `run` when an iteration was completed.
    line: Option<Line>,
    clock: Clock,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    seldepth: usize,
    /// Plies beyond which the horizon is no longer extended against threats.
    extension_limit: usize,
    /// Per position near the root, its moves that threaten to win (see `threat_moves`).
    threat_cache: Vec<Option<(u64, Vec<Move>)>>,
    /// The root move that last raised alpha in the current iteration, with its score and PV:
    /// what an interrupted iteration has learnt.
    partial: Option<(i32, Vec<Move>, Bound)>,
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

/// The score of a finished game for the side to move, `ply` moves from the root.
fn terminal_score(outcome: Outcome, side: Colour, ply: usize) -> i32 {
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

impl<'a> Worker<'a> {
    fn new(
        shared: Shared<'a>,
        tables: &'a mut ThreadTables,
        index: usize,
        limits: &Limits,
    ) -> Worker<'a> {
        tables.picker.start(&tables.history);
        Worker {
            params: shared.params,
            tt: shared.tt,
            history: &mut tables.history,
            facts: &mut tables.facts,
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 2],
            picker: &mut tables.picker,
            touches: TouchCache::default(),
            ctl: shared.ctl,
            halt: shared.halt,
            thread_nodes: shared.nodes,
            index,
            shuffle_seed: None,
            line: None,
            clock: Clock::new(limits, shared.ctl),
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
    fn total_nodes(&self) -> u64 {
        let others: u64 = (self.thread_nodes.iter().enumerate())
            .filter(|&(i, _)| i != self.index)
            .map(|(_, n)| n.load(Ordering::Relaxed))
            .sum();
        self.nodes + others
    }

    fn run(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut moves = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            let allowed: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| limits.searchmoves.contains(m))
                .collect();
            if !allowed.is_empty() {
                moves = allowed;
            }
        }
        if moves.is_empty() {
            let score = pos
                .outcome()
                .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0));
            return SearchResult {
                best: None,
                ponder: None,
                score: uci_score(score),
                depth: 0,
                nodes: 0,
                time: self.clock.elapsed(),
            };
        }
        // The rules first: a win in one is searched first at every depth; against a winning
        // threat only the moves that stop it are searched (the others lose at once).
        let tactics = root_tactics(pos, &moves);
        if let RootTactics::Stoppers(stoppers) = &tactics {
            if !stoppers.is_empty() {
                moves = stoppers.clone();
            }
        }
        // The centre race's last plies are solved exactly: a win in three is the only move
        // searched (deep enough to show the mate).
        let mut proven_depth = 0;
        if tactics == RootTactics::Open && race::in_race(pos, RACE_HAND) {
            let budget = match self.clock.limits {
                Some(l) => (l.soft.as_millis() as u64 * RACE_MOVES_PER_MS).max(RACE_MIN_BUDGET),
                None => self.node_limit.saturating_mul(2).min(RACE_MAX_BUDGET),
            };
            let (ctl, halt) = (self.ctl, self.halt);
            let mut stop = || ctl.stopped() || halt.load(Ordering::Relaxed);
            if let Ok((Some(mv), _)) = race::win_in_three_within(pos, &moves, budget, &mut stop) {
                moves = vec![mv];
                proven_depth = 3;
            }
        }
        let mut ordered = self
            .picker
            .order_root(pos, &moves, self.params, self.history);
        if let RootTactics::Win(win) = tactics {
            ordered.retain(|&m| m != win);
            ordered.insert(0, win);
        }
        if let Some(seed) = self.shuffle_seed {
            shuffle_root(&mut ordered, seed, self.index);
            if let RootTactics::Win(win) = tactics {
                ordered.retain(|&m| m != win);
                ordered.insert(0, win);
            }
        }
        let threats = if tactics == RootTactics::Open && self.params.threat_moves_ply > 0 {
            self.threat_moves(pos, pos.hash())
        } else {
            Vec::new()
        };
        let mut root: Vec<RootMove> = ordered
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                depth: 0,
                exact: false,
                threat: threats.contains(&mv),
                pv: vec![mv],
            })
            .collect();
        let multipv = limits.multipv.clamp(1, root.len());
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut completed = 0;
        let mut best_score = -INFINITY;
        // The answer so far: score and PV of the last completed iteration's best move.
        let mut answer: Option<(i32, Vec<Move>)> = None;
        for depth in 1..=max_depth {
            if skips_depth(self.index, depth, pos.ply()) {
                continue;
            }
            self.partial = None;
            // Leaves lie at ply `depth`; extensions up to `ThreatExtension` plies past it.
            self.extension_limit = match self.params.threat_extension as usize {
                0 => 0,
                k => (depth as usize + k - 1).min(MAX_PLY),
            };
            let score = if multipv == 1 && depth > 1 && best_score.abs() < MATE_BOUND {
                self.aspiration(pos, &mut root, depth, best_score, report)
            } else {
                self.root_search(pos, &mut root, depth, -INFINITY, INFINITY, multipv, report)
            };
            // Searched moves first, best first; a stable sort keeps the earlier order on ties.
            root.sort_by(|a, b| b.depth.cmp(&a.depth).then(b.score.cmp(&a.score)));
            if self.aborted {
                // A move that raised alpha in the interrupted iteration beat the rest so far
                // (with MultiPV the completed lines stand).
                // It is reported, so that the last line and the answer agree.
                if multipv == 1 {
                    if let Some((score, pv, bound)) = self.partial.take() {
                        report(&self.info(depth, 1, score, bound, &pv));
                        answer = Some((score, pv));
                    }
                }
                break;
            }
            completed = depth;
            best_score = score;
            answer = Some((root[0].score, root[0].pv.clone()));
            for (i, rm) in root.iter().take(multipv).enumerate() {
                let info = self.info(depth, i + 1, rm.score, Bound::Exact, &rm.pv);
                report(&info);
            }
            let mate_found =
                best_score.abs() >= MATE_BOUND && (MATE - best_score.abs()) as u32 <= depth;
            let timed = !limits.infinite && !self.clock.pondering;
            if timed && (mate_found || (root.len() == 1 && depth >= proven_depth)) {
                break;
            }
            if self.clock.soft_expired(self.ctl) {
                break;
            }
        }
        self.thread_nodes[self.index].store(self.nodes, Ordering::Relaxed);
        if let (Some((score, pv)), true) = (&answer, completed > 0) {
            self.line = Some(Line {
                depth: completed,
                seldepth: self.seldepth as u32,
                score: *score,
                pv: pv.clone(),
            });
        }
        // Stopped before any move was scored: the static order's first, score unknown.
        let (score, pv) = answer.unwrap_or_else(|| (0, vec![root[0].mv]));
        SearchResult {
            best: Some(pv[0]),
            ponder: pv.get(1).copied(),
            score: uci_score(score.clamp(-MATE, MATE)),
            depth: completed.max(1),
            nodes: self.nodes,
            time: self.clock.elapsed(),
        }
    }

    fn info(
        &self,
        depth: u32,
        multipv: usize,
        score: i32,
        bound: Bound,
        pv: &[Move],
    ) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: uci_score(score.clamp(-MATE, MATE)),
            bound,
            nodes: self.total_nodes(),
            time: self.clock.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    fn aspiration(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        depth: u32,
        previous: i32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let mut delta = self.params.aspiration;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.root_search(pos, root, depth, alpha, beta, 1, report);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta.saturating_mul(4);
            if delta > 4 * MATE {
                alpha = -INFINITY;
                beta = INFINITY;
            }
            root.sort_by(|a, b| b.depth.cmp(&a.depth).then(b.score.cmp(&a.score)));
        }
    }

    /// One iteration over the root moves; returns the best score (a bound on fail low/high).
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        depth: u32,
        alpha_in: i32,
        beta: i32,
        multipv: usize,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let width = if depth == 1 {
            (self.params.root_width_first as usize)
                .max(multipv)
                .min(root.len())
        } else {
            (self.params.root_width as usize)
                .max(multipv)
                .min(root.len())
        };
        let mut alpha = alpha_in;
        let mut best = -INFINITY;
        let mut exact_scores: Vec<i32> = Vec::new();
        for (i, rm) in root.iter_mut().enumerate() {
            // Past the width only threats to win, or every move while every searched move
            // loses: a lost root is proven over all moves, or an escape is found.
            if self.poll() {
                break;
            }
            if i >= width && best > -MATE_BOUND && !rm.threat {
                continue;
            }
            // With MultiPV, a move must beat the K-th best line so far to be searched exactly.
            let floor = if multipv > 1 {
                if exact_scores.len() >= multipv {
                    let mut s = exact_scores.clone();
                    s.sort_unstable_by(|a, b| b.cmp(a));
                    s[multipv - 1]
                } else {
                    -INFINITY
                }
            } else {
                alpha
            };
            let mv = rm.mv;
            pos.make(mv);
            let d = depth as i32 - 1;
            let mut score = if i == 0 || floor == -INFINITY {
                -self.negamax(pos, d, 1, -beta, -floor)
            } else {
                let s = -self.negamax(pos, d, 1, -floor - 1, -floor);
                if s > floor && s < beta && !self.aborted {
                    -self.negamax(pos, d, 1, -beta, -floor)
                } else {
                    s
                }
            };
            pos.unmake();
            // An interrupted search of a move says nothing about it.
            if self.aborted {
                break;
            }
            score = score.clamp(-MATE, MATE);
            rm.depth = depth;
            rm.score = score;
            rm.exact = score > floor && score < beta;
            if score > floor || i == 0 {
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            }
            if rm.exact {
                exact_scores.push(score);
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                let bound = if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.partial = Some((score, rm.pv.clone(), bound));
                if i > 0 && depth > 1 && self.clock.elapsed() >= IMPROVEMENT_REPORT_AFTER {
                    let pv = rm.pv.clone();
                    let bound = if score >= beta {
                        Bound::Lower
                    } else {
                        Bound::Exact
                    };
                    let info = self.info(depth, 1, score, bound, &pv);
                    report(&info);
                }
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Looks at the stop flag, node limit and clock; true when the search must end.
    #[inline]
    fn poll(&mut self) -> bool {
        self.thread_nodes[self.index].store(self.nodes, Ordering::Relaxed);
        if !self.aborted
            && (self.total_nodes() >= self.node_limit
                || self.ctl.stopped()
                || self.halt.load(Ordering::Relaxed)
                || self.clock.hard_expired(self.ctl))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn negamax(
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
        let slot = (key >> (64 - CACHE_BITS)) as usize;
        let mut facts = self.facts[slot];
        if !facts.valid || facts.key != key {
            facts = Facts {
                key,
                win: find_win_cached(pos, &mut self.touches),
                eval: NO_EVAL,
                threatened: None,
                valid: true,
            };
        }
        if let Some(win) = facts.win {
            self.facts[slot] = facts;
            self.pv[ply].push(win);
            return MATE - ply as i32 - 1;
        }
        let mut depth = depth;
        if depth <= 0 && ply < MAX_PLY && ply <= self.extension_limit && ply > 0 {
            // The horizon does not hide a one-move loss: against a winning threat the node is
            // searched one more ply (its stoppers), and so on along a chain of threats.
            if self.threatened(pos, &mut facts, slot) {
                depth = 1;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            let eval = self.static_eval(pos, &mut facts, slot);
            // A leaf facing a winning threat is worse than its evaluation says: the threat
            // found (cached) but not searched.
            if self.params.leaf_threat > 0 && self.threatened(pos, &mut facts, slot) {
                return eval - self.params.leaf_threat;
            }
            return eval;
        }
        self.facts[slot] = facts;
        let pv_node = beta - alpha > 1;
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key, ply) {
            tt_move = hit.mv;
            if !pv_node && hit.depth as i32 >= depth {
                let cut = match hit.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => hit.score >= beta,
                    TtBound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
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
            let eval = self.static_eval(pos, &mut facts, slot);
            if eval - self.params.rfp_margin * depth >= beta
                && !self.threatened(pos, &mut facts, slot)
            {
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
            && self.static_eval(pos, &mut facts, slot) >= beta
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
            match self.search_move(pos, &mut node, mv, forcing) {
                Visit::Aborted => return 0,
                Visit::Cut => break,
                Visit::Searched => {}
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
            );
            if ply <= self.params.threat_moves_ply as usize
                && depth >= 2
                && !self.picker.only_stoppers(ply)
            {
                let threats = self.threat_moves(pos, key);
                self.picker.promote(ply, &threats);
            }
            let n = self.picker.len(ply);
            for i in 0..n {
                let (mv, forcing) = self.picker.get(ply, i);
                if early.contains(&Some(mv)) {
                    continue;
                }
                match self.search_move(pos, &mut node, mv, forcing) {
                    Visit::Aborted => return 0,
                    Visit::Cut => break,
                    Visit::Searched => {}
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
                    Visit::Searched => {}
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

    /// The node's static evaluation, computed once per position and kept in its facts
    /// (`slot` of the cache).
    fn static_eval(&mut self, pos: &Position, facts: &mut Facts, slot: usize) -> i32 {
        if facts.eval == NO_EVAL {
            facts.eval = evaluate(pos, self.params).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            self.facts[slot] = *facts;
        }
        facts.eval
    }

    /// Whether the opponent threatens to win next move, found once per position and kept in
    /// its facts (`slot` of the cache).
    fn threatened(&mut self, pos: &Position, facts: &mut Facts, slot: usize) -> bool {
        if facts.threatened.is_none() {
            facts.threatened =
                Some(threat_cached(pos, &mut self.touches).is_some_and(|t| t.decisive));
            self.facts[slot] = *facts;
        }
        facts.threatened == Some(true)
    }

    /// The moves of `pos` (hash `key`) that threaten to win next move, found once per search
    /// and position (at most [`THREAT_MOVES_CAP`], a few positions near the root ask).
    fn threat_moves(&mut self, pos: &mut Position, key: u64) -> Vec<Move> {
        let slot = (key % THREAT_CACHE as u64) as usize;
        if let Some((k, moves)) = &self.threat_cache[slot] {
            if *k == key {
                return moves.clone();
            }
        }
        let mut threats = Vec::new();
        if let Some(zone) = threat_area(pos) {
            let mut all = Vec::new();
            pos.legal_moves_into(&mut all);
            all.retain(|&mv| move_touches(pos, mv, zone));
            threat_moves(pos, &all, &mut self.touches, &mut threats);
        }
        threats.truncate(THREAT_MOVES_CAP);
        self.threat_cache[slot] = Some((key, threats.clone()));
        threats
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
            let mut top = 0;
            history_group(pl, self.params.history_grain, |slots| {
                for h in &mut self.history[base + slots.start..base + slots.end] {
                    *h = (*h + depth * depth).min(1 << 20);
                    top = top.max(*h);
                }
            });
            self.picker.note_history(side.index(), top);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Variant;

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

    #[test]
    fn helpers_from_the_second_on_skip_staggered_depths() {
        for ply in [0, 1, 7] {
            assert!((1..=MAX_DEPTH).all(|d| !skips_depth(0, d, ply) && !skips_depth(1, d, ply)));
            for helper in 2..=9 {
                let skipped = (1..=MAX_DEPTH)
                    .filter(|&d| skips_depth(helper, d, ply))
                    .count();
                // Each helper searches about half the depths: never all, never none.
                assert!((24..=40).contains(&skipped), "{helper} {ply}: {skipped}");
            }
            // Helpers 2 and 3 take turns: one searches the depths the other skips.
            assert!((1..=MAX_DEPTH).all(|d| skips_depth(2, d, ply) != skips_depth(3, d, ply)));
        }
    }

    #[test]
    fn a_deeper_helper_with_a_better_score_wins_the_vote() {
        let line = |depth, score| Line {
            depth,
            seldepth: depth,
            score,
            pv: vec![Move::Pass],
        };
        let main = line(8, 50);
        let pick = |helpers: Vec<Option<Line>>| deeper_line(&main, helpers).map(|l| l.depth);
        assert_eq!(pick(vec![]), None);
        assert_eq!(pick(vec![None, Some(line(8, 90)), Some(line(9, 50))]), None);
        assert_eq!(pick(vec![Some(line(7, 900)), Some(line(9, 40))]), None);
        assert_eq!(pick(vec![Some(line(9, 51)), None]), Some(9));
        assert_eq!(pick(vec![Some(line(9, 900)), Some(line(10, 60))]), Some(10));
    }

    #[test]
    fn root_shuffle_is_a_small_seeded_permutation() {
        let moves = Position::new(Variant::Standard).legal_moves();
        let shuffled = |seed, index| {
            let mut m = moves.clone();
            shuffle_root(&mut m, seed, index);
            m
        };
        let a = shuffled(1, 1);
        let mut sorted = a.clone();
        sorted.sort();
        let mut original = moves.clone();
        original.sort();
        assert_eq!(sorted, original);
        for (i, mv) in a.iter().enumerate() {
            let from = moves.iter().position(|m| m == mv).unwrap();
            assert!(from.abs_diff(i) <= ROOT_SHUFFLE, "{mv}: {from} -> {i}");
        }
        assert_ne!(a, moves);
        assert_eq!(a, shuffled(1, 1));
        assert_ne!(a, shuffled(2, 1));
        assert_ne!(a, shuffled(1, 2));
    }
}
