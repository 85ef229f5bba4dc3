//! `-sample`: positions of the played games with the engine's score and the game's result, for
//! fitting evaluation weights (c-chess-cli's `-sample`). Records are made from a finished game
//! (its moves are replayed from the opening), so a game's samples are written in one piece
//! after it ends, before the game enters the journal: on `-resume` the sample file keeps
//! exactly the games of the journal, and a game cut off by a crash is dropped and replayed.
//!
//! File format, version 2 (`docs/tuning.md`), one position a line, either
//! - text: `PIECES SIDE PLY SCORE DEPTH RESULT GAME BEST`, e.g.
//!   `Wc5c6d6/Bf5f6f7 w 2 cp:35 7 1-0 12 c9c10d10` (the first three fields are the position
//!   string; SCORE is `cp:N`, `mate:N` or `-`, from the side to move's point of view; DEPTH a
//!   number or `-`; RESULT the game's `1-0`, `0-1` or `1/2-1/2`; GAME the game number; BEST
//!   the move the engine chose there, or `-`), after a `#` header line; or
//! - JSON Lines: `{"type":"sample","version":2,"position":...,"side":"w","ply":2,
//!   "score":{"cp":35},"depth":7,"result":"1-0","game":12,"best":"c9c10d10"}`.
//!
//! Version 1 is the same without BEST (7 text fields, no `best` key); it is still read (its
//! samples have no best move).

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use crate::referee::openings::{mix, wins_at_once};
use crate::referee::players::player::Score;
use crate::referee::records::record::GameRecord;
use crate::referee::settings::{RunConfig, SampleConfig, SampleFormat};
use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::piece::Colour;
use crate::rules::position::{Position, Variant};

pub const SAMPLE_VERSION: u32 = 2;
/// The first line of a text sample file.
pub const TEXT_HEADER: &str =
    "# punct-sample 2 text: PIECES SIDE PLY SCORE(cp:N|mate:N|-) DEPTH RESULT GAME BEST(move|-)";

/// One sampled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position string (`PIECES SIDE PLY`).
    pub position: String,
    pub side: Colour,
    pub ply: u32,
    /// What the engine to move reported for this position (its own point of view).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// The game's result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub game: u64,
    /// The move the engine chose in this position (its searched best move); None in version-1
    /// files.
    pub best: Option<Move>,
}

impl Sample {
    /// The result from the side to move's point of view: 1 win, 0.5 draw, 0 loss.
    pub fn result_for_side(&self) -> f64 {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.side == Colour::White {
            white
        } else {
            1.0 - white
        }
    }

    pub fn to_line(&self, format: SampleFormat) -> String {
        match format {
            SampleFormat::Text => {
                let score = match self.score {
                    Some(Score::Cp(v)) => format!("cp:{v}"),
                    Some(Score::Mate(v)) => format!("mate:{v}"),
                    None => "-".into(),
                };
                let depth = self.depth.map_or("-".into(), |d| d.to_string());
                let best = self.best.map_or("-".into(), |m| m.to_string());
                format!(
                    "{} {score} {depth} {} {} {best}",
                    self.position, self.result, self.game
                )
            }
            SampleFormat::Jsonl => json!({
                "type": "sample",
                "version": SAMPLE_VERSION,
                "position": self.position,
                "side": side_letter(self.side),
                "ply": self.ply,
                "score": self.score,
                "depth": self.depth,
                "result": self.result,
                "game": self.game,
                "best": self.best.map(|m| m.to_string()),
            })
            .to_string(),
        }
    }
}

fn side_letter(c: Colour) -> &'static str {
    match c {
        Colour::White => "w",
        Colour::Black => "b",
    }
}

fn valid_result(r: &str) -> bool {
    matches!(r, "1-0" | "0-1" | "1/2-1/2")
}

/// Reads one line of a sample file (either format); `Ok(None)` for blank and `#` lines.
pub fn parse_line(line: &str) -> Result<Option<Sample>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    if line.starts_with('{') {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        if v.get("type").and_then(Value::as_str) != Some("sample") {
            return Ok(None);
        }
        let str_of = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("'{k}' is missing"))
        };
        let position = str_of("position")?.to_string();
        let result = str_of("result")?.to_string();
        let score = match v.get("score") {
            None | Some(Value::Null) => None,
            Some(s) => Some(serde_json::from_value(s.clone()).map_err(|e| format!("score: {e}"))?),
        };
        let best = match v.get("best") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(read_move(m)?),
            Some(other) => return Err(format!("best '{other}' is not a move")),
        };
        return finish(
            position,
            score,
            v.get("depth").and_then(Value::as_u64).map(|d| d as u32),
            result,
            v.get("game").and_then(Value::as_u64).unwrap_or(0),
        )
        .map(|s| s.map(|s| Sample { best, ..s }));
    }
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 7 && f.len() != 8 {
        return Err(format!(
            "{} fields, expected 8 (version 2) or 7 (version 1)",
            f.len()
        ));
    }
    let best = match f.get(7) {
        None | Some(&"-") => None,
        Some(m) => Some(read_move(m)?),
    };
    let score = match f[3] {
        "-" => None,
        s => {
            let (kind, v) = s
                .split_once(':')
                .ok_or_else(|| format!("score '{s}' is not cp:N, mate:N or -"))?;
            let v: i32 = v
                .parse()
                .map_err(|_| format!("score '{s}' is not a number"))?;
            Some(match kind {
                "cp" => Score::Cp(v),
                "mate" => Score::Mate(v),
                _ => return Err(format!("score '{s}' is not cp:N, mate:N or -")),
            })
        }
    };
    let depth = match f[4] {
        "-" => None,
        d => Some(
            d.parse()
                .map_err(|_| format!("depth '{d}' is not a number"))?,
        ),
    };
    let game = f[6]
        .parse()
        .map_err(|_| format!("game '{}' is not a number", f[6]))?;
    finish(f[..3].join(" "), score, depth, f[5].to_string(), game)
        .map(|s| s.map(|s| Sample { best, ..s }))
}

fn read_move(m: &str) -> Result<Move, String> {
    parse_move(m).map_err(|e| format!("best move '{m}': {e}"))
}

fn finish(
    position: String,
    score: Option<Score>,
    depth: Option<u32>,
    result: String,
    game: u64,
) -> Result<Option<Sample>, String> {
    if !valid_result(&result) {
        return Err(format!("result '{result}' is not 1-0, 0-1 or 1/2-1/2"));
    }
    let fields: Vec<&str> = position.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(format!("position '{position}' is not PIECES SIDE PLY"));
    }
    let side = match fields[1] {
        "w" | "W" => Colour::White,
        "b" | "B" => Colour::Black,
        s => return Err(format!("side '{s}' is not w or b")),
    };
    let ply = fields[2]
        .parse()
        .map_err(|_| format!("ply '{}' is not a number", fields[2]))?;
    Ok(Some(Sample {
        position,
        side,
        ply,
        score,
        depth,
        result,
        game,
        best: None,
    }))
}

/// Whether either player has a one-move win (a connection, or a winning last drop).
pub fn has_one_move_threat(pos: &Position) -> bool {
    let mut mine = pos.clone();
    if wins_at_once(&mut mine) {
        return true;
    }
    // The opponent's threats: the same position with the other side to move.
    let text = pos.to_string();
    let mut f: Vec<&str> = text.split_whitespace().collect();
    if f.len() != 3 {
        return false;
    }
    f[1] = if f[1] == "w" { "b" } else { "w" };
    parse_position(&f.join(" "), pos.variant()).is_ok_and(|mut p| wins_at_once(&mut p))
}

/// Whether the position at `ply` of `game` is drawn for sampling (a hash, so a replayed game
/// samples the same positions).
pub fn drawn(seed: u64, game: u64, ply: u32, freq: f64) -> bool {
    if freq >= 1.0 {
        return true;
    }
    let h = mix(mix(seed ^ 0x5A4D_504C_4500_0000) ^ (game << 16) ^ u64::from(ply));
    ((h >> 11) as f64 / (1u64 << 53) as f64) < freq
}

/// The sampled positions of a finished game. Games lost by a fault (crash, time, illegal move)
/// give none: their result says nothing about the positions.
pub fn samples_of(g: &GameRecord, c: &SampleConfig, seed: u64, variant: Variant) -> Vec<Sample> {
    let mut out = Vec::new();
    if g.fault_player.is_some() || !valid_result(&g.result) {
        return out;
    }
    let Ok(mut pos) = parse_position(&g.opening, variant) else {
        return out;
    };
    for m in &g.moves {
        let ply = pos.ply();
        let played = parse_move(&m.mv).ok();
        if ply >= c.skip_plies
            && drawn(seed, g.game, ply, c.freq)
            && !(c.quiet && has_one_move_threat(&pos))
        {
            out.push(Sample {
                position: pos.to_string(),
                side: pos.side_to_move(),
                ply,
                score: m.score,
                depth: m.depth,
                result: g.result.clone(),
                game: g.game,
                best: played,
            });
        }
        match played {
            Some(mv) if pos.play(mv).is_ok() => {}
            _ => break,
        }
    }
    out
}

/// The open sample file of a run.
pub struct Sampler {
    file: File,
    config: SampleConfig,
    seed: u64,
    variant: Variant,
    /// Positions written in this session.
    pub written: u64,
    /// Positions the file held when the run started (kept on resume).
    pub kept: u64,
}

impl Sampler {
    /// Opens the sample file of `cfg` (None without `-sample`). A fresh run refuses an existing
    /// file unless `-overwrite`; a resumed run keeps only the samples of the journal's `done`
    /// games (a torn or orphaned tail from a crash goes).
    pub fn open(cfg: &RunConfig, done: &HashSet<u64>) -> Result<Option<Sampler>, String> {
        let Some(c) = &cfg.sample else {
            return Ok(None);
        };
        let path = &c.path;
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let mut kept = 0;
        if cfg.resume && exists {
            kept = keep_games(path, done)?;
        } else if exists && !cfg.overwrite {
            return Err(format!(
                "{} exists: continue that run with -resume, or start over with -overwrite",
                path.display()
            ));
        } else if exists {
            std::fs::remove_file(path).map_err(err)?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        if c.format == SampleFormat::Text && file.metadata().map_err(err)?.len() == 0 {
            writeln!(file, "{TEXT_HEADER}").map_err(err)?;
        }
        Ok(Some(Sampler {
            file,
            config: c.clone(),
            seed: cfg.srand,
            variant: cfg.variant,
            written: 0,
            kept,
        }))
    }

    /// Appends the samples of a finished game in one write, synced to disk.
    pub fn write_game(&mut self, g: &GameRecord) -> Result<usize, String> {
        let samples = samples_of(g, &self.config, self.seed, self.variant);
        let mut text = String::new();
        for s in &samples {
            text.push_str(&s.to_line(self.config.format));
            text.push('\n');
        }
        let err = |e: std::io::Error| format!("{}: {e}", self.config.path.display());
        self.file.write_all(text.as_bytes()).map_err(err)?;
        self.file.sync_data().map_err(err)?;
        self.written += samples.len() as u64;
        Ok(samples.len())
    }
}

/// Rewrites a sample file with only the complete lines of `done` games; returns how many
/// positions remain.
fn keep_games(path: &Path, done: &HashSet<u64>) -> Result<u64, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let bytes = std::fs::read(path).map_err(err)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = String::with_capacity(text.len());
    let mut kept = 0;
    for line in text.split_inclusive('\n') {
        if !line.ends_with('\n') {
            break; // torn by a crash
        }
        match parse_line(line) {
            Ok(None) => out.push_str(line),
            Ok(Some(s)) if done.contains(&s.game) => {
                out.push_str(line);
                kept += 1;
            }
            _ => {}
        }
    }
    let tmp = path.with_extension("sample.tmp");
    // Synced through the handle that wrote it: Windows refuses to flush a read-only handle.
    File::create(&tmp)
        .and_then(|mut f| f.write_all(out.as_bytes()).and_then(|_| f.sync_all()))
        .map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)?;
    Ok(kept)
}

/// Reads a whole sample file (either format). A torn last line (no newline) is ignored; any
/// other bad line is an error naming its line number.
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') && parse_line(line).is_err() {
            break;
        }
        match parse_line(line) {
            Ok(Some(s)) => out.push(s),
            Ok(None) => {}
            Err(e) => return Err(format!("{} line {}: {e}", path.display(), n + 1)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_in_both_formats() {
        let s = Sample {
            position: "Wc5c6d6/Bf5f6f7 w 2".into(),
            side: Colour::White,
            ply: 2,
            score: Some(Score::Cp(-35)),
            depth: Some(7),
            result: "0-1".into(),
            game: 12,
            best: Some(parse_move("c9c10d10").unwrap()),
        };
        for f in [SampleFormat::Text, SampleFormat::Jsonl] {
            assert_eq!(parse_line(&s.to_line(f)).unwrap(), Some(s.clone()));
        }
        let none = Sample {
            score: None,
            depth: None,
            best: None,
            ..s.clone()
        };
        assert_eq!(
            parse_line(&none.to_line(SampleFormat::Text)).unwrap(),
            Some(none)
        );
        assert_eq!(s.result_for_side(), 0.0);
        assert!(parse_line("Wc5c6d6 b 1 cp:x 3 1-0 1").is_err());
        assert!(parse_line("Wc5c6d6 b 1 cp:3 3 2-0 1").is_err());
        assert_eq!(parse_line(TEXT_HEADER).unwrap(), None);
        // Version 1: no best move.
        let v1 = parse_line("Wc5c6d6/Bf5f6f7 w 2 cp:-35 7 0-1 12").unwrap();
        assert_eq!(v1, Some(Sample { best: None, ..s }));
        let v1 = r#"{"type":"sample","version":1,"position":"Wc5c6d6/Bf5f6f7 w 2","side":"w","ply":2,"score":{"cp":-35},"depth":7,"result":"0-1","game":12}"#;
        assert_eq!(parse_line(v1).unwrap().unwrap().best, None);
        assert!(parse_line("Wc5c6d6 b 1 cp:3 3 1-0 1 zz").is_err());
    }

    #[test]
    fn sampling_frequency_is_about_right_and_reproducible() {
        let n = (0..10_000).filter(|&p| drawn(7, 3, p, 0.1)).count();
        assert!((800..1200).contains(&n), "{n}");
        assert_eq!(drawn(7, 3, 5, 0.5), drawn(7, 3, 5, 0.5));
    }

    #[test]
    fn one_move_threats_of_either_side() {
        let quiet = parse_position("Wc5c6c7/Bf5f6f7 w 2", Variant::Standard).unwrap();
        assert!(!has_one_move_threat(&quiet));
        // The position before the winning move of a random game: a threat for the side to
        // move, and with the other side to move a threat of the opponent.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut found = 0;
        for _ in 0..40 {
            let mut pos = Position::new(Variant::Standard);
            let mut before = pos.clone();
            while !pos.is_finished() {
                let moves = pos.legal_moves();
                before = pos.clone();
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
            if pos
                .outcome()
                .is_some_and(|o| o.winner == Some(before.side_to_move()))
            {
                assert!(has_one_move_threat(&before));
                let text = before
                    .to_string()
                    .replace(" w ", " x ")
                    .replace(" b ", " w ");
                let swapped = parse_position(&text.replace(" x ", " b "), Variant::Standard);
                assert!(has_one_move_threat(&swapped.unwrap()));
                found += 1;
            }
        }
        assert!(found > 5, "{found}");
    }
}
