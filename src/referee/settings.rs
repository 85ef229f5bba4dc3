//! The settings of a run, as plain data: engines ([`EngineConfig`]), the run ([`RunConfig`]),
//! and the parts they are made of. Everything in the referee reads these; they read nothing of
//! the referee but the time-control syntax and the SPRT they stand for. The command line and
//! TOML files are turned into them by [`cli`](crate::referee::cli).

use std::path::PathBuf;
use std::time::Duration;

use crate::referee::stats::sprt::{Sprt, SprtModel};
use crate::referee::timecontrol::TimeControl;
use crate::rules::position::Variant;

/// Grace on top of the clock before a move counts as late, unless `timemargin=` says otherwise.
pub const DEFAULT_TIMEMARGIN: Duration = Duration::from_millis(50);

/// The handshake an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Ugi,
}

impl Proto {
    pub fn name(self) -> &'static str {
        match self {
            Proto::Uci => "uci",
            Proto::Ugi => "ugi",
        }
    }
}

/// One player.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: String,
    /// A program, or a built-in player (`builtin:random`, `builtin:safe`, `builtin:greedy`).
    pub cmd: String,
    pub dir: Option<PathBuf>,
    pub args: Vec<String>,
    /// `setoption` pairs in the order given.
    pub options: Vec<(String, String)>,
    /// A time control in cutechess syntax, already checked to parse.
    pub tc: Option<String>,
    /// Fixed time per move.
    pub st: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// Grace on top of the clock before a move counts as late.
    pub timemargin: Duration,
    pub proto: Proto,
}

impl EngineConfig {
    pub fn is_builtin(&self) -> bool {
        self.cmd.starts_with("builtin:")
    }

    /// The strength level its options set (Stockfish's option names, which this project's
    /// engine shares): `UCI_Elo N` when `UCI_LimitStrength` is true, else `Skill Level N`
    /// below 20; `None` at full strength.
    pub fn level_text(&self) -> Option<String> {
        let option = |name: &str| {
            (self.options.iter().rev())
                .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim())
        };
        let limited = option("UCI_LimitStrength").is_some_and(|v| v.eq_ignore_ascii_case("true"));
        match (limited, option("UCI_Elo"), option("Skill Level")) {
            (true, Some(elo), _) => Some(format!("UCI_Elo {elo}")),
            (_, _, Some(skill)) if skill.parse::<i64>().is_ok_and(|s| s < 20) => {
                Some(format!("Skill Level {skill}"))
            }
            _ => None,
        }
    }

    /// The time control (None when the engine plays without a clock).
    pub fn time_control(&self) -> Option<TimeControl> {
        self.tc.as_deref().and_then(|t| t.parse().ok())
    }

    /// The limit as the PGN `TimeControl` tag shows it.
    pub fn limit_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = &self.tc {
            parts.push(tc.clone());
        }
        if let Some(st) = self.st {
            parts.push(format!("st={}", st.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" ")
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    Match,
    Gauntlet,
    RoundRobin,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    Random,
    Sequential,
}

/// Where the start positions of the game pairs come from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    /// Every game from the empty board.
    StartPosition,
    /// `plies` random legal plies from the start, seeded by `-srand` and the pair number.
    RandomPlies { plies: u32 },
    /// Position strings, one per line (`#` comments and blank lines skipped).
    File {
        path: PathBuf,
        order: OpeningOrder,
        /// 1-based index of the first opening used.
        start: usize,
    },
}

/// `-draw`: both engines' scores within `score` for `movecount` moves each, from `movenumber` on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `-resign`: an engine whose own score is at or below `-score` for `movecount` moves loses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    pub score: i32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtModelName {
    Normalized,
    Logistic,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModelName,
}

impl SprtConfig {
    pub fn to_sprt(self) -> Sprt {
        Sprt {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: match self.model {
                SprtModelName::Normalized => SprtModel::Normalized,
                SprtModelName::Logistic => SprtModel::Logistic,
            },
        }
    }
}

/// Everything a tournament run needs.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub engines: Vec<EngineConfig>,
    pub tournament: TournamentKind,
    /// Games per encounter per round (rounded up to whole pairs).
    pub games: u32,
    pub rounds: u32,
    pub concurrency: usize,
    pub variant: Variant,
    pub openings: OpeningSource,
    pub srand: u64,
    /// Full moves after which the game is a draw.
    pub maxmoves: Option<u32>,
    pub repetition: bool,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    pub sprt: Option<SprtConfig>,
    pub pgnout: Option<PathBuf>,
    /// Folder for a picture of each game's final position (`game-NNNN.svg`).
    pub svgout: Option<PathBuf>,
    pub jsonl: Option<PathBuf>,
    pub ratinginterval: u32,
    pub resume: bool,
    /// Start afresh even when records of an earlier run exist (they are replaced).
    pub overwrite: bool,
    pub strict: bool,
    pub event: String,
    /// Seconds an engine has to answer `uci`/`ugi`.
    pub startup_timeout: Duration,
    /// Seconds an engine has to answer `isready`.
    pub ready_timeout: Duration,
    /// Deadline for a move when the engine has no clock (depth, nodes only).
    pub watchdog: Duration,
    /// `-sample`: positions with scores and results for tuning.
    pub sample: Option<SampleConfig>,
    /// `-shard I/N`: play only this part of the games.
    pub shard: Option<Shard>,
}

impl RunConfig {
    /// Every file the run writes, with its flag (no two may be the same file).
    pub fn output_paths(&self) -> Vec<(&'static str, &std::path::Path)> {
        let mut out = Vec::new();
        if let Some(p) = &self.pgnout {
            out.push(("-pgnout", p.as_path()));
        }
        if let Some(p) = &self.jsonl {
            out.push(("-jsonl", p.as_path()));
        }
        if let Some(s) = &self.sample {
            out.push(("-sample", s.path.as_path()));
        }
        if let Some(p) = &self.svgout {
            out.push(("-svgout", p.as_path()));
        }
        out
    }
}

/// The format of a `-sample` file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SampleFormat {
    Text,
    Jsonl,
}

/// What `-sample` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleConfig {
    pub path: PathBuf,
    /// Probability that a position is written (0 < freq <= 1), decided by a seeded hash.
    pub freq: f64,
    pub format: SampleFormat,
    /// Positions before this ply (counted from the empty board) are skipped.
    pub skip_plies: u32,
    /// Skip positions where either player could connect (or win the centre count) in one move.
    pub quiet: bool,
}

/// `-shard I/N`: the part of the schedule a run plays (see [`select`](crate::referee::records::shard::select)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Reads `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("-shard: '{text}' is not I/N with 0 <= I < N (0-based index)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game pair `pair` (1-based) belongs to this shard.
    pub fn owns_pair(&self, pair: u64) -> bool {
        (pair.saturating_sub(1)) % u64::from(self.count) == u64::from(self.index)
    }

    pub fn label(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// `-suite FILE`: test positions for one engine (see [`suite`](crate::referee::suite)).
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteConfig {
    /// The suite files, in order.
    pub files: Vec<PathBuf>,
    pub engine: EngineConfig,
    /// Positions searched at the same time (one engine process each).
    pub concurrency: usize,
    /// The default variant of the positions (`variant basic;` on a line overrides it).
    pub variant: Variant,
    /// `-junit FILE`: a JUnit XML report.
    pub junit: Option<PathBuf>,
    /// `-suite-min N`: the run passes when at least N positions are solved (default: all).
    pub min_solved: Option<usize>,
    /// Seconds an engine has to answer `uci`/`ugi`.
    pub startup_timeout: Duration,
    /// Seconds an engine has to answer `isready`.
    pub ready_timeout: Duration,
    /// Deadline for a move when the engine has no clock (depth, nodes only).
    pub watchdog: Duration,
}
