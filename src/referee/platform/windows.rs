//! Windows: each engine runs in a job object of its own (Windows' process group) through
//! `windows-sys`.
//!
//! The engine starts suspended, joins its job and only then runs, so every program it starts is
//! in the job too. Killing the job kills them all; the job is closed with the referee's last
//! handle to it, so the engines also die when the referee dies (`KILL_ON_JOB_CLOSE`, the
//! counterpart of Linux's `PR_SET_PDEATHSIG`). The referee's own standard handles are made
//! non-inheritable, so that no engine, nor a program it starts, holds the referee's output open
//! (std starts every child with `bInheritHandles`). A program that leaves the job on purpose
//! (`CREATE_BREAKAWAY_FROM_JOB`, like `setsid` on Unix) is out of reach: the same known limit.

use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

use windows_sys::Win32::Foundation::{
    CloseHandle, SetHandleInformation, HANDLE, HANDLE_FLAG_INHERIT, INVALID_HANDLE_VALUE,
};
use windows_sys::Win32::System::Console::{
    GetStdHandle, SetConsoleCtrlHandler, CTRL_BREAK_EVENT, CTRL_C_EVENT, STD_ERROR_HANDLE,
    STD_INPUT_HANDLE, STD_OUTPUT_HANDLE,
};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_BREAKAWAY_OK, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenThread, ResumeThread, CREATE_SUSPENDED, THREAD_SUSPEND_RESUME,
};

/// The job of each running engine, by the engine's process id (handles kept as `usize`: a
/// `HANDLE` is a pointer, which is not `Send`).
static JOBS: Mutex<Vec<(i32, usize)>> = Mutex::new(Vec::new());

/// Makes the program of `cmd` start suspended (see [`adopt`]), and the referee's own standard
/// handles non-inheritable.
pub fn isolate(cmd: &mut Command) {
    static PRIVATE: Once = Once::new();
    PRIVATE.call_once(|| {
        for which in [STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE] {
            // SAFETY: GetStdHandle has no preconditions; SetHandleInformation on a null or
            // invalid handle only fails.
            unsafe {
                let h = GetStdHandle(which);
                if !h.is_null() && h != INVALID_HANDLE_VALUE {
                    SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
                }
            }
        }
    });
    cmd.creation_flags(CREATE_SUSPENDED);
}

/// Puts the child started by an [`isolate`]d command into a new job and lets it run; returns
/// the id that [`kill_group`] and [`release_group`] take (the child's process id).
pub fn adopt(child: &Child) -> i32 {
    let pid = child.id();
    // SAFETY: plain Win32 calls on handles created here or owned by `child`; the limit struct
    // is zeroed (a valid value) before the fields are set.
    unsafe {
        let job = CreateJobObjectW(std::ptr::null(), std::ptr::null());
        if job.is_null() {
            log::warn!(
                "no job object for process {pid}: {}",
                std::io::Error::last_os_error()
            );
        } else {
            let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
            limits.BasicLimitInformation.LimitFlags =
                JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_BREAKAWAY_OK;
            SetInformationJobObject(
                job,
                JobObjectExtendedLimitInformation,
                (&raw const limits).cast(),
                std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            );
            if AssignProcessToJobObject(job, child.as_raw_handle() as HANDLE) == 0 {
                log::warn!(
                    "process {pid} is not in a job (its children may outlive it): {}",
                    std::io::Error::last_os_error()
                );
                CloseHandle(job);
            } else {
                lock_jobs().push((pid as i32, job as usize));
            }
        }
        resume_threads(pid);
    }
    pid as i32
}

/// Resumes every thread of process `pid` (a process started suspended has one).
unsafe fn resume_threads(pid: u32) {
    let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    if snapshot == INVALID_HANDLE_VALUE {
        log::error!(
            "cannot list the threads of process {pid}: {}",
            std::io::Error::last_os_error()
        );
        return;
    }
    let mut entry: THREADENTRY32 = std::mem::zeroed();
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    let mut more = Thread32First(snapshot, &mut entry) != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            let thread = OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID);
            if !thread.is_null() {
                ResumeThread(thread);
                CloseHandle(thread);
            }
        }
        more = Thread32Next(snapshot, &mut entry) != 0;
    }
    CloseHandle(snapshot);
}

fn lock_jobs() -> std::sync::MutexGuard<'static, Vec<(i32, usize)>> {
    JOBS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every process of the job of engine `pgid` (also called from the Ctrl-C handler, which
/// runs on a thread of its own).
pub fn kill_group(pgid: i32) {
    for &(pid, job) in lock_jobs().iter() {
        if pid == pgid {
            // SAFETY: a job handle this module created and has not closed.
            unsafe {
                TerminateJobObject(job as HANDLE, 1);
            }
        }
    }
}

/// Closes the job of engine `pgid` (which kills what is left in it).
pub fn release_group(pgid: i32) {
    let mut jobs = lock_jobs();
    jobs.retain(|&(pid, job)| {
        if pid == pgid {
            // SAFETY: closed once, as it leaves the table.
            unsafe {
                CloseHandle(job as HANDLE);
            }
        }
        pid != pgid
    });
}

/// Anonymous pipes here are not made non-blocking (false): the engine's input is written by a
/// thread of its own, with a deadline on the wait for it.
pub fn set_nonblocking(_stdin: &ChildStdin) -> bool {
    false
}

/// Not reached with blocking writes (they never return `WouldBlock`); waits a little so that a
/// loop around it cannot spin.
pub fn wait_writable(_stdin: &ChildStdin, timeout: Duration) {
    std::thread::sleep(timeout.min(Duration::from_millis(1)));
}

/// The handler given to [`on_termination_signals`], as a function pointer.
static HANDLER: AtomicUsize = AtomicUsize::new(0);

/// Ctrl-C is SIGINT (2), Ctrl-Break SIGTERM (15), a closed console, a logoff or a shutdown
/// SIGHUP (1): what the referee reports and its exit status are as on Unix.
unsafe extern "system" fn on_console_event(event: u32) -> windows_sys::core::BOOL {
    let handler = HANDLER.load(Ordering::SeqCst);
    if handler == 0 {
        return 0;
    }
    let sig = match event {
        CTRL_C_EVENT => 2,
        CTRL_BREAK_EVENT => 15,
        _ => 1,
    };
    // SAFETY: stored from an `extern "C" fn(i32)` by on_termination_signals.
    let handler: extern "C" fn(i32) = std::mem::transmute(handler);
    handler(sig);
    1
}

/// Calls `handler` with a signal number on Ctrl-C, Ctrl-Break and the console's close.
pub fn on_termination_signals(handler: extern "C" fn(i32)) {
    HANDLER.store(handler as usize, Ordering::SeqCst);
    // SAFETY: registers a handler with the signature the system expects.
    unsafe {
        SetConsoleCtrlHandler(Some(on_console_event), 1);
    }
}

/// The program to start for `path`: the file as given, or with `.exe` added when it has no
/// extension; absolute, since Windows resolves a relative program against the referee's folder
/// of work, not the engine's (`dir=`).
pub fn runnable(path: &Path) -> Option<PathBuf> {
    let is_file = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    let found = if is_file(path) {
        path.to_path_buf()
    } else if path.extension().is_none() && is_file(&path.with_extension("exe")) {
        path.with_extension("exe")
    } else {
        return None;
    };
    Some(std::path::absolute(&found).unwrap_or(found))
}

/// Windows looks for a bare program name in the current folder and the program's own folder
/// before PATH: so does the referee.
pub const SEARCHES_HERE: bool = true;
