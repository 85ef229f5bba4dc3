//! Positions with results turned into rows of evaluation features, once: afterwards a loss is a
//! dot product per position. Features come from `engine::evaluate::features` (the evaluation as
//! Σ coef × weight); weights that are not tuned fold into a constant per position.

use crate::engine::search::evaluate::features;
use crate::engine::search::params::{specs, Params};
use crate::rules::position::Position;

/// Rows of (tuned weight, coefficient) pairs in one flat array.
pub struct Dataset {
    /// Row `r` spans `entries[offsets[r]..offsets[r + 1]]`.
    offsets: Vec<u32>,
    entries: Vec<(u16, f32)>,
    /// The evaluation part of the weights held fixed.
    fixed: Vec<f32>,
    /// Result from the side to move's point of view (1, 0.5, 0).
    target: Vec<f32>,
    /// How many weights are tuned (the width of a gradient).
    pub width: usize,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Features of the positions that `make` gives for `items` (each with its result for the
    /// side to move; None skips an item), the weights `tuned` (indices in `params::specs()`)
    /// left free and the others taken from `params`. Extraction runs on `threads` threads.
    pub fn build<T: Sync>(
        items: &[T],
        make: impl Fn(&T) -> Option<(Position, f32)> + Sync,
        params: &Params,
        tuned: &[usize],
        threads: usize,
    ) -> Dataset {
        let chunk = items.len().div_ceil(threads.max(1)).max(1);
        let make = &make;
        let parts: Vec<Dataset> = std::thread::scope(|s| {
            let handles: Vec<_> = items
                .chunks(chunk)
                .map(|part| s.spawn(move || Dataset::build_one(part, make, params, tuned)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("feature thread"))
                .collect()
        });
        let mut all = Dataset::empty(tuned.len());
        for p in parts {
            all.append(p);
        }
        all
    }

    fn empty(width: usize) -> Dataset {
        Dataset {
            offsets: vec![0],
            entries: Vec::new(),
            fixed: Vec::new(),
            target: Vec::new(),
            width,
        }
    }

    fn build_one<T>(
        items: &[T],
        make: &(impl Fn(&T) -> Option<(Position, f32)> + Sync),
        params: &Params,
        tuned: &[usize],
    ) -> Dataset {
        let mut d = Dataset::empty(tuned.len());
        let mut slot = vec![None; specs().len()];
        for (k, &i) in tuned.iter().enumerate() {
            slot[i] = Some(k as u16);
        }
        for (pos, result) in items.iter().filter_map(make) {
            let mut fixed = 0.0;
            for (i, c) in features(&pos, params) {
                match slot.get(i).copied().flatten() {
                    Some(k) => d.entries.push((k, c)),
                    None => {
                        let w = params.get(specs()[i].name).unwrap_or(0);
                        fixed += c * w as f32;
                    }
                }
            }
            d.offsets.push(d.entries.len() as u32);
            d.fixed.push(fixed);
            d.target.push(result);
        }
        d
    }

    fn append(&mut self, other: Dataset) {
        let base = self.entries.len() as u32;
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        self.entries.extend(other.entries);
        self.fixed.extend(other.fixed);
        self.target.extend(other.target);
    }

    /// The rows with `keep(row)`, as a new data set.
    pub fn subset(&self, keep: impl Fn(usize) -> bool) -> Dataset {
        let mut d = Dataset::empty(self.width);
        for r in 0..self.len() {
            if keep(r) {
                let (a, b) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
                d.entries.extend_from_slice(&self.entries[a..b]);
                d.offsets.push(d.entries.len() as u32);
                d.fixed.push(self.fixed[r]);
                d.target.push(self.target[r]);
            }
        }
        d
    }

    /// The evaluation of row `r` with tuned weights `w`.
    #[inline]
    pub fn eval(&self, r: usize, w: &[f64]) -> f64 {
        let (a, b) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
        let mut e = self.fixed[r] as f64;
        for &(k, c) in &self.entries[a..b] {
            e += c as f64 * w[k as usize];
        }
        e
    }

    pub fn target(&self, r: usize) -> f64 {
        self.target[r] as f64
    }
}

impl Dataset {
    /// Calls `f(tuned index, coefficient)` for each entry of row `r`.
    #[inline]
    pub fn for_each_entry(&self, r: usize, mut f: impl FnMut(usize, f64)) {
        let (a, b) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
        for &(k, c) in &self.entries[a..b] {
            f(k as usize, c as f64);
        }
    }
}
