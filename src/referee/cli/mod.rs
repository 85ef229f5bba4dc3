//! The command line: cutechess-style flags and TOML files (`-config`), both read into one
//! [`Command`] (a [`RunConfig`] for a run). This is the one part of the referee that knows every
//! other part (built-in players, `-sample`, `-shard`, ...); nothing below imports it.
//!
//! `values` (numbers, words, `key=value`, the `-sample` keys), `engine_keys` (`-engine` and
//! `-each`), `toml` (`-config FILE`); the flags themselves are read here.

mod engine_keys;
mod toml_file;
mod values;

use std::path::PathBuf;
use std::time::Duration;

pub use engine_keys::build_engine;
pub use toml_file::toml_to_args;
pub use values::{split_words, unknown_flag, MAX_CONCURRENCY, MAX_SECONDS};

use crate::referee::settings::{
    DrawAdjudication, EngineConfig, OpeningOrder, OpeningSource, ResignAdjudication, RunConfig,
    Shard, SprtConfig, SprtModelName, SuiteConfig, TournamentKind,
};
use crate::rules::position::Variant;
use toml_file::expand_configs;
use values::{
    in_range, is_flag, parse_num, parse_sample_flag, positive, split_kv, MAX_ELO, MAX_MOVES,
    MAX_MS, MAX_PLIES, MAX_SCORE,
};

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
    /// Run test suites (`-suite FILE`) against one engine.
    Suite(Box<SuiteConfig>),
    /// `--version`.
    Version,
}

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

/// Flags without a value (`-repeat` takes an optional count).
const SWITCHES: &[&str] = &[
    "-h",
    "-help",
    "--help",
    "-version",
    "--version",
    "-norepetition",
    "-recover",
    "-resume",
    "-overwrite",
    "-strict",
    "-repeat",
    "-debug",
];

/// Flags that take one value.
const VALUE_FLAGS: &[&str] = &[
    "-games",
    "-rounds",
    "-concurrency",
    "-variant",
    "-tournament",
    "-srand",
    "-maxmoves",
    "-pgnout",
    "-svgout",
    "-jsonl",
    "-ratinginterval",
    "-event",
    "-startup-ms",
    "-ping-ms",
    "-watchdog-ms",
    "-check-pgn",
    "-suite",
    "-junit",
    "-suite-min",
    "-shard",
];

/// Every flag, for the nearest one to an unknown flag (`-config` is read before the rest).
fn known_flags() -> impl Iterator<Item = &'static str> {
    (KV_FLAGS.iter().chain(SWITCHES).chain(VALUE_FLAGS).copied()).chain(["-config"])
}

/// Parses the command line (without the program name).
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    parse_args_and_debug(args).map(|(command, _)| command)
}

/// The command line's command, and whether `-debug` asks for every engine line on stderr.
pub fn parse_args_and_debug(args: &[String]) -> Result<(Command, bool), String> {
    let tokens = expand_configs(args, 0)?;
    Parser::default().parse(&tokens)
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
    sample: Option<crate::referee::settings::SampleConfig>,
    shard: Option<crate::referee::settings::Shard>,
    merge: Option<Vec<PathBuf>>,
    suite: Vec<PathBuf>,
    junit: Option<PathBuf>,
    suite_min: Option<usize>,
    version: bool,
    debug: bool,
}

impl Parser {
    fn parse(mut self, tokens: &[String]) -> Result<(Command, bool), String> {
        let mut i = 0;
        while i < tokens.len() {
            let flag = tokens[i].as_str();
            i += 1;
            if !is_flag(flag) {
                // A word where a flag belongs: the flag before takes fewer values.
                let before = i.checked_sub(3).map(|k| &tokens[k..i - 1]);
                return Err(match before {
                    Some([f, v]) if VALUE_FLAGS.contains(&f.as_str()) => format!(
                        "unexpected '{flag}' after '{f} {v}': {f} takes one value (see --help)"
                    ),
                    _ => {
                        format!("unexpected '{flag}': not a flag (flags start with -; see --help)")
                    }
                });
            }
            if !(known_flags().any(|k| k == flag)) {
                return Err(values::unknown_flag(flag, known_flags()));
            }
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
                "-version" | "--version" => {
                    self.version = true;
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
                "-debug" => {
                    self.debug = true;
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
                "-suite" => self.suite.push(PathBuf::from(value)),
                "-junit" => self.junit = Some(PathBuf::from(value)),
                "-suite-min" => self.suite_min = Some(parse_num(flag, value)?),
                "-shard" => self.shard = Some(Shard::parse(value)?),
                _ => return Err(values::unknown_flag(flag, known_flags())),
            }
        }
        let debug = self.debug;
        self.finish().map(|command| (command, debug))
    }

    fn kv_flag(&mut self, flag: &str, kv: &[String]) -> Result<(), String> {
        match flag {
            "-engine" => self.engines.push(kv.to_vec()),
            "-each" => self.each.extend_from_slice(kv),
            "-compliance" => self.compliance = Some(kv.to_vec()),
            "-sample" => self.sample = Some(parse_sample_flag(kv)?),
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
        if self.version {
            return Ok(Command::Version);
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
        if !self.suite.is_empty() {
            return self.suite_command(variant);
        }
        if self.junit.is_some() || self.suite_min.is_some() {
            return Err("-junit and -suite-min go with -suite FILE".into());
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

impl Parser {
    /// `-suite FILE... -engine ...`: one engine, a limit per position.
    fn suite_command(self, variant: Variant) -> Result<Command, String> {
        if self.engines.len() != 1 {
            return Err(format!(
                "-suite needs exactly one -engine, not {}",
                self.engines.len()
            ));
        }
        let engine = build_engine(&self.each, &self.engines[0], "-engine")?;
        if !engine.is_builtin()
            && engine.tc.is_none()
            && engine.st.is_none()
            && engine.depth.is_none()
            && engine.nodes.is_none()
        {
            return Err(format!(
                "engine '{}' has no limit: give tc=, st=, depth= or nodes=",
                engine.name
            ));
        }
        let ms = |v: Option<u64>, d: u64| Duration::from_millis(v.unwrap_or(d));
        Ok(Command::Suite(Box::new(SuiteConfig {
            files: self.suite,
            engine,
            concurrency: self.concurrency.unwrap_or(1),
            variant,
            junit: self.junit,
            min_solved: self.suite_min,
            startup_timeout: ms(self.startup_ms, 10_000),
            ready_timeout: ms(self.ready_ms, 10_000),
            watchdog: ms(self.watchdog_ms, 60_000),
        })))
    }
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
    use crate::referee::settings::Proto;

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
    fn unknown_flags_and_stray_words_say_so_and_offer_the_nearest_flag() {
        let base = "-engine cmd=a depth=1 -engine cmd=b depth=1";
        let err = |extra: &str| parse_args(&args(&format!("{base} {extra}"))).unwrap_err();
        assert_eq!(
            err("-debugg"),
            "unknown flag '-debugg': did you mean '-debug'? (see --help)"
        );
        assert_eq!(
            err("-concurency 2"),
            "unknown flag '-concurency': did you mean '-concurrency'? (see --help)"
        );
        assert_eq!(
            err("-frobnicate 3"),
            "unknown flag '-frobnicate' (see --help)"
        );
        assert_eq!(
            err("-pgnout x.pgn min"),
            "unexpected 'min' after '-pgnout x.pgn': -pgnout takes one value (see --help)"
        );
        assert_eq!(err("-games"), "-games needs a value");
        let stray = parse_args(&args("games 4")).unwrap_err();
        assert!(
            stray.starts_with("unexpected 'games': not a flag"),
            "{stray}"
        );
        // `-debug` at the end is a flag of its own, from the command line or a file.
        let (_, debug) = parse_args_and_debug(&args(&format!("{base} -debug"))).unwrap();
        assert!(debug);
        let (_, debug) = parse_args_and_debug(&args(base)).unwrap();
        assert!(!debug);
        assert_eq!(toml_to_args("debug = true").unwrap(), ["-debug"]);
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

    #[test]
    fn suite_and_version_flags() {
        assert_eq!(parse_args(&args("--version")).unwrap(), Command::Version);
        assert_eq!(parse_args(&args("-version")).unwrap(), Command::Version);
        match parse_args(&args(
            "-suite a.epd -suite b.epd -engine cmd=./e depth=3 -concurrency 2 -junit r.xml -suite-min 5",
        ))
        .unwrap()
        {
            Command::Suite(s) => {
                assert_eq!(s.files, vec![PathBuf::from("a.epd"), PathBuf::from("b.epd")]);
                assert_eq!((s.engine.depth, s.concurrency), (Some(3), 2));
                assert_eq!(s.junit, Some(PathBuf::from("r.xml")));
                assert_eq!(s.min_solved, Some(5));
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            "-suite a.epd",
            "-suite a.epd -engine cmd=./e",
            "-suite a.epd -engine cmd=./e depth=1 -engine cmd=./f depth=1",
            "-engine cmd=./e depth=1 -engine cmd=./f depth=1 -junit r.xml",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }
}
