//! The command line of the `punct` binary: with no command the engine loop (`protocol.md`);
//! `perft`, `moves`, `eval`, `bench`, `svg` and `levels` run once and exit.

use std::io::Write;
use std::process::ExitCode;

use crate::engine::protocol::{fmt, uci};
use crate::engine::search::{bench, evaluate, nnue, skill, Searcher};
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::perft::divide;
use crate::rules::position::{Position, Variant};
use crate::rules::svg::{board_svg, SvgOptions};

const USAGE: &str =
    "usage: punct [--version] [--variant standard|basic] [--evalfile none|<default>|FILE] \
     [perft <depth> [<position>] | moves [<position>] | eval [<position>] | bench [<depth>] | \
     svg [<position>] [--last <move>] [--flip] [--out <file>] | levels]\n\
     With no command, punct runs the engine on stdin/stdout (see protocol.md). --evalfile sets \
     the evaluation of eval and bench as the EvalFile option does.";

/// A command-line error: one line on stderr, exit status 2.
fn usage_error(msg: &str) -> ExitCode {
    eprintln!("punct: {msg} (punct help shows the usage)");
    ExitCode::from(2)
}

/// Splits `--variant X` (or `--variant=X`) off the arguments.
pub fn take_variant(args: &[String]) -> Result<(Variant, Vec<String>), String> {
    let mut variant = Variant::Standard;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let value = if a == "--variant" {
            i += 1;
            Some(args.get(i).ok_or("--variant needs a value")?.clone())
        } else {
            a.strip_prefix("--variant=").map(str::to_string)
        };
        match value {
            Some(v) => {
                variant = Variant::from_name(&v)
                    .ok_or_else(|| format!("unknown variant '{v}' (standard or basic)"))?
            }
            None => rest.push(a.clone()),
        }
        i += 1;
    }
    Ok((variant, rest))
}

/// Reads a position given as one quoted argument, three arguments, `startpos`, or nothing.
pub fn position_from_args(args: &[String], variant: Variant) -> Result<Position, String> {
    if args.is_empty() {
        return Ok(Position::new(variant));
    }
    let text = args.join(" ");
    parse_position(&text, variant).map_err(|e| format!("bad position '{text}': {e}"))
}

/// Splits `--evalfile X` (or `--evalfile=X`) off the arguments.
fn take_evalfile(args: Vec<String>) -> Result<(Option<String>, Vec<String>), String> {
    let mut file = None;
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--evalfile" {
            file = Some(it.next().ok_or("--evalfile needs a value")?);
        } else if let Some(v) = a.strip_prefix("--evalfile=") {
            file = Some(v.to_string());
        } else {
            rest.push(a);
        }
    }
    Ok((file, rest))
}

/// `eval [POSITION]`: the hand evaluation term by term, then the network's output.
fn eval_command(
    out: &mut impl Write,
    pos: &Position,
    evalfile: Option<&str>,
) -> Result<(), String> {
    let params = crate::engine::search::params::Params::default();
    for (term, value) in evaluate::trace(pos, &params) {
        let _ = writeln!(out, "eval {term} {value}");
    }
    let side = pos.side_to_move().name();
    let _ = writeln!(
        out,
        "eval total {} ({side} to move's point of view)",
        evaluate::evaluate(pos, &params)
    );
    let name = evalfile.unwrap_or("<default>");
    let net = nnue::from_option(name)?.unwrap_or_else(nnue::embedded);
    let _ = writeln!(
        out,
        "eval net {} (EvalFile {name}: {} hidden units)",
        nnue::evaluate(&net, &mut nnue::Accumulator::new(), pos, &params),
        net.hidden
    );
    Ok(())
}

/// Runs the command line; returns the exit status.
pub fn run(args: &[String]) -> ExitCode {
    let (variant, args) = match take_variant(args) {
        Ok(v) => v,
        Err(e) => return usage_error(&e),
    };
    let (evalfile, args) = match take_evalfile(args) {
        Ok(v) => v,
        Err(e) => return usage_error(&e),
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.first().map(String::as_str) {
        Some("perft") => {
            let Some(depth) = args.get(1).and_then(|d| d.parse::<u32>().ok()) else {
                return usage_error("perft needs a depth (a whole number)");
            };
            let mut pos = match position_from_args(&args[2..], variant) {
                Ok(p) => p,
                Err(e) => return usage_error(&e),
            };
            let mut total = 0;
            for (mv, n) in divide(&mut pos, depth) {
                let _ = writeln!(out, "{mv}: {n}");
                total += n;
            }
            if depth == 0 {
                total = 1;
            }
            let _ = writeln!(out, "\nNodes searched: {total}");
            ExitCode::SUCCESS
        }
        Some("moves") => {
            let pos = match position_from_args(&args[1..], variant) {
                Ok(p) => p,
                Err(e) => return usage_error(&e),
            };
            let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            moves.sort();
            for m in moves {
                let _ = writeln!(out, "{m}");
            }
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let depth = match args.get(1) {
                None => bench::DEFAULT_DEPTH,
                Some(d) => match d.parse::<u32>() {
                    Ok(d) if d > 0 => d,
                    _ => return usage_error("bench takes a depth (a positive whole number)"),
                },
            };
            if args.len() > 2 {
                return usage_error("bench takes at most one argument, the depth");
            }
            let mut searcher = Searcher::new(16);
            if let Some(f) = &evalfile {
                match nnue::from_option(f) {
                    Ok(net) => searcher.set_net(net),
                    Err(e) => return usage_error(&format!("--evalfile: {e}")),
                }
            }
            let report = bench::run(&mut searcher, depth);
            for line in fmt::bench_lines(&report, depth) {
                let _ = writeln!(out, "{line}");
            }
            ExitCode::SUCCESS
        }
        Some("eval") => {
            let pos = match position_from_args(&args[1..], variant) {
                Ok(p) => p,
                Err(e) => return usage_error(&e),
            };
            match eval_command(&mut out, &pos, evalfile.as_deref()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => usage_error(&format!("--evalfile: {e}")),
            }
        }
        Some("svg") => match svg_command(&args[1..], variant) {
            Ok(picture) => {
                let _ = out.write_all(picture.as_bytes());
                ExitCode::SUCCESS
            }
            Err(e) => usage_error(&e),
        },
        Some("levels") => {
            let _ = out.write_all(levels_table().as_bytes());
            ExitCode::SUCCESS
        }
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            let _ = writeln!(out, "punct {}", env!("PUNCT_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command '{other}'")),
        None => {
            drop(out);
            ExitCode::from(uci::run(variant) as u8)
        }
    }
}

/// `levels`: each strength level's claimed Elo and settings (`Skill Level`, `UCI_Elo`), one
/// line each after a `#` header; read by `tournaments/calibrate-levels.sh`.
fn levels_table() -> String {
    let mut s = String::from("# skill\telo\tdepth\tnodes\tcandidates\ttemperature\n");
    for (i, (set, elo)) in skill::LEVELS.iter().zip(skill::LEVEL_ELO).enumerate() {
        s += &format!(
            "{i}\t{elo}\t{}\t{}\t{}\t{}\n",
            set.depth, set.nodes, set.candidates, set.temperature
        );
    }
    s += &format!("{}\tfull\t0\t0\t1\t0\n", skill::FULL_SKILL);
    s
}

/// `svg [POSITION] [--last MOVE] [--flip] [--out FILE]`: the board picture, written to FILE
/// (then nothing goes to stdout) or returned for stdout.
fn svg_command(args: &[String], variant: Variant) -> Result<String, String> {
    let mut rest = Vec::new();
    let mut out_file = None;
    let mut last = None;
    let mut flipped = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--out" | "-o" => {
                i += 1;
                out_file = Some(args.get(i).ok_or("--out needs a file name")?.clone());
            }
            "--last" => {
                i += 1;
                let text = args.get(i).ok_or("--last needs a move")?;
                let mv = parse_move(text).map_err(|e| format!("bad move '{text}': {e}"))?;
                last = Some(mv);
            }
            "--flip" => flipped = true,
            a => rest.push(a.to_string()),
        }
        i += 1;
    }
    let pos = position_from_args(&rest, variant)?;
    let opts = SvgOptions {
        flipped,
        last_move: last,
        panel: true,
    };
    let picture = board_svg(&pos, &opts);
    match out_file {
        Some(path) => {
            std::fs::write(&path, picture).map_err(|e| format!("cannot write {path}: {e}"))?;
            Ok(String::new())
        }
        None => Ok(picture),
    }
}
