//! What a position alone determines, kept across iterations and shared by the search threads:
//! its one-move win, its static evaluation and whether it faces a winning threat (leaves are
//! met again at every iteration, and with several threads by every thread).
//!
//! Shared without locks as the transposition table is (`tt`): an entry is two atomic words,
//! `key ^ data` and `data`, so an entry torn by two threads writing at once reads as a miss.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::engine::search::tt::{pack_move, unpack_move, MATE_BOUND};
use crate::rules::moves::Move;

/// Entries of the table (2^16, 1 MB).
const BITS: u32 = 16;
pub(super) const NO_EVAL: i32 = i32::MIN;

// The data word: win (25 bits, a packed move, 0 for none), eval (16, two's complement), eval
// known (1), threatened (2: unknown, no, yes), valid (1).
const MOVE_MASK: u64 = (1 << 25) - 1;
const EVAL_SHIFT: u32 = 25;
const EVAL_KNOWN: u64 = 1 << 41;
const THREAT_SHIFT: u32 = 42;
const VALID: u64 = 1 << 44;
const _: () = assert!(MATE_BOUND < i16::MAX as i32);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Facts {
    pub(super) key: u64,
    pub(super) win: Option<Move>,
    /// `NO_EVAL` until evaluated; within ±`MATE_BOUND`.
    pub(super) eval: i32,
    /// Whether the opponent threatens to win next move (found at the horizon only).
    pub(super) threatened: Option<bool>,
}

impl Facts {
    fn pack(&self) -> u64 {
        let eval = if self.eval == NO_EVAL {
            0
        } else {
            EVAL_KNOWN | (self.eval as i16 as u16 as u64) << EVAL_SHIFT
        };
        let threat = match self.threatened {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        };
        pack_move(self.win) | eval | threat << THREAT_SHIFT | VALID
    }

    fn unpack(key: u64, data: u64) -> Option<Facts> {
        Some(Facts {
            key,
            win: unpack_move(data & MOVE_MASK)?,
            eval: if data & EVAL_KNOWN != 0 {
                (data >> EVAL_SHIFT) as u16 as i16 as i32
            } else {
                NO_EVAL
            },
            threatened: match (data >> THREAT_SHIFT) & 3 {
                0 => None,
                1 => Some(false),
                _ => Some(true),
            },
        })
    }
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

pub(super) struct FactsTable {
    entries: Vec<Entry>,
}

impl FactsTable {
    pub(super) fn new() -> FactsTable {
        FactsTable {
            entries: (0..1 << BITS).map(|_| Entry::default()).collect(),
        }
    }

    fn entry(&self, key: u64) -> &Entry {
        &self.entries[(key >> (64 - BITS)) as usize]
    }

    /// The facts known of the position of hash `key`, if any.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Facts> {
        let e = self.entry(key);
        let data = e.data.load(Ordering::Relaxed);
        let check = e.check.load(Ordering::Relaxed);
        if data & VALID == 0 || check ^ data != key {
            return None;
        }
        Facts::unpack(key, data)
    }

    /// Keeps `facts` (in place of what its entry held).
    #[inline]
    pub(super) fn store(&self, facts: &Facts) {
        let e = self.entry(facts.key);
        let data = facts.pack();
        e.check.store(facts.key ^ data, Ordering::Relaxed);
        e.data.store(data, Ordering::Relaxed);
    }

    /// Forgets everything (new game, another evaluation).
    pub(super) fn clear(&mut self) {
        for e in &mut self.entries {
            *e = Entry::default();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Position, Variant};

    #[test]
    fn facts_come_back_as_stored() {
        let pos = Position::new(Variant::Standard);
        let moves = pos.legal_moves();
        let mut table = FactsTable::new();
        let key = pos.hash();
        assert_eq!(table.probe(key), None);
        let cases = [
            (None, NO_EVAL, None),
            (Some(moves[0]), 0, Some(false)),
            (Some(moves[moves.len() - 1]), -(MATE_BOUND - 1), Some(true)),
            (Some(Move::Pass), MATE_BOUND - 1, None),
            (None, -1, Some(true)),
        ];
        for (win, eval, threatened) in cases {
            let facts = Facts {
                key,
                win,
                eval,
                threatened,
            };
            table.store(&facts);
            assert_eq!(table.probe(key), Some(facts));
            // Another position of the same entry is a miss.
            assert_eq!(table.probe(key ^ 1), None);
        }
        table.clear();
        assert_eq!(table.probe(key), None);
    }
}
