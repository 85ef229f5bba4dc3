//! The transposition table: buckets of two entries (one kept by depth, one always replaced),
//! keyed by the position's Zobrist hash. Mate scores are stored relative to the node so that a
//! mate found at one ply reads correctly at another.

use crate::moves::Move;

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

#[derive(Copy, Clone)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: u8,
    bound: TtBound,
    generation: u8,
    used: bool,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: 0,
    bound: TtBound::Upper,
    generation: 0,
    used: false,
};

pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    generation: u8,
}

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
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        TranspositionTable {
            buckets: vec![[EMPTY; 2]; n],
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [EMPTY; 2]);
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
        bucket
            .iter()
            .find(|e| e.used && e.key == key)
            .map(|e| TtHit {
                mv: e.mv,
                score: score_from_tt(e.score, ply),
                depth: e.depth,
                bound: e.bound,
            })
    }

    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        depth: u32,
        bound: TtBound,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let bucket = &mut self.buckets[i];
        let depth = depth.min(255) as u8;
        let mut entry = Entry {
            key,
            mv,
            score: score_to_tt(score, ply),
            depth,
            bound,
            generation,
            used: true,
        };
        // Same position: keep the old move when the new result has none.
        let slot = if let Some(s) = bucket.iter().position(|e| e.used && e.key == key) {
            if entry.mv.is_none() {
                entry.mv = bucket[s].mv;
            }
            s
        } else {
            let keeper = &bucket[0];
            let replace_keeper =
                !keeper.used || keeper.generation != generation || depth >= keeper.depth;
            if replace_keeper {
                // The deep entry moves to the always-replace slot rather than vanishing.
                bucket[1] = bucket[0];
                0
            } else {
                1
            }
        };
        bucket[slot] = entry;
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(500);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.iter())
            .filter(|e| e.used && e.generation == self.generation)
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
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(0xdead_beef, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
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
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Two keys that land in the same bucket: index is (key * n) >> 64.
        let (a, b) = (0u64, (u64::MAX / n) / 2);
        assert_eq!(tt.index(a), tt.index(b));
        tt.store(a, 0, None, 1, 9, TtBound::Exact);
        tt.store(b, 0, None, 2, 1, TtBound::Exact);
        tt.store(b ^ 1, 0, None, 3, 1, TtBound::Exact);
        assert_eq!(tt.probe(a, 0).unwrap().depth, 9);
    }
}
