//! Which moves other threads are searching right now: simplified ABDADA (Kerrigan, after
//! Weill's ABDADA). With several threads, a node defers a move (after its first) that another
//! thread is already searching, and comes back to it last, when the other thread's result is
//! usually in the transposition table. The threads then split a node's moves between them
//! instead of searching the same ones side by side, as lazy SMP's helpers did here.
//!
//! The table is a few thousand atomic words, each holding the key of one (position, move)
//! being searched; a collision only makes a move look busy or free when it is not, which
//! changes the order of the search, never its result.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::engine::search::tt::pack_move;
use crate::rules::moves::Move;

/// Entries of the table (a power of two).
const SLOTS: usize = 1 << 15;

pub(super) struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    pub(super) fn new() -> BusyTable {
        BusyTable {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The key of `mv` played in the position of hash `pos_key` (never 0).
    pub(super) fn key(pos_key: u64, mv: Move) -> u64 {
        let k = pos_key ^ (pack_move(Some(mv)) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        k.max(1)
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 7) as usize & (SLOTS - 1)]
    }

    /// Whether another thread is searching the move of `key`.
    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the move of `key` as being searched.
    pub(super) fn start(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Marks the move of `key` as done (unless another move has taken its slot since).
    pub(super) fn finish(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Forgets every mark (a new search).
    pub(super) fn clear(&self) {
        self.slots
            .iter()
            .for_each(|s| s.store(0, Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Position, Variant};

    #[test]
    fn a_started_move_is_busy_until_finished() {
        let pos = Position::new(Variant::Standard);
        let moves = pos.legal_moves();
        let table = BusyTable::new();
        let (a, b) = (
            BusyTable::key(pos.hash(), moves[0]),
            BusyTable::key(pos.hash(), moves[1]),
        );
        assert_ne!(a, b);
        assert!(!table.is_busy(a));
        table.start(a);
        assert!(table.is_busy(a));
        assert!(!table.is_busy(b));
        table.finish(b);
        assert!(table.is_busy(a), "finishing another move leaves the mark");
        table.finish(a);
        assert!(!table.is_busy(a));
        table.start(b);
        table.clear();
        assert!(!table.is_busy(b));
        // The same move in another position is another key.
        assert_ne!(a, BusyTable::key(pos.hash() ^ 1, moves[0]));
    }
}
