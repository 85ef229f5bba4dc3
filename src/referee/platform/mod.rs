//! Everything the referee needs from the operating system beyond `std`, in one place: process
//! groups, termination signals, writes with a deadline, and what counts as a runnable program.
//!
//! - Unix (`unix.rs`, the only user of `libc`): each engine runs in its own process group, which
//!   is killed as a whole; on Linux the engine also dies with the referee (`PR_SET_PDEATHSIG`);
//!   SIGINT, SIGTERM and SIGHUP kill every engine group from the signal handler; writes to an
//!   engine wait for room in the pipe up to a deadline (`poll`); a program is runnable when it is
//!   a file with an execute bit; a bare name is looked up on PATH.
//! - Windows (`windows.rs`, the only user of `windows-sys`): each engine runs in a job object
//!   of its own, killed as a whole and closed (so killed) when the referee dies; the referee's
//!   own standard handles are not inherited by engines; Ctrl-C, Ctrl-Break and closing the
//!   console kill every engine job from the console handler; writes to an engine block, so
//!   [`crate::referee::players::engine_process`] writes from a thread and bounds the wait for
//!   it; a program is runnable when it is a file (also with `.exe` added); a bare name is looked
//!   up in the engine's folder, the referee's folder, then PATH, as Windows does.
//! - Elsewhere (`other.rs`, `std` only): the engine process itself is killed; no signal handler;
//!   writes as on Windows.
//!
//! The journal's lock (`-jsonl`) needs no code here: `std`'s `File::try_lock` serves everywhere.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::*;

#[cfg(not(any(unix, windows)))]
mod other;
#[cfg(not(any(unix, windows)))]
pub use other::*;
