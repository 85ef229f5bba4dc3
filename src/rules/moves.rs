//! The move type.

use std::fmt;

use crate::rules::geometry::Cell;
use crate::rules::piece::Placement;

/// A PÜNCT move (docs/rules.md 4): a drop, a shift (move and/or rotation) of a piece in play,
/// or a pass.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Put a piece from the hand on the board.
    Drop(Placement),
    /// Move the piece whose PÜNCT is on `from` to a new placement.
    Shift { from: Cell, to: Placement },
    /// Only when no other move is legal.
    Pass,
}

const _: () = assert!(std::mem::size_of::<Move>() <= 6);

impl Move {
    /// The placement the piece ends on (none for a pass).
    pub fn placement(self) -> Option<Placement> {
        match self {
            Move::Drop(p) | Move::Shift { to: p, .. } => Some(p),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    /// The canonical notation of docs/rules.md section 6.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Drop(p) => write!(f, "{p}"),
            Move::Shift { from, to } => write!(f, "{from}-{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
