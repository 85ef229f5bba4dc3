//! Code shared by the rules and engine tests: the simple second rules implementation, biased
//! random playouts, conversions between the library and the simple model, and the winning
//! moves of a position found by playing every legal move.
#![allow(dead_code)]

pub mod clauses;
pub mod simple_rules;

use punct::{Colour, EndReason, Move, Outcome, Position, Variant};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;
use simple_rules::{Board, Ending, Key, Why};

/// Whether the larger runs were asked for (`PUNCT_EXHAUSTIVE=1`).
pub fn exhaustive() -> bool {
    std::env::var("PUNCT_EXHAUSTIVE").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The move as the simple model reads it from its notation.
pub fn key_of(mv: Move) -> Key {
    simple_rules::read_key(&mv.to_string())
        .unwrap_or_else(|| panic!("the simple reader cannot read move {mv}"))
}

/// The simple model of a library position, read from its position string.
pub fn board_of(pos: &Position) -> Board {
    Board::read(&pos.to_string(), pos.variant() == Variant::Basic)
        .unwrap_or_else(|e| panic!("the simple reader rejects {pos}: {e}"))
}

/// The library's outcome in the simple model's terms.
pub fn ending_of(outcome: Option<Outcome>) -> Option<Ending> {
    outcome.map(|o| Ending {
        winner: o.winner.map(|c| c == Colour::White),
        why: match o.reason {
            EndReason::Connection => Why::Connection,
            EndReason::CentreCount { white, black } => {
                Why::CentreCount(white as usize, black as usize)
            }
            EndReason::LastDrop => Why::LastDrop,
            EndReason::DoublePass => Why::DoublePass,
        },
    })
}

/// Every move that ends the game at once in the mover's favour, by playing them all.
pub fn winning_moves(p: &mut Position) -> Vec<Move> {
    let us = p.side_to_move();
    let mut wins = Vec::new();
    for mv in p.legal_moves() {
        p.make(mv);
        if p.outcome().is_some_and(|o| o.winner == Some(us)) {
            wins.push(mv);
        }
        p.unmake();
    }
    wins
}

/// A random move biased towards shifts that land on pieces (and so stack, bridge and block);
/// otherwise mostly drops, so that games still end.
pub fn biased_choice(pos: &Position, moves: &[Move], rng: &mut Xoshiro256PlusPlus) -> Move {
    let mut bridging = Vec::new();
    let mut stacking = Vec::new();
    let mut shifts = Vec::new();
    let mut drops = Vec::new();
    for &mv in moves {
        match mv {
            Move::Shift { to, .. } => {
                // Heights with the moving piece still on the board: good enough for a bias.
                let h = to.cells().map(|c| pos.height(c));
                let top = h.iter().copied().max().unwrap_or(0);
                if top >= 1 && h.iter().any(|&x| x < top) {
                    bridging.push(mv);
                } else if top >= 1 {
                    stacking.push(mv);
                }
                shifts.push(mv);
            }
            Move::Drop(_) => drops.push(mv),
            Move::Pass => {}
        }
    }
    let r: f64 = rng.gen();
    let pick = |v: &Vec<Move>, rng: &mut Xoshiro256PlusPlus| v[rng.gen_range(0..v.len())];
    if !bridging.is_empty() && r < 0.25 {
        pick(&bridging, rng)
    } else if !stacking.is_empty() && r < 0.5 {
        pick(&stacking, rng)
    } else if !shifts.is_empty() && r < 0.6 {
        pick(&shifts, rng)
    } else if !drops.is_empty() {
        pick(&drops, rng)
    } else {
        moves[rng.gen_range(0..moves.len())]
    }
}

/// Features seen in the positions of a run, to prove the playouts reach them.
#[derive(Default, Debug)]
pub struct Features {
    pub positions: u64,
    pub stacked_pieces: u64,
    pub bridges: u64,
    pub blocked_pieces: u64,
    pub level_two_or_more: u64,
}

impl Features {
    pub fn count(&mut self, board: &Board) {
        self.positions += 1;
        for (i, pc) in board.pieces.iter().enumerate() {
            self.stacked_pieces += u64::from(pc.level >= 1);
            self.level_two_or_more += u64::from(pc.level >= 2);
            self.bridges += u64::from(board.is_bridge(i));
            self.blocked_pieces += u64::from(board.blocked(i));
        }
    }
}
