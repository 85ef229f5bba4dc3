//! `-resume`: continue a run from its JSONL journal. Games are appended and synced one by one,
//! so after Ctrl-C, a crash or a power cut the journal holds every finished game (a torn last
//! line is cut off). The schedule is deterministic (openings and built-in players are seeded by
//! `-srand` and the game number), so the games still missing are exactly those to play, and the
//! statistics come out as in an uninterrupted run. The PGN file is rewritten from the journal,
//! so a game written to one file but not the other is neither lost nor doubled.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde_json::Value;

use crate::referee::records::jsonl::{games_of, read_objects};
use crate::referee::records::pgn::format_game;
use crate::referee::records::record::GameRecord;
use crate::referee::settings::{OpeningSource, RunConfig};

/// A short hash of everything that decides which games are played and how, so a resume with a
/// different configuration is refused. Concurrency and the output switches may change. An
/// openings file counts by its content, not only its name: a book edited between the runs
/// would mix two books in one run.
pub fn fingerprint(cfg: &RunConfig) -> String {
    let mut c = cfg.clone();
    c.concurrency = 1;
    c.resume = false;
    c.overwrite = false;
    c.ratinginterval = 0;
    c.strict = false;
    let mut bytes = format!("{c:?}").into_bytes();
    if let OpeningSource::File { path, .. } = &cfg.openings {
        match std::fs::read(path) {
            Ok(book) => bytes.extend(fnv1a(&book).to_le_bytes()),
            Err(e) => bytes.extend(format!("unreadable: {e}").bytes()),
        }
    }
    format!("{:016x}", fnv1a(&bytes))
}

/// FNV-1a: stable across builds, unlike std's hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Reads the journal, cuts a torn last line, checks the fingerprint, and returns the finished
/// games (one per game number, in journal order). Damage anywhere else is an error.
pub fn load_journal(path: &Path, fingerprint: &str) -> Result<Vec<GameRecord>, String> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let (objects, good) = read_objects(&text).map_err(|e| {
        format!(
            "{}: {e}; repair or remove that line by hand (the journal was left as it is)",
            path.display()
        )
    })?;
    if good < text.len() {
        log::warn!(
            "{}: cutting {} bytes of a torn last record",
            path.display(),
            text.len() - good
        );
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        f.set_len(good as u64)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let start = objects
        .iter()
        .map(|(_, v)| v)
        .find(|v| v.get("type").and_then(Value::as_str) == Some("start"));
    if let Some(fp) = start
        .and_then(|s| s.get("fingerprint"))
        .and_then(Value::as_str)
    {
        if fp != fingerprint {
            return Err(format!(
                "{}: the journal was written by a run with another configuration \
                 (fingerprint {fp}, now {fingerprint}); resume with the same flags",
                path.display()
            ));
        }
    }
    let mut seen = BTreeMap::new();
    let mut games = Vec::new();
    for g in games_of(&objects).map_err(|e| format!("{}: {e}", path.display()))? {
        if seen.insert(g.game, ()).is_none() {
            games.push(g);
        }
    }
    Ok(games)
}

/// Rewrites the PGN file from the journal's games (atomically, through a temporary file).
pub fn rewrite_pgn(path: &Path, games: &[GameRecord], event: &str) -> Result<(), String> {
    let tmp = path.with_extension("pgn.tmp");
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    {
        let mut f = std::fs::File::create(&tmp).map_err(err)?;
        for g in games {
            f.write_all(format_game(g, event).as_bytes()).map_err(err)?;
        }
        f.sync_all().map_err(err)?;
    }
    std::fs::rename(&tmp, path).map_err(err)
}
