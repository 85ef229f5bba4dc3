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
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::search::busy::BusyTable;
use crate::engine::search::facts::FactsTable;
use crate::engine::search::nnue::{self, Network};
use crate::engine::search::params::Params;
use crate::engine::search::puct;
use crate::engine::search::skill;
use crate::engine::search::tt::{TranspositionTable, MATE};
use crate::engine::search::worker::{uci_score, Line, Shared, ThreadTables, Worker};
use crate::engine::types::{Bound, Limits, SearchControl, SearchInfo, SearchResult};
use crate::rules::moves::Move;
use crate::rules::position::Position;

/// How the engine searches (the `SearchMode` option).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SearchMode {
    /// Iterative deepening alpha-beta (the default).
    #[default]
    AlphaBeta,
    /// A policy-guided tree search (see `puct`).
    Puct,
}

impl SearchMode {
    /// The option's values, as announced.
    pub const NAMES: [&'static str; 2] = ["alphabeta", "puct"];

    pub fn from_name(name: &str) -> Option<SearchMode> {
        match name.to_ascii_lowercase().as_str() {
            "alphabeta" => Some(SearchMode::AlphaBeta),
            "puct" => Some(SearchMode::Puct),
            _ => None,
        }
    }
}

/// The search with its tables; lives on the worker thread between searches.
pub struct Searcher {
    mode: SearchMode,
    /// The parameters the cached evaluations were made with.
    facts_params: Params,
    params: Params,
    /// The network of `EvalFile`, or `None` for the hand evaluation.
    net: Option<Arc<Network>>,
    hash_mb: usize,
    seed: u64,
    tt: TranspositionTable,
    /// With several threads, the moves being searched (see `busy`).
    busy: Option<BusyTable>,
    /// What positions alone determine (wins, evaluations), shared by the threads.
    facts: FactsTable,
    main: ThreadTables,
    /// One per thread beyond the main one.
    helpers: Vec<ThreadTables>,
    /// Nodes of each thread in the last search, main thread first.
    last_thread_nodes: Vec<u64>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            mode: SearchMode::AlphaBeta,
            params: Params::default(),
            net: nnue::default_net(),
            hash_mb,
            seed: 0,
            tt: TranspositionTable::new(hash_mb),
            busy: None,
            facts: FactsTable::new(),
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
        if n <= 1 {
            self.busy = None;
        } else if self.busy.is_none() {
            self.busy = Some(BusyTable::new());
        }
    }

    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Seeds the helpers' root shuffles and a strength level's draws; at full strength the
    /// main thread uses no randomness, so with one thread the seed changes nothing.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn set_mode(&mut self, mode: SearchMode) {
        self.mode = mode;
    }

    pub fn mode(&self) -> SearchMode {
        self.mode
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt from earlier searches (new game, Clear Hash).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.facts.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(ThreadTables::clear);
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// The evaluation: a network, or `None` for the hand evaluation. The cached evaluations
    /// are forgotten when it changes.
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        if self.net.as_ref().map(|n| n.id) != net.as_ref().map(|n| n.id) {
            self.facts.clear();
        }
        self.net = net;
    }

    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
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
        if let Some(level) = limits.level {
            let plan = skill::LevelPlan::new(level, self.seed(), pos, limits);
            let shown = plan.shown;
            let mut result = self.search(pos, &plan.inner, ctl, &mut |info: &SearchInfo| {
                if info.multipv <= shown {
                    report(info)
                }
            });
            plan.choose(&mut result);
            return result;
        }
        self.tt.new_search();
        if let Some(busy) = &self.busy {
            busy.clear();
        }
        if self.facts_params != self.params {
            self.facts.clear();
            self.facts_params = self.params.clone();
        }
        let shared = Shared {
            params: &self.params,
            net: self.net.as_deref(),
            tt: &self.tt,
            busy: self.busy.as_ref(),
            facts: &self.facts,
            ctl,
            halt: &AtomicBool::new(false),
            nodes: &(0..self.threads())
                .map(|_| AtomicU64::new(0))
                .collect::<Vec<_>>(),
        };
        if self.mode == SearchMode::Puct {
            let mut tables: Vec<&mut ThreadTables> = std::iter::once(&mut self.main)
                .chain(self.helpers.iter_mut())
                .collect();
            let mut result = puct::search(shared, &mut tables, pos, limits, self.hash_mb, report);
            self.last_thread_nodes = (shared.nodes.iter())
                .map(|n| n.load(Ordering::Relaxed))
                .collect();
            result.nodes = self.last_thread_nodes.iter().sum();
            return result;
        }
        // Helpers have no limits of their own but the shared node budget (the main thread may
        // be off its core a while): they end when the main thread does.
        let helper_limits = Limits {
            infinite: true,
            depth: limits.depth,
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
                        // The first helper splits the work with the main thread move by move
                        // (`busy`) and needs no other order; further ones also shuffle.
                        if i > 0 {
                            worker.shuffle_seed = Some(seed);
                        }
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
        // Not with MultiPV. With a depth limit, a helper's line is taken only when it reached
        // that depth first (and ended the search), whatever its score.
        let deeper = if limits.multipv <= 1 {
            deeper_line(main_line.as_ref(), helper_lines, limits.depth)
        } else {
            None
        };
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

/// Stockfish 8's vote: a helper that completed a deeper iteration than the main thread with
/// a better score has the better answer (the deepest such, then the best). With a depth
/// limit, only a helper that completed that depth (and so ended the search) counts, whatever
/// its score. A main thread stopped before its first iteration completed has no line.
fn deeper_line(
    main: Option<&Line>,
    helpers: Vec<Option<Line>>,
    depth_limit: Option<u32>,
) -> Option<Line> {
    let (depth, score) = main.map_or((0, i32::MIN), |m| (m.depth, m.score));
    (helpers.into_iter().flatten())
        .filter(|l| match depth_limit {
            Some(d) => l.depth >= d && l.depth > depth,
            None => l.depth > depth && l.score > score,
        })
        .max_by_key(|l| (l.depth, l.score))
}

/// Sets its flag when dropped.
struct HaltOnDrop<'a>(&'a AtomicBool);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
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
pub(super) fn skips_depth(index: usize, depth: u32, ply: u32) -> bool {
    let i = match index {
        0 | 1 => return false,
        n => (n - 2) % SKIP_SIZE.len(),
    };
    (depth + ply + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// A helper's root order: each move at most `ROOT_SHUFFLE` places from where it was, drawn
/// from `seed` and the thread's index.
pub(super) fn shuffle_root(moves: &mut [Move], seed: u64, index: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::worker::MAX_DEPTH;
    use crate::rules::position::Variant;

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
        let pick =
            |helpers: Vec<Option<Line>>| deeper_line(Some(&main), helpers, None).map(|l| l.depth);
        assert_eq!(pick(vec![]), None);
        assert_eq!(pick(vec![None, Some(line(8, 90)), Some(line(9, 50))]), None);
        assert_eq!(pick(vec![Some(line(7, 900)), Some(line(9, 40))]), None);
        assert_eq!(pick(vec![Some(line(9, 51)), None]), Some(9));
        assert_eq!(pick(vec![Some(line(9, 900)), Some(line(10, 60))]), Some(10));
        // With a depth limit, a line of that depth wins whatever its score, a shallower
        // one never (the main thread stopped at a mate, or was halted by that helper).
        let limited = |main: Option<&Line>, helpers, d| {
            deeper_line(main, helpers, Some(d)).map(|l: Line| (l.depth, l.score))
        };
        assert_eq!(
            limited(Some(&main), vec![Some(line(9, 40)), None], 9),
            Some((9, 40))
        );
        assert_eq!(limited(Some(&main), vec![Some(line(9, 90))], 12), None);
        assert_eq!(limited(Some(&main), vec![Some(line(8, 90))], 8), None);
        // A main thread with no completed iteration takes a helper's line.
        assert_eq!(limited(None, vec![Some(line(3, -5))], 3), Some((3, -5)));
        assert_eq!(
            deeper_line(None, vec![Some(line(1, -5))], None).map(|l| l.depth),
            Some(1)
        );
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
