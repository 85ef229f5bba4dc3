//! Soak run (Linux: it reads `/proc`): does anything grow over a long run?
//!
//! ```sh
//! cargo build --release && cargo run --release --features tools --example soak [-- FLAGS]
//! ```
//! 1. The referee plays `--games` games (default 20,000) at `depth=1` between two copies of the
//!    engine at `-concurrency 2`, with `-jsonl` and `-pgnout`. Every `--every-games` games
//!    (default 250) it samples the referee's resident memory (VmRSS), its open descriptors, its
//!    engine processes and any zombie among its children. At the end: every game number is in
//!    the journal exactly once, the PGN has one record per game, no engine process is left.
//! 2. One engine process answers `--searches` searches (default 50,000), alternately `go depth 1`
//!    and `go nodes 200`, along games of engine moves from varied openings, `ucinewgame` between
//!    games; its VmRSS and descriptors are sampled every `--every-searches` (default 500).
//!
//! Each part prints a table as it goes and passes when the largest sample of the last
//! `--window` games or searches (default 1,000) is within 10 % of the largest of the first
//! `--window`; the exit status is 1 if a check fails. Other flags: `--only referee|engine`,
//! `--referee PATH`, `--engine PATH` (default `target/release/...`), `--dir DIR` for the
//! records (default a new directory under the temporary directory).

#[path = "common/engine.rs"]
mod engine;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use engine::Engine;
use punct::{parse_move, Position, Variant};

struct Opts {
    games: u64,
    searches: u64,
    every_games: u64,
    every_searches: u64,
    window: u64,
    only: Option<String>,
    referee: String,
    engine: String,
    dir: PathBuf,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        games: 20_000,
        searches: 50_000,
        every_games: 250,
        every_searches: 500,
        window: 1_000,
        only: None,
        referee: "target/release/punct-referee".into(),
        engine: "target/release/punct".into(),
        dir: std::env::temp_dir().join(format!("punct-soak-{}", std::process::id())),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let num = || {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .unwrap_or_else(|| usage(&format!("{flag}: not a positive number: {value}")))
        };
        match flag.as_str() {
            "--games" => o.games = num(),
            "--searches" => o.searches = num(),
            "--every-games" => o.every_games = num(),
            "--every-searches" => o.every_searches = num(),
            "--window" => o.window = num(),
            "--only" if value == "referee" || value == "engine" => o.only = Some(value.clone()),
            "--referee" => o.referee = value.clone(),
            "--engine" => o.engine = value.clone(),
            "--dir" => o.dir = PathBuf::from(value),
            _ => usage(&format!("unknown flag or value: {flag} {value}")),
        }
    }
    o
}

fn usage(msg: &str) -> ! {
    eprintln!("soak: {msg}");
    eprintln!(
        "flags: --games N --searches M --every-games K --every-searches K --window W \
         --only referee|engine --referee PATH --engine PATH --dir DIR"
    );
    std::process::exit(2);
}

/// One sample of a process.
#[derive(Clone, Copy)]
struct Sample {
    at: u64,
    secs: f64,
    rss_kb: u64,
    fds: u64,
    engines: usize,
    zombies: usize,
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn fds(pid: u32) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count() as u64)
}

/// The children of `pid`: (pid, state letter).
fn children(pid: u32) -> Vec<(u32, char)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Some(child) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let state = f.next().and_then(|s| s.chars().next()).unwrap_or('?');
        if f.next().and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            out.push((child, state));
        }
    }
    out
}

/// Whether process `pid` still exists and runs `exe`.
fn runs(pid: u32, exe: &Path) -> bool {
    let Ok(link) = std::fs::read_link(format!("/proc/{pid}/exe")) else {
        return false;
    };
    std::fs::canonicalize(exe).is_ok_and(|e| e == link)
}

fn print_header(what: &str) {
    println!("| {what} | elapsed | RSS (KB) | descriptors | engines | zombies |");
    println!("|---:|---:|---:|---:|---:|---:|");
}

fn print_row(s: &Sample) {
    println!(
        "| {} | {:.0} s | {} | {} | {} | {} |",
        s.at, s.secs, s.rss_kb, s.fds, s.engines, s.zombies
    );
    let _ = std::io::stdout().flush();
}

/// Compares the largest samples of the first and last windows; true if within 10 %.
fn flat(what: &str, samples: &[Sample], total: u64, window: u64) -> bool {
    let first: Vec<&Sample> = samples.iter().filter(|s| s.at <= window).collect();
    let last: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.at > total.saturating_sub(window))
        .collect();
    if first.is_empty() || last.is_empty() {
        println!("{what}: not enough samples to compare (use a smaller --every-* flag)");
        return false;
    }
    let mut ok = true;
    for (name, get) in [
        ("RSS (KB)", (|s: &Sample| s.rss_kb) as fn(&Sample) -> u64),
        ("descriptors", |s: &Sample| s.fds),
    ] {
        let a = first.iter().map(|s| get(s)).max().unwrap_or(0);
        let b = last.iter().map(|s| get(s)).max().unwrap_or(0);
        let change = (b as f64 / a.max(1) as f64 - 1.0) * 100.0;
        let good = b as f64 <= a as f64 * 1.10;
        ok &= good;
        println!(
            "{what} {name}: largest of the first {window} {a}, of the last {window} {b} ({change:+.1} %): {}",
            if good { "flat" } else { "GROWS" }
        );
    }
    ok
}

fn referee_part(o: &Opts) -> bool {
    std::fs::create_dir_all(&o.dir).expect("records directory");
    let jsonl = o.dir.join("soak.jsonl");
    let pgn = o.dir.join("soak.pgn");
    let log = std::fs::File::create(o.dir.join("referee.stderr")).expect("stderr file");
    let engine = format!("cmd={}", o.engine);
    let games = o.games.to_string();
    let args = [
        "-engine",
        &engine,
        "name=a",
        "-engine",
        &engine,
        "name=b",
        "-each",
        "depth=1",
        "-games",
        &games,
        "-concurrency",
        "2",
        "-random-openings",
        "plies=4",
        "-srand",
        "1",
        "-jsonl",
        jsonl.to_str().unwrap(),
        "-pgnout",
        pgn.to_str().unwrap(),
        "-overwrite",
    ];
    println!("## Referee: {} {}", o.referee, args.join(" "));
    let mut child = Command::new(&o.referee)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", o.referee));
    let pid = child.id();
    let start = Instant::now();
    let mut engines_seen = std::collections::BTreeSet::new();
    let mut samples = Vec::new();
    let mut finished = 0u64;
    print_header("games");
    let mut sample = |at: u64, samples: &mut Vec<Sample>| {
        let kids = children(pid);
        engines_seen.extend(kids.iter().map(|k| k.0));
        let s = Sample {
            at,
            secs: start.elapsed().as_secs_f64(),
            rss_kb: rss_kb(pid),
            fds: fds(pid),
            engines: kids.iter().filter(|k| k.1 != 'Z').count(),
            zombies: kids.iter().filter(|k| k.1 == 'Z').count(),
        };
        print_row(&s);
        samples.push(s);
    };
    let out = BufReader::new(child.stdout.take().expect("piped"));
    for line in out.lines().map_while(Result::ok) {
        if line.starts_with("Finished game ") {
            finished += 1;
            // Not at the last game: the referee is then writing its final report.
            if finished.is_multiple_of(o.every_games) && finished < o.games {
                sample(finished, &mut samples);
            }
        }
    }
    let status = child.wait().expect("wait for the referee");
    let mut ok = status.success();
    println!("referee: {status}, {finished} games finished");
    ok &= finished == o.games;
    // Engines gone (give them a moment: the referee has already reaped them).
    std::thread::sleep(Duration::from_millis(200));
    let left: Vec<u32> = engines_seen
        .iter()
        .copied()
        .filter(|&p| runs(p, Path::new(&o.engine)))
        .collect();
    let zombies: usize = samples.iter().map(|s| s.zombies).sum();
    println!(
        "engine processes seen: {}, still running after the referee: {}, zombies in samples: {zombies}",
        engines_seen.len(),
        left.len()
    );
    ok &= left.is_empty() && zombies == 0;
    ok &= records_complete(&jsonl, &pgn, o.games);
    ok &= flat("referee", &samples, o.games, o.window);
    ok
}

/// Every game number 1..=games exactly once in the journal, and as many PGN records.
fn records_complete(jsonl: &Path, pgn: &Path, games: u64) -> bool {
    let mut seen: BTreeMap<u64, u32> = BTreeMap::new();
    let text = std::fs::read_to_string(jsonl).unwrap_or_default();
    let mut summary = false;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        match v["type"].as_str() {
            Some("game") => *seen.entry(v["game"].as_u64().unwrap_or(0)).or_default() += 1,
            Some("summary") => summary = true,
            _ => {}
        }
    }
    let once = (1..=games).all(|g| seen.get(&g) == Some(&1)) && seen.len() as u64 == games;
    let twice = seen.values().filter(|&&n| n > 1).count();
    let pgn_games = std::fs::read_to_string(pgn)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("[Event "))
        .count() as u64;
    println!(
        "records: journal has {} game numbers ({twice} more than once), every one of 1..={games} once: {once}; summary line: {summary}; PGN records: {pgn_games}",
        seen.len()
    );
    once && summary && pgn_games == games
}

fn engine_part(o: &Opts) -> bool {
    println!(
        "## Engine: {} answering {} searches (go depth 1 / go nodes 200), ucinewgame between games",
        o.engine, o.searches
    );
    let mut e = Engine::start(&o.engine);
    let pid = e.id();
    e.send("uci");
    e.until("uciok");
    let start = Instant::now();
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut samples = Vec::new();
    let (mut searches, mut games) = (0u64, 0u64);
    print_header("searches");
    while searches < o.searches {
        e.send("ucinewgame");
        e.send("isready");
        e.until("readyok");
        games += 1;
        // A varied opening: 2 to 8 random plies.
        let mut pos = Position::new(Variant::Standard);
        for _ in 0..2 + next() % 7 {
            let moves = pos.legal_moves();
            if pos.is_finished() || moves.is_empty() {
                break;
            }
            pos.make(moves[(next() % moves.len() as u64) as usize]);
        }
        while !pos.is_finished() && searches < o.searches {
            e.send(&format!("position fen {pos}"));
            e.send(if searches % 2 == 0 {
                "go depth 1"
            } else {
                "go nodes 200"
            });
            let best = e.until("bestmove").pop().expect("a bestmove line").1;
            searches += 1;
            if searches.is_multiple_of(o.every_searches) || searches == o.searches {
                let s = Sample {
                    at: searches,
                    secs: start.elapsed().as_secs_f64(),
                    rss_kb: rss_kb(pid),
                    fds: fds(pid),
                    engines: 1,
                    zombies: 0,
                };
                print_row(&s);
                samples.push(s);
            }
            let mv = best.split_whitespace().nth(1).unwrap_or("");
            match parse_move(mv).map(|m| pos.play(m)) {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
    }
    let status = e.quit();
    println!("engine: {games} games, {searches} searches, quit: {status}");
    flat("engine", &samples, o.searches, o.window) && status.success()
}

fn main() {
    let o = parse_opts();
    println!(
        "soak: {} UTC-seconds since the epoch, referee {}, engine {}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        o.referee,
        o.engine
    );
    let mut ok = true;
    if o.only.as_deref() != Some("referee") {
        ok &= engine_part(&o);
    }
    if o.only.as_deref() != Some("engine") {
        ok &= referee_part(&o);
    }
    println!("soak: {}", if ok { "passed" } else { "FAILED" });
    std::process::exit(if ok { 0 } else { 1 });
}
