//! Perft: the number of move sequences of a given length, counting moves in bulk at the last ply.

use crate::rules::moves::Move;
use crate::rules::position::Position;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_position;
    use crate::rules::position::Variant;

    #[test]
    fn divide_gives_each_first_move_the_leaves_below_it() {
        for text in [
            "- w 0",
            "Wc5c6d6/Bf5f6f7 w 2",
            "We5e4e3/Be7e8e9/We5e6e7 b 3",
        ] {
            let mut pos = parse_position(text, Variant::Standard).unwrap();
            assert!(divide(&mut pos, 0).is_empty());
            // Depth 1: every legal move once, with one leaf (the move itself), in notation order.
            let mut want: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            want.sort();
            let split = divide(&mut pos, 1);
            let names: Vec<String> = split.iter().map(|(m, _)| m.to_string()).collect();
            assert_eq!(names, want, "{text}");
            assert!(split.iter().all(|&(_, n)| n == 1), "{text}");
            // Depth 2, on a sample of first moves: the number of legal replies, counted by
            // playing the move and listing them.
            let split = divide(&mut pos, 2);
            for &(mv, n) in split.iter().step_by(97) {
                pos.make(mv);
                let replies = pos.legal_moves().len() as u64;
                pos.unmake();
                assert_eq!(n, replies, "{text} {mv}");
            }
        }
    }
}
