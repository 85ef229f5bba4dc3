//! Bit-sliced small numbers over the board: one number per cell, stored as bit planes (plane
//! `b` holds the cells whose number has bit `b` set), so that the drop scores of every PÜNCT
//! space of a shape are added, compared and ranked with a few word operations per plane
//! instead of cell by cell.

use crate::rules::cellset::CellSet;

/// Planes enough for sums of three weights below 2^10 (the hand picker) and of three cells'
/// bounds and a PÜNCT's excess below 2^10 each (the learned ordering's).
pub const MAX_PLANES: usize = 13;

#[derive(Copy, Clone, Debug)]
pub struct Sliced {
    pub planes: [CellSet; MAX_PLANES],
    pub bits: usize,
}

impl Sliced {
    pub const ZERO: Sliced = Sliced {
        planes: [CellSet::EMPTY; MAX_PLANES],
        bits: 0,
    };

    /// The numbers `values[c]` of the cells of `cells` (others 0); values must be in
    /// `0..2^(MAX_PLANES - 2)`.
    pub fn from_values(values: &[i32], cells: CellSet) -> Sliced {
        let mut s = Sliced::ZERO;
        let mut any = 0u32;
        for c in cells {
            let v = values[c.index()];
            debug_assert!((0..1 << (MAX_PLANES - 2)).contains(&v));
            any |= v as u32;
            let mut rest = v as u32;
            while rest != 0 {
                s.planes[rest.trailing_zeros() as usize].insert(c);
                rest &= rest - 1;
            }
        }
        s.bits = (u32::BITS - any.leading_zeros()) as usize;
        s
    }

    /// The numbers of the cells `offset` further on the grid (see `CellSet::shifted_down`).
    pub fn shifted_down(&self, offset: i32) -> Sliced {
        let mut s = *self;
        for p in &mut s.planes[..self.bits] {
            *p = p.shifted_down(offset);
        }
        s
    }

    /// `value` on each cell of its set (the sets disjoint; others 0); values must be in
    /// `0..2^(MAX_PLANES - 2)`.
    pub fn from_sets(sets: impl IntoIterator<Item = (CellSet, i32)>) -> Sliced {
        let mut s = Sliced::ZERO;
        let mut any = 0u32;
        for (set, v) in sets {
            debug_assert!((0..1 << (MAX_PLANES - 2)).contains(&v));
            any |= v as u32;
            let mut rest = v as u32;
            while rest != 0 {
                s.planes[rest.trailing_zeros() as usize] |= set;
                rest &= rest - 1;
            }
        }
        s.bits = (u32::BITS - any.leading_zeros()) as usize;
        s
    }

    /// For each cell `p`, the sum of the numbers at `p`, `p + a` and `p + b`, plus `extra`'s,
    /// written into `out` in one pass (two carry-save steps per bit; the carry into each bit
    /// is at most 3: two planes).
    /// Only `out`'s planes below its `bits` are meaningful afterwards.
    pub fn sum_at_offsets_plus(&self, a: i32, b: i32, extra: &Sliced, out: &mut Sliced) {
        let top = self.bits.max(extra.bits);
        let (mut c0, mut c1) = (CellSet::EMPTY, CellSet::EMPTY);
        let mut bit = 0;
        while bit < top || !(c0.is_empty() && c1.is_empty()) {
            debug_assert!(
                bit < MAX_PLANES,
                "the sum needs more than {MAX_PLANES} bits"
            );
            let x = if bit < self.bits {
                self.planes[bit]
            } else {
                CellSet::EMPTY
            };
            let e = if bit < extra.bits {
                extra.planes[bit]
            } else {
                CellSet::EMPTY
            };
            let (y, z) = (x.shifted_down(a), x.shifted_down(b));
            // Two carry-save steps: x + y + z = s1 + 2 k1, s1 + e + c0 = s2 + 2 k2.
            let xy = x ^ y;
            let (s1, k1) = (xy ^ z, (x & y) | (z & xy));
            let se = s1 ^ e;
            let (s2, k2) = (se ^ c0, (s1 & e) | (c0 & se));
            out.planes[bit] = s2;
            // The next bit's carry: k1 + k2 + c1 (at most 3).
            let kk = k1 ^ k2;
            (c0, c1) = (kk ^ c1, (k1 & k2) | (c1 & kk));
            bit += 1;
        }
        out.bits = bit;
    }

    /// For each cell `p`, the sum of the numbers at `p`, `p + a` and `p + b` (the weight sums
    /// of drops with minor offsets `a` and `b`).
    pub fn sum_at_offsets(&self, a: i32, b: i32) -> Sliced {
        let mut sum = Sliced::ZERO;
        self.sum_at_offsets_plus(a, b, &Sliced::ZERO, &mut sum);
        sum
    }

    /// Cell-wise sum.
    pub fn add(&self, other: &Sliced) -> Sliced {
        let bits = self.bits.max(other.bits);
        let mut out = Sliced::ZERO;
        let mut carry = CellSet::EMPTY;
        for b in 0..bits {
            let (x, y) = (self.planes[b], other.planes[b]);
            let xy = x ^ y;
            out.planes[b] = xy ^ carry;
            carry = (x & y) | (carry & xy);
        }
        out.planes[bits] = carry;
        out.bits = if carry.is_empty() { bits } else { bits + 1 };
        out
    }

    /// The cells of `domain` whose number is at least `x`.
    pub fn at_least(&self, x: i32, domain: CellSet) -> CellSet {
        if x <= 0 {
            return domain;
        }
        if self.bits < 31 && x >= 1 << self.bits {
            return CellSet::EMPTY;
        }
        let (mut greater, mut equal) = (CellSet::EMPTY, domain);
        for b in (0..self.bits).rev() {
            let p = self.planes[b];
            if x >> b & 1 != 0 {
                equal &= p;
            } else {
                greater |= equal & p;
                equal = equal - p;
            }
        }
        greater | equal
    }
}

/// The `k`-th largest number (counting repeats) over the cells of `domains[i]` in `numbers[i]`,
/// or `None` when there are fewer than `k` cells.
pub fn kth_largest<const N: usize>(
    numbers: &[Sliced; N],
    domains: &[CellSet; N],
    k: usize,
) -> Option<i32> {
    let total: usize = domains.iter().map(|d| d.len()).sum();
    if k == 0 || total < k {
        return None;
    }
    let bits = numbers.iter().map(|n| n.bits).max().unwrap_or(0);
    let mut cand = *domains;
    let mut need = k;
    let mut t = 0;
    for b in (0..bits).rev() {
        let count: usize = cand
            .iter()
            .zip(numbers)
            .map(|(c, n)| (*c & n.planes[b]).len())
            .sum();
        if count >= need {
            t |= 1 << b;
            for (c, n) in cand.iter_mut().zip(numbers) {
                *c &= n.planes[b];
            }
        } else {
            need -= count;
            for (c, n) in cand.iter_mut().zip(numbers) {
                *c = *c - n.planes[b];
            }
        }
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Cell, GRID_LEN};

    #[test]
    fn sums_comparisons_and_ranks_match_plain_arithmetic() {
        let cells: Vec<Cell> = Cell::all().to_vec();
        let mut a = vec![0; GRID_LEN];
        let mut b = vec![0; GRID_LEN];
        for (i, c) in cells.iter().enumerate() {
            a[c.index()] = (i * 7 % 23) as i32;
            b[c.index()] = (i * 5 % 11) as i32;
        }
        let all: CellSet = cells.iter().copied().collect();
        let sum = Sliced::from_values(&a, all).add(&Sliced::from_values(&b, all));
        let plain: Vec<i32> = cells.iter().map(|c| a[c.index()] + b[c.index()]).collect();
        for x in [0, 1, 7, 20, 32, 33, 40] {
            let got = sum.at_least(x, all);
            for (c, v) in cells.iter().zip(&plain) {
                assert_eq!(got.contains(*c), *v >= x, "x {x}");
            }
        }
        // Drop sums: the number at p plus those at p + 1 and p + 18 (on-board cells only).
        let single = Sliced::from_values(&a, all);
        let sums = single.sum_at_offsets(1, 18);
        // The fused form with an extra number gives the plain sums plus that number, and with
        // a zero one the same as `sum_at_offsets`, whatever `out` held before.
        let extra = Sliced::from_values(&b, all);
        let mut fused = Sliced::from_values(&a, all);
        single.sum_at_offsets_plus(1, 18, &extra, &mut fused);
        let want = sums.add(&extra);
        let mut zero_extra = fused;
        single.sum_at_offsets_plus(1, 18, &Sliced::ZERO, &mut zero_extra);
        for x in 0..80 {
            assert_eq!(fused.at_least(x, all), want.at_least(x, all), "x {x}");
            assert_eq!(zero_extra.at_least(x, all), sums.at_least(x, all), "x {x}");
        }
        for c in &cells {
            let i = c.index() as i32;
            let at = |j: i32| {
                cells
                    .iter()
                    .find(|d| d.index() as i32 == j)
                    .map_or(0, |d| a[d.index()])
            };
            let want = a[c.index()] + at(i + 1) + at(i + 18);
            let got: i32 = (0..sums.bits)
                .map(|b| (sums.planes[b].contains(*c) as i32) << b)
                .sum();
            assert_eq!(got, want, "{c}");
        }
        let mut sorted = plain.clone();
        sorted.sort_unstable_by(|x, y| y.cmp(x));
        for k in [1, 2, 10, 100, sorted.len()] {
            assert_eq!(kth_largest(&[sum], &[all], k), Some(sorted[k - 1]), "k {k}");
        }
        assert_eq!(kth_largest(&[sum], &[all], sorted.len() + 1), None);
    }

    #[test]
    fn numbers_by_sets_are_the_numbers_cell_by_cell() {
        // Cells grouped by index mod 5, group k numbered 0, 5, 317, 1023, 64.
        let numbers = [0, 5, 317, 1023, 64];
        let mut groups = [CellSet::EMPTY; 5];
        let mut values = vec![0; GRID_LEN];
        for c in Cell::all() {
            groups[c.index() % 5].insert(*c);
            values[c.index()] = numbers[c.index() % 5];
        }
        let all: CellSet = Cell::all().iter().copied().collect();
        let by_sets = Sliced::from_sets(groups.into_iter().zip(numbers));
        let by_cells = Sliced::from_values(&values, all);
        assert_eq!(by_sets.bits, 10);
        assert_eq!(by_sets.planes, by_cells.planes);
        assert_eq!(by_sets.bits, by_cells.bits);
    }
}
