//! Platforms that are neither Unix nor Windows (WASI, ...): `std` only. No process groups and
//! no signal handler; the engine process itself is killed through `std::process::Child::kill`.

use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command};
use std::time::Duration;

/// Nothing to do: `std` has no process groups here; the child is killed on its own.
pub fn isolate(_cmd: &mut Command) {}

/// The child's own id stands for its group.
pub fn adopt(child: &Child) -> i32 {
    child.id() as i32
}

/// Nothing to do: there is no group to kill (the caller also kills the child itself).
pub fn kill_group(_pgid: i32) {}

/// Nothing to free.
pub fn release_group(_pgid: i32) {}

/// `std` cannot make a pipe non-blocking here: the engine's input is written by a thread.
pub fn set_nonblocking(_stdin: &ChildStdin) -> bool {
    false
}

/// Not reached with blocking writes (they never return `WouldBlock`); waits a little so that a
/// loop around it cannot spin.
pub fn wait_writable(_stdin: &ChildStdin, timeout: Duration) {
    std::thread::sleep(timeout.min(Duration::from_millis(1)));
}

/// No handler: the system's default ends the referee.
pub fn on_termination_signals(_handler: extern "C" fn(i32)) {}

/// `path` if it is a file.
pub fn runnable(path: &Path) -> Option<PathBuf> {
    std::fs::metadata(path)
        .is_ok_and(|m| m.is_file())
        .then(|| path.to_path_buf())
}

/// A bare program name is looked up on PATH only.
pub const SEARCHES_HERE: bool = false;
