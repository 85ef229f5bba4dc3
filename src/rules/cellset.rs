//! A set of cells as a 289-bit mask over the grid, with word-parallel set operations and shifts.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use crate::rules::cell::{on_board, Cell, GRID_LEN, GRID_SIDE};

const WORDS: usize = GRID_LEN.div_ceil(64);

/// A set of board cells. Only bits of board cells are ever set by the public API.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    pub const EMPTY: CellSet = CellSet([0; WORDS]);
    /// The 211 board cells.
    pub const BOARD: CellSet = {
        let mut words = [0; WORDS];
        let mut i = 0;
        while i < GRID_LEN {
            if on_board((i / GRID_SIDE) as i32, (i % GRID_SIDE) as i32) {
                words[i / 64] |= 1 << (i % 64);
            }
            i += 1;
        }
        CellSet(words)
    };

    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        let i = c.index();
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, c: Cell) {
        let i = c.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, c: Cell) {
        let i = c.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    pub fn set(&mut self, c: Cell, on: bool) {
        if on {
            self.insert(c)
        } else {
            self.remove(c)
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn intersects(&self, other: CellSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// The raw grid bits shifted so that bit `i` of the result is bit `i + offset` of `self`.
    /// Bits that leave the grid are dropped; the result may hold off-board bits, so callers
    /// intersect it with a set of board cells.
    #[inline]
    pub fn shifted_down(&self, offset: i32) -> CellSet {
        if offset >= 0 {
            self.shr(offset as u32)
        } else {
            self.shl((-offset) as u32)
        }
    }

    /// [`CellSet::shifted_down`] by a constant offset, always inlined so that the word loop
    /// unrolls with the shift amounts folded (the move generator's fixed shape offsets).
    #[inline(always)]
    pub(crate) fn shifted_down_by<const OFFSET: i32>(&self) -> CellSet {
        if OFFSET >= 0 {
            self.shr(OFFSET as u32)
        } else {
            self.shl(OFFSET.unsigned_abs())
        }
    }

    /// Sets the bit of grid index `index` when it lies in the grid (it may be an off-board
    /// slot: callers intersect the result with a set of board cells).
    #[inline]
    pub(crate) fn insert_grid_index(&mut self, index: i32) {
        if (0..GRID_LEN as i32).contains(&index) {
            let i = index as usize;
            self.0[i / 64] |= 1 << (i % 64);
        }
    }

    #[inline(always)]
    fn shr(&self, n: u32) -> CellSet {
        let (q, r) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; WORDS];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = if i + q < WORDS { self.0[i + q] >> r } else { 0 };
            let hi = if r != 0 && i + q + 1 < WORDS {
                self.0[i + q + 1] << (64 - r)
            } else {
                0
            };
            *o = lo | hi;
        }
        CellSet(out)
    }

    #[inline(always)]
    fn shl(&self, n: u32) -> CellSet {
        let (q, r) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; WORDS];
        for (i, o) in out.iter_mut().enumerate() {
            let lo = if i >= q { self.0[i - q] << r } else { 0 };
            let hi = if r != 0 && i > q {
                self.0[i - q - 1] >> (64 - r)
            } else {
                0
            };
            *o = lo | hi;
        }
        CellSet(out)
    }

    /// The cells adjacent to some cell of `self` (and `self` itself), on the board.
    pub fn expand(&self) -> CellSet {
        // The six directions are grid offsets +-1, +-17 and +-18 (see `Dir::grid_offset`):
        // constant shifts both ways, unrolled.
        let w = &self.0;
        let mut out = *w;
        shift_or::<1>(w, &mut out);
        shift_or::<17>(w, &mut out);
        shift_or::<18>(w, &mut out);
        CellSet(out) & CellSet::BOARD
    }

    /// The cells of `within` connected to `self` through cells of `within`.
    pub fn flood(&self, within: CellSet) -> CellSet {
        let mut reached = *self & within;
        let mut new = reached;
        while !new.is_empty() {
            new = (new.expand() & within) - reached;
            reached |= new;
        }
        reached
    }

    /// Whether [`CellSet::flood`] of `self` within `within` would meet `target` (stops as soon
    /// as it does).
    pub fn flood_meets(&self, within: CellSet, target: CellSet) -> bool {
        let mut reached = *self & within;
        let mut new = reached;
        while !new.is_empty() {
            if new.intersects(target) {
                return true;
            }
            new = (new.expand() & within) - reached;
            reached |= new;
        }
        false
    }

    /// The cells in increasing `(x, y)` order.
    #[inline]
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.0,
            word: 0,
        }
    }

    /// A quick mix of the set's bits into 64 (for cache indices, not for untrusted keys).
    #[inline]
    pub fn mix(&self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| {
            (h.rotate_left(23) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }

    /// The lowest cell, if any.
    pub fn first(&self) -> Option<Cell> {
        self.iter().next()
    }
}

/// ORs `w` shifted by `N` bits both ways into `out` (bits leaving the grid are dropped).
#[inline(always)]
fn shift_or<const N: u32>(w: &[u64; WORDS], out: &mut [u64; WORDS]) {
    for i in 0..WORDS {
        let mut up = w[i] << N;
        if i > 0 {
            up |= w[i - 1] >> (64 - N);
        }
        let mut down = w[i] >> N;
        if i + 1 < WORDS {
            down |= w[i + 1] << (64 - N);
        }
        out[i] |= up | down;
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

/// Iterator over the cells of a [`CellSet`].
pub struct CellSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                let bit = w.trailing_zeros();
                // Sets only ever hold board cells, so this is a board cell (an off-board bit
                // ends the iteration, as `Cell::from_index` would).
                return (CellSet::BOARD.0[self.word] >> bit & 1 != 0)
                    .then(|| Cell::from_board_index(self.word * 64 + bit as usize));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for CellSet {
            type Output = CellSet;
            #[inline]
            fn $f(self, rhs: CellSet) -> CellSet {
                let mut out = self;
                for i in 0..WORDS {
                    out.0[i] = self.0[i] $op rhs.0[i];
                }
                out
            }
        }
        impl $atr for CellSet {
            #[inline]
            fn $af(&mut self, rhs: CellSet) {
                *self = *self $op rhs;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl BitXor for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitxor(self, rhs: CellSet) -> CellSet {
        let mut out = self;
        for i in 0..WORDS {
            out.0[i] ^= rhs.0[i];
        }
        out
    }
}

impl Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, rhs: CellSet) -> CellSet {
        let mut out = self;
        for i in 0..WORDS {
            out.0[i] &= !rhs.0[i];
        }
        out
    }
}

/// The complement within the board.
impl Not for CellSet {
    type Output = CellSet;
    fn not(self) -> CellSet {
        CellSet::BOARD - self
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{board_cells, Dir};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn random_set(rng: &mut Xoshiro256PlusPlus, density: f64) -> CellSet {
        board_cells()
            .iter()
            .filter(|_| rng.gen_bool(density))
            .collect()
    }

    #[test]
    fn flood_meets_agrees_with_a_full_flood() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut met, mut missed) = (0, 0);
        for _ in 0..2_000 {
            let within = random_set(&mut rng, 0.55);
            let seed = random_set(&mut rng, 0.03);
            let target = random_set(&mut rng, 0.03);
            let want = seed.flood(within).intersects(target);
            assert_eq!(seed.flood_meets(within, target), want);
            if want {
                met += 1;
            } else {
                missed += 1;
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!(met > 200 && missed > 200, "{met} {missed}");
    }

    /// `shifted_down(offset)`: bit `i` of the result is bit `i + offset` of the set, for any
    /// offset, a whole word (64 bits) or more included. Checked on the board cells against the
    /// cells moved one by one through their grid indices.
    #[test]
    fn shifts_by_any_offset_move_every_cell_by_its_grid_index() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        for round in 0..12 {
            let set = random_set(&mut rng, if round == 0 { 1.0 } else { 0.3 });
            for offset in -(GRID_LEN as i32)..=GRID_LEN as i32 {
                let want: CellSet = board_cells()
                    .iter()
                    .filter(|c| {
                        let from = c.index() as i32 + offset;
                        from >= 0
                            && Cell::from_index(from as usize).is_some_and(|f| set.contains(f))
                    })
                    .collect();
                assert_eq!(set.shifted_down(offset) & board_cells(), want, "{offset}");
            }
        }
    }

    /// `first` is the lowest cell in `(x, y)` order.
    #[test]
    fn first_is_the_lowest_cell() {
        assert_eq!(CellSet::EMPTY.first(), None);
        let a2 = Cell::new(0, 1).unwrap();
        let i9 = Cell::new(8, 8).unwrap();
        let q16 = Cell::new(16, 15).unwrap();
        assert_eq!([q16, i9].into_iter().collect::<CellSet>().first(), Some(i9));
        assert_eq!(
            [i9, a2, q16].into_iter().collect::<CellSet>().first(),
            Some(a2)
        );
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        for _ in 0..200 {
            let set = random_set(&mut rng, 0.02);
            assert_eq!(set.first(), set.iter().min());
        }
    }

    /// `expand` adds to a set every board neighbour of its cells (the six directions, docs/rules.md
    /// 1), counted here with `Cell::neighbour`; a cell between two cells of the set on one
    /// line is reached from both sides at once.
    #[test]
    fn expand_adds_exactly_the_neighbours() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
        for density in [0.01, 0.05, 0.3, 0.7] {
            for _ in 0..50 {
                let set = random_set(&mut rng, density);
                let mut want = set;
                for c in set.iter() {
                    for d in Dir::ALL {
                        if let Some(n) = c.neighbour(d) {
                            want.insert(n);
                        }
                    }
                }
                assert_eq!(set.expand(), want);
            }
        }
        let i9 = Cell::new(8, 8).unwrap();
        for d in Dir::ALL {
            let pair: CellSet = [
                i9.neighbour(d).unwrap(),
                i9.neighbour(d.opposite()).unwrap(),
            ]
            .into_iter()
            .collect();
            assert!(pair.expand().contains(i9), "{d:?}");
        }
    }

    /// `{:?}` of a set lists its cells by name in `(x, y)` order, as assertion messages show it.
    #[test]
    fn debug_of_a_set_lists_its_cells_by_name() {
        assert_eq!(format!("{:?}", CellSet::EMPTY), "{}");
        let set: CellSet = [(8, 8), (0, 1), (16, 15)]
            .into_iter()
            .map(|(x, y)| Cell::new(x, y).unwrap())
            .collect();
        assert_eq!(format!("{set:?}"), "{a2, i9, q16}");
    }
}
