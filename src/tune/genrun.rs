//! The in-process generator of `punct-tune gen`: games of [`selfplay`] on `threads` threads
//! (one game per thread at a time), written in game order, so the files are the same whatever
//! the number of threads; a journal beside the data for `-resume`; `-shard I/N`; progress.
//!
//! The journal `OUT.gen.jsonl` starts with the run's settings (`"type":"gen_settings"`), then
//! has one line per finished game (`"type":"game"`: opening, moves, result, how it ended, its
//! samples and the data file's length after them, `end`). A game's samples are written first,
//! then its journal line; `-resume` keeps the games whose data is whole, cuts the data file
//! after the last of them and plays the rest, so a crash loses nor doubles any position.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::engine::search::params::specs;
use crate::engine::search::Searcher;
use crate::referee::settings::Shard;
use crate::referee::signals;
use crate::tune::data::{encode, header, Format};
use crate::tune::selfplay::{play_game, GameOut, GenSettings};

/// A generation run.
pub struct GenRun {
    pub settings: GenSettings,
    pub out: PathBuf,
    pub format: Format,
    /// Games of the whole run (all shards), numbered from 1.
    pub games: u64,
    pub shard: Option<Shard>,
    pub threads: usize,
    pub resume: bool,
    pub overwrite: bool,
    /// Seconds between progress lines (0: none).
    pub progress_s: f64,
}

/// What a run did in this session.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenReport {
    pub games: u64,
    pub positions: u64,
    pub nodes: u64,
    pub seconds: f64,
    /// Games and positions the files held before (kept on resume).
    pub kept_games: u64,
    pub kept_positions: u64,
    /// The data file's size at the end.
    pub bytes: u64,
    pub interrupted: bool,
}

/// The games of `shard` among `1..=games` (game `g` is shard `(g - 1) % N`'s).
pub fn shard_games(games: u64, shard: Option<Shard>) -> impl Iterator<Item = u64> {
    (1..=games)
        .filter(move |g| shard.is_none_or(|s| (g - 1) % u64::from(s.count) == u64::from(s.index)))
}

/// The journal of `out`.
pub fn journal_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".gen.jsonl");
    PathBuf::from(name)
}

fn settings_json(r: &GenRun) -> Value {
    let s = &r.settings;
    let params: serde_json::Map<String, Value> = specs()
        .iter()
        .map(|p| (p.name.to_string(), json!(s.params.get(p.name))))
        .collect();
    json!({
        "type": "gen_settings",
        "variant": s.variant.name(),
        "nodes": s.nodes,
        "playnodes": s.play_nodes,
        "plies": s.plies,
        "freq": s.freq.to_string(),
        "skipplies": s.skip_plies,
        "quiet": s.quiet,
        "srand": s.srand,
        "maxmoves": s.max_moves,
        "repetition": s.repetition,
        "hash": s.hash_mb,
        "params": params,
        "format": r.format.name(),
        "shard": r.shard.map(|s| format!("{}/{}", s.index, s.count)),
    })
}

fn game_json(g: &GameOut, end: u64) -> Value {
    json!({
        "type": "game",
        "game": g.game,
        "opening": g.opening,
        "moves": g.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": g.result,
        "reason": g.reason,
        "samples": g.samples.len(),
        "nodes": g.nodes,
        "end": end,
    })
}

/// The games a journal holds whose data is whole, with the data length after the last one.
struct Kept {
    lines: Vec<String>,
    games: std::collections::HashSet<u64>,
    positions: u64,
    end: u64,
}

/// Reads the journal for `-resume`: the settings must be those of this run; game lines are
/// kept in order while the data file holds their samples whole.
fn read_journal(r: &GenRun, journal: &Path, data_len: u64, head: u64) -> Result<Kept, String> {
    let text =
        std::fs::read_to_string(journal).map_err(|e| format!("{}: {e}", journal.display()))?;
    let mut kept = Kept {
        lines: Vec::new(),
        games: Default::default(),
        positions: 0,
        end: head,
    };
    let want = settings_json(r);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            break; // torn by a crash
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", journal.display(), n + 1))?;
        if n == 0 {
            if v != want {
                return Err(format!(
                    "{}: made with other settings; resume with the same flags, or -overwrite\n  \
                     journal: {v}\n  now:     {want}",
                    journal.display()
                ));
            }
        } else {
            let end = v["end"].as_u64().unwrap_or(u64::MAX);
            let game = v["game"].as_u64().unwrap_or(0);
            if v["type"] != "game" || end > data_len || end < kept.end {
                break;
            }
            kept.end = end;
            kept.games.insert(game);
            kept.positions += v["samples"].as_u64().unwrap_or(0);
        }
        kept.lines.push(line.to_string());
    }
    if kept.lines.is_empty() {
        return Err(format!("{}: no settings line", journal.display()));
    }
    Ok(kept)
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// Opens (or continues) the data file and the journal; returns them with what they kept.
fn open_files(r: &GenRun) -> Result<(File, File, Kept), String> {
    let journal = journal_path(&r.out);
    let head = header(r.format, r.settings.variant);
    let exists = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.len() > 0);
    if let Some(dir) = r.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut kept = None;
    if r.resume && exists(&journal) && exists(&r.out) {
        let len = std::fs::metadata(&r.out).map_err(io_err(&r.out))?.len();
        kept = Some(read_journal(r, &journal, len, head.len() as u64)?);
    } else if !r.resume && !r.overwrite && (exists(&journal) || exists(&r.out)) {
        return Err(format!(
            "{} exists: continue that run with -resume, or start over with -overwrite",
            r.out.display()
        ));
    }
    let kept = match kept {
        Some(k) => {
            let data = OpenOptions::new()
                .write(true)
                .open(&r.out)
                .map_err(io_err(&r.out))?;
            data.set_len(k.end).map_err(io_err(&r.out))?;
            let tmp = journal.with_extension("tmp");
            std::fs::write(&tmp, k.lines.concat()).map_err(io_err(&tmp))?;
            std::fs::rename(&tmp, &journal).map_err(io_err(&journal))?;
            k
        }
        None => {
            std::fs::write(&r.out, &head).map_err(io_err(&r.out))?;
            let first = format!("{}\n", settings_json(r));
            std::fs::write(&journal, &first).map_err(io_err(&journal))?;
            Kept {
                lines: vec![first],
                games: Default::default(),
                positions: 0,
                end: head.len() as u64,
            }
        }
    };
    let append = |p: &Path| OpenOptions::new().append(true).open(p).map_err(io_err(p));
    Ok((append(&r.out)?, append(&journal)?, kept))
}

fn eta(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Runs the games still to play; stops early (keeping what is whole) on Ctrl-C.
pub fn run(r: &GenRun) -> Result<GenReport, String> {
    let (mut data, mut journal, kept) = open_files(r)?;
    let todo: Vec<u64> = shard_games(r.games, r.shard)
        .filter(|g| !kept.games.contains(g))
        .collect();
    let total_games = shard_games(r.games, r.shard).count() as u64;
    let mut rep = GenReport {
        kept_games: kept.games.len() as u64,
        kept_positions: kept.positions,
        bytes: kept.end,
        ..GenReport::default()
    };
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let threads = r.threads.clamp(1, todo.len().max(1));
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Result<Option<GameOut>, String>)>();
    let journal_file = journal_path(&r.out);
    let stop = || abort.load(Ordering::Relaxed) || signals::interrupted();
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (todo, next, stop) = (&todo, &next, &stop);
            scope.spawn(move || {
                let mut searcher = Searcher::new(r.settings.hash_mb);
                *searcher.params_mut() = r.settings.params.clone();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= todo.len() || stop() {
                        break;
                    }
                    let out = play_game(&mut searcher, &r.settings, todo[i], stop);
                    let failed = !matches!(out, Ok(Some(_)));
                    if tx.send((i, out)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, GameOut> = BTreeMap::new();
        let mut written = 0usize;
        let mut last_sync = Instant::now();
        let mut last_line = Instant::now();
        let mut error = None;
        let mut buf = Vec::new();
        for (i, out) in rx.iter() {
            match out {
                Ok(Some(g)) => {
                    pending.insert(i, g);
                }
                Ok(None) => continue,
                Err(e) => {
                    abort.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                    continue;
                }
            }
            while let Some(g) = pending.remove(&written) {
                buf.clear();
                for s in &g.samples {
                    if let Err(e) = encode(r.format, s, &mut buf) {
                        abort.store(true, Ordering::Relaxed);
                        error.get_or_insert(format!("game {}: {e}", g.game));
                    }
                }
                if error.is_some() {
                    break;
                }
                let wrote = data
                    .write_all(&buf)
                    .and_then(|()| data.flush())
                    .map_err(io_err(&r.out))
                    .and_then(|()| {
                        rep.bytes += buf.len() as u64;
                        let line = format!("{}\n", game_json(&g, rep.bytes));
                        journal
                            .write_all(line.as_bytes())
                            .map_err(io_err(&journal_file))
                    });
                if let Err(e) = wrote {
                    abort.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                    break;
                }
                written += 1;
                rep.games += 1;
                rep.positions += g.samples.len() as u64;
                rep.nodes += g.nodes;
                // The data reaches the disk before the journal that vouches for it.
                if last_sync.elapsed() >= Duration::from_secs(5) {
                    let _ = data.sync_data();
                    let _ = journal.sync_data();
                    last_sync = Instant::now();
                }
            }
            if r.progress_s > 0.0 && last_line.elapsed().as_secs_f64() >= r.progress_s {
                last_line = Instant::now();
                let t = start.elapsed().as_secs_f64();
                let done = rep.kept_games + rep.games;
                let left = todo.len() as f64 - rep.games as f64;
                println!(
                    "gen: {done}/{total_games} games, {} positions ({:.1}/s, {:.2} games/s, \
                     {:.0} nodes/s), ETA {}",
                    rep.kept_positions + rep.positions,
                    rep.positions as f64 / t,
                    rep.games as f64 / t,
                    rep.nodes as f64 / t,
                    eta(left * t / (rep.games.max(1) as f64)),
                );
            }
        }
        match error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    });
    let _ = data.sync_data();
    let _ = journal.sync_data();
    rep.seconds = start.elapsed().as_secs_f64();
    rep.interrupted = (rep.games as usize) < todo.len();
    outcome.map(|()| rep)
}
