//! Release tool for the search: `bench [depth]`, `selfplay <games> <depth> <random plies>`
//! (prints positions along the games), `go <depth> <position...>`.

use punct::engine::search::bench;
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
        Some("scan") => {
            // Prints positions with a one-move win (by kind of move) and with the opponent's
            // threat, for hand-picking test positions.
            let text = args[1..].join(" ");
            let pos = parse_position(&text, Variant::Standard).unwrap();
            let p = pos.clone();
            let win = punct::engine::search::threats::find_win(&p);
            println!("win {win:?}");
            let s = pos.to_string();
            let mut f: Vec<&str> = s.split(' ').collect();
            let flipped = if f[1] == "w" { "b" } else { "w" };
            f[1] = flipped;
            let q = parse_position(&f.join(" "), Variant::Standard).unwrap();
            println!(
                "opponent win {:?}",
                punct::engine::search::threats::find_win(&q)
            );
        }
        Some("lostcheck") => {
            // For every move, a winning reply: by find_win, else by brute force.
            let text = args[1..].join(" ");
            let mut pos = parse_position(&text, Variant::Standard).unwrap();
            let mut safe = Vec::new();
            let (mut by_fw, mut brute) = (0, 0);
            for mv in pos.legal_moves() {
                pos.make(mv);
                let them = pos.side_to_move();
                let mut refuted = pos.outcome().is_some_and(|o| o.winner == Some(them));
                if !refuted {
                    if let Some(w) = punct::engine::search::threats::find_win(&pos) {
                        pos.make(w);
                        refuted = pos.outcome().is_some_and(|o| o.winner == Some(them));
                        pos.unmake();
                        by_fw += refuted as u32;
                    }
                }
                if !refuted && !pos.is_finished() {
                    for r in pos.legal_moves() {
                        pos.make(r);
                        if pos.outcome().is_some_and(|o| o.winner == Some(them)) {
                            refuted = true;
                        }
                        pos.unmake();
                        if refuted {
                            brute += 1;
                            break;
                        }
                    }
                }
                if !refuted {
                    safe.push(mv);
                }
                pos.unmake();
            }
            println!("refuted by find_win {by_fw}, by brute force only {brute}, safe {safe:?}");
        }
        Some("wincheck") => {
            // Reads "<game> <position>" lines on stdin; compares find_win with brute force.
            use std::io::BufRead;
            let (mut n, mut wins, mut bad) = (0, 0, 0);
            for line in std::io::stdin().lock().lines() {
                let line = line.unwrap();
                let Some((_, text)) = line.split_once(' ') else {
                    continue;
                };
                let Ok(mut pos) = parse_position(text, Variant::Standard) else {
                    continue;
                };
                if pos.is_finished() {
                    continue;
                }
                let us = pos.side_to_move();
                let fw = punct::engine::search::threats::find_win(&pos);
                let mut brute = None;
                for mv in pos.legal_moves() {
                    pos.make(mv);
                    if pos.outcome().is_some_and(|o| o.winner == Some(us)) {
                        brute = Some(mv);
                    }
                    pos.unmake();
                    if brute.is_some() {
                        break;
                    }
                }
                n += 1;
                wins += brute.is_some() as u32;
                if fw.is_some() != brute.is_some() {
                    bad += 1;
                    println!("MISMATCH {text}: find_win {fw:?} brute {brute:?}");
                }
            }
            println!("positions {n} with a win {wins} mismatches {bad}");
        }
        Some("timegame") => {
            // Engine against itself on a clock: `timegame <games> <ms> <inc ms>`.
            let games: u64 = args[1].parse().unwrap();
            let base: u64 = args[2].parse().unwrap();
            let inc: u64 = args[3].parse().unwrap();
            for g in 0..games {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(g);
                let mut pos = Position::new(Variant::Standard);
                let mut clock = [std::time::Duration::from_millis(base); 2];
                let mut lowest = clock[0];
                let mut flagged = false;
                let mut searchers = [Searcher::new(16), Searcher::new(16)];
                while !pos.is_finished() && pos.ply() < 300 {
                    let side = pos.side_to_move().index();
                    let mv = if pos.ply() < 4 {
                        *pos.legal_moves().choose(&mut rng).unwrap()
                    } else {
                        let limits = Limits {
                            time_left: Some(clock[side]),
                            increment: std::time::Duration::from_millis(inc),
                            move_overhead: std::time::Duration::from_millis(10),
                            ..Limits::default()
                        };
                        let t = std::time::Instant::now();
                        let r = searchers[side].search(
                            &pos,
                            &limits,
                            &SearchControl::default(),
                            &mut |_| {},
                        );
                        let used = t.elapsed();
                        if used >= clock[side] {
                            flagged = true;
                            println!("FLAG ply {} used {used:?} of {:?}", pos.ply(), clock[side]);
                        }
                        clock[side] = clock[side].saturating_sub(used)
                            + std::time::Duration::from_millis(inc);
                        lowest = lowest.min(clock[side]);
                        if std::env::var("VERBOSE").is_ok() {
                            println!("{pos}");
                            println!(
                                "ply {} depth {} score {:?} nodes {} used {used:?} {}",
                                pos.ply(),
                                r.depth,
                                r.score,
                                r.nodes,
                                r.best.unwrap()
                            );
                        }
                        r.best.unwrap()
                    };
                    pos.make(mv);
                }
                println!(
                    "game {g} {:?} plies {} lowest clock {lowest:?} flagged {flagged}",
                    pos.outcome(),
                    pos.ply()
                );
            }
        }
        Some("movetime") => {
            // `movetime <ms> <runs>`: how far past the movetime the search returns, over the
            // bench positions, with a 10 ms move overhead.
            let ms: u64 = args[1].parse().unwrap();
            let runs: usize = args[2].parse().unwrap();
            let mut over = Vec::new();
            for (i, pos) in bench::positions().iter().cycle().take(runs).enumerate() {
                let limits = Limits {
                    movetime: Some(std::time::Duration::from_millis(ms)),
                    move_overhead: std::time::Duration::from_millis(10),
                    ..Limits::default()
                };
                let t = std::time::Instant::now();
                searcher.search(pos, &limits, &SearchControl::default(), &mut |_| {});
                let took = t.elapsed().as_secs_f64() * 1000.0;
                over.push(took - ms as f64);
                let _ = i;
            }
            over.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!(
                "runs {} movetime {ms} ms: return minus movetime median {:.2} ms, worst {:.2} ms",
                over.len(),
                over[over.len() / 2],
                over[over.len() - 1]
            );
        }
        Some("stoplat") => {
            // `stoplat <runs>`: time from setting the stop flag to the search returning, with
            // infinite searches on the bench positions stopped after 20-70 ms.
            let runs: usize = args[1].parse().unwrap();
            let mut lat = Vec::new();
            for (i, pos) in bench::positions().iter().cycle().take(runs).enumerate() {
                let ctl = std::sync::Arc::new(SearchControl::default());
                let c2 = std::sync::Arc::clone(&ctl);
                let pos = pos.clone();
                let h = std::thread::spawn(move || {
                    let limits = Limits {
                        infinite: true,
                        ..Limits::default()
                    };
                    Searcher::new(16).search(&pos, &limits, &c2, &mut |_| {});
                    std::time::Instant::now()
                });
                std::thread::sleep(std::time::Duration::from_millis(20 + (i as u64 * 7) % 50));
                let t = std::time::Instant::now();
                ctl.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                let end = h.join().unwrap();
                lat.push(end.duration_since(t).as_secs_f64() * 1000.0);
            }
            lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!(
                "runs {} stop latency median {:.3} ms, worst {:.3} ms",
                lat.len(),
                lat[lat.len() / 2],
                lat[lat.len() - 1]
            );
        }
        Some("zonecheck") => {
            // Reads "<game> <position>" lines; where the opponent threatens, checks that every
            // move leaving the opponent no win meets the threat zone.
            use std::io::BufRead;
            let (mut n, mut bad, mut stoppers) = (0, 0, 0);
            for line in std::io::stdin().lock().lines() {
                let line = line.unwrap();
                let Some((_, text)) = line.split_once(' ') else {
                    continue;
                };
                let Ok(mut pos) = parse_position(text, Variant::Standard) else {
                    continue;
                };
                let Some(zone) = punct::engine::search::threats::threat_zone(&pos) else {
                    continue;
                };
                n += 1;
                for mv in pos.legal_moves() {
                    let lifted = match mv {
                        punct::Move::Shift { from, .. } => {
                            pos.top_piece(from).map(|i| pos.piece(i).placement.cells())
                        }
                        _ => None,
                    };
                    let meets = mv
                        .placement()
                        .map(|pl| pl.cells())
                        .into_iter()
                        .chain(lifted)
                        .flatten()
                        .any(|c| zone.contains(c));
                    if meets {
                        continue;
                    }
                    pos.make(mv);
                    let them = pos.side_to_move();
                    let mut refuted = pos.outcome().is_some_and(|o| o.winner == Some(them));
                    if !refuted && !pos.is_finished() {
                        if let Some(w) = punct::engine::search::threats::find_win(&pos) {
                            pos.make(w);
                            refuted = pos.outcome().is_some_and(|o| o.winner == Some(them));
                            pos.unmake();
                        }
                    }
                    let ended = pos.is_finished();
                    pos.unmake();
                    if !refuted && !ended {
                        stoppers += 1;
                        bad += 1;
                        println!("OUTSIDE {text}: {mv}");
                    }
                }
            }
            println!(
                "threatened positions {n}, stopping moves outside the zone {bad} ({stoppers})"
            );
        }
        Some(other) => eprintln!("unknown command {other}"),
    }
}
