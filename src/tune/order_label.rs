//! `punct-tune order-label`: positions labelled with the engine's best move at a fixed node
//! count, searched in this process on one thread (fresh tables per position), for fitting and
//! testing move-ordering models (`order_fit`).
//!
//! Label file, one position a line: `PIECES SIDE PLY<TAB>BESTMOVE[<TAB>RECENT]`, RECENT being
//! the moves that led to the position, last first, space-separated (at most two; absent or `-`
//! when unknown). Lines starting with `#` are comments. The run appends and is resumable:
//! positions already in the output are skipped.

use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::time::Instant;

use serde_json::Value;

use crate::engine::search::params::Params;
use crate::engine::search::threats::find_win;
use crate::engine::search::Searcher;
use crate::engine::types::{Limits, SearchControl};
use crate::referee::openings::mix;
use crate::referee::records::jsonl::{games_of, read_objects};
use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::position::{Position, Variant};
use crate::tune::args::Args;

pub const HELP: &str = "\
punct-tune order-label (-in FILE... | -games JOURNAL...) -nodes N -out FILE [flags]
  Labels positions with the engine's best move at N nodes (one thread, fresh tables each).
  -in FILE          position lines (the first three fields: PIECES SIDE PLY; sample files,
                    tournaments/midgame.txt, label files)
  -games JOURNAL    a referee journal (e.g. punct-tune gen -engine's FILE.games.jsonl) or the
                    in-process gen's journal (FILE.gen.jsonl): its games are replayed and
                    positions sampled, with the moves that led to them
  -freq P (0.25)    share of a journal's positions kept   -skipplies N (4)
  -maxgames N       only the first N games of each journal (a growing journal: the same
                    positions again later)
  -limit N          at most N positions   -hash MB (16)   -set NAME=V (engine options)
  Positions with a win in one for the side to move, finished ones and repeats are skipped.
  Output lines: POSITION<TAB>BESTMOVE<TAB>RECENT (last move first); resumable (appends).
";

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub position: Position,
    pub best: Move,
    /// The moves that led to the position, last first (empty when unknown).
    pub recent: Vec<Move>,
}

/// A position to label, with its recent moves (last first).
struct Item {
    text: String,
    recent: Vec<Move>,
}

/// Parses one label line (None for comments and blank lines). `PIECES SIDE PLY` may also be
/// followed by other space-separated fields (as in sample files) before the tab.
pub fn parse_label_line(line: &str, variant: Variant) -> Result<Option<Labelled>, String> {
    let line = line.trim_end();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split('\t');
    let text = fields.next().unwrap_or_default();
    let best = fields
        .next()
        .ok_or_else(|| format!("no best move: {line}"))?;
    let recent = fields.next().unwrap_or("-");
    let (position, recent) = position_with_recent(text, recent, variant)?;
    let best = parse_move(best.trim()).map_err(|e| format!("{line}: {e}"))?;
    position
        .check_move(best)
        .map_err(|e| format!("{line}: best move {best}: {e:?}"))?;
    Ok(Some(Labelled {
        position,
        best,
        recent,
    }))
}

/// The position `text` and the recent moves `recent` (last first, `-` for none).
fn position_with_recent(
    text: &str,
    recent: &str,
    variant: Variant,
) -> Result<(Position, Vec<Move>), String> {
    let fields: Vec<&str> = text.split_whitespace().take(3).collect();
    let pos = parse_position(&fields.join(" "), variant).map_err(|e| e.to_string())?;
    let recent = recent.trim();
    if recent == "-" || recent.is_empty() {
        return Ok((pos, Vec::new()));
    }
    let moves: Vec<Move> = recent
        .split_whitespace()
        .map(|m| parse_move(m).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    Ok((pos, moves))
}

/// Reads a label file.
pub fn read_labels(path: &str, variant: Variant) -> Result<Vec<Labelled>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match parse_label_line(line, variant) {
            Ok(Some(l)) => out.push(l),
            Ok(None) => {}
            Err(e) => return Err(format!("{path}:{}: {e}", n + 1)),
        }
    }
    Ok(out)
}

fn items_from_positions(path: &str, variant: Variant) -> Result<Vec<Item>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.split('\t').next().unwrap_or_default();
        let fields: Vec<&str> = first.split_whitespace().take(3).collect();
        let text = fields.join(" ");
        if parse_position(&text, variant).is_ok() {
            out.push(Item {
                text,
                recent: Vec::new(),
            });
        }
    }
    Ok(out)
}

/// The games of a journal: `(game number, opening, moves)`. Reads referee journals (moves as
/// records, read by the referee's own parser) and `punct-tune gen`'s own journal (moves as
/// plain strings).
fn journal_games(path: &str) -> Result<Vec<(u64, String, Vec<String>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (objects, _) = read_objects(&text)?;
    let mut out = Vec::new();
    for (n, v) in &objects {
        if v.get("type").and_then(Value::as_str) != Some("game") {
            continue;
        }
        let plain: Option<Vec<String>> = (v.get("moves").and_then(Value::as_array))
            .and_then(|a| a.iter().map(|m| m.as_str().map(str::to_string)).collect());
        let game = v.get("game").and_then(Value::as_u64);
        let opening = v.get("opening").and_then(Value::as_str);
        match (plain, game, opening) {
            (Some(moves), Some(game), Some(opening)) => {
                out.push((game, opening.to_string(), moves))
            }
            _ => {
                let g = games_of(&[(*n, v.clone())])
                    .map_err(|e| format!("{path}: {e}"))?
                    .remove(0);
                out.push((
                    g.game,
                    g.opening,
                    g.moves.into_iter().map(|m| m.mv).collect(),
                ));
            }
        }
    }
    Ok(out)
}

fn items_from_journal(
    path: &str,
    variant: Variant,
    freq: f64,
    skip: u32,
    max_games: usize,
) -> Result<Vec<Item>, String> {
    let mut out = Vec::new();
    let games = journal_games(path)?;
    eprintln!(
        "order-label: {path}: {} games, the first {} read",
        games.len(),
        games.len().min(max_games)
    );
    for (game, opening, moves) in games.into_iter().take(max_games) {
        let Ok(mut pos) = parse_position(&opening, variant) else {
            continue;
        };
        let mut recent: Vec<Move> = Vec::new();
        for m in &moves {
            let ply = pos.ply();
            let h = mix(mix(0x0dde_0123 ^ (game << 16) ^ u64::from(ply)));
            if ply >= skip && ((h >> 11) as f64 / (1u64 << 53) as f64) < freq {
                out.push(Item {
                    text: pos.to_string(),
                    recent: recent.iter().rev().take(2).copied().collect(),
                });
            }
            match parse_move(m) {
                Ok(mv) if pos.play(mv).is_ok() => recent.push(mv),
                _ => break,
            }
        }
    }
    Ok(out)
}

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let inputs: Vec<String> = a.all("-in").into_iter().flatten().collect();
    let journals: Vec<String> = a.all("-games").into_iter().flatten().collect();
    let out = a.word("-out")?.ok_or("-out FILE is needed")?;
    let nodes = a.num::<u64>("-nodes")?.ok_or("-nodes N is needed")?;
    let freq = a.num::<f64>("-freq")?.unwrap_or(0.25);
    let skip = a.num::<u32>("-skipplies")?.unwrap_or(4);
    let limit = a.num::<usize>("-limit")?.unwrap_or(usize::MAX);
    let max_games = a.num::<usize>("-maxgames")?.unwrap_or(usize::MAX);
    let hash = a.num::<usize>("-hash")?.unwrap_or(16);
    let variant = match a.word("-variant")? {
        Some(v) => Variant::from_name(&v).ok_or(format!("unknown variant '{v}'"))?,
        None => Variant::Standard,
    };
    let mut params = Params::default();
    a.set_params(&mut params)?;
    a.finish()?;
    if inputs.is_empty() && journals.is_empty() {
        return Err(format!("-in or -games is needed\n{HELP}"));
    }
    let mut items = Vec::new();
    for p in &inputs {
        items.extend(items_from_positions(p, variant)?);
    }
    for j in &journals {
        items.extend(items_from_journal(j, variant, freq, skip, max_games)?);
    }
    let mut searcher = Searcher::new(hash);
    *searcher.params_mut() = params;
    // Resume: positions already labelled are skipped.
    let mut seen: HashSet<String> = HashSet::new();
    let mut done = 0usize;
    if let Ok(text) = std::fs::read_to_string(&out) {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some(p) = line.split('\t').next().filter(|p| !p.is_empty()) {
                seen.insert(p.to_string());
                done += 1;
            }
        }
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("{out}: {e}"))?;
    let mut w = BufWriter::new(file);
    if done == 0 {
        writeln!(
            w,
            "# punct order labels: POSITION<TAB>BESTMOVE<TAB>RECENT; nodes {nodes}"
        )
        .map_err(|e| e.to_string())?;
    }
    let total = items.len().min(limit);
    eprintln!(
        "order-label: {} candidate positions, {done} already labelled, {nodes} nodes each",
        items.len()
    );
    let start = Instant::now();
    let mut labelled = 0usize;
    for item in items {
        if done + labelled >= limit || crate::referee::signals::interrupted() {
            break;
        }
        if !seen.insert(item.text.clone()) {
            continue;
        }
        let pos = parse_position(&item.text, variant).map_err(|e| e.to_string())?;
        if pos.is_finished() || find_win(&pos).is_some() || pos.legal_moves().len() < 2 {
            continue;
        }
        searcher.clear();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = searcher.search(&pos, &limits, &SearchControl::default(), &mut |_| {});
        let Some(best) = r.best else { continue };
        let recent = if item.recent.is_empty() {
            "-".to_string()
        } else {
            let v: Vec<String> = item.recent.iter().map(|m| m.to_string()).collect();
            v.join(" ")
        };
        writeln!(w, "{}\t{best}\t{recent}", item.text).map_err(|e| e.to_string())?;
        labelled += 1;
        if labelled.is_multiple_of(50) {
            w.flush().map_err(|e| e.to_string())?;
            let per = start.elapsed().as_secs_f64() / labelled as f64;
            let left = total.saturating_sub(done + labelled) as f64 * per;
            eprintln!(
                "order-label: {} / {total} ({per:.3} s per position, {:.1} positions/s, ETA {}m{:02}s)",
                done + labelled,
                1.0 / per,
                left as u64 / 60,
                left as u64 % 60
            );
        }
    }
    w.flush().map_err(|e| e.to_string())?;
    eprintln!(
        "order-label: {labelled} labelled in {:.1} s, {} in {out}",
        start.elapsed().as_secs_f64(),
        done + labelled
    );
    Ok(0)
}
