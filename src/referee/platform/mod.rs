//! Everything the referee needs from the operating system beyond `std`, in one place: process
//! groups, termination signals, writes with a deadline, and what counts as a runnable program.
//!
//! - Unix (`unix.rs`, the only user of `libc`): each engine runs in its own process group, which
//!   is killed as a whole; on Linux the engine also dies with the referee (`PR_SET_PDEATHSIG`);
//!   SIGINT, SIGTERM and SIGHUP kill every engine group from the signal handler; writes to an
//!   engine wait for room in the pipe up to a deadline (`poll`); a program is runnable when it is
//!   a file with an execute bit.
//! - Elsewhere (`other.rs`, `std` only): the engine process itself is killed (no group, so a
//!   program it started itself may outlive it); no signal handler is installed (the system's
//!   default ends the referee); writes block; a program is runnable when it is a file (also with
//!   `.exe` added).
//!
//! The journal's lock (`-jsonl`) needs no code here: `std`'s `File::try_lock` serves everywhere.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

#[cfg(not(unix))]
mod other;
#[cfg(not(unix))]
pub use other::*;
