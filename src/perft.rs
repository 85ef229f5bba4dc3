//! Perft: the number of move sequences of a given length, counting moves in bulk at the last ply.

use crate::moves::Move;
use crate::position::Position;

/// Leaves at exactly `depth` plies; a finished game adds nothing below it.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut total = 0;
            for mv in pos.legal_moves() {
                pos.make(mv);
                total += perft(pos, depth - 1);
                pos.unmake();
            }
            total
        }
    }
}

/// Perft split by first move, sorted by the move's notation.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(Move, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            pos.make(mv);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (mv, n)
        })
        .collect();
    out.sort_by_cached_key(|(mv, _)| mv.to_string());
    out
}
