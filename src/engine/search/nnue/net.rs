//! The quantised network and its file.
//!
//! One hidden layer per perspective (the side to move's, then the opponent's), shared weights:
//! `acc[p] = bias + Σ W[f]` over the inputs `f` that `p` sees (`features`), clipped to
//! `0..=QA`, then `out = (Σ crelu(acc[stm]) · w[..H] + Σ crelu(acc[opp]) · w[H..] + b)
//! · scale / (QA · QB)` centipawns. Weights are `i16` (input layer scaled by `QA`, output layer
//! by `QB`), sums `i32`/`i64`.
//!
//! File (little-endian), version 1:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `PUNCTNN\0` |
//! | 4 | version (1) |
//! | 4 | feature set (`features::FEATURE_SET`) |
//! | 4 | inputs (`features::INPUTS`) |
//! | 4 | hidden size `H` (1..=1024) |
//! | 4 | `QA` |
//! | 4 | `QB` |
//! | 4 | scale: centipawns per unit of the output (the logit a win chance is the sigmoid of) |
//! | 4 | hand weight, i32: the evaluation adds the hand evaluation times this / 1024 (0: none; a *residual* network learns what the hand evaluation misses) |
//! | 2·H | input-layer biases, i16 |
//! | 2·inputs·H | input-layer weights, i16, one row of H per input |
//! | 2·2H | output weights, i16 |
//! | 4 | output bias, i32 (scaled by QA·QB) |
//! | 8 | FNV-1a 64 of everything before |

use crate::engine::search::nnue::features::{FEATURE_SET, INPUTS};

pub const MAGIC: &[u8; 8] = b"PUNCTNN\0";
pub const VERSION: u32 = 1;
/// The clipped ReLU's top, and the input layer's scale.
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 1024;
/// Largest hidden layer a file may ask for.
pub const MAX_HIDDEN: usize = 1024;
const HEADER: usize = 8 + 4 * 8;

/// A network ready for integer inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub hidden: usize,
    /// Centipawns per output unit.
    pub scale: i32,
    pub ft_bias: Vec<i16>,
    /// `INPUTS` rows of `hidden`.
    pub ft_weights: Vec<i16>,
    /// The side to move's half, then the opponent's.
    pub out_weights: Vec<i16>,
    pub out_bias: i32,
    /// Per 1024: how much of the hand evaluation is added to the output (0: a pure network).
    pub hand_weight: i32,
    /// The file's checksum: tells networks apart (the accumulator starts afresh on another).
    pub id: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network {{ hidden: {}, scale: {}, hand_weight: {}, id: {:016x} }}",
            self.hidden, self.scale, self.hand_weight, self.id
        )
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The size in bytes of a version-1 file with `hidden` units.
pub fn file_size(hidden: usize) -> usize {
    HEADER + 2 * hidden + 2 * INPUTS * hidden + 4 * hidden + 4 + 8
}

impl Network {
    /// The row of input `f`.
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The output in centipawns from the two accumulators (side to move's first).
    pub fn output(&self, stm: &[i32], opp: &[i32]) -> i32 {
        let h = self.hidden;
        let half = |acc: &[i32], w: &[i16]| -> i64 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| (a.clamp(0, QA) * w as i32) as i64)
                .sum::<i64>()
        };
        let sum = half(stm, &self.out_weights[..h])
            + half(opp, &self.out_weights[h..])
            + self.out_bias as i64;
        (sum * self.scale as i64 / (QA as i64 * QB as i64)) as i32
    }

    /// The accumulator of a list of inputs, from scratch.
    pub fn accumulate(&self, features: &[usize]) -> Vec<i32> {
        let mut acc: Vec<i32> = self.ft_bias.iter().map(|&b| b as i32).collect();
        for &f in features {
            for (a, &w) in acc.iter_mut().zip(self.row(f)) {
                *a += w as i32;
            }
        }
        acc
    }

    /// The output for the inputs each side sees, from scratch (side to move's first).
    pub fn evaluate_features(&self, stm: &[usize], opp: &[usize]) -> i32 {
        self.output(&self.accumulate(stm), &self.accumulate(opp))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(file_size(self.hidden));
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            FEATURE_SET,
            INPUTS as u32,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
            self.hand_weight as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .ft_bias
            .iter()
            .chain(&self.ft_weights)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a network file, checking everything; the error says what is wrong.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        if b.len() < HEADER || &b[..8] != MAGIC {
            return Err("not a PÜNCT network file (no PUNCTNN magic at its start)".into());
        }
        let u = |i: usize| u32::from_le_bytes(b[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (version, set, inputs, hidden) = (u(0), u(1), u(2) as usize, u(3) as usize);
        if version != VERSION {
            return Err(format!(
                "network file version {version}; this engine reads version {VERSION}"
            ));
        }
        if set != FEATURE_SET || inputs != INPUTS {
            return Err(format!(
                "network for feature set {set} with {inputs} inputs; this engine has feature \
                 set {FEATURE_SET} with {INPUTS}"
            ));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(format!("hidden size {hidden} not in 1..={MAX_HIDDEN}"));
        }
        if u(4) != QA as u32 || u(5) != QB as u32 {
            return Err(format!(
                "quantisation QA={} QB={}; this engine uses QA={QA} QB={QB}",
                u(4),
                u(5)
            ));
        }
        let scale = u(6);
        let hand_weight = u(7) as i32;
        if !(-4096..=4096).contains(&hand_weight) {
            return Err(format!("hand weight {hand_weight} not in -4096..=4096"));
        }
        if scale == 0 || scale > 100_000 {
            return Err(format!("scale {scale} not in 1..=100000"));
        }
        if b.len() != file_size(hidden) {
            return Err(format!(
                "{} bytes; a network with {hidden} hidden units has {}",
                b.len(),
                file_size(hidden)
            ));
        }
        let body = b.len() - 8;
        let sum = u64::from_le_bytes(b[body..].try_into().unwrap());
        if sum != fnv1a(&b[..body]) {
            return Err("checksum mismatch: the file is damaged".into());
        }
        let mut at = HEADER;
        let mut words = |n: usize| -> Vec<i16> {
            let v = (0..n)
                .map(|i| i16::from_le_bytes([b[at + 2 * i], b[at + 2 * i + 1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_bias = words(hidden);
        let ft_weights = words(INPUTS * hidden);
        let out_weights = words(2 * hidden);
        let out_bias = i32::from_le_bytes(b[body - 4..body].try_into().unwrap());
        Ok(Network {
            hidden,
            scale: scale as i32,
            ft_bias,
            ft_weights,
            out_weights,
            out_bias,
            hand_weight,
            id: sum,
        })
    }

    /// Reads a network file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A network of small random weights (for tests), with its id set as a file would.
    pub fn random(hidden: usize, seed: u64) -> Network {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = |range: i32| -> i16 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 33) as i64 % (2 * range as i64 + 1) - range as i64) as i16
        };
        let ft_bias = (0..hidden).map(|_| next(100)).collect();
        let ft_weights = (0..INPUTS * hidden).map(|_| next(60)).collect();
        let out_weights = (0..2 * hidden).map(|_| next(120)).collect();
        let net = Network {
            hidden,
            scale: 400,
            ft_bias,
            ft_weights,
            out_weights,
            out_bias: next(1000) as i32 * 50,
            hand_weight: 0,
            id: 0,
        };
        Network::from_bytes(&net.to_bytes()).expect("a network reads back")
    }
}
