//! Board geometry on top of [`cell`](crate::rules::cell): sides, axes, the central hexagon, and
//! the precomputed neighbour, ray and region tables.

use std::sync::LazyLock;

use crate::rules::cellset::CellSet;

pub use crate::rules::cell::{hex_distance, on_board, Cell, Dir, GRID_LEN, GRID_SIDE, NUM_CELLS};

/// The cell methods that read the precomputed tables.
impl Cell {
    /// The neighbour in direction `dir`, if it is on the board.
    #[inline]
    pub fn neighbour(self, dir: Dir) -> Option<Cell> {
        tables().neighbours[self.index()][dir.index()]
    }
    /// The cells in a straight line from this one (excluded) in direction `dir`, nearest first.
    #[inline]
    pub fn ray(self, dir: Dir) -> &'static [Cell] {
        let t = tables();
        let (start, len) = t.rays[self.index()][dir.index()];
        &t.ray_cells[start as usize..start as usize + len as usize]
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
