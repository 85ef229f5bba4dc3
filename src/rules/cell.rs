//! Cells and directions: the 211 spaces as indices into a 17x17 grid, and the six directions.
//!
//! A [`Cell`] is stored as its index in a 17x17 column-major grid (`17 * x + y`). Because the
//! hexagon leaves the grid corners empty, stepping one direction from a board cell never wraps
//! onto another board cell, which lets [`CellSet`](crate::rules::cellset::CellSet) use plain bit
//! shifts for neighbours and piece shapes. What needs precomputed tables (neighbours, rays, the
//! centre) is in [`geometry`](crate::rules::geometry).

use std::fmt;

/// Side length of the coordinate grid (x and y run over `0..GRID_SIDE`).
pub const GRID_SIDE: usize = 17;
/// Number of grid slots (board cells plus off-board slots).
pub const GRID_LEN: usize = GRID_SIDE * GRID_SIDE;
/// Number of spaces on the board.
pub const NUM_CELLS: usize = 211;

/// One space of the board (always on the board).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

/// Whether `(x, y)` is a space of the board (docs/rules.md section 1).
pub const fn on_board(x: i32, y: i32) -> bool {
    if x < 0 || y < 0 || x > 16 || y > 16 {
        return false;
    }
    let d = x - y;
    if d > 8 || d < -8 {
        return false;
    }
    // The six corners of the side-9 hexagon are removed.
    !matches!(
        (x, y),
        (0, 0) | (0, 8) | (8, 0) | (8, 16) | (16, 8) | (16, 16)
    )
}

impl Cell {
    /// The cell at `(x, y)`, or `None` off the board.
    pub const fn new(x: i32, y: i32) -> Option<Cell> {
        if on_board(x, y) {
            Some(Cell((x as u16) * GRID_SIDE as u16 + y as u16))
        } else {
            None
        }
    }

    /// The cell at grid index `index`, or `None` when that slot is off the board.
    pub fn from_index(index: usize) -> Option<Cell> {
        if index < GRID_LEN {
            Cell::new((index / GRID_SIDE) as i32, (index % GRID_SIDE) as i32)
        } else {
            None
        }
    }

    /// The cell at grid index `index`, which the caller knows to be a board cell.
    #[inline]
    pub(crate) const fn from_board_index(index: usize) -> Cell {
        debug_assert!(
            index < GRID_LEN && on_board((index / GRID_SIDE) as i32, (index % GRID_SIDE) as i32)
        );
        Cell(index as u16)
    }

    /// Grid index, usable for arrays of length [`GRID_LEN`]; increasing with `(x, y)`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn x(self) -> i32 {
        (self.0 / GRID_SIDE as u16) as i32
    }

    #[inline]
    pub const fn y(self) -> i32 {
        (self.0 % GRID_SIDE as u16) as i32
    }

    /// The cell `(dx, dy)` away, if it is on the board.
    pub const fn offset(self, dx: i32, dy: i32) -> Option<Cell> {
        Cell::new(self.x() + dx, self.y() + dy)
    }

    /// Hex distance between two cells.
    pub fn distance(self, other: Cell) -> i32 {
        hex_distance(other.x() - self.x(), other.y() - self.y())
    }

    /// The column letter `a`..`q`.
    pub fn file_char(self) -> char {
        (b'a' + self.x() as u8) as char
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.y() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Hex distance of a displacement `(dx, dy)` (docs/rules.md section 1).
pub const fn hex_distance(dx: i32, dy: i32) -> i32 {
    if (dx >= 0) == (dy >= 0) || dx == 0 || dy == 0 {
        let (a, b) = (dx.abs(), dy.abs());
        if a > b {
            a
        } else {
            b
        }
    } else {
        dx.abs() + dy.abs()
    }
}

/// One of the six directions, clockwise from N.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Dir(u8);

impl Dir {
    pub const N: Dir = Dir(0);
    pub const NE: Dir = Dir(1);
    pub const SE: Dir = Dir(2);
    pub const S: Dir = Dir(3);
    pub const SW: Dir = Dir(4);
    pub const NW: Dir = Dir(5);
    pub const ALL: [Dir; 6] = [Dir(0), Dir(1), Dir(2), Dir(3), Dir(4), Dir(5)];
    const VECTORS: [(i32, i32); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];
    const NAMES: [&'static str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];

    /// Direction `i mod 6`.
    pub const fn new(i: usize) -> Dir {
        Dir((i % 6) as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The `(dx, dy)` vector.
    #[inline]
    pub const fn vector(self) -> (i32, i32) {
        Dir::VECTORS[self.0 as usize]
    }

    /// The direction `k` steps clockwise (negative: anticlockwise).
    pub const fn rotate(self, k: i32) -> Dir {
        Dir((self.0 as i32 + k).rem_euclid(6) as u8)
    }

    pub const fn opposite(self) -> Dir {
        self.rotate(3)
    }

    pub const fn name(self) -> &'static str {
        Dir::NAMES[self.0 as usize]
    }

    /// The change of grid index for one step (valid between board cells only).
    pub const fn grid_offset(self) -> i32 {
        let (dx, dy) = self.vector();
        dx * GRID_SIDE as i32 + dy
    }
}
