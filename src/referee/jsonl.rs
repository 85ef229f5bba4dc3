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
//! journal that `-resume` continues from.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::Serialize;
use serde_json::{json, Value};

use crate::referee::game::GameRecord;

pub const FORMAT_VERSION: u32 = 1;

pub struct JsonlWriter {
    file: File,
}

impl JsonlWriter {
    pub fn append(path: &Path) -> std::io::Result<JsonlWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(JsonlWriter { file })
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

/// The objects of a log. A torn last line (no newline, or not JSON) is reported by the returned
/// byte length of the intact part, so the caller can cut it off.
pub fn read_objects(text: &str) -> (Vec<Value>, usize) {
    let mut out = Vec::new();
    let mut good = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        if !line.ends_with('\n') {
            break;
        }
        let t = line.trim();
        if t.is_empty() {
            good = offset;
            continue;
        }
        match serde_json::from_str::<Value>(t) {
            Ok(v) => {
                out.push(v);
                good = offset;
            }
            Err(_) => break,
        }
    }
    (out, good)
}

/// The games of a list of log objects.
pub fn games_of(objects: &[Value]) -> Vec<GameRecord> {
    objects
        .iter()
        .filter(|v| v.get("type").and_then(Value::as_str) == Some("game"))
        .filter_map(|v| serde_json::from_value(v.clone()).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_line_is_cut() {
        let text = "{\"type\":\"start\"}\n{\"type\":\"game\",\"ga";
        let (objs, good) = read_objects(text);
        assert_eq!(objs.len(), 1);
        assert_eq!(good, "{\"type\":\"start\"}\n".len());
        let (objs, good) = read_objects("{\"a\":1}\n\n{\"b\":2}\n");
        assert_eq!((objs.len(), good), (2, 17));
    }
}
