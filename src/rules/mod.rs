//! The rules of PÜNCT (`docs/rules.md`, both variants), with no knowledge of engines.
//!
//! From the bottom up: [`cell`] (cells and directions), [`cellset`] (sets of cells as bit
//! words), [`geometry`] (sides, axes, the central hexagon, precomputed neighbours and rays),
//! [`piece`] (kinds and placements), [`moves`], [`zobrist`], [`position`] (stacks,
//! make/unmake, game end), [`movegen`], [`legality`] (one move with the reason it is illegal),
//! [`perft`]. Text in and out is kept apart from the rules: [`notation`] (moves and positions)
//! and [`svg`] (a drawing of a position, used by the engine's CLI, the referee and the GUI).

pub mod cell;
pub mod cellset;
pub mod geometry;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod svg;
pub(crate) mod zobrist;
