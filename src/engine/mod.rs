//! The engine: a UCI-like protocol (`protocol.md`) in front of an iterative-deepening search.
//!
//! Protocol side: `command` (parse a line), `session` (the state machine), `options`, `uci`
//! (reader thread, search worker), `fmt` (output lines). Search side: `search`, `movepick`,
//! `sliced`, `threats`, `tt`, `evaluate`, `timeman`, `params`, `bench`. They meet only through
//! `types`.

pub mod bench;
pub mod cli;
pub mod command;
pub mod evaluate;
pub mod fmt;
pub mod movepick;
pub mod options;
pub mod params;
pub mod race;
pub mod search;
pub mod session;
pub mod sliced;
pub mod threats;
pub mod timeman;
pub mod tt;
pub mod types;
pub mod uci;
