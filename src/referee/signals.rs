//! Ctrl-C and friends: on SIGINT, SIGTERM or SIGHUP every engine process group is killed from the
//! signal handler itself (kill is async-signal-safe), so no engine outlives the referee even if a
//! game thread is stuck; the run then stops and its records stay resumable. On Windows Ctrl-C,
//! Ctrl-Break and closing the console do the same (their console handler calls the same
//! function); see [`platform`].

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use crate::referee::platform;

const SLOTS: usize = 512;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Remembers a process group to kill on a signal; None if the table is full.
pub fn register_group(pgid: i32) -> Option<usize> {
    for (i, slot) in GROUPS.iter().enumerate() {
        if slot
            .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return Some(i);
        }
    }
    log::warn!("more than {SLOTS} engine processes: process group {pgid} is not tracked");
    None
}

pub fn unregister_group(slot: usize) {
    GROUPS[slot].store(0, Ordering::SeqCst);
}

/// True once a termination signal has arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The signal that interrupted the run (0: none).
pub fn signal_number() -> i32 {
    SIGNAL.load(Ordering::SeqCst)
}

/// Kills every tracked engine group (also used when the run stops for an ordinary reason).
pub fn kill_all_groups() {
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            platform::kill_group(pgid);
        }
    }
}

extern "C" fn on_signal(sig: i32) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    SIGNAL.store(sig, Ordering::SeqCst);
    kill_all_groups();
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (Unix; their console events on Windows;
/// elsewhere nothing, see [`platform`]). The handler only touches atomics and kills groups, both async-signal-safe.
pub fn install() {
    platform::on_termination_signals(on_signal);
}
