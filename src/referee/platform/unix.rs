//! Unix: process groups, signals and `poll` through `libc`.

use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command};
use std::time::Duration;

/// Makes the program of `cmd` start in a process group of its own (its id is the child's
/// id), and, on Linux, die when the referee dies.
pub fn isolate(cmd: &mut Command) {
    cmd.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: only async-signal-safe calls (prctl, getppid, _exit) run between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // The referee may have died before prctl took effect.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
}

/// The id of the process group of a child started by an [`isolate`]d command: its own id.
pub fn adopt(child: &Child) -> i32 {
    child.id() as i32
}

/// Nothing to free: a process group goes with its last process.
pub fn release_group(_pgid: i32) {}

/// Kills process group `pgid` (async-signal-safe: also called from the signal handler).
pub fn kill_group(pgid: i32) {
    // SAFETY: killpg has no memory-safety preconditions.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Makes writes to the engine's input return `WouldBlock` instead of waiting when the pipe is
/// full; true if done.
pub fn set_nonblocking(stdin: &ChildStdin) -> bool {
    let fd = stdin.as_raw_fd();
    // SAFETY: fcntl on a pipe descriptor we own; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == 0
    }
}

/// Waits until the engine's input has room, at most `timeout` (and at most a second).
pub fn wait_writable(stdin: &ChildStdin, timeout: Duration) {
    let mut fds = libc::pollfd {
        fd: stdin.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = timeout.as_millis().clamp(1, 1000) as libc::c_int;
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe {
        libc::poll(&mut fds, 1, ms);
    }
}

/// Calls `handler` (from the signal handler: it must be async-signal-safe) on SIGINT, SIGTERM
/// and SIGHUP, with the signal's number.
pub fn on_termination_signals(handler: extern "C" fn(i32)) {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: the sigaction struct is fully initialised by zeroing and the fields set below;
        // what the handler does is the caller's promise.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

/// `path` if it is a program that can be started: a file with an execute bit.
pub fn runnable(path: &Path) -> Option<PathBuf> {
    std::fs::metadata(path)
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .then(|| path.to_path_buf())
}

/// A bare program name is looked up on PATH only, as `execvp` does.
pub const SEARCHES_HERE: bool = false;
