//! The search (STUB: one-ply greedy search, to be replaced by iterative-deepening PVS).

use std::time::Instant;

use crate::engine::evaluate::evaluate;
use crate::engine::params::Params;
use crate::engine::types::{Bound, Limits, Score, SearchControl, SearchInfo, SearchResult};
use crate::position::Position;

/// The search with its tables; lives on the worker thread between searches.
pub struct Searcher {
    params: Params,
    hash_mb: usize,
    threads: usize,
    seed: u64,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            params: Params::default(),
            hash_mb,
            threads: 1,
            seed: 0,
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_size(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Forgets everything learnt from earlier searches (new game, Clear Hash).
    pub fn clear(&mut self) {}

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// Per mille of the transposition table in use.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches `pos` within `limits` until done or `ctl.stop`; reports progress to `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        ctl: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = pos.clone();
        let mut moves = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut best = None;
        let mut best_score = i32::MIN;
        let mut nodes = 0;
        for mv in moves {
            if ctl.stopped() {
                break;
            }
            pos.make(mv);
            nodes += 1;
            let score = -evaluate(&pos, &self.params);
            pos.unmake();
            if score > best_score {
                best_score = score;
                best = Some(mv);
            }
        }
        let info = SearchInfo {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(best_score.max(-30000)),
            bound: Bound::Exact,
            nodes,
            time: start.elapsed(),
            hashfull: 0,
            pv: best.into_iter().collect(),
        };
        report(&info);
        SearchResult {
            best,
            ponder: None,
            score: info.score,
            depth: 1,
            nodes,
            time: start.elapsed(),
        }
    }
}
