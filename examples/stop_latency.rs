//! Measures the engine process: start to `uciok`, and `stop` to `bestmove` over many searches.
//!
//! ```sh
//! cargo build --release && cargo run --release --features tools --example stop_latency [-- <punct binary> [searches]]
//! ```
//! The binary defaults to `target/release/punct`. Each search is `go infinite` on a position of
//! a seeded game, stopped after a varying 5..45 ms, so stops land at random points of the search.

use std::thread;
use std::time::{Duration, Instant};

use punct::{Position, Variant};

#[path = "common/engine.rs"]
mod engine;
use engine::Engine;

fn summary(name: &str, mut v: Vec<Duration>) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{name}: n={} median {:.2} ms, p90 {:.2} ms, worst {:.2} ms",
        v.len(),
        ms(v[v.len() / 2]),
        ms(v[v.len() * 9 / 10]),
        ms(v[v.len() - 1])
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bin = args
        .first()
        .cloned()
        .unwrap_or_else(|| "target/release/punct".to_string());
    let searches: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(100);

    let mut starts = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let mut e = Engine::start(&bin);
        e.send("uci");
        e.until("uciok");
        starts.push(t.elapsed());
    }
    summary("start to uciok", starts);

    // Positions along one game: every search starts from a different position.
    let mut pos = Position::new(Variant::Standard);
    let mut fens = Vec::new();
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    while fens.len() < searches {
        if pos.is_finished() {
            pos = Position::new(Variant::Standard);
        }
        fens.push(pos.to_string());
        let moves = pos.legal_moves();
        pos.make(moves[(next() % moves.len() as u64) as usize]);
    }

    let mut e = Engine::start(&bin);
    e.send("uci");
    e.until("uciok");
    let mut stops = Vec::new();
    for fen in &fens {
        e.send(&format!("position fen {fen}"));
        e.send("isready");
        e.until("readyok");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(5 + next() % 40));
        let t = Instant::now();
        e.send("stop");
        e.until("bestmove");
        stops.push(t.elapsed());
    }
    summary("stop to bestmove", stops);
}
