//! PÜNCT: the rules of Kris Burm's game as a library, and four parts built on it.
//!
//! | part | folder | what it is | start reading at |
//! |---|---|---|---|
//! | [`rules`] | `src/rules/` | board, pieces, moves, game end, notation, perft (`docs/rules.md`) | [`rules::position`] |
//! | [`engine`] | `src/engine/` | the `punct` engine: protocol side and search side | [`engine::protocol`], [`engine::search`] |
//! | [`referee`] | `src/referee/` | `punct-referee`: matches, tournaments, records, statistics | [`referee::runner`] (see `src/referee/mod.rs`) |
//! | [`gui`] | `src/gui/` | `punct-gui`: the board in the browser against any engine | [`gui::app`] |
//! | [`tune`] | `src/tune/` | `punct-tune`: self-play data, Texel and SPSA | [`tune::gen`] |
//!
//! Each part depends only on the parts above it in the table (the GUI uses the referee's engine
//! process and records, the tuner the engine's evaluation and the referee's games); the
//! binaries in `src/bin/` are thin `main`s. The most used rules types are re-exported here, so
//! `punct::Position` works as well as `punct::rules::position::Position`.

pub mod engine;
pub mod gui;
pub mod referee;
pub mod rules;
pub mod tune;

pub use rules::cellset::CellSet;
pub use rules::geometry::{Axis, Cell, Dir, Side};
pub use rules::legality::{IllegalMove, IllegalReason};
pub use rules::moves::Move;
pub use rules::notation::{parse_cell, parse_move, parse_position, ParseError, PositionError};
pub use rules::piece::{Colour, Kind, Placement};
pub use rules::position::{EndReason, Outcome, PlacedPiece, Position, Variant};
