//! The players of a game, behind one trait ([`player::Player`]): an engine program
//! (`engine_process`, a child in its own process group read with deadlines, driven by
//! [`player::EnginePlayer`]) or a built-in player (`builtin`: random, and greedy with `greedy`
//! and `greedy_score`).

pub mod builtin;
pub mod engine_process;
pub mod greedy;
pub mod greedy_score;
pub mod player;
