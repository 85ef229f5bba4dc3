//! Helpers shared by the referee integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

pub const REFEREE: &str = env!("CARGO_BIN_EXE_punct-referee");
pub const MOCK: &str = env!("CARGO_BIN_EXE_punct-mock-engine");

pub fn referee() -> Command {
    let mut c = Command::new(REFEREE);
    c.env("RUST_LOG", "error");
    c
}

/// Runs `c` to its end: the exit code (None after a signal), stdout and stderr.
pub fn output_of(c: &mut Command) -> (Option<i32>, String, String) {
    let out = c.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The referee with two built-in random players, `a` and `b` (no processes: fast).
pub fn random_pair() -> Command {
    let mut c = referee();
    c.args([
        "-engine",
        "cmd=builtin:random",
        "name=a",
        "-engine",
        "cmd=builtin:random",
        "name=b",
    ]);
    c
}

/// [`random_pair`] for `games` games from `-srand 3`, without interim rating lines.
pub fn random_match(games: u32) -> Command {
    let mut c = random_pair();
    c.args([
        "-games",
        &games.to_string(),
        "-srand",
        "3",
        "-ratinginterval",
        "0",
    ]);
    c
}

/// The statistics block a run ends with: from the last "Score of" line, without timing lines.
pub fn statistics(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Score of"))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    lines[start..]
        .iter()
        .take_while(|l| {
            // Think times differ from run to run: not statistics of the games.
            !l.starts_with("Time:")
                && !l.starts_with("Referee overhead")
                && !l.starts_with("Played")
                && !l.starts_with("Finished")
        })
        .map(|l| l.to_string())
        .collect()
}

/// A fresh, empty directory for one test, removed when dropped.
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn tmpdir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("punct-referee-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

/// A tag unique to this test, put on mock engine command lines to find their processes.
pub fn tag(name: &str) -> String {
    format!("tag-{name}-{}", std::process::id())
}

/// Live processes whose command line contains `tag` (zombies included: they are still listed).
#[cfg(unix)]
pub fn procs_with_tag(tag: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
            let c = String::from_utf8_lossy(&c).replace('\0', " ");
            if c.contains(tag) && !c.contains("punct-referee") {
                out.push(pid);
            }
        }
    }
    out
}

/// Live mock engines given `--tag tag`: each holds `punct-tag-TAG-PID` open in the temporary
/// folder without delete sharing, so the file can be removed once its process is gone.
#[cfg(windows)]
pub fn procs_with_tag(tag: &str) -> Vec<u32> {
    let prefix = format!("punct-tag-{tag}-");
    let mut out = Vec::new();
    for e in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(&prefix).and_then(|p| p.parse().ok()) else {
            continue;
        };
        if std::fs::remove_file(e.path()).is_err() {
            out.push(pid);
        }
    }
    out
}

/// Waits up to `within` for every tagged process to be gone; returns those still there.
pub fn leftovers(tag: &str, within: Duration) -> Vec<u32> {
    let end = Instant::now() + within;
    loop {
        let p = procs_with_tag(tag);
        if p.is_empty() || Instant::now() > end {
            return p;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn games(objs: &[Value]) -> Vec<Value> {
    objs.iter()
        .filter(|v| v["type"] == "game")
        .cloned()
        .collect()
}

pub fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// What [`run_measured`] saw of one referee run.
pub struct Measured {
    /// None when the run had to be killed at the time limit.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident memory of the referee process itself, in KB.
    pub max_rss_kb: i64,
    pub wall: Duration,
}

/// The peak memory of a running child so far, in KB (0 once it has exited): `VmHWM`, its
/// own high-water mark (wait4's ru_maxrss would also count the test process as it was at the
/// spawn: Linux keeps the larger of the old and new image's peaks across exec, and the one test
/// binary holds every test's data).
#[cfg(unix)]
fn peak_kb_of(child: &std::process::Child) -> i64 {
    std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The peak working set of a child so far, in KB (Windows' counterpart of the high-water
/// mark; Wine keeps no counters for a process that has exited and reads 0 then).
#[cfg(windows)]
fn peak_kb_of(child: &std::process::Child) -> i64 {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::System::ProcessStatus::{
        K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS,
    };
    // SAFETY: a valid process handle (until `child` is dropped) and a counters struct of the
    // size given.
    unsafe {
        let mut c: PROCESS_MEMORY_COUNTERS = std::mem::zeroed();
        let size = std::mem::size_of::<PROCESS_MEMORY_COUNTERS>() as u32;
        c.cb = size;
        K32GetProcessMemoryInfo(child.as_raw_handle() as _, &mut c, size);
        (c.PeakWorkingSetSize / 1024) as i64
    }
}

/// Runs `cmd`, killing it after `limit`; measures its own peak memory, read while it runs (the
/// larger of every reading), not that of other tests' children or of the test process.
pub fn run_measured(cmd: &mut Command, limit: Duration) -> Measured {
    use std::io::Read;
    let started = Instant::now();
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = pipe.read_to_string(&mut s);
            s
        })
    };
    let reader = read_all(Box::new(child.stdout.take().unwrap()));
    let err_reader = read_all(Box::new(child.stderr.take().unwrap()));
    let mut peak_kb = 0;
    let mut killed = false;
    let status = loop {
        peak_kb = peak_kb.max(peak_kb_of(&child));
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if !killed && started.elapsed() > limit {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let wall = started.elapsed();
    peak_kb = peak_kb.max(peak_kb_of(&child));
    assert!(peak_kb > 0, "could not read the peak memory of the referee");
    Measured {
        code: if killed { None } else { status.code() },
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        max_rss_kb: peak_kb,
        wall,
    }
}
