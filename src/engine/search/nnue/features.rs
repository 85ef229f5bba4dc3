//! The network's inputs: what each cell shows (the colour of its top-visible dot by height,
//! and the colour of the dot under it) and what each player has in hand, seen from one
//! player's side ("own" and "opponent's" instead of White and Black).
//!
//! A cell is summed up in one byte, its *code*: the low nibble is 0 for an empty cell, else
//! `1 + colour * 4 + bucket` (colour 0 White, 1 Black; bucket `min(height, 4) - 1`); the high
//! nibble is 0 when the top dot lies directly on the board (a single piece), else `1 + colour`
//! of the next dot down the stack. The accumulator compares codes to find the cells a move
//! changed; the trainer stores them per sample and maps cells through the board's symmetries.

use std::sync::OnceLock;

use crate::rules::cell::{GRID_LEN, NUM_CELLS};
use crate::rules::geometry::Cell;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::Position;

/// Heights told apart: 1, 2, 3, 4 or more.
pub const HEIGHT_BUCKETS: usize = 4;
/// Inputs per cell: own/opponent top dot by height bucket, then own/opponent dot under it.
pub const PER_CELL: usize = 2 * HEIGHT_BUCKETS + 2;
/// Thermometer inputs per player's hand: one per piece a full hand has (6 + 4 + 2 * 4).
pub const HAND_PER_PLAYER: usize = 18;
/// First hand input.
pub const HAND_BASE: usize = NUM_CELLS * PER_CELL;
/// Inputs of one perspective.
pub const INPUTS: usize = HAND_BASE + 2 * HAND_PER_PLAYER;
/// The number of this input layout, stored in network files (another layout, another number).
pub const FEATURE_SET: u32 = 1;
/// Where each kind's thermometer starts in a hand block (kinds in `Kind::ALL` order).
pub const KIND_OFFSET: [usize; 6] = [0, 6, 10, 12, 14, 16];

/// The pieces in hand, `[colour][kind]`.
pub type Hands = [[u8; 6]; 2];

/// Dense cell numbers 0..211 by grid index (`u8::MAX` off the board), and their inverse.
struct DenseMap {
    dense: [u8; GRID_LEN],
    cells: Vec<Cell>,
}

fn dense_map() -> &'static DenseMap {
    static MAP: OnceLock<DenseMap> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut dense = [u8::MAX; GRID_LEN];
        let cells = Cell::all().to_vec();
        for (i, c) in cells.iter().enumerate() {
            dense[c.index()] = i as u8;
        }
        DenseMap { dense, cells }
    })
}

/// The dense number (0..211) of a board cell.
#[inline]
pub fn dense(c: Cell) -> usize {
    dense_map().dense[c.index()] as usize
}

/// The board cell of a dense number.
pub fn cell_of(dense: usize) -> Cell {
    dense_map().cells[dense]
}

/// The code of one cell of `pos` (see the module's notes).
#[inline]
pub fn cell_code(pos: &Position, c: Cell) -> u8 {
    let h = pos.height(c) as usize;
    if h == 0 {
        return 0;
    }
    let stack = pos.stack(c);
    let top = pos.piece(stack[stack.len() - 1] as usize).colour.index();
    let mut code = (1 + top * HEIGHT_BUCKETS + (h - 1).min(HEIGHT_BUCKETS - 1)) as u8;
    if stack.len() >= 2 {
        let under = pos.piece(stack[stack.len() - 2] as usize).colour.index();
        code |= ((1 + under) as u8) << 4;
    }
    code
}

/// The inputs a cell with `code` turns on, seen by `persp` (0 White, 1 Black).
#[inline]
pub fn cell_features(dense: usize, code: u8, persp: usize, mut f: impl FnMut(usize)) {
    let top = (code & 15) as usize;
    if top == 0 {
        return;
    }
    let colour = (top - 1) / HEIGHT_BUCKETS;
    let bucket = (top - 1) % HEIGHT_BUCKETS;
    let rel = (colour != persp) as usize;
    f(dense * PER_CELL + rel * HEIGHT_BUCKETS + bucket);
    let under = (code >> 4) as usize;
    if under != 0 {
        let rel = (under - 1 != persp) as usize;
        f(dense * PER_CELL + 2 * HEIGHT_BUCKETS + rel);
    }
}

/// The input of the `i`-th piece (from 0) of `kind` in `colour`'s hand, seen by `persp`.
#[inline]
pub fn hand_feature(persp: usize, colour: usize, kind: usize, i: usize) -> usize {
    let rel = (colour != persp) as usize;
    HAND_BASE + rel * HAND_PER_PLAYER + KIND_OFFSET[kind] + i
}

/// The pieces in hand of both players.
pub fn hands(pos: &Position) -> Hands {
    let mut h = [[0; 6]; 2];
    for colour in Colour::ALL {
        for kind in Kind::ALL {
            h[colour.index()][kind.index()] = pos.in_hand(colour, kind);
        }
    }
    h
}

/// A position as the network sees it: the codes of its non-empty cells (dense number, code),
/// the hands and the side to move (0 White, 1 Black).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub cells: Vec<(u8, u8)>,
    pub hands: Hands,
    pub side: u8,
}

impl Snapshot {
    pub fn of(pos: &Position) -> Snapshot {
        let occupied = pos.top_view(Colour::White) | pos.top_view(Colour::Black);
        let mut cells: Vec<(u8, u8)> = occupied
            .iter()
            .map(|c| (dense(c) as u8, cell_code(pos, c)))
            .collect();
        cells.sort_unstable();
        Snapshot {
            cells,
            hands: hands(pos),
            side: pos.side_to_move().index() as u8,
        }
    }

    /// Every input that is on, seen by `persp`, in no particular order.
    pub fn features(&self, persp: usize, out: &mut Vec<usize>) {
        out.clear();
        for &(d, code) in &self.cells {
            cell_features(d as usize, code, persp, |f| out.push(f));
        }
        for (colour, hand) in self.hands.iter().enumerate() {
            for (kind, &n) in hand.iter().enumerate() {
                for i in 0..n as usize {
                    out.push(hand_feature(persp, colour, kind, i));
                }
            }
        }
    }
}

/// Every input of `pos` that is on, seen by `persp`: the from-scratch reference.
pub fn active(pos: &Position, persp: usize) -> Vec<usize> {
    let mut out = Vec::new();
    Snapshot::of(pos).features(persp, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Variant;

    #[test]
    fn dense_numbers_cover_the_board_once() {
        assert_eq!(Cell::all().len(), NUM_CELLS);
        for (i, &c) in Cell::all().iter().enumerate() {
            assert_eq!(dense(c), i);
            assert_eq!(cell_of(i), c);
        }
    }

    #[test]
    fn the_start_has_only_hands_and_perspectives_swap_them() {
        let pos = Position::new(Variant::Standard);
        let w = active(&pos, 0);
        assert_eq!(w.len(), 36);
        assert!(w.iter().all(|&f| (HAND_BASE..INPUTS).contains(&f)));
        let mut b = active(&pos, 1);
        b.sort();
        let mut w = w;
        w.sort();
        assert_eq!(w, b, "equal hands look the same from both sides");
    }

    #[test]
    fn a_cell_code_is_its_top_colour_and_height_and_the_colour_under_it() {
        // Random games until stacks of two and more appear; the code against the position's
        // own top view and heights.
        let mut seen_stack = false;
        for seed in 0..20u64 {
            let mut pos = Position::new(Variant::Standard);
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            while !pos.is_finished() && pos.ply() < 60 {
                let moves = pos.legal_moves();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos.make(moves[(x % moves.len() as u64) as usize]);
                for &c in Cell::all() {
                    let code = cell_code(&pos, c);
                    match pos.top_colour(c) {
                        None => assert_eq!(code, 0),
                        Some(col) => {
                            let h = pos.height(c) as usize;
                            let top = 1 + col.index() * 4 + h.min(4) - 1;
                            assert_eq!((code & 15) as usize, top);
                            let st = pos.stack(c);
                            if st.len() >= 2 {
                                seen_stack = true;
                                let under = pos.piece(st[st.len() - 2] as usize).colour;
                                assert_eq!((code >> 4) as usize, 1 + under.index());
                            } else {
                                assert_eq!(code >> 4, 0);
                            }
                        }
                    }
                }
            }
        }
        assert!(seen_stack);
    }
}
