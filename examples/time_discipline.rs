//! Time discipline of an engine process at short time per move: blind moves and overruns.
//!
//! ```sh
//! cargo build --release --examples --features tools
//! target/release/examples/time_discipline [--engine BIN] [--positions FILE]
//!     [--movetimes 10,20,50,100] [--threads 1,2] [--option NAME=VALUE]... [--load N]
//!     [--max-overrun MS]
//! target/release/examples/time_discipline --make-positions 150 > tournaments/midgame.txt
//! ```
//!
//! For every position of the file (one `PIECES SIDE PLY` position a line, `#` comments) and
//! every `go movetime T`, it measures the time from `go` to `bestmove` and whether an `info`
//! line with `nodes` > 0 came before the `bestmove`. A *blind* move has none: the engine
//! answered without a search. The *overrun* is the time to `bestmove` minus T. It prints one
//! row per thread count and move time, and exits 1 when a move was blind or overran by more
//! than `--max-overrun` ms (default 5).
//!
//! `--load N` measures on a loaded machine: N threads spin at normal priority for the whole
//! run (on 2 cores, `--load 4` leaves each runnable thread about a third of a core).
//!
//! `--make-positions N` writes N mid-game positions (plies 6-34 of games the engine plays
//! against itself at 2,000 nodes a move from `tournaments/openings.txt`) and exits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use punct::engine::search::Searcher;
use punct::engine::types::{Limits, SearchControl};
use punct::rules::notation::position_to_string;
use punct::{parse_position, Position, Variant};

#[path = "common/engine.rs"]
mod engine;
use engine::Engine;

/// The `nodes` field of an `info` line.
fn info_nodes(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut words = words.skip_while(|&w| w != "nodes");
    words.next()?;
    words.next()?.parse().ok()
}

struct Row {
    blind: usize,
    overruns: Vec<f64>,
}

fn measure(
    bin: &str,
    positions: &[String],
    movetime: u64,
    threads: u32,
    options: &[String],
) -> Row {
    let mut e = Engine::start(bin);
    e.send("uci");
    e.until("uciok");
    e.send(&format!("setoption name Threads value {threads}"));
    for opt in options {
        let (name, value) = opt.split_once('=').expect("--option NAME=VALUE");
        e.send(&format!("setoption name {name} value {value}"));
    }
    let mut row = Row {
        blind: 0,
        overruns: Vec::new(),
    };
    for fen in positions {
        let (go, lines) = e.fresh_search(fen, &format!("movetime {movetime}"));
        let (at, _) = lines.last().unwrap();
        let searched = lines
            .iter()
            .any(|(_, l)| info_nodes(l).is_some_and(|n| n > 0));
        if !searched {
            row.blind += 1;
            eprintln!("blind at movetime {movetime}: {fen}");
        }
        row.overruns
            .push(at.duration_since(go).as_secs_f64() * 1000.0 - movetime as f64);
    }
    row
}

/// Mid-game positions from self-play at a small node count (deterministic).
fn make_positions(count: usize) {
    let openings = std::fs::read_to_string("tournaments/openings.txt")
        .expect("run from the repository root (tournaments/openings.txt)");
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(2_000),
        ..Limits::default()
    };
    println!("# Mid-game positions (plies 6-34) of self-play at 2,000 nodes a move.");
    println!("# Made by: target/release/examples/time_discipline --make-positions {count}");
    let mut made = 0;
    for line in openings.lines().filter(|l| !l.starts_with('#')) {
        let mut pos: Position = parse_position(line.trim(), Variant::Standard).unwrap();
        searcher.clear();
        let mut n = 0;
        while !pos.is_finished() && pos.ply() < 34 {
            let result = searcher.search(&pos, &limits, &SearchControl::default(), &mut |_| {});
            let Some(mv) = result.best else { break };
            pos.make(mv);
            n += 1;
            if pos.ply() >= 6 && !pos.is_finished() && n % 7 == 0 {
                println!("{}", position_to_string(&pos));
                made += 1;
                if made == count {
                    return;
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut bin = "target/release/punct".to_string();
    let mut file = "tournaments/midgame.txt".to_string();
    let mut movetimes = vec![10, 20, 50, 100];
    let mut threads = vec![1, 2];
    let mut options = Vec::new();
    let mut max_overrun = 5.0;
    let mut load = 0;
    let mut it = args.iter();
    let list = |s: &str| -> Vec<u64> { s.split(',').map(|x| x.parse().unwrap()).collect() };
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .unwrap_or_else(|| panic!("{a} needs a value"))
        };
        match a.as_str() {
            "--engine" => bin = val(),
            "--positions" => file = val(),
            "--movetimes" => movetimes = list(&val()),
            "--threads" => threads = list(&val()).into_iter().map(|t| t as u32).collect(),
            "--option" => options.push(val()),
            "--max-overrun" => max_overrun = val().parse().unwrap(),
            "--load" => load = val().parse().expect("--load N (busy threads)"),
            "--make-positions" => return make_positions(val().parse().unwrap()),
            "-h" | "--help" => {
                let doc = include_str!("time_discipline.rs");
                let usage = doc.lines().take_while(|l| l.starts_with("//!"));
                usage.for_each(|l| println!("{}", l.trim_start_matches("//!").trim_start()));
                return;
            }
            other => panic!("unknown argument {other} (see --help)"),
        }
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let positions: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    println!(
        "engine {bin}, {} positions of {file}, {load} busy threads beside",
        positions.len()
    );
    let busy = Arc::new(AtomicBool::new(true));
    let spinners: Vec<_> = (0..load)
        .map(|_| {
            let busy = Arc::clone(&busy);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while busy.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    println!("threads movetime  blind  overrun: mean    p99    max  over {max_overrun} ms");
    let mut failed = false;
    for &t in &threads {
        for &mt in &movetimes {
            let mut row = measure(&bin, &positions, mt, t, &options);
            row.overruns.sort_by(f64::total_cmp);
            let n = row.overruns.len();
            let mean = row.overruns.iter().sum::<f64>() / n as f64;
            let p99 = row.overruns[(n * 99 / 100).min(n - 1)];
            let max = row.overruns[n - 1];
            let over = row.overruns.iter().filter(|&&o| o > max_overrun).count();
            println!(
                "{t:>7} {mt:>8} {:>6}          {mean:>6.1} {p99:>6.1} {max:>6.1}  {over:>6}",
                row.blind
            );
            failed |= row.blind > 0 || over > 0;
        }
    }
    busy.store(false, Ordering::Relaxed);
    spinners.into_iter().for_each(|t| t.join().unwrap());
    std::process::exit(i32::from(failed));
}
