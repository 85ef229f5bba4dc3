//! The transposition table: buckets of two entries (one kept by depth, one always replaced),
//! keyed by the position's Zobrist hash. Mate scores are stored relative to the node so that a
//! mate found at one ply reads correctly at another.
//!
//! The table is shared by the search threads without locks (lockless hashing after Hyatt and
//! Mann): an entry is two atomic words, `key ^ data` and `data`. A probe accepts an entry only
//! when the two words give back its key, so an entry torn by two threads writing at once reads
//! as a miss, never as another position's move or score.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::rules::geometry::{Cell, GRID_LEN};
use crate::rules::moves::Move;
use crate::rules::piece::{Kind, Placement, PLACEMENT_SLOTS};

/// Scores at or beyond this magnitude are wins or losses at a known distance.
pub const MATE: i32 = 30_000;
pub const MATE_BOUND: i32 = MATE - 1_000;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TtBound {
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: u8,
    pub bound: TtBound,
}

// The data word: move (25 bits), score (16), depth (8), bound (2), generation (8), used (1).
// A move is a tag (2 bits: none, drop, shift, pass), a placement slot (14) and a from cell (9).
const MOVE_BITS: u32 = 25;
const MOVE_MASK: u64 = (1 << MOVE_BITS) - 1;
const SCORE_SHIFT: u32 = 25;
const DEPTH_SHIFT: u32 = 41;
const BOUND_SHIFT: u32 = 49;
const GENERATION_SHIFT: u32 = 51;
const USED: u64 = 1 << 59;

const TAG_DROP: u64 = 1;
const TAG_SHIFT: u64 = 2;
const TAG_PASS: u64 = 3;
const SLOT_SHIFT: u32 = 2;
const SLOT_BITS: u32 = 14;
const FROM_SHIFT: u32 = SLOT_SHIFT + SLOT_BITS;
const _: () = assert!(PLACEMENT_SLOTS <= 1 << SLOT_BITS);
const _: () = assert!(GRID_LEN <= 1 << (MOVE_BITS - FROM_SHIFT));

/// The move code of `mv` (0 is reserved for no move).
pub(super) fn pack_move(mv: Option<Move>) -> u64 {
    match mv {
        None => 0,
        Some(Move::Drop(p)) => TAG_DROP | (p.index() as u64) << SLOT_SHIFT,
        Some(Move::Shift { from, to }) => {
            TAG_SHIFT | (to.index() as u64) << SLOT_SHIFT | (from.index() as u64) << FROM_SHIFT
        }
        Some(Move::Pass) => TAG_PASS,
    }
}

/// The placement at a packed slot, `None` unless it is one on the board.
fn unpack_placement(slot: usize) -> Option<Placement> {
    let kind = *Kind::ALL.get(slot / (GRID_LEN * 6))?;
    let punct = Cell::from_index(slot / 6 % GRID_LEN)?;
    Placement::new(kind, punct, (slot % 6) as u8).filter(|p| p.index() == slot)
}

/// The move of a code: `Some(None)` for no move, `None` for a code no move packs to.
pub(super) fn unpack_move(code: u64) -> Option<Option<Move>> {
    let slot = (code >> SLOT_SHIFT) as usize & ((1 << SLOT_BITS) - 1);
    let from = (code >> FROM_SHIFT) as usize;
    match code & 3 {
        0 if code == 0 => Some(None),
        TAG_DROP if from == 0 => unpack_placement(slot).map(|p| Some(Move::Drop(p))),
        TAG_SHIFT => {
            let from = Cell::from_index(from)?;
            unpack_placement(slot).map(|to| Some(Move::Shift { from, to }))
        }
        TAG_PASS if code == TAG_PASS => Some(Some(Move::Pass)),
        _ => None,
    }
}

/// One entry as two words; all zero when empty.
#[derive(Default)]
struct Slot {
    /// The key XOR `data`.
    check: AtomicU64,
    data: AtomicU64,
}

/// An entry as read (possibly torn: see `key`).
#[derive(Copy, Clone)]
struct Raw {
    check: u64,
    data: u64,
}

impl Raw {
    fn used(self) -> bool {
        self.data & USED != 0
    }

    /// The key this entry is for, if it is intact.
    fn key(self) -> u64 {
        self.check ^ self.data
    }

    fn holds(self, key: u64) -> bool {
        self.used() && self.key() == key
    }

    fn depth(self) -> u8 {
        (self.data >> DEPTH_SHIFT) as u8
    }

    fn generation(self) -> u8 {
        (self.data >> GENERATION_SHIFT) as u8
    }
}

impl Slot {
    #[inline]
    fn load(&self) -> Raw {
        Raw {
            check: self.check.load(Ordering::Relaxed),
            data: self.data.load(Ordering::Relaxed),
        }
    }

    #[inline]
    fn save(&self, raw: Raw) {
        self.check.store(raw.check, Ordering::Relaxed);
        self.data.store(raw.data, Ordering::Relaxed);
    }
}

pub struct TranspositionTable {
    buckets: Vec<[Slot; 2]>,
    generation: u8,
}

/// Bytes per bucket: the whole of `Hash` holds buckets.
const BUCKET_BYTES: usize = std::mem::size_of::<[Slot; 2]>();

/// Score as stored: mates counted from this node rather than from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Score as read at `ply` from the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / BUCKET_BYTES).max(1);
        TranspositionTable {
            buckets: (0..n).map(|_| Default::default()).collect(),
            generation: 0,
        }
    }

    /// Empties every entry (exclusive access: plain stores, no atomics needed).
    pub fn clear(&mut self) {
        for slot in self.buckets.iter_mut().flatten() {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Marks a new search, so old entries give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = &self.buckets[self.index(key)];
        let raw = bucket.iter().map(Slot::load).find(|r| r.holds(key))?;
        let data = raw.data;
        let bound = match (data >> BOUND_SHIFT) & 3 {
            0 => TtBound::Exact,
            1 => TtBound::Lower,
            2 => TtBound::Upper,
            _ => return None,
        };
        Some(TtHit {
            mv: unpack_move(data & MOVE_MASK)?,
            score: score_from_tt((data >> SCORE_SHIFT) as u16 as i16 as i32, ply),
            depth: raw.depth(),
            bound,
        })
    }

    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        depth: u32,
        bound: TtBound,
    ) {
        let generation = self.generation;
        let bucket = &self.buckets[self.index(key)];
        let depth = depth.min(255) as u8;
        let score = score_to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        let bound = match bound {
            TtBound::Exact => 0,
            TtBound::Lower => 1,
            TtBound::Upper => 2,
        };
        let mut code = pack_move(mv);
        let old = [bucket[0].load(), bucket[1].load()];
        // Same position: keep the old move when the new result has none.
        let slot = if let Some(s) = old.iter().position(|r| r.holds(key)) {
            if code == 0 {
                code = old[s].data & MOVE_MASK;
            }
            s
        } else {
            let keeper = old[0];
            let replace_keeper =
                !keeper.used() || keeper.generation() != generation || depth >= keeper.depth();
            if replace_keeper {
                // The deep entry moves to the always-replace slot rather than vanishing.
                bucket[1].save(keeper);
                0
            } else {
                1
            }
        };
        let data = code
            | (score as u16 as u64) << SCORE_SHIFT
            | (depth as u64) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | (generation as u64) << GENERATION_SHIFT
            | USED;
        bucket[slot].save(Raw {
            check: key ^ data,
            data,
        });
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .flatten()
            .map(Slot::load)
            .filter(|r| r.used() && r.generation() == self.generation)
            .count();
        (used * 1000 / (sample * 2).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_move;

    #[test]
    fn store_probe_round_trip() {
        let mut tt = TranspositionTable::new(1);
        let mv = parse_move("c5c6d6").unwrap();
        tt.store(0xdead_beef, 3, Some(mv), 123, 5, TtBound::Lower);
        let hit = tt.probe(0xdead_beef, 3).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: Some(mv),
                score: 123,
                depth: 5,
                bound: TtBound::Lower
            }
        );
        assert!(tt.probe(0xdead_bef0, 3).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef, 3).is_none());
    }

    /// A key that lands in bucket `i`: the index is (key * n) >> 64.
    fn key_in_bucket(tt: &TranspositionTable, i: usize) -> u64 {
        let n = tt.buckets.len() as u128;
        let key = (((i as u128) << 64).div_ceil(n)) as u64;
        assert_eq!(tt.index(key), i);
        key
    }

    #[test]
    fn hashfull_counts_this_search_entries_of_the_first_buckets() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.buckets.len() > 1000);
        assert_eq!(tt.hashfull(), 0);
        // The sample is the first 500 buckets (1000 entries): one entry each in 250 of them.
        for i in 0..250 {
            tt.store(key_in_bucket(&tt, i), 0, None, 0, 1, TtBound::Exact);
        }
        assert_eq!(tt.hashfull(), 250);
        // Entries beyond the sample do not count.
        for i in 500..900 {
            tt.store(key_in_bucket(&tt, i), 0, None, 0, 1, TtBound::Exact);
        }
        assert_eq!(tt.hashfull(), 250);
        // Both entries of every sampled bucket: full.
        for i in 0..500 {
            let k = key_in_bucket(&tt, i);
            tt.store(k + 1, 0, None, 0, 1, TtBound::Exact);
            tt.store(k + 2, 0, None, 0, 1, TtBound::Exact);
        }
        assert_eq!(tt.hashfull(), 1000);
        // Entries of an earlier search are not counted, and give way to new ones first.
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(key_in_bucket(&tt, 0) + 3, 0, None, 0, 1, TtBound::Exact);
        assert_eq!(tt.hashfull(), 1);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        // A table smaller than the sample counts all of its entries.
        tt.buckets.truncate(4);
        for i in 0..4 {
            tt.store(key_in_bucket(&tt, i), 0, None, 0, 1, TtBound::Exact);
        }
        assert_eq!(tt.hashfull(), 500);
    }

    /// Every placement on the board, and shifts from every cell.
    fn every_move_kind() -> Vec<Move> {
        let mut moves = vec![Move::Pass];
        for kind in Kind::ALL {
            for &cell in Cell::all() {
                for o in 0..kind.orientations() {
                    if let Some(p) = Placement::new(kind, cell, o) {
                        moves.push(Move::Drop(p));
                    }
                }
            }
        }
        let drops = moves.len();
        for (i, &from) in Cell::all().iter().enumerate() {
            if let Move::Drop(to) = moves[1 + i * 37 % (drops - 1)] {
                moves.push(Move::Shift { from, to });
            }
        }
        moves
    }

    #[test]
    fn every_move_kind_round_trips_with_every_bound_and_extreme_scores() {
        let moves = every_move_kind();
        assert!(moves.iter().any(|m| matches!(m, Move::Shift { .. })));
        let mut tt = TranspositionTable::new(1);
        let bounds = [TtBound::Exact, TtBound::Lower, TtBound::Upper];
        let scores = [
            0,
            1,
            -1,
            MATE_BOUND - 1,
            -(MATE_BOUND - 1),
            MATE + 1,
            -MATE - 1,
        ];
        for (i, &mv) in moves.iter().enumerate() {
            tt.clear();
            let key = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let (bound, score, depth) = (bounds[i % 3], scores[i % 7], (i % 256) as u32);
            tt.store(key, 0, Some(mv), score, depth, bound);
            let hit = tt.probe(key, 0).unwrap();
            assert_eq!(hit.mv, Some(mv), "{mv}");
            assert_eq!(
                (hit.score, hit.depth as u32, hit.bound),
                (score, depth, bound)
            );
        }
        // No move stored: none returned, and a later store without one keeps the old one.
        tt.store(7, 0, None, 5, 1, TtBound::Upper);
        assert_eq!(tt.probe(7, 0).unwrap().mv, None);
        tt.store(7, 0, Some(Move::Pass), 5, 1, TtBound::Upper);
        tt.store(7, 0, None, 6, 2, TtBound::Upper);
        assert_eq!(tt.probe(7, 0).unwrap().mv, Some(Move::Pass));
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // A win 2 plies below a node at ply 4 (MATE - 6 from the root) read at ply 2.
        tt.store(42, 4, None, MATE - 6, 3, TtBound::Exact);
        assert_eq!(tt.probe(42, 2).unwrap().score, MATE - 4);
        tt.store(43, 4, None, -(MATE - 6), 3, TtBound::Exact);
        assert_eq!(tt.probe(43, 1).unwrap().score, -(MATE - 3));
        tt.store(44, 4, None, 250, 3, TtBound::Upper);
        assert_eq!(tt.probe(44, 9).unwrap().score, 250);
    }

    #[test]
    fn deeper_entry_survives_a_shallower_one() {
        let tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Two keys that land in the same bucket: index is (key * n) >> 64.
        let (a, b) = (0u64, (u64::MAX / n) / 2);
        assert_eq!(tt.index(a), tt.index(b));
        tt.store(a, 0, None, 1, 9, TtBound::Exact);
        tt.store(b, 0, None, 2, 1, TtBound::Exact);
        tt.store(b ^ 1, 0, None, 3, 1, TtBound::Exact);
        assert_eq!(tt.probe(a, 0).unwrap().depth, 9);
    }

    #[test]
    fn entries_of_an_earlier_search_give_way_first() {
        let mut tt = TranspositionTable::new(1);
        let (a, b, c) = (
            key_in_bucket(&tt, 7),
            key_in_bucket(&tt, 7) + 1,
            key_in_bucket(&tt, 7) + 2,
        );
        tt.store(a, 0, None, 1, 9, TtBound::Exact);
        tt.new_search();
        // Two shallow entries of the new search: the deep old one goes, not the new ones.
        tt.store(b, 0, None, 2, 1, TtBound::Exact);
        tt.store(c, 0, None, 3, 1, TtBound::Exact);
        assert!(tt.probe(a, 0).is_none());
        assert_eq!(tt.probe(b, 0).unwrap().score, 2);
        assert_eq!(tt.probe(c, 0).unwrap().score, 3);
        // Within one search a deeper entry stays where it is and a shallower one takes the
        // other slot; an entry at least as deep replaces it (and it moves to the other slot).
        tt.clear();
        tt.store(a, 0, None, 1, 5, TtBound::Exact);
        tt.store(b, 0, None, 2, 4, TtBound::Exact);
        tt.store(c, 0, None, 3, 4, TtBound::Exact);
        assert!(tt.probe(b, 0).is_none());
        assert_eq!(tt.probe(a, 0).unwrap().depth, 5);
        tt.store(b, 0, None, 2, 5, TtBound::Exact);
        assert!(tt.probe(c, 0).is_none());
        assert_eq!(tt.probe(a, 0).unwrap().depth, 5);
        assert_eq!(tt.probe(b, 0).unwrap().depth, 5);
    }

    #[test]
    fn torn_or_forged_entries_are_rejected() {
        let tt = TranspositionTable::new(1);
        let (a, b) = (0x1234_5678_9abc_def0_u64, 0x0fed_cba9_8765_4321_u64);
        let i = tt.index(a);
        assert_ne!(i, tt.index(b));
        let drop = parse_move("c5c6d6").unwrap();
        tt.store(a, 0, Some(drop), 10, 4, TtBound::Exact);
        tt.store(b, 0, Some(Move::Pass), 20, 6, TtBound::Lower);
        let (ra, rb) = (tt.buckets[i][0].load(), tt.buckets[tt.index(b)][0].load());
        assert!(tt.probe(a, 0).is_some());
        // Torn: a's check word with b's data word, and the other way round.
        tt.buckets[i][0].save(Raw {
            check: ra.check,
            data: rb.data,
        });
        assert!(tt.probe(a, 0).is_none());
        tt.buckets[i][0].save(Raw {
            check: rb.check,
            data: ra.data,
        });
        assert!(tt.probe(a, 0).is_none());
        // Forged: intact check, but a move code no move packs to, or an unknown bound.
        for data in [
            ra.data & !MOVE_MASK | TAG_PASS | 1 << FROM_SHIFT,
            ra.data & !MOVE_MASK | TAG_DROP | (PLACEMENT_SLOTS as u64 + 1) << SLOT_SHIFT,
            ra.data & !MOVE_MASK | TAG_SHIFT | 1 << SLOT_SHIFT | 1 << FROM_SHIFT,
            ra.data | 3 << BOUND_SHIFT,
            // No move, but a slot or a from cell.
            ra.data & !MOVE_MASK | 1 << SLOT_SHIFT,
            ra.data & !MOVE_MASK | 1 << FROM_SHIFT,
            // A drop with a from cell.
            ra.data & !MOVE_MASK | pack_move(Some(drop)) | 1 << FROM_SHIFT,
        ] {
            tt.buckets[i][0].save(Raw {
                check: a ^ data,
                data,
            });
            assert!(tt.probe(a, 0).is_none(), "{data:x}");
        }
        // An empty slot holds no key, not even 0.
        assert!(TranspositionTable::new(1).probe(0, 0).is_none());
    }

    #[test]
    fn concurrent_stores_never_give_a_move_not_stored_for_the_key() {
        // A tiny table so that the threads fight over the same buckets.
        let mut tt = TranspositionTable::new(1);
        tt.buckets.truncate(4);
        let moves = every_move_kind();
        // Key k always stores the move expected(k); a probe must give that move or miss.
        let key_of = |k: u64| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let expected = |k: u64| moves[(k as usize * 7919) % moves.len()];
        let tt = &tt;
        let hits = std::thread::scope(|s| {
            let workers: Vec<_> = (0..4u64)
                .map(|t| {
                    s.spawn(move || {
                        let mut hits = 0;
                        for i in 0..200_000u64 {
                            let k = (i * 4 + t) % 64;
                            let key = key_of(k);
                            tt.store(key, 0, Some(expected(k)), k as i32, 3, TtBound::Exact);
                            let probe = key_of((k * 13 + i) % 64);
                            if let Some(hit) = tt.probe(probe, 0) {
                                let k2 = (k * 13 + i) % 64;
                                assert_eq!(hit.mv, Some(expected(k2)));
                                assert_eq!(hit.score, k2 as i32);
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum::<u64>()
        });
        assert!(hits > 0);
    }
}
