//! The JSON Lines event log (`-jsonl FILE`), one object per line, each with `"type"` and
//! `"version"`:
//! - `start`: written when a run starts or resumes (`resumed`), with the configuration
//!   fingerprint that `-resume` checks and the number of games scheduled;
//! - `game`: one per finished game, the fields of [`GameRecord`] (players, colours, opening,
//!   moves with per-move `ms`/`score`/`depth`/`nodes`/`overhead_us`/`clock_ms`, `result`,
//!   `reason`, `reason_text`, `termination`);
//! - `summary`: at the end (also after an interruption, with `"interrupted": true`).
//!
//! The file is append-only and flushed (and synced to disk) after every line: it is also the
//! journal that `-resume` continues from. A run holds an advisory lock (`File::try_lock`: `flock`
//! on Unix) on it from start to end, so a second run on the same journal is refused instead of
//! interleaving records.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::Path;

use serde::Serialize;
use serde_json::{json, Value};

use crate::referee::records::record::GameRecord;

pub const FORMAT_VERSION: u32 = 1;

pub struct JsonlWriter {
    file: File,
}

/// Why the journal could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Another process holds the lock (a run still going on the same journal).
    Locked,
    Io(std::io::Error),
}

impl JsonlWriter {
    /// Opens (creating it if needed) the log for appending and locks it for as long as the
    /// writer lives.
    pub fn append(path: &Path) -> Result<JsonlWriter, OpenError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(OpenError::Io)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(OpenError::Io)?;
        // Released when the file is closed. `flock` on Unix, `LockFileEx` on Windows; where
        // the platform has no lock, the run goes on without one.
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(OpenError::Locked),
            Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                log::warn!("{}: no file locking on this platform", path.display());
            }
            Err(TryLockError::Error(e)) => return Err(OpenError::Io(e)),
        }
        Ok(JsonlWriter { file })
    }

    /// Empties the log (a fresh run with `-overwrite`), keeping the lock.
    pub fn truncate(&mut self) -> std::io::Result<()> {
        self.file.set_len(0)
    }

    /// Writes one object as a line and syncs it to disk.
    pub fn write(&mut self, kind: &str, body: Value) -> std::io::Result<()> {
        let mut obj = serde_json::Map::new();
        obj.insert("type".into(), json!(kind));
        obj.insert("version".into(), json!(FORMAT_VERSION));
        if let Value::Object(m) = body {
            obj.extend(m);
        }
        let mut line = serde_json::to_string(&Value::Object(obj)).map_err(std::io::Error::other)?;
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()
    }

    pub fn write_game(&mut self, g: &GameRecord) -> std::io::Result<()> {
        self.write("game", to_value(g)?)
    }
}

pub fn to_value<T: Serialize>(v: &T) -> std::io::Result<Value> {
    serde_json::to_value(v).map_err(std::io::Error::other)
}

/// The objects of a log with their 1-based line numbers, and the byte length of the intact
/// part. Only the last line may be torn (no newline, or not JSON, as a crash mid-write leaves
/// it): the length excludes it so the caller can cut it off. A damaged line with anything after
/// it is an error naming the line: dropping it, or what follows, would lose finished games.
pub fn read_objects(text: &str) -> Result<(Vec<(usize, Value)>, usize), String> {
    let mut out = Vec::new();
    let mut good = 0;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        let t = line.trim();
        if t.is_empty() {
            if line.ends_with('\n') {
                good = offset;
            }
            continue;
        }
        let parsed = serde_json::from_str::<Value>(t).ok();
        match parsed {
            Some(v) if line.ends_with('\n') => {
                out.push((n + 1, v));
                good = offset;
            }
            _ if text[offset..].trim().is_empty() => break,
            _ => {
                let shown: String = t.chars().take(60).flat_map(char::escape_default).collect();
                return Err(format!(
                    "line {} is damaged (not a JSON record, and more records follow): {shown}",
                    n + 1
                ));
            }
        }
    }
    Ok((out, good))
}

/// The games of a list of numbered log objects; a `game` object that is not a valid game
/// record is an error naming its line.
pub fn games_of(objects: &[(usize, Value)]) -> Result<Vec<GameRecord>, String> {
    objects
        .iter()
        .filter(|(_, v)| v.get("type").and_then(Value::as_str) == Some("game"))
        .map(|(n, v)| {
            serde_json::from_value(v.clone())
                .map_err(|e| format!("line {n} is not a valid game record: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_line_is_cut() {
        let text = "{\"type\":\"start\"}\n{\"type\":\"game\",\"ga";
        let (objs, good) = read_objects(text).unwrap();
        assert_eq!(objs.len(), 1);
        assert_eq!(good, "{\"type\":\"start\"}\n".len());
        let (objs, good) = read_objects("{\"a\":1}\n\n{\"b\":2}\n").unwrap();
        assert_eq!((objs.len(), good), (2, 17));
        assert_eq!(objs[1].0, 3);
        // A damaged last line with its newline (and blank lines after) is torn too.
        let (objs, good) = read_objects("{\"a\":1}\n{\"b\n\n").unwrap();
        assert_eq!((objs.len(), good), (1, 8));
        // A complete JSON object without its newline is not trusted either.
        let (objs, good) = read_objects("{\"a\":1}\n{\"b\":2}").unwrap();
        assert_eq!((objs.len(), good), (1, 8));
    }

    #[test]
    fn damage_before_the_last_line_is_an_error_naming_the_line() {
        let text = "{\"a\":1}\n{\"a\":2}\ngarbage \u{7}\n{\"a\":3}\n";
        let e = read_objects(text).unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        assert!(e.contains("garbage \\u{7}"), "{e}");
        let e = games_of(&[(4, json!({"type": "game", "game": "x"}))]).unwrap_err();
        assert!(e.contains("line 4"), "{e}");
    }
}
