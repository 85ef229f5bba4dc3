//! Generates the fixed openings file of the strength tests (`tournaments/openings.txt`):
//! seeded random plies from the start, kept when the game is undecided (neither side can win at
//! once) and an engine's search calls it balanced.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --features tools --example make_openings -- --seed 1 --count 300 \
//!     --engine target/release/punct --depth 5 --window 100 > tournaments/openings.txt
//! ```
//!
//! Each candidate plays between `--min-plies` and `--max-plies` uniform random legal moves
//! (the number drawn uniformly too). It is dropped when the side to move has a winning move or
//! the opponent would have one if it could move now (the referee's `builtin:greedy` win search,
//! exact), or when the engine's `go depth N` score (after `ucinewgame`) is a mate or outside
//! `±window`. The output is one position string per line (`PIECES SIDE PLY`, what
//! `-openings file=` reads), with a header recording the command; the same arguments and
//! engine give the same file.

use std::collections::HashSet;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use punct::referee::cli::build_engine;
use punct::referee::players::greedy::winning_moves;
use punct::referee::players::player::{EnginePlayer, Player, Score, ThinkRequest, Timeouts};
use punct::{Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

struct Args {
    seed: u64,
    count: usize,
    engine: String,
    depth: u32,
    window: i32,
    min_plies: u32,
    max_plies: u32,
    variant: Variant,
}

fn parse_args() -> Result<Args> {
    let mut a = Args {
        seed: 1,
        count: 300,
        engine: "target/release/punct".into(),
        depth: 5,
        window: 100,
        min_plies: 2,
        max_plies: 6,
        variant: Variant::Standard,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        let num = || {
            value
                .parse::<i64>()
                .ok()
                .filter(|v| *v >= 0)
                .with_context(|| format!("{flag}: not a number: {value}"))
        };
        match flag.as_str() {
            "--seed" => a.seed = num()? as u64,
            "--count" => a.count = num()? as usize,
            "--engine" => a.engine = value.clone(),
            "--depth" => a.depth = num()? as u32,
            "--window" => a.window = num()? as i32,
            "--min-plies" => a.min_plies = num()? as u32,
            "--max-plies" => a.max_plies = num()? as u32,
            "--variant" => {
                a.variant = Variant::from_name(value)
                    .with_context(|| format!("--variant: standard or basic, not {value}"))?
            }
            _ => bail!("unknown flag {flag} (--seed --count --engine --depth --window --min-plies --max-plies --variant)"),
        }
    }
    if a.min_plies > a.max_plies || a.count == 0 || a.depth == 0 {
        bail!("need 0 < count, 0 < depth and min-plies <= max-plies");
    }
    Ok(a)
}

/// Whether the side to move, or its opponent if it could move now, has a winning move.
fn someone_wins_at_once(pos: &mut Position) -> bool {
    if !winning_moves(pos, 1).is_empty() {
        return true;
    }
    pos.make(Move::Pass);
    let threat = !winning_moves(pos, 1).is_empty();
    pos.unmake();
    threat
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let cfg = build_engine(
        &[],
        &[
            format!("cmd={}", args.engine),
            format!("depth={}", args.depth),
        ],
        "--engine",
    )
    .map_err(anyhow::Error::msg)?;
    let mut engine = EnginePlayer::new(
        cfg,
        Timeouts {
            startup: Duration::from_secs(10),
            ready: Duration::from_secs(10),
        },
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let (mut tried, mut decided, mut unbalanced) = (0u64, 0u64, 0u64);
    let go = format!("go depth {}", args.depth);
    while kept.len() < args.count {
        tried += 1;
        if tried > 100 * args.count as u64 + 1000 {
            bail!(
                "only {} balanced openings in {tried} tries: widen --window",
                kept.len()
            );
        }
        let plies = rng.gen_range(args.min_plies..=args.max_plies);
        let mut pos = Position::new(args.variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if pos.is_finished() || moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        let text = pos.to_string();
        if pos.is_finished() || pos.ply() != plies || !seen.insert(text.clone()) {
            continue;
        }
        if someone_wins_at_once(&mut pos) {
            decided += 1;
            continue;
        }
        engine
            .new_game(0)
            .map_err(|f| anyhow::anyhow!("engine {}: {f:?}", args.engine))?;
        let position = format!("position fen {text}");
        let reply = engine
            .think(&ThinkRequest {
                position: &position,
                go: &go,
                deadline: Duration::from_secs(60),
                pos: &pos,
            })
            .map_err(|f| anyhow::anyhow!("engine {}: {f:?}", args.engine))?;
        match reply.info.score {
            Some(Score::Cp(cp)) if cp.abs() <= args.window => kept.push((text, cp)),
            _ => unbalanced += 1,
        }
    }
    engine.shutdown();
    println!(
        "# Openings for strength tests: {} positions of {}-{} random plies, {} game, neither side \
         able to win at once, engine score within +-{} at depth {}.",
        args.count,
        args.min_plies,
        args.max_plies,
        args.variant.name(),
        args.window,
        args.depth
    );
    println!(
        "# Made by: cargo run --release --example make_openings -- --seed {} --count {} \
         --engine {} --depth {} --window {} --min-plies {} --max-plies {} --variant {}",
        args.seed,
        args.count,
        args.engine,
        args.depth,
        args.window,
        args.min_plies,
        args.max_plies,
        args.variant.name()
    );
    println!(
        "# Candidates: {tried}; dropped: {decided} with a win in one, {unbalanced} unbalanced."
    );
    for (text, _) in &kept {
        println!("{text}");
    }
    let mean = kept.iter().map(|(_, cp)| *cp as f64).sum::<f64>() / kept.len() as f64;
    eprintln!(
        "kept {} of {tried} (win in one {decided}, unbalanced {unbalanced}); mean score {mean:.1}",
        kept.len()
    );
    Ok(())
}
