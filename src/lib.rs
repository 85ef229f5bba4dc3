//! PÜNCT: the rules of Kris Burm's game as a library, plus the engine, referee and tuner built on it.
//!
//! The rules live in small modules: [`geometry`] (cells, directions, sides), [`cellset`],
//! [`piece`] (kinds and placements), [`position`] (stacks, make/unmake, game end),
//! [`movegen`], [`legality`] (one move with the reason it is illegal), [`notation`] and
//! [`perft`]. The authority for every rule is `RULES.md` of the project. [`tune`] sits on top
//! of both the engine (its evaluation as features) and the referee (its games).

pub mod cellset;
pub mod cli;
pub mod engine;
pub mod geometry;
pub mod gui;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod referee;
pub mod svg;
pub mod tune;
mod zobrist;

pub use cellset::CellSet;
pub use geometry::{Axis, Cell, Dir, Side};
pub use legality::{IllegalMove, IllegalReason};
pub use moves::Move;
pub use notation::{parse_cell, parse_move, parse_position, ParseError, PositionError};
pub use piece::{Colour, Kind, Placement};
pub use position::{EndReason, Outcome, PlacedPiece, Position, Variant};
