//! A run's long lists of numbers (think times per player, the referee's overhead per move) with
//! exact order statistics in flat memory.
//!
//! The median and the 99th percentile need every value (no one-pass method gives them exactly in
//! less), and a run of a million games has tens of millions of moves: kept in memory they made
//! the referee grow by 0.8 KB a game. Here only the count, a compensated sum and the maximum stay
//! in memory, with the last few thousand values; the rest go, 8 bytes each, to a scratch file in
//! the temporary directory (removed at once, so nothing is left behind even after a crash, where
//! the platform allows it; else when the list is dropped). A value of a given rank is then found
//! by four counting passes over the file, 16 bits of the value at a time (a radix select), in
//! 512 KB, so the end of a long run does not need the memory either. Short runs (tests) never
//! touch the disk. If the scratch file cannot be made or written, the values stay in memory, as
//! before, with a warning.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// Values kept in memory before they go to the scratch file.
const CHUNK: usize = 4096;

/// Bits of the value counted per pass of the selection.
const DIGIT: u32 = 16;

#[derive(Debug, Default)]
pub struct Values {
    len: u64,
    /// Neumaier-compensated sum: the mean does not depend on the order the values came in.
    sum: f64,
    compensation: f64,
    max: Option<f64>,
    /// Values not written to the scratch file yet.
    recent: Vec<f64>,
    spill: Option<Spill>,
    /// The scratch file could not be made or written: everything stays in `recent`.
    in_memory: bool,
}

#[derive(Debug)]
struct Spill {
    file: File,
    /// Values in the file.
    len: u64,
    /// The file's path when it could not be removed while open (removed on drop).
    path: Option<PathBuf>,
}

impl Drop for Spill {
    fn drop(&mut self) {
        if let Some(p) = &self.path {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// A key whose unsigned order is [`f64::total_cmp`]'s order.
fn key(v: f64) -> u64 {
    let b = v.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

fn value(k: u64) -> f64 {
    if k >> 63 == 1 {
        f64::from_bits(k & !(1 << 63))
    } else {
        f64::from_bits(!k)
    }
}

impl Values {
    pub fn push(&mut self, v: f64) {
        self.len += 1;
        let t = self.sum + v;
        self.compensation += if self.sum.abs() >= v.abs() {
            (self.sum - t) + v
        } else {
            (v - t) + self.sum
        };
        self.sum = t;
        if self.max.is_none_or(|m| v.total_cmp(&m).is_gt()) {
            self.max = Some(v);
        }
        self.recent.push(v);
        if self.recent.len() >= CHUNK && !self.in_memory {
            if let Err(e) = self.write_out() {
                log::warn!("statistics scratch file: {e}; keeping the values in memory");
                self.in_memory = true;
            }
        }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn sum(&self) -> f64 {
        self.sum + self.compensation
    }

    pub fn mean(&self) -> Option<f64> {
        (self.len > 0).then(|| self.sum() / self.len as f64)
    }

    /// The largest value ([`f64::total_cmp`]'s order).
    pub fn max(&self) -> Option<f64> {
        self.max
    }

    /// The value of 0-based rank `k` in increasing ([`f64::total_cmp`]) order: what sorting all
    /// the values and taking the `k`-th would give. None if there are not that many, or if the
    /// scratch file cannot be read.
    pub fn nth(&self, k: u64) -> Option<f64> {
        if k >= self.len {
            return None;
        }
        let Some(spill) = &self.spill else {
            let mut v = self.recent.clone();
            let (_, x, _) = v.select_nth_unstable_by(k as usize, f64::total_cmp);
            return Some(*x);
        };
        match self.select(spill, k) {
            Ok(x) => Some(x),
            Err(e) => {
                log::warn!("statistics scratch file: {e}");
                None
            }
        }
    }

    /// Radix select: each pass counts the next 16 bits of the keys that share the bits found so
    /// far, and keeps the digit holding rank `k`.
    fn select(&self, spill: &Spill, mut k: u64) -> std::io::Result<f64> {
        let mut prefix = 0u64;
        let mut counts = vec![0u64; 1 << DIGIT];
        for pass in 0..64 / DIGIT {
            let shift = 64 - DIGIT * (pass + 1);
            // The bits above this digit, already chosen.
            let high = if pass == 0 {
                0
            } else {
                !0u64 << (shift + DIGIT)
            };
            counts.fill(0);
            let mut count = |x: f64| {
                let kx = key(x);
                if kx & high == prefix {
                    counts[((kx >> shift) & ((1 << DIGIT) - 1)) as usize] += 1;
                }
            };
            for_each_in_file(spill, &mut count)?;
            self.recent.iter().copied().for_each(&mut count);
            let mut digit = 0;
            while k >= counts[digit] {
                k -= counts[digit];
                digit += 1;
            }
            prefix |= (digit as u64) << shift;
        }
        Ok(value(prefix))
    }

    fn write_out(&mut self) -> std::io::Result<()> {
        if self.spill.is_none() {
            self.spill = Some(scratch_file()?);
        }
        let spill = self.spill.as_mut().expect("made above");
        let bytes: Vec<u8> = self
            .recent
            .iter()
            .flat_map(|v| v.to_bits().to_le_bytes())
            .collect();
        if let Err(e) = (&spill.file).write_all(&bytes) {
            // Back to the values written whole; these stay in memory.
            let _ = spill.file.set_len(spill.len * 8);
            return Err(e);
        }
        spill.len += self.recent.len() as u64;
        self.recent.clear();
        Ok(())
    }
}

fn for_each_in_file(spill: &Spill, f: &mut impl FnMut(f64)) -> std::io::Result<()> {
    let mut file = &spill.file;
    file.seek(SeekFrom::Start(0))?;
    let mut r = BufReader::with_capacity(1 << 16, file);
    let mut b = [0u8; 8];
    for _ in 0..spill.len {
        r.read_exact(&mut b)?;
        f(f64::from_bits(u64::from_le_bytes(b)));
    }
    Ok(())
}

/// A new file in the temporary directory, removed at once if the platform lets an open file be
/// removed. Opened for appending: reads seek, writes always go to the end.
fn scratch_file() -> std::io::Result<Spill> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "punct-referee-{}-{}.values",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create_new(true)
        .open(&path)?;
    let path = std::fs::remove_file(&path).is_err().then_some(path);
    Ok(Spill { file, len: 0, path })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn keys_keep_the_total_order() {
        let mut v = vec![
            -f64::INFINITY,
            -1e300,
            -2.5,
            -0.0,
            0.0,
            1e-310,
            0.001,
            3.0,
            f64::INFINITY,
            f64::NAN,
        ];
        v.sort_by(f64::total_cmp);
        for w in v.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} {}", w[0], w[1]);
        }
        for x in v {
            assert_eq!(value(key(x)).to_bits(), x.to_bits());
        }
    }

    /// Every rank, the mean and the maximum agree with sorting all the values, in memory and
    /// once most of them are in the scratch file.
    #[test]
    fn ranks_are_those_of_the_sorted_values() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for n in [1usize, 5, CHUNK - 1, 3 * CHUNK + 17] {
            let mut vals = Values::default();
            let mut all = Vec::new();
            for i in 0..n {
                // Repeats, round3-style values, a few negative ones and zeros.
                let x = match i % 7 {
                    0 => 0.0,
                    1 => -((rng.gen_range(0..50_000) as f64) / 1000.0),
                    2 => 42.125,
                    _ => (rng.gen_range(0..5_000_000) as f64) / 1000.0,
                };
                vals.push(x);
                all.push(x);
            }
            assert_eq!(vals.spill.is_some(), n >= CHUNK, "n {n}");
            all.sort_by(f64::total_cmp);
            let ranks: Vec<u64> = if n < 100 {
                (0..n as u64).collect()
            } else {
                vec![
                    0,
                    1,
                    n as u64 / 2,
                    (n as u64 * 99).div_ceil(100) - 1,
                    n as u64 - 1,
                ]
            };
            for k in ranks {
                assert_eq!(vals.nth(k), Some(all[k as usize]), "n {n} rank {k}");
            }
            assert_eq!(vals.nth(n as u64), None);
            assert_eq!(vals.max(), all.last().copied());
            let mean = all.iter().sum::<f64>() / n as f64;
            assert!((vals.mean().unwrap() - mean).abs() <= 1e-9 * mean.abs().max(1.0));
            assert_eq!(vals.len(), n as u64);
        }
        assert_eq!(Values::default().nth(0), None);
        assert_eq!(Values::default().mean(), None);
    }
}
