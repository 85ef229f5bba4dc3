//! The speed figure: time to a fixed depth and nodes per second on mid-game positions, for two
//! or more engines (binaries, or one binary with other options), interleaved position by
//! position so that the machine's noise hits every engine alike. `punct bench` stays the
//! signature; this is the speed.
//!
//! ```sh
//! cargo build --release --features tools --example speed
//! target/release/examples/speed --depth 7 \
//!     --engine name=new,cmd=target/release/punct \
//!     --engine name=v0.3.0,cmd=target/baseline/v0.3.0/punct
//! target/release/examples/speed --depth 7 --engine name=t1,cmd=target/release/punct \
//!     --engine name=t2,cmd=target/release/punct,Threads=2
//! # positions from recorded games (a referee -jsonl file): plies 8..40, every 6th
//! target/release/examples/speed --make-positions games.jsonl --plies 8-40 --every 6 > mid.txt
//! ```
//!
//! An engine is `name=N,cmd=PATH` plus any `Option=Value` pairs (set with `setoption`); `Hash`
//! is 64 unless given. Each search starts from a cleared table (`ucinewgame`). The first
//! engine is the reference: the table gives each engine's total time, nodes and nodes per
//! second, and its time to depth against the reference as the ratio of the totals and the
//! geometric mean of the per-position ratios. `--rounds R` repeats the whole set (rounds
//! alternate the engines' order within a position).
//!
//! `--movetime MS` searches each position for a fixed time instead (as `st=` does in a match):
//! the table then tells what the speed buys there, each engine's mean completed depth and
//! in how many positions it got deeper than the reference, or less deep, and chose another move.

#[path = "common/engine.rs"]
mod engine;

use std::time::{Duration, Instant};

use engine::Engine;
use punct::referee::records::jsonl::{games_of, read_objects};
use punct::rules::notation::position_to_string;
use punct::{parse_move, parse_position, Position, Variant};

struct Spec {
    name: String,
    cmd: String,
    options: Vec<(String, String)>,
}

fn parse_spec(text: &str) -> Spec {
    let mut spec = Spec {
        name: String::new(),
        cmd: String::new(),
        options: vec![("Hash".into(), "64".into())],
    };
    for part in text.split(',') {
        let (k, v) = part
            .split_once('=')
            .unwrap_or_else(|| panic!("--engine: '{part}' is not KEY=VALUE"));
        match k {
            "name" => spec.name = v.to_string(),
            "cmd" => spec.cmd = v.to_string(),
            _ => {
                spec.options.retain(|(o, _)| !o.eq_ignore_ascii_case(k));
                spec.options.push((k.to_string(), v.to_string()));
            }
        }
    }
    assert!(!spec.cmd.is_empty(), "--engine needs cmd=PATH");
    if spec.name.is_empty() {
        spec.name = spec.cmd.clone();
    }
    spec
}

/// One search: wall time from `go` to `bestmove`, the nodes of the last `info` line, the move.
struct Measure {
    time: Duration,
    nodes: u64,
    /// The depth of the last `info` line: the last completed iteration.
    depth: u64,
    best: String,
}

fn field(line: &str, key: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            return words.next()?.parse().ok();
        }
    }
    None
}

fn start(spec: &Spec) -> Engine {
    let mut e = Engine::start(&spec.cmd);
    e.send("uci");
    e.until("uciok");
    for (name, value) in &spec.options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("isready");
    e.until("readyok");
    e
}

fn measure(e: &mut Engine, fen: &str, limits: &str) -> Measure {
    let (go, lines) = e.fresh_search(fen, limits);
    let (at, last) = lines.last().unwrap();
    let last_info = |key| {
        lines
            .iter()
            .rev()
            .find_map(|(_, l)| l.starts_with("info").then(|| field(l, key)).flatten())
            .unwrap_or(0)
    };
    Measure {
        time: at.duration_since(go),
        nodes: last_info("nodes"),
        depth: last_info("depth"),
        best: last.split_whitespace().nth(1).unwrap_or("").to_string(),
    }
}

fn read_positions(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// Mid-game positions of recorded games: plies `lo..=hi` of every game, every `every`-th.
fn make_positions(path: &str, lo: u32, hi: u32, every: u32) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let (objects, _) = read_objects(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let games = games_of(&objects).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("# Mid-game positions (plies {lo}-{hi}, every {every}th) of {path}");
    println!("# Made by: examples/speed --make-positions {path} --plies {lo}-{hi} --every {every}");
    let mut made = 0;
    for g in &games {
        let variant = if g.variant == "basic" {
            Variant::Basic
        } else {
            Variant::Standard
        };
        let mut pos: Position = parse_position(&g.opening, variant)
            .unwrap_or_else(|e| panic!("game {}: opening: {e}", g.game));
        for m in &g.moves {
            // A game lost by an illegal move records that move: stop before it.
            let Ok(mv) = parse_move(&m.mv) else { break };
            if !pos.legal_moves().contains(&mv) {
                break;
            }
            pos.make(mv);
            if pos.is_finished() {
                break;
            }
            let ply = pos.ply();
            if ply >= lo && ply <= hi && (ply - lo).is_multiple_of(every) {
                println!("{}", position_to_string(&pos));
                made += 1;
            }
        }
    }
    eprintln!("{made} positions from {} games", games.len());
}

const USAGE: &str = "usage: speed [--depth N | --movetime MS] [--rounds R] [--limit N] \
[--positions FILE]... --engine name=N,cmd=PATH[,Option=Value...]...
       speed --make-positions GAMES.jsonl [--plies LO-HI] [--every N]
(details: the comment at the top of examples/speed.rs)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut specs = Vec::new();
    let mut files = Vec::new();
    let mut depth = 7;
    let mut movetime: Option<u64> = None;
    let mut rounds = 1;
    let mut limit = usize::MAX;
    let mut make = None;
    let (mut lo, mut hi, mut every) = (8, 40, 6);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .unwrap_or_else(|| panic!("{a} needs a value"))
        };
        match a.as_str() {
            "--engine" => specs.push(parse_spec(&val())),
            "--positions" => files.push(val()),
            "--depth" => depth = val().parse().expect("--depth N"),
            "--movetime" => movetime = Some(val().parse().expect("--movetime MS")),
            "--help" | "-h" => {
                println!("{}", USAGE);
                return;
            }
            "--rounds" => rounds = val().parse().expect("--rounds N"),
            "--limit" => limit = val().parse().expect("--limit N"),
            "--make-positions" => make = Some(val()),
            "--plies" => {
                let v = val();
                let (a, b) = v.split_once('-').expect("--plies LO-HI");
                (lo, hi) = (a.parse().unwrap(), b.parse().unwrap());
            }
            "--every" => every = val().parse::<u32>().expect("--every N").max(1),
            _ => {
                eprintln!("speed: unknown argument {a}\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    if let Some(path) = make {
        make_positions(&path, lo, hi, every);
        return;
    }
    assert!(!specs.is_empty(), "give at least one --engine");
    if files.is_empty() {
        files.push("tournaments/midgame.txt".to_string());
    }
    let positions: Vec<String> = files
        .iter()
        .flat_map(|f| read_positions(f))
        .take(limit)
        .collect();
    let mut engines: Vec<Engine> = specs.iter().map(start).collect();
    let n = engines.len();
    // results[engine][position] over all rounds
    let mut results: Vec<Vec<Measure>> = (0..n).map(|_| Vec::new()).collect();
    let mut same_move = 0;
    let started = Instant::now();
    let limits = match movetime {
        Some(ms) => format!("movetime {ms}"),
        None => format!("depth {depth}"),
    };
    for round in 0..rounds {
        for (i, fen) in positions.iter().enumerate() {
            let mut order: Vec<usize> = (0..n).collect();
            order.rotate_left((i + round) % n);
            for &k in &order {
                let m = measure(&mut engines[k], fen, &limits);
                results[k].push(m);
            }
            let last = results[0].len() - 1;
            if results
                .iter()
                .all(|r| r[last].best == results[0][last].best)
            {
                same_move += 1;
            }
            eprint!(
                "\rround {}/{rounds} position {}/{} ({:.0} s)",
                round + 1,
                i + 1,
                positions.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!();
    let searches = results[0].len();
    println!(
        "{} positions x {rounds} rounds, {limits}; the same best move from every engine in {same_move} of {searches}",
        positions.len()
    );
    println!(
        "{:<16} {:>10} {:>12} {:>10} {:>14} {:>14} {:>11} {:>17}",
        "engine",
        "time s",
        "nodes",
        "nodes/s",
        "time ratio",
        "geomean ratio",
        "mean depth",
        "deeper/less/move"
    );
    let total = |r: &[Measure]| r.iter().map(|m| m.time.as_secs_f64()).sum::<f64>();
    let reference = total(&results[0]);
    for (spec, r) in specs.iter().zip(&results) {
        let time = total(r);
        let nodes: u64 = r.iter().map(|m| m.nodes).sum();
        // > 1: this engine reaches the depth faster than the reference.
        let log_sum: f64 = r
            .iter()
            .zip(&results[0])
            .map(|(m, base)| (base.time.as_secs_f64() / m.time.as_secs_f64().max(1e-6)).ln())
            .sum();
        let mean_depth = r.iter().map(|m| m.depth as f64).sum::<f64>() / r.len().max(1) as f64;
        let pairs = || r.iter().zip(&results[0]);
        let deeper = pairs().filter(|(m, b)| m.depth > b.depth).count();
        let less = pairs().filter(|(m, b)| m.depth < b.depth).count();
        let other_move = pairs().filter(|(m, b)| m.best != b.best).count();
        println!(
            "{:<16} {:>10.2} {:>12} {:>10.0} {:>13.3}x {:>13.3}x {:>11.2} {:>17}",
            spec.name,
            time,
            nodes,
            nodes as f64 / time.max(1e-9),
            reference / time.max(1e-9),
            (log_sum / r.len() as f64).exp(),
            mean_depth,
            format!("{deeper}/{less}/{other_move}")
        );
    }
}
