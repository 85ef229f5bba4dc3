//! The network trainer's data: sample files read into snapshots (`nnue::features`) with
//! their targets, split by game into training and validation, and the board's twelve
//! symmetries for augmentation.
//!
//! The rules are the same under the hexagon's six rotations and six reflections: the sides
//! map to sides (a connection stays one), the central hexagon onto itself. A reflection turns
//! an L into an R (they are mirror images) and keeps the other kinds, so it swaps those two
//! hand counts. Cells are mapped in the `(dx, dy)` offsets from the centre `i9`: the rotation by
//! 60 degrees is `(dx, dy) -> (dy, dy - dx)` (direction `D[i]` to `D[i+1]`), the reflection
//! `(dx, dy) -> (dy, dx)`.

use std::path::PathBuf;

use crate::engine::search::evaluate::evaluate;
use crate::engine::search::nnue::features::{
    cell_features, cell_of, dense, hand_feature, Hands, Snapshot,
};
use crate::engine::search::params::Params;
use crate::referee::openings::mix;
use crate::referee::players::player::Score;
use crate::rules::cell::NUM_CELLS;
use crate::rules::geometry::Cell;
use crate::rules::notation::parse_position;
use crate::rules::position::Variant;
use crate::tune::data::read_samples;

/// One training position.
#[derive(Clone, Debug)]
pub struct NetSample {
    pub snap: Snapshot,
    /// `lambda * result + (1 - lambda) * sigmoid(score / scale)`, side to move's view.
    pub target: f32,
    /// The hand evaluation of the position (centipawns, side to move's view), for comparison.
    pub hand_eval: i32,
}

/// How targets are made.
#[derive(Copy, Clone, Debug)]
pub struct TargetConfig {
    /// Weight of the game result against the search's score.
    pub lambda: f64,
    /// Centipawns per logit unit.
    pub scale: f64,
    /// Share of games held out for validation.
    pub valid: f64,
}

/// Training and validation positions.
pub struct NetData {
    pub train: Vec<NetSample>,
    pub valid: Vec<NetSample>,
    pub unreadable: usize,
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads sample files of any format (text, JSON Lines or binary: `punct-tune gen`,
/// `punct-referee -sample`, `punct-tune convert`).
pub fn load(files: &[PathBuf], cfg: &TargetConfig) -> Result<NetData, String> {
    let params = Params::default();
    let mut data = NetData {
        train: Vec::new(),
        valid: Vec::new(),
        unreadable: 0,
    };
    for f in files {
        for s in read_samples(f)? {
            let s = s?;
            let Ok(pos) = parse_position(&s.position, Variant::Standard) else {
                data.unreadable += 1;
                continue;
            };
            if pos.is_finished() {
                continue;
            }
            let result = s.result_for_side();
            let searched = match s.score {
                Some(Score::Cp(cp)) => sigmoid(cp as f64 / cfg.scale),
                Some(Score::Mate(m)) => (m > 0) as u8 as f64,
                None => result,
            };
            let sample = NetSample {
                snap: Snapshot::of(&pos),
                target: (cfg.lambda * result + (1.0 - cfg.lambda) * searched) as f32,
                hand_eval: evaluate(&pos, &params),
            };
            let held_out = (mix(s.game ^ 0x7E57) % 10_000) as f64 / 10_000.0 < cfg.valid;
            if held_out {
                data.valid.push(sample);
            } else {
                data.train.push(sample);
            }
        }
    }
    Ok(data)
}

/// One of the board's symmetries: where each dense cell goes, and whether L and R swap.
#[derive(Clone)]
pub struct Symmetry {
    pub cells: [u8; NUM_CELLS],
    pub mirror: bool,
}

/// The twelve symmetries, the identity first.
pub fn symmetries() -> Vec<Symmetry> {
    let map = |c: Cell, turns: usize, mirror: bool| -> Cell {
        let (mut dx, mut dy) = (c.x() - 8, c.y() - 8);
        for _ in 0..turns {
            (dx, dy) = (dy, dy - dx);
        }
        if mirror {
            (dx, dy) = (dy, dx);
        }
        Cell::new(dx + 8, dy + 8).expect("a symmetry maps the board onto itself")
    };
    let mut out = Vec::new();
    for mirror in [false, true] {
        for turns in 0..6 {
            let mut cells = [0u8; NUM_CELLS];
            for (d, slot) in cells.iter_mut().enumerate() {
                *slot = dense(map(cell_of(d), turns, mirror)) as u8;
            }
            out.push(Symmetry { cells, mirror });
        }
    }
    out
}

/// The inputs `persp` sees in `snap` seen through `sym` (cells moved, L and R swapped).
pub fn features(snap: &Snapshot, sym: &Symmetry, persp: usize, out: &mut Vec<usize>) {
    out.clear();
    for &(d, code) in &snap.cells {
        cell_features(sym.cells[d as usize] as usize, code, persp, |f| out.push(f));
    }
    let hands: Hands = if sym.mirror {
        snap.hands.map(|h| [h[0], h[1], h[2], h[3], h[5], h[4]])
    } else {
        snap.hands
    };
    for (colour, hand) in hands.iter().enumerate() {
        for (kind, &n) in hand.iter().enumerate() {
            for i in 0..n as usize {
                out.push(hand_feature(persp, colour, kind, i));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::cell::Dir;
    use crate::rules::geometry::{central_cells, Side};

    #[test]
    fn every_symmetry_is_a_bijection_keeping_neighbours_centre_and_sides() {
        let syms = symmetries();
        assert_eq!(syms.len(), 12);
        assert!(syms[0]
            .cells
            .iter()
            .enumerate()
            .all(|(i, &c)| i == c as usize));
        let rim: Vec<Cell> = Side::ALL.iter().flat_map(|s| s.cells()).collect();
        let mut images = std::collections::HashSet::new();
        for s in &syms {
            let m = |c: Cell| cell_of(s.cells[dense(c)] as usize);
            let mut seen = [false; NUM_CELLS];
            for &c in Cell::all() {
                seen[s.cells[dense(c)] as usize] = true;
                for d in Dir::ALL {
                    if let Some(n) = c.neighbour(d) {
                        assert_eq!(m(c).distance(m(n)), 1, "neighbours stay neighbours");
                    }
                }
                assert_eq!(c.is_central(), m(c).is_central());
                assert_eq!(rim.contains(&c), rim.contains(&m(c)));
            }
            assert!(seen.iter().all(|&x| x), "onto");
            // Opposite sides stay opposite: a side's image is one side.
            for side in Side::ALL {
                let img: crate::CellSet = side.cells().iter().map(m).collect();
                let opp: crate::CellSet = side.opposite().cells().iter().map(m).collect();
                let s2 = Side::ALL.iter().find(|t| t.cells() == img).expect("a side");
                assert_eq!(s2.opposite().cells(), opp);
            }
            images.insert(s.cells.to_vec());
        }
        assert_eq!(images.len(), 12, "twelve different maps");
        assert_eq!(central_cells().len(), 19);
    }
}
