//! Board geometry: the 211 spaces, the 6 directions, sides, axes and the central hexagon.
//!
//! A [`Cell`] is stored as its index in a 17x17 column-major grid (`17 * x + y`). Because the
//! hexagon leaves the grid corners empty, stepping one direction from a board cell never wraps
//! onto another board cell, which lets [`CellSet`](crate::CellSet) use plain bit shifts for
//! neighbours and piece shapes.

use std::fmt;
use std::sync::LazyLock;

use crate::cellset::CellSet;

/// Side length of the coordinate grid (x and y run over `0..GRID_SIDE`).
pub const GRID_SIDE: usize = 17;
/// Number of grid slots (board cells plus off-board slots).
pub const GRID_LEN: usize = GRID_SIDE * GRID_SIDE;
/// Number of spaces on the board.
pub const NUM_CELLS: usize = 211;

/// One space of the board (always on the board).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

/// Whether `(x, y)` is a space of the board (RULES.md section 1).
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

    /// The neighbour in direction `dir`, if it is on the board.
    #[inline]
    pub fn neighbour(self, dir: Dir) -> Option<Cell> {
        tables().neighbours[self.index()][dir.index()]
    }

    /// The cell `(dx, dy)` away, if it is on the board.
    pub const fn offset(self, dx: i32, dy: i32) -> Option<Cell> {
        Cell::new(self.x() + dx, self.y() + dy)
    }

    /// The cells in a straight line from this one (excluded) in direction `dir`, nearest first.
    #[inline]
    pub fn ray(self, dir: Dir) -> &'static [Cell] {
        let t = tables();
        let (start, len) = t.rays[self.index()][dir.index()];
        &t.ray_cells[start as usize..start as usize + len as usize]
    }

    /// Hex distance between two cells.
    pub fn distance(self, other: Cell) -> i32 {
        hex_distance(other.x() - self.x(), other.y() - self.y())
    }

    /// Whether this cell is one of the 19 spaces of the central hexagon.
    #[inline]
    pub fn is_central(self) -> bool {
        tables().centre.contains(self)
    }

    /// Every cell of the board in increasing `(x, y)` order.
    pub fn all() -> &'static [Cell] {
        &tables().all
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

/// Hex distance of a displacement `(dx, dy)` (RULES.md section 1).
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

/// One of the six rim sides.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    West,
    SouthWest,
    SouthEast,
    East,
    NorthEast,
    NorthWest,
}

impl Side {
    pub const ALL: [Side; 6] = [
        Side::West,
        Side::SouthWest,
        Side::SouthEast,
        Side::East,
        Side::NorthEast,
        Side::NorthWest,
    ];

    pub const fn opposite(self) -> Side {
        match self {
            Side::West => Side::East,
            Side::East => Side::West,
            Side::SouthWest => Side::NorthEast,
            Side::NorthEast => Side::SouthWest,
            Side::SouthEast => Side::NorthWest,
            Side::NorthWest => Side::SouthEast,
        }
    }

    fn contains_xy(self, x: i32, y: i32) -> bool {
        match self {
            Side::West => x == 0,
            Side::East => x == 16,
            Side::SouthWest => y == 0,
            Side::NorthEast => y == 16,
            Side::SouthEast => x - y == 8,
            Side::NorthWest => y - x == 8,
        }
    }

    /// The 7 cells of this side.
    pub fn cells(self) -> CellSet {
        tables().sides[self as usize]
    }
}

/// One of the three pairs of opposite sides a connection can join.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Axis {
    /// West to East.
    WestEast,
    /// South-west to North-east.
    SouthWestNorthEast,
    /// South-east to North-west.
    SouthEastNorthWest,
}

impl Axis {
    pub const ALL: [Axis; 3] = [
        Axis::WestEast,
        Axis::SouthWestNorthEast,
        Axis::SouthEastNorthWest,
    ];

    /// The two opposite sides of this axis.
    pub const fn sides(self) -> (Side, Side) {
        match self {
            Axis::WestEast => (Side::West, Side::East),
            Axis::SouthWestNorthEast => (Side::SouthWest, Side::NorthEast),
            Axis::SouthEastNorthWest => (Side::SouthEast, Side::NorthWest),
        }
    }
}

/// Precomputed geometry, built once on first use.
pub(crate) struct Tables {
    pub all: Vec<Cell>,
    pub board: CellSet,
    pub centre: CellSet,
    /// The cells on a straight line through the central hexagon (the centre included).
    pub centre_lines: CellSet,
    pub sides: [CellSet; 6],
    pub neighbours: Vec<[Option<Cell>; 6]>,
    /// `(start, len)` into `ray_cells` for each grid index and direction.
    pub rays: Vec<[(u16, u8); 6]>,
    pub ray_cells: Vec<Cell>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);

#[inline]
pub(crate) fn tables() -> &'static Tables {
    &TABLES
}

fn build_tables() -> Tables {
    let all: Vec<Cell> = (0..GRID_LEN).filter_map(Cell::from_index).collect();
    let mut board = CellSet::EMPTY;
    let mut centre = CellSet::EMPTY;
    let mut sides = [CellSet::EMPTY; 6];
    let mut neighbours = vec![[None; 6]; GRID_LEN];
    let mut rays = vec![[(0u16, 0u8); 6]; GRID_LEN];
    let mut ray_cells = Vec::new();
    let middle = Cell::new(8, 8).expect("i9 is on the board");
    for &c in &all {
        board.insert(c);
        if c.distance(middle) <= 2 {
            centre.insert(c);
        }
        for side in Side::ALL {
            if side.contains_xy(c.x(), c.y()) {
                sides[side as usize].insert(c);
            }
        }
        for d in Dir::ALL {
            let (dx, dy) = d.vector();
            neighbours[c.index()][d.index()] = c.offset(dx, dy);
            let start = ray_cells.len();
            let mut k = 1;
            while let Some(n) = c.offset(k * dx, k * dy) {
                ray_cells.push(n);
                k += 1;
            }
            rays[c.index()][d.index()] = (start as u16, (ray_cells.len() - start) as u8);
        }
    }
    let mut centre_lines = centre;
    for &c in &all {
        let ray = |d: Dir| {
            let (start, len) = rays[c.index()][d.index()];
            &ray_cells[start as usize..start as usize + len as usize]
        };
        if Dir::ALL
            .iter()
            .any(|&d| ray(d).iter().any(|&n| centre.contains(n)))
        {
            centre_lines.insert(c);
        }
    }
    Tables {
        all,
        board,
        centre,
        centre_lines,
        sides,
        neighbours,
        rays,
        ray_cells,
    }
}

/// All 211 cells as a set.
pub fn board_cells() -> CellSet {
    tables().board
}

/// The 19 cells of the central hexagon.
pub fn central_cells() -> CellSet {
    tables().centre
}

/// The cells from which a straight move (in one of the six directions) can reach the central
/// hexagon, and the hexagon itself.
pub fn central_lines() -> CellSet {
    tables().centre_lines
}
