//! `bench`: a fixed set of positions searched to a fixed depth (STUB: to be replaced).

use std::time::{Duration, Instant};

use crate::engine::search::Searcher;
use crate::engine::types::{Limits, SearchControl};
use crate::position::{Position, Variant};

pub const DEFAULT_DEPTH: u32 = 1;

/// Totals of a bench run: the node count is the engine's functional signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    pub positions: usize,
    pub nodes: u64,
    pub time: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        self.nodes.saturating_mul(1_000_000) / (self.time.as_micros().max(1) as u64)
    }
}

/// Searches every bench position to `depth` with a fresh table each time.
pub fn run(searcher: &mut Searcher, depth: u32) -> BenchReport {
    let start = Instant::now();
    let positions = [Position::new(Variant::Standard)];
    let mut nodes = 0;
    for pos in &positions {
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = searcher.search(pos, &limits, &SearchControl::default(), &mut |_| {});
        nodes += r.nodes;
    }
    BenchReport {
        positions: positions.len(),
        nodes,
        time: start.elapsed(),
    }
}
