//! Release tool for the search: `bench [depth]`, `selfplay <games> <depth> <random plies>`
//! (prints positions along the games), `go <depth> <position...>`.

use punct::engine::bench;
use punct::engine::search::Searcher;
use punct::engine::types::{Limits, SearchControl};
use punct::{parse_position, Position, Variant};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut searcher = Searcher::new(16);
    match args.first().map(String::as_str) {
        Some("bench") | None => {
            let depth = args
                .get(1)
                .and_then(|d| d.parse().ok())
                .unwrap_or(bench::DEFAULT_DEPTH);
            let r = bench::run(&mut searcher, depth);
            println!(
                "positions {} nodes {} time {:?} nps {}",
                r.positions,
                r.nodes,
                r.time,
                r.nps()
            );
        }
        Some("go") => {
            let depth: u32 = args[1].parse().unwrap();
            let text = args[2..].join(" ");
            let pos = parse_position(&text, Variant::Standard).unwrap();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = searcher.search(&pos, &limits, &SearchControl::default(), &mut |i| {
                println!(
                    "info depth {} score {:?} nodes {} nps {} time {:?} pv {:?}",
                    i.depth,
                    i.score,
                    i.nodes,
                    i.nps(),
                    i.time,
                    i.pv
                )
            });
            println!("{r:?}");
        }
        Some("selfplay") => {
            let games: u64 = args[1].parse().unwrap();
            let depth: u32 = args[2].parse().unwrap();
            let random: u32 = args[3].parse().unwrap();
            for g in 0..games {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
                let mut pos = Position::new(Variant::Standard);
                while !pos.is_finished() && pos.ply() < 200 {
                    let mv = if pos.ply() < random {
                        *pos.legal_moves().choose(&mut rng).unwrap()
                    } else {
                        let limits = Limits {
                            depth: Some(depth),
                            ..Limits::default()
                        };
                        let r =
                            searcher.search(&pos, &limits, &SearchControl::default(), &mut |_| {});
                        r.best.unwrap()
                    };
                    pos.make(mv);
                    println!("{} {}", g, pos);
                }
                println!("game {g} result {:?} plies {}", pos.outcome(), pos.ply());
            }
        }
        Some(other) => eprintln!("unknown command {other}"),
    }
}
