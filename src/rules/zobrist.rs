//! Zobrist keys, drawn once from a fixed-seed xoshiro generator so hashes are the same on every run.

use std::sync::LazyLock;

use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::rules::piece::{Colour, Placement, PLACEMENT_SLOTS};

const SEED: u64 = 0x5055_4e43_5421_2026; // "PUNCT!" 2026

pub(crate) struct Keys {
    placement: Vec<[u64; 2]>,
    pub side: u64,
    pub pass: u64,
    pub basic: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(SEED);
    let placement = (0..PLACEMENT_SLOTS)
        .map(|_| [rng.next_u64(), rng.next_u64()])
        .collect();
    Keys {
        placement,
        side: rng.next_u64(),
        pass: rng.next_u64(),
        basic: rng.next_u64(),
    }
});

#[inline]
pub(crate) fn keys() -> &'static Keys {
    &KEYS
}

/// The key of a piece of `colour` at `placement` lying at `level`. Rotating by a multiple of 7
/// (coprime to 64) gives every level below 64 its own key without a third table dimension.
#[inline]
pub(crate) fn piece_key(colour: Colour, placement: Placement, level: u8) -> u64 {
    KEYS.placement[placement.index()][colour.index()].rotate_left(7 * level as u32)
}
