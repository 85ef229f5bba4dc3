//! `bench`: a fixed set of positions searched to a fixed depth with fresh tables each; the
//! total node count is the engine's functional signature (the same on every run and machine).
//! The time (and so nodes/s) counts the searches only, not the clearing of tables between them.

use std::time::{Duration, Instant};

use crate::engine::search::Searcher;
use crate::engine::types::{Limits, SearchControl};
use crate::rules::notation::parse_position;
use crate::rules::position::{Position, Variant};

pub const DEFAULT_DEPTH: u32 = 6;

/// Standard-game positions from the engine's own depth-2 games after 6 random plies (plies 8
/// to 44: openings, blocking fights, the centre race); the two start positions come first.
const STANDARD: &[&str] = &[
    "Wc6c7c8/Wd2d1d3/Bd7d6e6/We10d9f10/Bf11f12f13/Bg4g3g5/Bg10g11h11 w 8",
    "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We3e4d4/We10d9f10/Bf11f12f13/Bg4g3g5/Bg7h8h9/Bg10g11h11/Wg13g12h14/Bg14h15i16/Wi12h12h13/Wj17j16i15/Bf11e10f10 w 24",
    "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We10d9f10/Wg6f5f6/Bg7h8h9/Wg13g12h14/Bg14h15i16/Bh11h10i11/Wi12h12h13/Wj15i14i13/Wj17j16i15/Be2d2f2/Wf10g11g12/Bh11h12h13/Bh15h14i15 w 34",
    "Bf14g15h16/Bg13f12f13/Bi12i13j12/Wj13k13k14/Wj15i15j14/Bk3k4k5/Bk7j6k6/Wk11j11k10/Wl5l6l7/Wl8l9l10/Bl12k12l11/Bm9m10m11/Wi15h15h16 w 16",
    "Bf14g15h16/Bh14g14i14/Bi12i13j12/Bj13k13l13/Wj15i15j14/Bk3k4k5/Bk7j6k6/Wk11j11k10/Wk16k15k14/Wl5l6l7/Wl8l9l10/Bl12k12l11/Bm9m10m11/Wi15h15h16/Wj11j12k12/Bk7l7l8/Wl5l4k3 w 24",
    "Bf14g15h16/Bh14g14i14/Bi12i13j12/Wj10i10i11/Bj13k13l13/Wj15i15j14/Bk7j6k6/Bk9j9i9/Wk11j11k10/Bl7l6k5/Wl8l9l10/Bl12k12l11/Bm6m5m7/Wn7n8m8/Bi9i10i11/Wi15h15h16/Wj11j12k12/Wj15j14j13/Bk9j9k10/Wl8k7j6 w 34",
    "Bf14g15h16/Bh14g14i14/Bi12i13j12/Wj10i10i11/Bj13k13l13/Wj15i15j14/Bk7j6k6/Bk9j9i9/Wk11j11k10/Wl5l4l6/Wl8l9l10/Bl12k12l11/Bm6m5m7/Bm9n9o10/Wn6o7o8/Wn7n8m8/Bi9i10i11/Wi15h15h16/Wj11j12k12/Wj15j14j13/Bk7l8m8/Bk9j9k10/Wl9l10l11/Bk10j10j11/Wl9k9j9 w 44",
    "Wh2h1i3/Bj3i2j4/Bk3k4k5/Bk6j5l6/Bk9k10k11/Bk12k13k14/Wl5m6n7/Bm17m16l15/Wn15n14o14/Bn16o16p16/Wo10o9o8/Wo11o12o13/Wi3j4k4 w 16",
    "Wg1g2h3/Wg8h9i10/Wh2h1i3/Bh10g9i11/Bj3i2j4/Bk3k4k5/Bk6j5l6/Bk9k10k11/Wl5m6n7/Wl14k14m15/Wm5l4n6/Bm17m16l15/Wn15n14o14/Bn16o16p16/Wo10o9o8/Wo11o12o13/Wo17n17p17/Bi2h1g1/Wi3j4k4/Bl6m6n6/Wi3h2h1 w 34",
    "Wg1g2h3/Wg8h9i10/Wh2h1i3/Bh10g9i11/Bj3i2j4/Bk3k4k5/Bk6j5l6/Bk9k10k11/Bk13k12k14/Bk15l16l17/Wl5m6n7/Wm5l4n6/Bm17m16l15/Wn15n14o14/Bn16o16p16/Wo10o9o8/Wo11o12o13/Wo17n17p17/Bi2h1g1/Wi3j4k4/Wi10j10k11/Bl6l5l4/Wn17m17n16/Bi2j3j4/Wk4l4l5 w 44",
];

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

/// The bench positions.
pub fn positions() -> Vec<Position> {
    let mut out = vec![
        Position::new(Variant::Standard),
        Position::new(Variant::Basic),
    ];
    out.extend(
        STANDARD
            .iter()
            .filter_map(|text| parse_position(text, Variant::Standard).ok()),
    );
    out
}

/// Searches every bench position to `depth` with a fresh table each time.
pub fn run(searcher: &mut Searcher, depth: u32) -> BenchReport {
    let positions = positions();
    let mut time = Duration::ZERO;
    let mut nodes = 0;
    for pos in &positions {
        // Clearing the tables is not searching: its time is left out, as Stockfish's bench
        // leaves out `ucinewgame`.
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = searcher.search(pos, &limits, &SearchControl::default(), &mut |_| {});
        time += start.elapsed();
        nodes += r.nodes;
    }
    BenchReport {
        positions: positions.len(),
        nodes,
        time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_parses_and_is_playable() {
        let positions = positions();
        assert_eq!(positions.len(), STANDARD.len() + 2);
        assert!(positions.iter().all(|p| !p.is_finished()));
    }
}
