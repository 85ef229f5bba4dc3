//! Colours, the six piece kinds and placements (kind + PÜNCT cell + orientation).

use std::fmt;
use std::ops::Not;
use std::sync::LazyLock;

use crate::rules::geometry::{Cell, Dir, GRID_LEN};

/// A player.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    White = 0,
    Black = 1,
}

impl Colour {
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W` or `B`, as in position strings.
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }
}

impl Not for Colour {
    type Output = Colour;
    #[inline]
    fn not(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// The six piece kinds of docs/rules.md section 2.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// Triangle.
    T = 0,
    /// Straight, PÜNCT at an end.
    S = 1,
    /// Straight, PÜNCT in the centre.
    C = 2,
    /// Angular, PÜNCT at the bend.
    A = 3,
    /// Angular, PÜNCT at an end.
    L = 4,
    /// Angular, PÜNCT at an end, mirror of L.
    R = 5,
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::T, Kind::S, Kind::C, Kind::A, Kind::L, Kind::R];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Pieces of this kind in each player's set.
    pub const fn count(self) -> u8 {
        match self {
            Kind::T => 6,
            Kind::S => 4,
            _ => 2,
        }
    }

    /// Number of distinct orientations.
    pub const fn orientations(self) -> u8 {
        match self {
            Kind::C => 3,
            _ => 6,
        }
    }

    /// A short English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::T => "triangle",
            Kind::S => "straight",
            Kind::C => "centre-straight",
            Kind::A => "angular",
            Kind::L => "L-angular",
            Kind::R => "R-angular",
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Kind::T => 'T',
            Kind::S => 'S',
            Kind::C => 'C',
            Kind::A => 'A',
            Kind::L => 'L',
            Kind::R => 'R',
        }
    }

    /// Whether the PÜNCT is the middle dot (C and A), so that it can bridge a gap.
    #[inline]
    pub const fn punct_in_middle(self) -> bool {
        matches!(self, Kind::C | Kind::A)
    }

    /// The `(dx, dy)` of the two minor dots relative to the PÜNCT for orientation `o`;
    /// for S, L, R the first is the middle dot.
    pub const fn minor_vectors(self, o: u8) -> [(i32, i32); 2] {
        let i = o as usize;
        let d = Dir::new(i).vector();
        let second = match self {
            Kind::T => Dir::new(i + 1).vector(),
            Kind::S => (2 * d.0, 2 * d.1),
            Kind::C => Dir::new(i + 3).vector(),
            Kind::A => Dir::new(i + 2).vector(),
            Kind::L => {
                let e = Dir::new(i + 1).vector();
                (d.0 + e.0, d.1 + e.1)
            }
            Kind::R => {
                let e = Dir::new(i + 5).vector();
                (d.0 + e.0, d.1 + e.1)
            }
        };
        [d, second]
    }

    /// The two minor dots' grid offsets for orientation `o`.
    pub const fn minor_offsets(self, o: u8) -> [i32; 2] {
        let [a, b] = self.minor_vectors(o);
        [
            a.0 * crate::rules::geometry::GRID_SIDE as i32 + a.1,
            b.0 * crate::rules::geometry::GRID_SIDE as i32 + b.1,
        ]
    }
}

/// A piece position: kind, PÜNCT cell and orientation, with all three dots on the board.
/// Packed as `(kind * GRID_LEN + cell) * 6 + orientation`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement(u16);

/// Number of slots in the placement index space (not all are valid placements).
pub const PLACEMENT_SLOTS: usize = 6 * GRID_LEN * 6;

struct PlacementTable {
    cells: Vec<Option<[Cell; 3]>>,
}

static PLACEMENTS: LazyLock<PlacementTable> = LazyLock::new(|| {
    let mut cells = vec![None; PLACEMENT_SLOTS];
    for kind in Kind::ALL {
        for &p in Cell::all() {
            for o in 0..kind.orientations() {
                let [a, b] = kind.minor_vectors(o);
                if let (Some(m1), Some(m2)) = (p.offset(a.0, a.1), p.offset(b.0, b.1)) {
                    cells[Placement::slot(kind, p, o)] = Some([p, m1, m2]);
                }
            }
        }
    }
    PlacementTable { cells }
});

/// The cells of every placement slot (`None` when a dot is off the board), for the generator.
#[inline]
pub(crate) fn placement_table() -> &'static [Option<[Cell; 3]>] {
    &PLACEMENTS.cells
}

impl Placement {
    #[inline]
    pub(crate) const fn slot(kind: Kind, p: Cell, o: u8) -> usize {
        (kind as usize * GRID_LEN + p.index()) * 6 + o as usize
    }

    /// The placement, or `None` when a dot would fall off the board or `o` is out of range.
    #[inline]
    pub fn new(kind: Kind, punct: Cell, orientation: u8) -> Option<Placement> {
        if orientation >= kind.orientations() {
            return None;
        }
        let slot = Placement::slot(kind, punct, orientation);
        PLACEMENTS.cells[slot].map(|_| Placement(slot as u16))
    }

    /// Builds a placement already known to be on the board (move generation).
    #[inline]
    pub(crate) fn new_unchecked(kind: Kind, punct: Cell, orientation: u8) -> Placement {
        debug_assert!(Placement::new(kind, punct, orientation).is_some());
        Placement(Placement::slot(kind, punct, orientation) as u16)
    }

    /// The placement at a slot known to hold one.
    #[inline]
    pub(crate) fn from_slot(slot: usize) -> Placement {
        debug_assert!(PLACEMENTS.cells[slot].is_some());
        Placement(slot as u16)
    }

    #[inline]
    pub fn kind(self) -> Kind {
        Kind::ALL[self.0 as usize / (GRID_LEN * 6)]
    }

    #[inline]
    pub fn punct(self) -> Cell {
        self.cells()[0]
    }

    #[inline]
    pub fn orientation(self) -> u8 {
        (self.0 % 6) as u8
    }

    /// PÜNCT, then the minor dots (for S, L, R: middle, then far).
    #[inline]
    pub fn cells(self) -> [Cell; 3] {
        match PLACEMENTS.cells[self.0 as usize] {
            Some(c) => c,
            None => unreachable!("placements are only built on the board"),
        }
    }

    /// The cells that must be at the landing level (docs/rules.md 4.2): all three for T, else the
    /// ends.
    #[inline]
    pub fn end_cells(self) -> &'static [usize] {
        match self.kind() {
            Kind::T => &[0, 1, 2],
            Kind::S | Kind::L | Kind::R => &[0, 2],
            Kind::C | Kind::A => &[1, 2],
        }
    }

    /// The index into `cells()` of the middle dot, if the piece has ends (all but T).
    #[inline]
    pub fn middle(self) -> Option<usize> {
        match self.kind() {
            Kind::T => None,
            Kind::S | Kind::L | Kind::R => Some(1),
            Kind::C | Kind::A => Some(0),
        }
    }

    /// The minor dots in notation order (docs/rules.md section 6).
    pub fn canonical_minors(self) -> [Cell; 2] {
        let [_, a, b] = self.cells();
        match self.kind() {
            Kind::S | Kind::L | Kind::R => [a, b],
            _ => [a.min(b), a.max(b)],
        }
    }

    /// Dense index for tables (Zobrist keys).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Finds the placement whose PÜNCT is `punct` and whose minor dots are `a` and `b` in
    /// either order; `None` when the three cells are not a piece shape.
    pub fn from_cells(punct: Cell, a: Cell, b: Cell) -> Option<Placement> {
        for kind in Kind::ALL {
            for o in 0..kind.orientations() {
                if let Some(pl) = Placement::new(kind, punct, o) {
                    let [_, m1, m2] = pl.cells();
                    if (m1 == a && m2 == b) || (m1 == b && m2 == a) {
                        return Some(pl);
                    }
                }
            }
        }
        None
    }
}

impl fmt::Display for Placement {
    /// The placement in notation: PÜNCT then the minor dots in canonical order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.canonical_minors();
        write!(f, "{}{}{}", self.punct(), a, b)
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind().letter(), self)
    }
}
