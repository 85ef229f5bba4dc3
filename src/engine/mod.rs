//! The engine: a UCI-like protocol (`protocol.md`) in front of an iterative-deepening search.
//!
//! Two sides that meet only through [`types`] (limits in; info lines and the result out):
//! [`protocol`] (parse a line, the session state machine, the threads that run it) and
//! [`search`] (the search, its move picking, threats, evaluation, tables and time). [`cli`] is
//! the `punct` binary's one-shot commands (`perft`, `moves`, `bench`, `svg`). A newcomer
//! opens `protocol/session.rs` for what the engine answers, `search/root.rs` for how it
//! thinks.

pub mod cli;
pub mod protocol;
pub mod search;
pub mod types;
