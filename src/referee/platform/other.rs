//! Platforms other than Unix (Windows, WASI, ...): `std` only. No process groups and no signal
//! handler; the engine process itself is killed through `std::process::Child::kill`.

use std::path::Path;
use std::process::{ChildStdin, Command};
use std::time::Duration;

/// Nothing to do: `std` has no process groups here; the child is killed on its own.
pub fn isolate(_cmd: &mut Command) {}

/// Nothing to do: there is no group to kill (the caller also kills the child itself).
pub fn kill_group(_pgid: i32) {}

/// `std` cannot make a pipe non-blocking here: writes block (false).
pub fn set_nonblocking(_stdin: &ChildStdin) -> bool {
    false
}

/// Not reached with blocking writes (they never return `WouldBlock`); waits a little so that a
/// loop around it cannot spin.
pub fn wait_writable(_stdin: &ChildStdin, timeout: Duration) {
    std::thread::sleep(timeout.min(Duration::from_millis(1)));
}

/// No handler: the system's default for Ctrl-C ends the referee.
pub fn on_termination_signals(_handler: extern "C" fn(i32)) {}

/// Whether `path` is a program that can be started: a file, as given or with `.exe` added.
pub fn is_runnable(path: &Path) -> bool {
    let is_file = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    is_file(path) || (path.extension().is_none() && is_file(&path.with_extension("exe")))
}
