//! Checking one move against a position, with the reason when it is illegal.

use std::fmt;

use crate::rules::geometry::{Cell, Dir};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::Position;

/// Why a move cannot be played in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalReason {
    GameOver,
    /// A pass while another move is legal.
    PassWithMovesLeft,
    NoneInHand(Colour, Kind),
    Occupied(Cell),
    CentreDrop(Cell),
    NoPieceAt(Cell),
    NotYourPiece(Cell, Colour),
    Blocked(Cell),
    KindChanged {
        from: Kind,
        to: Kind,
    },
    NotInLine,
    NoChange,
    NotStable,
    PunctNotOnOwn,
}

/// An illegal move with the reason, e.g. `move e4e5e6: White has no straight piece left`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {}: ", self.mv)?;
        match &self.reason {
            IllegalReason::GameOver => f.write_str("the game is over"),
            IllegalReason::PassWithMovesLeft => {
                f.write_str("passing is allowed only when no other move is legal")
            }
            IllegalReason::NoneInHand(c, k) => {
                write!(f, "{} has no {} piece left", c.name(), k.name())
            }
            IllegalReason::Occupied(c) => write!(f, "{c} is not empty"),
            IllegalReason::CentreDrop(c) => {
                write!(
                    f,
                    "{c} is in the central hexagon, where no piece may be dropped"
                )
            }
            IllegalReason::NoPieceAt(c) => write!(f, "no piece has its PÜNCT on {c}"),
            IllegalReason::NotYourPiece(c, owner) => {
                write!(f, "the piece on {c} is {}'s", owner.name())
            }
            IllegalReason::Blocked(c) => write!(f, "the piece on {c} is blocked"),
            IllegalReason::KindChanged { from, to } => write!(
                f,
                "the piece is a {} piece, not a {} one",
                from.name(),
                to.name()
            ),
            IllegalReason::NotInLine => f.write_str("the PÜNCT does not move in a straight line"),
            IllegalReason::NoChange => f.write_str("the piece would end where it is"),
            IllegalReason::NotStable => f.write_str("the piece would not be stable there"),
            IllegalReason::PunctNotOnOwn => {
                f.write_str("the PÜNCT would not rest on one of the mover's own pieces")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Checks a move against the rules, written clause by clause so the reason can be named.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let fail = |reason| Err(IllegalMove { mv, reason });
        if self.is_finished() {
            return fail(IllegalReason::GameOver);
        }
        let side = self.side_to_move();
        match mv {
            Move::Pass => {
                let mut any = crate::rules::movegen::MoveCounter::default();
                self.generate(&mut any);
                if any.0 > 0 {
                    return fail(IllegalReason::PassWithMovesLeft);
                }
                Ok(())
            }
            Move::Drop(pl) => {
                if self.in_hand(side, pl.kind()) == 0 {
                    return fail(IllegalReason::NoneInHand(side, pl.kind()));
                }
                let area = self.drop_area();
                for c in pl.cells() {
                    if self.height(c) > 0 {
                        return fail(IllegalReason::Occupied(c));
                    }
                    if !area.contains(c) {
                        return fail(IllegalReason::CentreDrop(c));
                    }
                }
                Ok(())
            }
            Move::Shift { from, to } => {
                // The piece with its PÜNCT on `from` that lies highest.
                let Some((id, piece)) = self
                    .pieces()
                    .filter(|(_, p)| p.placement.punct() == from)
                    .max_by_key(|(_, p)| p.level)
                else {
                    return fail(IllegalReason::NoPieceAt(from));
                };
                if piece.colour != side {
                    return fail(IllegalReason::NotYourPiece(from, piece.colour));
                }
                if self.is_blocked(id) {
                    return fail(IllegalReason::Blocked(from));
                }
                if piece.placement.kind() != to.kind() {
                    return fail(IllegalReason::KindChanged {
                        from: piece.placement.kind(),
                        to: to.kind(),
                    });
                }
                let target = to.punct();
                let in_line =
                    target == from || Dir::ALL.iter().any(|&d| from.ray(d).contains(&target));
                if !in_line {
                    return fail(IllegalReason::NotInLine);
                }
                if to == piece.placement {
                    return fail(IllegalReason::NoChange);
                }
                let mut lifted = self.clone_without_history();
                lifted.pop_piece(id);
                let level = lifted.landing_level(to);
                let cells = to.cells();
                if to
                    .end_cells()
                    .iter()
                    .any(|&e| lifted.height(cells[e]) != level)
                {
                    return fail(IllegalReason::NotStable);
                }
                if !lifted.is_stable_for(side, to) {
                    return fail(IllegalReason::PunctNotOnOwn);
                }
                Ok(())
            }
        }
    }

    /// Checks and plays a move; an illegal move leaves the position unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.make(mv);
        Ok(())
    }
}
