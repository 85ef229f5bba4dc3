//! The protocol side of the engine (`protocol.md`): [`command`] parses a line, [`session`] is
//! the state machine (command in, effects out, no I/O), [`options`] the engine's options,
//! [`uci`] the reader thread and the search worker that carry the effects out, [`answer`] the
//! one answer each search owes (and the watchdog that gives it when the worker is late),
//! [`fmt`] the output lines.

pub mod answer;
pub mod command;
pub mod fmt;
pub mod options;
pub mod session;
pub mod uci;
