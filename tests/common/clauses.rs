//! Helpers for the clause-by-clause tests: every verdict is asked of `check_move`, of
//! `legal_moves` membership and of the simple checker, which must all agree.

use punct::{parse_move, parse_position, IllegalReason, Move, Position, Variant};

use super::{board_of, key_of};

pub fn standard(text: &str) -> Position {
    parse_position(text, Variant::Standard).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn basic(text: &str) -> Position {
    parse_position(text, Variant::Basic).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn mv(text: &str) -> Move {
    parse_move(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts that the move is legal, and returns the position after it.
pub fn legal(pos: &Position, text: &str) -> Position {
    let m = mv(text);
    assert_eq!(pos.check_move(m), Ok(()), "{text} in {pos}");
    assert!(pos.legal_moves().contains(&m), "{text} generated in {pos}");
    assert!(
        board_of(pos).is_legal(key_of(m)),
        "{text}: simple checker in {pos}"
    );
    let mut next = pos.clone();
    next.play(m).unwrap();
    next
}

/// Asserts that the move is illegal for the given reason.
pub fn illegal(pos: &Position, text: &str, reason: IllegalReason) {
    let m = mv(text);
    let err = pos.check_move(m).expect_err(text);
    assert_eq!(err.reason, reason, "{text} in {pos}");
    assert!(!pos.legal_moves().contains(&m), "{text} generated in {pos}");
    assert!(
        !board_of(pos).is_legal(key_of(m)),
        "{text}: simple checker in {pos}"
    );
    let mut same = pos.clone();
    assert!(same.play(m).is_err());
    assert!(same == *pos, "a rejected move changes nothing");
}

/// The level of the piece whose PÜNCT is on `cell` (the highest one there).
pub fn level_at(pos: &Position, cell: &str) -> u8 {
    let c = punct::parse_cell(cell).unwrap();
    pos.pieces()
        .filter(|(_, p)| p.placement.punct() == c)
        .map(|(_, p)| p.level)
        .max()
        .unwrap_or_else(|| panic!("no piece on {cell} in {pos}"))
}
