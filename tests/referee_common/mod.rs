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
