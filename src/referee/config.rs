//! The run configuration: cutechess-style flags and a TOML file, both read into one [`RunConfig`].
//!
//! A TOML file is turned into the same flag tokens as the command line, in place of
//! `-config FILE`, so both share one parser and later flags override the file. Format:
//!
//! ```toml
//! tournament = "match"            # -tournament match
//! games = 2                       # -games 2
//! rounds = 10                     # -rounds 10
//! concurrency = 2                 # -concurrency 2
//! norepetition = false            # booleans: true gives the bare flag, false nothing
//! pgnout = "tournaments/results/smoke.pgn"
//! random-openings = { plies = 4 } # tables give key=value tokens: -random-openings plies=4
//! sprt = { elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05 }
//!
//! [each]                          # -each tc=1+0.01
//! tc = "1+0.01"
//!
//! [[engine]]                      # -engine cmd=target/release/punct name=punct option.Hash=16
//! cmd = "target/release/punct"
//! name = "punct"
//! options = { Hash = 16 }         # option.<Name>=<value>
//! args = ["--flag", "two words"]  # or a string split at spaces; an array keeps each item whole
//! ```

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::referee::builtin::BUILTINS;
use crate::referee::timecontrol::TimeControl;
use crate::rules::position::Variant;

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
    /// A program, or a built-in player (`builtin:random`, `builtin:greedy`).
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
    pub fn to_sprt(self) -> crate::referee::sprt::Sprt {
        use crate::referee::sprt::{Sprt, SprtModel};
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
    pub sample: Option<crate::referee::sample::SampleConfig>,
    /// `-shard I/N`: play only this part of the games.
    pub shard: Option<crate::referee::shard::Shard>,
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

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Help,
    Run(Box<RunConfig>),
    Compliance(Box<EngineConfig>, Variant),
    /// Read PGN files back and replay every game with the rules.
    CheckPgn(Vec<PathBuf>, Variant),
    /// Combine the JSONL logs of shards into one run's statistics.
    Merge(Vec<PathBuf>, Option<SprtConfig>),
}

pub const DEFAULT_TIMEMARGIN: Duration = Duration::from_millis(50);

/// Flags that take `key=value` tokens until the next flag.
const KV_FLAGS: &[&str] = &[
    "-engine",
    "-each",
    "-openings",
    "-random-openings",
    "-draw",
    "-resign",
    "-sprt",
    "-compliance",
    "-sample",
    "-merge",
];

/// Parses the command line (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    let tokens = expand_configs(args, 0)?;
    Parser::default().parse(&tokens)
}

/// Replaces each `-config FILE` by the flags the file holds.
fn expand_configs(args: &[String], depth: u32) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "-config" {
            let path = args.get(i + 1).ok_or("-config needs a file")?;
            if depth > 4 {
                return Err("-config nested too deeply".into());
            }
            let text = std::fs::read_to_string(path).map_err(|e| format!("-config {path}: {e}"))?;
            let inner = toml_to_args(&text).map_err(|e| format!("-config {path}: {e}"))?;
            out.extend(expand_configs(&inner, depth + 1)?);
            i += 2;
        } else {
            out.push(args[i].clone());
            i += 1;
        }
    }
    Ok(out)
}

fn toml_scalar(key: &str, v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        _ => Err(format!("'{key}' must be a string, number or boolean")),
    }
}

/// `key=value` tokens of one table (engine, each, openings, draw, ...).
fn toml_table_tokens(table: &toml::Table) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (k, v) in table {
        match (k.as_str(), v) {
            ("options", toml::Value::Table(opts)) => {
                for (name, value) in opts {
                    out.push(format!("option.{name}={}", toml_scalar(name, value)?));
                }
            }
            ("args", toml::Value::Array(items)) => {
                for item in items {
                    out.push(format!("arg={}", toml_scalar("args", item)?));
                }
            }
            _ => out.push(format!("{k}={}", toml_scalar(k, v)?)),
        }
    }
    Ok(out)
}

/// Flags without a value: `true` in a file gives the bare flag, `false` nothing.
const BOOL_FLAGS: &[&str] = &[
    "-norepetition",
    "-resume",
    "-overwrite",
    "-strict",
    "-recover",
    "-repeat",
];

/// Flags that may repeat: a list in a file gives the flag once per item.
const LIST_FLAGS: &[&str] = &["-check-pgn"];

/// The flag tokens a TOML configuration stands for. A value of the wrong type (a list or a
/// boolean where one value is expected) is an error, not a guess.
pub fn toml_to_args(text: &str) -> Result<Vec<String>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let mut out = Vec::new();
    let mut engines = Vec::new();
    for (key, value) in &table {
        let flag = format!("-{}", key.replace('_', "-"));
        match value {
            toml::Value::Array(items) if key == "engine" || key == "engines" => {
                for item in items {
                    let t = item.as_table().ok_or("each [[engine]] must be a table")?;
                    engines.push("-engine".to_string());
                    engines.extend(toml_table_tokens(t)?);
                }
            }
            toml::Value::Table(t) => {
                out.push(flag);
                out.extend(toml_table_tokens(t)?);
            }
            toml::Value::Integer(n) if key == "random-openings" || key == "random_openings" => {
                out.push(flag);
                out.push(format!("plies={n}"));
            }
            toml::Value::Boolean(b) if BOOL_FLAGS.contains(&flag.as_str()) => {
                if *b {
                    out.push(flag);
                }
            }
            v if BOOL_FLAGS.contains(&flag.as_str()) => {
                return Err(format!("'{key}' must be true or false, not {v}"));
            }
            toml::Value::Boolean(b) => {
                return Err(format!("'{key}' needs a value, not {b}"));
            }
            toml::Value::Array(_) if !LIST_FLAGS.contains(&flag.as_str()) => {
                return Err(format!("'{key}' takes one value, not a list"));
            }
            toml::Value::Array(items) => {
                // A list value (e.g. check-pgn files): repeat the flag per item.
                for item in items {
                    out.push(flag.clone());
                    out.push(toml_scalar(key, item)?);
                }
            }
            v => {
                out.push(flag);
                out.push(toml_scalar(key, v)?);
            }
        }
    }
    // Engines last keeps their order; top-level order does not matter to the parser.
    out.extend(engines);
    Ok(out)
}

/// Splits `args="a 'b c'"` into words, honouring single and double quotes.
pub fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for ch in s.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                any = true;
            }
            None if ch.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(ch),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_num<T: FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

/// Longest time any flag may give, in seconds (about 11 days): far beyond any real game, and
/// far from the overflow of deadline arithmetic.
pub const MAX_SECONDS: u64 = 1_000_000;
/// The same in milliseconds, for the `-ms` flags and `timemargin`.
const MAX_MS: u64 = MAX_SECONDS * 1000;
/// Most games played at once (each is two engine processes and a thread).
pub const MAX_CONCURRENCY: usize = 256;
/// Most random opening plies, move counts and scores (centipawns) a flag may give.
const MAX_PLIES: u32 = 1000;
const MAX_MOVES: u32 = 1_000_000;
const MAX_SCORE: i32 = 1_000_000;
/// Largest |Elo| of an SPRT hypothesis.
const MAX_ELO: f64 = 2000.0;

fn parse_secs(flag: &str, v: &str) -> Result<Duration, String> {
    let s: f64 = parse_num(flag, v)?;
    if !(s.is_finite() && s >= 0.0) {
        return Err(format!("{flag}: '{v}' is not a valid number of seconds"));
    }
    if s > MAX_SECONDS as f64 {
        return Err(format!("{flag}: '{v}' is more than {MAX_SECONDS} seconds"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// A number within `lo..=hi` (NaN is not).
fn in_range<T: FromStr + PartialOrd + std::fmt::Display>(
    flag: &str,
    v: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    let n: T = parse_num(flag, v)?;
    if !(n >= lo && n <= hi) {
        return Err(format!("{flag}: '{v}' must be in {lo}..={hi}"));
    }
    Ok(n)
}

fn split_kv<'a>(flag: &str, token: &'a str) -> Result<(&'a str, &'a str), String> {
    token
        .split_once('=')
        .ok_or_else(|| format!("{flag}: expected key=value, got '{token}'"))
}

/// Applies engine `key=value` tokens on top of `e`.
fn apply_engine_tokens(e: &mut EngineConfig, tokens: &[String], flag: &str) -> Result<(), String> {
    for t in tokens {
        let (k, v) = split_kv(flag, t)?;
        if let Some(name) = k.strip_prefix("option.") {
            if name.is_empty() {
                return Err(format!("{flag}: option without a name in '{t}'"));
            }
            e.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            e.options.push((name.to_string(), v.to_string()));
            continue;
        }
        match k {
            "cmd" => e.cmd = v.to_string(),
            "name" => e.name = v.to_string(),
            "dir" => e.dir = Some(PathBuf::from(v)),
            "args" => e.args = split_words(v),
            "arg" => e.args.push(v.to_string()),
            "tc" => {
                if v == "inf" || v.is_empty() {
                    e.tc = None;
                } else {
                    let t =
                        TimeControl::from_str(v).map_err(|err| format!("{flag} tc={v}: {err}"))?;
                    let max = Duration::from_secs(MAX_SECONDS);
                    if t.base > max || t.increment > max {
                        return Err(format!(
                            "{flag} tc={v}: times must be at most {MAX_SECONDS} seconds"
                        ));
                    }
                    e.tc = Some(v.to_string());
                }
            }
            "st" => e.st = Some(parse_secs(&format!("{flag} st"), v)?),
            "nodes" => e.nodes = Some(parse_num(&format!("{flag} nodes"), v)?),
            "depth" | "plies" => e.depth = Some(parse_num(&format!("{flag} depth"), v)?),
            "timemargin" => {
                e.timemargin =
                    Duration::from_millis(in_range(&format!("{flag} timemargin"), v, 0, MAX_MS)?)
            }
            "proto" => {
                e.proto = match v {
                    "uci" => Proto::Uci,
                    "ugi" => Proto::Ugi,
                    _ => return Err(format!("{flag}: proto must be uci or ugi, not '{v}'")),
                }
            }
            // Accepted for cutechess compatibility; the referee always restarts after a fault.
            "restart" => {}
            _ => return Err(format!("{flag}: unknown key '{k}'")),
        }
    }
    Ok(())
}

fn blank_engine() -> EngineConfig {
    EngineConfig {
        name: String::new(),
        cmd: String::new(),
        dir: None,
        args: Vec::new(),
        options: Vec::new(),
        tc: None,
        st: None,
        nodes: None,
        depth: None,
        timemargin: DEFAULT_TIMEMARGIN,
        proto: Proto::Uci,
    }
}

/// Builds one engine from `-each` tokens then its own (its own win).
pub fn build_engine(each: &[String], own: &[String], flag: &str) -> Result<EngineConfig, String> {
    let mut e = blank_engine();
    apply_engine_tokens(&mut e, each, "-each")?;
    apply_engine_tokens(&mut e, own, flag)?;
    if e.cmd.is_empty() {
        return Err(format!("{flag}: cmd= is missing"));
    }
    if e.is_builtin() && !BUILTINS.iter().any(|(c, _)| *c == e.cmd) {
        return Err(format!(
            "{flag}: unknown built-in player '{}' ({})",
            e.cmd,
            BUILTINS.map(|(c, _)| c).join(", ")
        ));
    }
    if e.name.is_empty() {
        e.name = std::path::Path::new(&e.cmd)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| e.cmd.clone());
    }
    Ok(e)
}

#[derive(Default)]
struct Parser {
    engines: Vec<Vec<String>>,
    each: Vec<String>,
    tournament: Option<TournamentKind>,
    games: Option<u32>,
    rounds: Option<u32>,
    concurrency: Option<usize>,
    variant: Option<Variant>,
    openings: Option<OpeningSource>,
    srand: Option<u64>,
    maxmoves: Option<u32>,
    norepetition: bool,
    draw: Option<DrawAdjudication>,
    resign: Option<ResignAdjudication>,
    sprt: Option<SprtConfig>,
    pgnout: Option<PathBuf>,
    svgout: Option<PathBuf>,
    jsonl: Option<PathBuf>,
    ratinginterval: Option<u32>,
    resume: bool,
    overwrite: bool,
    strict: bool,
    event: Option<String>,
    compliance: Option<Vec<String>>,
    check_pgn: Vec<PathBuf>,
    help: bool,
    startup_ms: Option<u64>,
    ready_ms: Option<u64>,
    watchdog_ms: Option<u64>,
    sample: Option<crate::referee::sample::SampleConfig>,
    shard: Option<crate::referee::shard::Shard>,
    merge: Option<Vec<PathBuf>>,
}

impl Parser {
    fn parse(mut self, tokens: &[String]) -> Result<Command, String> {
        let mut i = 0;
        while i < tokens.len() {
            let flag = tokens[i].as_str();
            i += 1;
            if KV_FLAGS.contains(&flag) {
                let start = i;
                while i < tokens.len() && !is_flag(&tokens[i]) {
                    i += 1;
                }
                self.kv_flag(flag, &tokens[start..i])?;
                continue;
            }
            // Flags with no value.
            match flag {
                "-h" | "-help" | "--help" => {
                    self.help = true;
                    continue;
                }
                "-norepetition" => {
                    self.norepetition = true;
                    continue;
                }
                "-recover" => continue, // always on: crashed engines are restarted
                "-resume" => {
                    self.resume = true;
                    continue;
                }
                "-overwrite" => {
                    self.overwrite = true;
                    continue;
                }
                "-strict" => {
                    self.strict = true;
                    continue;
                }
                "-repeat" => {
                    // Pairs with swapped colours are always played; an optional count is accepted.
                    if tokens.get(i).is_some_and(|t| t.parse::<u32>().is_ok()) {
                        i += 1;
                    }
                    continue;
                }
                _ => {}
            }
            let value = tokens
                .get(i)
                .ok_or_else(|| format!("{flag} needs a value"))?
                .as_str();
            i += 1;
            match flag {
                "-games" => self.games = Some(positive(flag, value)?),
                "-rounds" => self.rounds = Some(positive(flag, value)?),
                "-concurrency" => {
                    self.concurrency = Some(in_range(flag, value, 1, MAX_CONCURRENCY)?)
                }
                "-variant" => {
                    self.variant =
                        Some(Variant::from_name(value).ok_or_else(|| {
                            format!("-variant: '{value}' is not standard or basic")
                        })?)
                }
                "-tournament" => {
                    self.tournament = Some(match value {
                        "match" => TournamentKind::Match,
                        "gauntlet" => TournamentKind::Gauntlet,
                        "round-robin" | "roundrobin" => TournamentKind::RoundRobin,
                        _ => {
                            return Err(format!(
                                "-tournament: '{value}' is not match, gauntlet or round-robin"
                            ))
                        }
                    })
                }
                "-srand" => self.srand = Some(parse_num(flag, value)?),
                "-maxmoves" => self.maxmoves = Some(in_range(flag, value, 1, MAX_MOVES)?),
                "-pgnout" => self.pgnout = Some(PathBuf::from(value)),
                "-svgout" => self.svgout = Some(PathBuf::from(value)),
                "-jsonl" => self.jsonl = Some(PathBuf::from(value)),
                "-ratinginterval" => self.ratinginterval = Some(parse_num(flag, value)?),
                "-event" => self.event = Some(value.to_string()),
                "-startup-ms" => self.startup_ms = Some(in_range(flag, value, 1, MAX_MS)?),
                "-ping-ms" => self.ready_ms = Some(in_range(flag, value, 1, MAX_MS)?),
                "-watchdog-ms" => self.watchdog_ms = Some(in_range(flag, value, 1, MAX_MS)?),
                "-check-pgn" => self.check_pgn.push(PathBuf::from(value)),
                "-shard" => self.shard = Some(crate::referee::shard::Shard::parse(value)?),
                _ => return Err(format!("unknown flag '{flag}' (see --help)")),
            }
        }
        self.finish()
    }

    fn kv_flag(&mut self, flag: &str, kv: &[String]) -> Result<(), String> {
        match flag {
            "-engine" => self.engines.push(kv.to_vec()),
            "-each" => self.each.extend_from_slice(kv),
            "-compliance" => self.compliance = Some(kv.to_vec()),
            "-sample" => self.sample = Some(crate::referee::sample::parse_sample_flag(kv)?),
            "-merge" => self.merge = Some(kv.iter().map(PathBuf::from).collect()),
            "-openings" => {
                let mut path = None;
                let mut order = OpeningOrder::Random;
                let mut start = 1;
                for t in kv {
                    let (k, v) = split_kv(flag, t)?;
                    match k {
                        "file" => path = Some(PathBuf::from(v)),
                        "order" => {
                            order = match v {
                                "random" => OpeningOrder::Random,
                                "sequential" => OpeningOrder::Sequential,
                                _ => {
                                    return Err(format!(
                                        "{flag}: order must be random or sequential"
                                    ))
                                }
                            }
                        }
                        "start" => start = positive(&format!("{flag} start"), v)?,
                        // cutechess/fastchess keys that have one meaning here.
                        "format" | "policy" => {}
                        _ => return Err(format!("{flag}: unknown key '{k}'")),
                    }
                }
                let path = path.ok_or_else(|| format!("{flag}: file= is missing"))?;
                self.openings = Some(OpeningSource::File { path, order, start });
            }
            "-random-openings" => {
                let mut plies = None;
                for t in kv {
                    let (k, v) = split_kv(flag, t)?;
                    match k {
                        "plies" => {
                            plies = Some(in_range(&format!("{flag} plies"), v, 0, MAX_PLIES)?)
                        }
                        _ => return Err(format!("{flag}: unknown key '{k}'")),
                    }
                }
                let plies = plies.ok_or_else(|| format!("{flag}: plies= is missing"))?;
                self.openings = Some(OpeningSource::RandomPlies { plies });
            }
            "-draw" => {
                let (mut movenumber, mut movecount, mut score) = (0, None, None);
                for t in kv {
                    let (k, v) = split_kv(flag, t)?;
                    match k {
                        "movenumber" => {
                            movenumber = in_range(&format!("{flag} movenumber"), v, 0, MAX_MOVES)?
                        }
                        "movecount" => {
                            movecount =
                                Some(in_range(&format!("{flag} movecount"), v, 1, MAX_MOVES)?)
                        }
                        "score" => {
                            let max = MAX_SCORE;
                            score = Some(in_range(&format!("{flag} score"), v, -max, max)?.abs())
                        }
                        _ => return Err(format!("{flag}: unknown key '{k}'")),
                    }
                }
                self.draw = Some(DrawAdjudication {
                    movenumber,
                    movecount: movecount.ok_or("-draw: movecount= is missing")?,
                    score: score.ok_or("-draw: score= is missing")?,
                });
            }
            "-resign" => {
                let (mut movecount, mut score) = (None, None);
                for t in kv {
                    let (k, v) = split_kv(flag, t)?;
                    match k {
                        "movecount" => {
                            movecount =
                                Some(in_range(&format!("{flag} movecount"), v, 1, MAX_MOVES)?)
                        }
                        "score" => {
                            let max = MAX_SCORE;
                            score = Some(in_range(&format!("{flag} score"), v, -max, max)?.abs())
                        }
                        "twosided" => {}
                        _ => return Err(format!("{flag}: unknown key '{k}'")),
                    }
                }
                self.resign = Some(ResignAdjudication {
                    movecount: movecount.ok_or("-resign: movecount= is missing")?,
                    score: score.ok_or("-resign: score= is missing")?,
                });
            }
            "-sprt" => {
                let mut s = SprtConfig {
                    elo0: f64::NAN,
                    elo1: f64::NAN,
                    alpha: 0.05,
                    beta: 0.05,
                    model: SprtModelName::Normalized,
                };
                for t in kv {
                    let (k, v) = split_kv(flag, t)?;
                    let f = || in_range(&format!("{flag} {k}"), v, -MAX_ELO, MAX_ELO);
                    match k {
                        "elo0" => s.elo0 = f()?,
                        "elo1" => s.elo1 = f()?,
                        "alpha" => s.alpha = f()?,
                        "beta" => s.beta = f()?,
                        "model" => {
                            s.model = match v {
                                "normalized" => SprtModelName::Normalized,
                                "logistic" => SprtModelName::Logistic,
                                _ => {
                                    return Err(format!(
                                        "{flag}: model must be normalized or logistic"
                                    ))
                                }
                            }
                        }
                        _ => return Err(format!("{flag}: unknown key '{k}'")),
                    }
                }
                if !(s.elo0.is_finite() && s.elo1.is_finite()) || s.elo0 >= s.elo1 {
                    return Err("-sprt: needs elo0= and elo1= with elo0 < elo1".into());
                }
                let unit = |p: f64| p > 0.0 && p < 0.5;
                if !unit(s.alpha) || !unit(s.beta) {
                    return Err("-sprt: alpha and beta must lie in (0, 0.5)".into());
                }
                self.sprt = Some(s);
            }
            _ => unreachable!("every KV flag is handled"),
        }
        Ok(())
    }

    fn finish(self) -> Result<Command, String> {
        if self.help {
            return Ok(Command::Help);
        }
        let variant = self.variant.unwrap_or_default();
        if let Some(kv) = &self.compliance {
            let e = build_engine(&self.each, kv, "-compliance")?;
            if e.is_builtin() {
                return Err("-compliance needs an engine program, not a built-in".into());
            }
            return Ok(Command::Compliance(Box::new(e), variant));
        }
        if !self.check_pgn.is_empty() {
            return Ok(Command::CheckPgn(self.check_pgn, variant));
        }
        if let Some(files) = self.merge {
            if files.is_empty() {
                return Err("-merge needs the JSONL files of the shards".into());
            }
            return Ok(Command::Merge(files, self.sprt));
        }
        let mut engines = Vec::new();
        for (n, own) in self.engines.iter().enumerate() {
            let e = build_engine(&self.each, own, &format!("-engine #{}", n + 1))?;
            if !e.is_builtin()
                && e.tc.is_none()
                && e.st.is_none()
                && e.depth.is_none()
                && e.nodes.is_none()
            {
                return Err(format!(
                    "engine '{}' has no limit: give tc=, st=, depth= or nodes=",
                    e.name
                ));
            }
            engines.push(e);
        }
        if engines.len() < 2 {
            return Err("at least two -engine are needed (see --help)".into());
        }
        // Names go into one-line PGN tags and console lines.
        let names = engines.iter().map(|e| ("engine name", &e.name));
        for (what, text) in names.chain(self.event.iter().map(|e| ("-event", e))) {
            if text.chars().any(char::is_control) {
                let shown: String = text.chars().flat_map(char::escape_default).collect();
                return Err(format!(
                    "{what} '{shown}' contains a control character (newline, tab, ...)"
                ));
            }
        }
        // Duplicate names would make the records ambiguous: number them.
        for i in 0..engines.len() {
            let dup = engines[..i].iter().any(|e| e.name == engines[i].name);
            if dup {
                engines[i].name = format!("{}-{}", engines[i].name, i + 1);
            }
        }
        let tournament = self.tournament.unwrap_or(if engines.len() == 2 {
            TournamentKind::Match
        } else {
            TournamentKind::RoundRobin
        });
        if tournament == TournamentKind::Match && engines.len() != 2 {
            return Err(format!(
                "-tournament match needs exactly two engines, not {}",
                engines.len()
            ));
        }
        if self.sprt.is_some() && engines.len() != 2 {
            return Err("-sprt needs exactly two engines".into());
        }
        if self.resume && self.overwrite {
            return Err(
                "-resume continues the recorded run and -overwrite replaces it: pick one".into(),
            );
        }
        if self.resume && self.jsonl.is_none() {
            return Err(
                "-resume needs -jsonl FILE: the JSONL log is the journal it resumes".into(),
            );
        }
        let ms = |v: Option<u64>, d: u64| Duration::from_millis(v.unwrap_or(d));
        Ok(Command::Run(Box::new(RunConfig {
            engines,
            tournament,
            games: self.games.unwrap_or(2),
            rounds: self.rounds.unwrap_or(1),
            concurrency: self.concurrency.unwrap_or(1),
            variant,
            openings: self.openings.unwrap_or(OpeningSource::StartPosition),
            srand: self.srand.unwrap_or(1),
            maxmoves: self.maxmoves,
            repetition: !self.norepetition,
            draw: self.draw,
            resign: self.resign,
            sprt: self.sprt,
            pgnout: self.pgnout,
            svgout: self.svgout,
            jsonl: self.jsonl,
            ratinginterval: self.ratinginterval.unwrap_or(10),
            resume: self.resume,
            overwrite: self.overwrite,
            strict: self.strict,
            event: self.event.unwrap_or_else(|| "punct-referee".to_string()),
            startup_timeout: ms(self.startup_ms, 10_000),
            ready_timeout: ms(self.ready_ms, 10_000),
            watchdog: ms(self.watchdog_ms, 60_000),
            sample: self.sample,
            shard: self.shard,
        })))
    }
}

/// A flag token: `-name` but not a negative number.
fn is_flag(t: &str) -> bool {
    t.starts_with('-') && t.len() > 1 && !t[1..].starts_with(|c: char| c.is_ascii_digit())
}

fn positive<T: FromStr + PartialOrd + Default>(flag: &str, v: &str) -> Result<T, String> {
    let n: T = parse_num(flag, v)?;
    if n <= T::default() {
        return Err(format!("{flag}: '{v}' must be at least 1"));
    }
    Ok(n)
}

/// The run configuration of a flag string (tests of the referee's modules).
#[cfg(test)]
pub(crate) fn run_config(flags: &str) -> RunConfig {
    match parse_args(&split_words(flags)).unwrap() {
        Command::Run(c) => *c,
        other => panic!("not a run: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        split_words(s)
    }

    fn run(s: &str) -> RunConfig {
        run_config(s)
    }

    #[test]
    fn engines_each_and_defaults() {
        let c = run(
            "-engine cmd=./a name=A option.Hash=32 depth=3 -engine cmd=builtin:random \
                     -each tc=10+0.1 timemargin=100 -games 4 -rounds 3 -concurrency 2",
        );
        assert_eq!(c.engines.len(), 2);
        let a = &c.engines[0];
        assert_eq!(a.name, "A");
        assert_eq!(a.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(a.depth, Some(3));
        assert_eq!(a.tc.as_deref(), Some("10+0.1"));
        assert_eq!(a.timemargin, Duration::from_millis(100));
        assert_eq!(c.engines[1].name, "builtin:random");
        assert_eq!((c.games, c.rounds, c.concurrency), (4, 3, 2));
        assert_eq!(c.tournament, TournamentKind::Match);
        assert!(c.repetition);
        assert_eq!(c.openings, OpeningSource::StartPosition);
    }

    #[test]
    fn engine_keys_override_each() {
        let c = run("-each tc=5 proto=ugi -engine cmd=x tc=40/60+1 -engine cmd=y");
        assert_eq!(c.engines[0].tc.as_deref(), Some("40/60+1"));
        assert_eq!(c.engines[1].tc.as_deref(), Some("5"));
        assert_eq!(c.engines[1].proto, Proto::Ugi);
        // Same program twice: names are made unique.
        let c = run("-each st=0.5 -engine cmd=/bin/e -engine cmd=/bin/e");
        assert_eq!(c.engines[0].name, "e");
        assert_eq!(c.engines[1].name, "e-2");
        assert_eq!(c.engines[1].st, Some(Duration::from_millis(500)));
    }

    #[test]
    fn quoted_args_and_spaced_option_names() {
        let toks = vec![
            "-engine".to_string(),
            "cmd=e".to_string(),
            "args=--a 'b c'".to_string(),
            "option.Move Overhead=20".to_string(),
            "depth=1".to_string(),
            "-engine".to_string(),
            "cmd=builtin:random".to_string(),
        ];
        let Command::Run(c) = parse_args(&toks).unwrap() else {
            panic!()
        };
        assert_eq!(c.engines[0].args, vec!["--a", "b c"]);
        assert_eq!(c.engines[0].options[0].0, "Move Overhead");
    }

    #[test]
    fn adjudication_sprt_openings() {
        let c = run(
            "-engine cmd=a depth=1 -engine cmd=b depth=2 -draw movenumber=40 movecount=8 \
                     score=10 -resign movecount=3 score=-600 -sprt elo0=-5 elo1=5 alpha=0.05 \
                     beta=0.1 model=logistic -openings file=o.txt order=sequential start=3 \
                     -maxmoves 100 -norepetition -srand 7 -variant basic",
        );
        assert_eq!(
            c.draw,
            Some(DrawAdjudication {
                movenumber: 40,
                movecount: 8,
                score: 10
            })
        );
        assert_eq!(
            c.resign,
            Some(ResignAdjudication {
                movecount: 3,
                score: 600
            })
        );
        let s = c.sprt.unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.beta, s.model),
            (-5.0, 5.0, 0.1, SprtModelName::Logistic)
        );
        assert_eq!(
            c.openings,
            OpeningSource::File {
                path: "o.txt".into(),
                order: OpeningOrder::Sequential,
                start: 3
            }
        );
        assert_eq!((c.maxmoves, c.repetition, c.srand), (Some(100), false, 7));
        assert_eq!(c.variant, Variant::Basic);
    }

    #[test]
    fn bad_arguments_are_errors() {
        for bad in [
            "-engine cmd=a depth=1",                                // one engine
            "-engine cmd=a -engine cmd=builtin:random",             // no limit
            "-engine cmd=a tc=abc -engine cmd=b tc=1",              // bad tc
            "-engine cmd=a depth=x -engine cmd=b depth=1",          // bad number
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -games 0", // zero games
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -frobnicate 3",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -sprt elo0=5 elo1=0",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -resume", // no journal
            "-engine cmd=a depth=1 -engine name=b",                // no cmd
            "-engine cmd=builtin:smart -engine cmd=b depth=1",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -engine cmd=c depth=1 -tournament match",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -variant chess",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -games",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "accepted: {bad}");
        }
        // Control characters in names and the event (quoted tokens keep them).
        for bad in [
            "-engine cmd=a depth=1 name='x\ny' -engine cmd=b depth=1",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 name='b\tb'",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -event 'one\ntwo'",
            "-engine cmd=a depth=1 -engine cmd=b depth=1 -event 'bell\u{7}'",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "accepted: {bad}");
        }
    }

    #[test]
    fn three_engines_default_to_round_robin() {
        let c = run("-each depth=1 -engine cmd=a -engine cmd=b -engine cmd=c");
        assert_eq!(c.tournament, TournamentKind::RoundRobin);
        let c = run("-each depth=1 -engine cmd=a -engine cmd=b -engine cmd=c -tournament gauntlet");
        assert_eq!(c.tournament, TournamentKind::Gauntlet);
    }

    #[test]
    fn toml_file_gives_the_same_config_as_flags() {
        let toml = r#"
            games = 4
            concurrency = 2
            norepetition = true
            strict = false
            random-openings = { plies = 3 }
            pgnout = "out.pgn"
            sprt = { elo0 = 0, elo1 = 10 }
            [each]
            tc = "1+0.01"
            [[engine]]
            cmd = "./punct"
            name = "p"
            options = { Hash = 16 }
            args = ["x y"]
            [[engine]]
            cmd = "builtin:random"
        "#;
        let dir = std::env::temp_dir().join(format!("referee-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.toml");
        std::fs::write(&path, toml).unwrap();
        let from_file = run(&format!("-config {} -rounds 5", path.display()));
        let mut flags = args(
            "-games 4 -concurrency 2 -norepetition -random-openings plies=3 -pgnout out.pgn \
             -sprt elo0=0 elo1=10 -each tc=1+0.01 -rounds 5 -engine cmd=./punct name=p \
             option.Hash=16",
        );
        flags.push("arg=x y".into());
        flags.extend(args("-engine cmd=builtin:random"));
        let Command::Run(from_flags) = parse_args(&flags).unwrap() else {
            panic!()
        };
        assert_eq!(from_file, *from_flags);
        assert_eq!(from_file.engines[0].args, vec!["x y"]);
        assert_eq!(
            from_file.engines[0].options,
            vec![("Hash".into(), "16".into())]
        );
        assert_eq!(from_file.engines[0].tc.as_deref(), Some("1+0.01"));
        assert_eq!(from_file.engines[1].cmd, "builtin:random");
        assert!(!from_file.repetition);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn toml_errors_are_reported() {
        assert!(toml_to_args("games = [").is_err());
        assert!(toml_to_args("engine = [1, 2]").is_err());
    }

    #[test]
    fn toml_values_of_the_wrong_type_are_errors() {
        for bad in [
            "games = [7, 9]",
            "games = true",
            "strict = 1",
            "strict = \"yes\"",
            "pgnout = [\"a.pgn\", \"b.pgn\"]",
            "[each]\ntc = [1, 2]",
        ] {
            assert!(toml_to_args(bad).is_err(), "accepted: {bad}");
        }
        assert_eq!(
            toml_to_args("check-pgn = [\"a.pgn\", \"b.pgn\"]\nstrict = true\nresume = false")
                .unwrap(),
            ["-check-pgn", "a.pgn", "-check-pgn", "b.pgn", "-strict"]
        );
    }

    #[test]
    fn numbers_out_of_range_are_errors_not_panics() {
        let base = "-engine cmd=a depth=1 -engine cmd=b depth=1";
        for bad in [
            "-each st=1e30",
            "-each st=1e300",
            "-each st=nan",
            "-each tc=99999999999999+1",
            "-each tc=10+99999999999",
            "-each timemargin=18446744073709551615",
            "-startup-ms 18446744073709551615",
            "-ping-ms 99999999999999",
            "-watchdog-ms 0",
            "-concurrency 100000",
            "-maxmoves 4000000000",
            "-random-openings plies=4000000000",
            "-draw movenumber=1 movecount=3000000000 score=5",
            "-draw movenumber=1 movecount=3 score=-2147483648",
            "-resign movecount=3 score=-2147483648",
            "-sprt elo0=-1e300 elo1=1e300",
            "-sprt elo0=nan elo1=5",
        ] {
            let line = format!("{base} {bad}");
            let got = std::panic::catch_unwind(|| parse_args(&args(&line)));
            match got {
                Ok(r) => assert!(r.is_err(), "accepted: {bad}"),
                Err(_) => panic!("panicked: {bad}"),
            }
        }
        // The largest values are still accepted.
        let ok = run(&format!(
            "{base} -each st=1000000 timemargin=1000000000 -concurrency 256"
        ));
        assert_eq!(ok.engines[0].st, Some(Duration::from_secs(MAX_SECONDS)));
    }

    #[test]
    fn compliance_and_help() {
        assert_eq!(parse_args(&args("--help")).unwrap(), Command::Help);
        match parse_args(&args("-compliance cmd=./e proto=ugi")).unwrap() {
            Command::Compliance(e, _) => {
                assert_eq!(e.cmd, "./e");
                assert_eq!(e.proto, Proto::Ugi);
            }
            other => panic!("{other:?}"),
        }
    }
}
