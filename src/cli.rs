//! The one-shot command-line commands of the `punct` binary: `perft`, `moves`.

use std::io::Write;
use std::process::ExitCode;

use crate::notation::parse_position;
use crate::perft::divide;
use crate::position::{Position, Variant};

const USAGE: &str =
    "usage: punct [--variant standard|basic] [perft <depth> [<position>] | moves [<position>]]";

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

/// Runs the command line; returns the exit status.
pub fn run(args: &[String]) -> ExitCode {
    let (variant, args) = match take_variant(args) {
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
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command '{other}'")),
        None => usage_error("no command (the engine loop comes with the engine issue)"),
    }
}
