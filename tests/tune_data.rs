//! Data at scale: the in-process generator and the sample formats. Format round trips (text,
//! JSON Lines and binary, on generated data), shards disjoint and complete, the same file for
//! a seed whatever the threads, resume after a crash, the labels checked against the games
//! (positions replayed from the journal, best moves legal, results, score signs), version-1
//! files, and broken binary files refused with an error, never a panic.

use crate::referee_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use punct::engine::search::params::Params;
use punct::referee::players::player::Score;
use punct::referee::settings::Shard;
use punct::rules::notation::{parse_move, parse_position};
use punct::tune::convert::convert;
use punct::tune::data::{binary, read_all, read_samples, Format, Sample};
use punct::tune::genrun::{journal_path, run, shard_games, GenRun};
use punct::tune::selfplay::GenSettings;
use punct::{Colour, Variant};
use referee_common::tmpdir;
use serde_json::Value;

fn settings(srand: u64) -> GenSettings {
    GenSettings {
        variant: Variant::Standard,
        // Below some 500 nodes a search may complete no iteration (no label).
        nodes: 700,
        play_nodes: 300,
        plies: 4,
        freq: 0.5,
        skip_plies: 4,
        quiet: true,
        srand,
        max_moves: 300,
        repetition: true,
        hash_mb: 2,
        params: Params::default(),
    }
}

fn gen(out: &Path, games: u64, threads: usize, shard: Option<Shard>, srand: u64) -> u64 {
    let r = GenRun {
        settings: settings(srand),
        out: out.to_path_buf(),
        format: Format::of_path(out),
        games,
        shard,
        threads,
        resume: false,
        overwrite: true,
        progress_s: 0.0,
    };
    let rep = run(&r).unwrap();
    assert!(!rep.interrupted);
    rep.positions
}

fn resume(out: &Path, games: u64) {
    let r = GenRun {
        settings: settings(3),
        out: out.to_path_buf(),
        format: Format::of_path(out),
        games,
        shard: None,
        threads: 2,
        resume: true,
        overwrite: false,
        progress_s: 0.0,
    };
    run(&r).unwrap();
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

fn samples(p: &Path) -> Vec<Sample> {
    read_all(&[p]).unwrap()
}

#[test]
fn formats_round_trip_on_generated_data() {
    let dir = tmpdir("tune-data-formats");
    let txt = dir.join("g.txt");
    let n = gen(&txt, 6, 2, None, 3);
    assert!(n > 40, "{n} positions");
    let bin = dir.join("g.bin");
    assert_eq!(gen(&bin, 6, 2, None, 3), n);
    // text -> bin is what gen wrote in bin; bin -> text gives the text file back, byte for
    // byte; the same through JSON Lines.
    let conv = |a: &PathBuf, b: &str| {
        let out = dir.join(b);
        let c = convert(std::slice::from_ref(a), &out, Format::of_path(&out), None).unwrap();
        assert_eq!(c.positions, n);
        assert_eq!(c.bytes, std::fs::metadata(&out).unwrap().len());
        out
    };
    let bin2 = conv(&txt, "c.bin");
    assert_eq!(bytes(&bin2), bytes(&bin));
    assert_eq!(bytes(&conv(&bin2, "c.txt")), bytes(&txt));
    let jsonl = conv(&txt, "c.jsonl");
    assert_eq!(bytes(&conv(&jsonl, "d.txt")), bytes(&txt));
    assert_eq!(bytes(&conv(&jsonl, "d.bin")), bytes(&bin));
    let all = samples(&bin);
    assert_eq!(all, samples(&txt));
    assert_eq!(all, samples(&jsonl));
    assert_eq!(
        read_samples(&bin).unwrap().variant(),
        Some(Variant::Standard)
    );
    assert_eq!(
        std::fs::metadata(&bin).unwrap().len(),
        (n + 1) * binary::BLOCK as u64
    );
    // Binary files concatenate (each keeps its header); a mixed-variant merge is refused.
    let cat = dir.join("cat.bin");
    std::fs::write(&cat, [bytes(&bin), bytes(&bin)].concat()).unwrap();
    assert_eq!(samples(&cat), [all.clone(), all.clone()].concat());
    let basic = dir.join("basic.bin");
    convert(
        std::slice::from_ref(&txt),
        &basic,
        Format::Bin,
        Some(Variant::Basic),
    )
    .unwrap();
    std::fs::write(&cat, [bytes(&bin), bytes(&basic)].concat()).unwrap();
    let e = read_all(&[&cat]).unwrap_err();
    assert!(e.contains("another variant"), "{e}");
}

#[test]
fn the_same_file_for_a_seed_whatever_the_threads_and_shards_partition_it() {
    let dir = tmpdir("tune-data-determinism");
    let one = dir.join("one.bin");
    let two = dir.join("two.bin");
    gen(&one, 8, 1, None, 5);
    gen(&two, 8, 2, None, 5);
    assert_eq!(bytes(&one), bytes(&two));
    let other = dir.join("other.bin");
    gen(&other, 8, 2, None, 6);
    assert_ne!(bytes(&one), bytes(&other));
    // Shards: every game in exactly one, and their data together is the whole run's.
    for count in 1..6u32 {
        let mut seen = vec![0; 30];
        for index in 0..count {
            for g in shard_games(30, Some(Shard { index, count })) {
                seen[g as usize - 1] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "{count}: {seen:?}");
    }
    let mut merged = Vec::new();
    for index in 0..3 {
        let part = dir.join(format!("s{index}.bin"));
        gen(&part, 8, 1, Some(Shard { index, count: 3 }), 5);
        let games: Vec<u64> = samples(&part).iter().map(|s| s.game).collect();
        assert!(games.iter().all(|g| (g - 1) % 3 == u64::from(index)));
        merged.extend(samples(&part));
    }
    merged.sort_by_key(|s| (s.game, s.ply));
    assert_eq!(merged, samples(&one));
}

#[test]
fn labels_match_the_games() {
    let dir = tmpdir("tune-data-labels");
    let out = dir.join("l.txt");
    gen(&out, 24, 2, None, 11);
    let games: BTreeMap<u64, Value> = std::fs::read_to_string(journal_path(&out))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "game")
        .map(|v| (v["game"].as_u64().unwrap(), v))
        .collect();
    assert_eq!(games.len(), 24);
    let all = samples(&out);
    let mut by_game: BTreeMap<u64, Vec<&Sample>> = BTreeMap::new();
    for s in &all {
        by_game.entry(s.game).or_default().push(s);
    }
    for (g, v) in &games {
        let list = by_game.remove(g).unwrap_or_default();
        assert_eq!(list.len() as u64, v["samples"].as_u64().unwrap());
        // Replay the game: each sample is the position at its ply, its best move is legal
        // there and is the move played; the game ends with the recorded result.
        let mut pos = parse_position(v["opening"].as_str().unwrap(), Variant::Standard).unwrap();
        let mut next = list.iter().peekable();
        for m in v["moves"].as_array().unwrap() {
            let mv = parse_move(m.as_str().unwrap()).unwrap();
            if let Some(s) = next.next_if(|s| s.ply == pos.ply()) {
                assert_eq!(s.position, pos.to_string());
                assert_eq!(s.side, pos.side_to_move());
                assert!(s.ply >= 4);
                let best = s.best.unwrap();
                assert!(pos.legal_moves().contains(&best), "{best} in {pos}");
                assert_eq!(best, mv);
                assert!(s.depth.unwrap() >= 1);
                assert_eq!(s.result, v["result"].as_str().unwrap());
            }
            pos.play(mv).unwrap();
        }
        assert!(next.next().is_none(), "game {g}: samples beyond its moves");
        let result = match pos.outcome().map(|o| o.winner) {
            Some(Some(Colour::White)) => "1-0",
            Some(Some(Colour::Black)) => "0-1",
            Some(None) => "1/2-1/2",
            None => {
                // Ended by the generator's draw rules.
                assert!(["repetition", "max_moves"].contains(&v["reason"].as_str().unwrap()));
                "1/2-1/2"
            }
        };
        assert_eq!(v["result"].as_str().unwrap(), result, "game {g}");
    }
    assert!(by_game.is_empty(), "samples of games not in the journal");
    // The score is the side to move's: it predicts the result for the side to move, for
    // either side (from White's point of view Black's positions would go the other way).
    for side in Colour::ALL {
        let pts: Vec<(f64, f64)> = all
            .iter()
            .filter(|s| s.side == side)
            .map(|s| {
                let x = match s.score.unwrap() {
                    Score::Cp(c) => (c as f64).clamp(-1000.0, 1000.0),
                    Score::Mate(m) => 1000.0 * (m as f64).signum(),
                };
                (x, s.result_for_side())
            })
            .collect();
        let n = pts.len() as f64;
        let (mx, my) = (
            pts.iter().map(|p| p.0).sum::<f64>() / n,
            pts.iter().map(|p| p.1).sum::<f64>() / n,
        );
        let cov: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let vx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
        let vy: f64 = pts.iter().map(|p| (p.1 - my).powi(2)).sum();
        let r = cov / (vx * vy).sqrt();
        assert!(pts.len() > 100 && r > 0.2, "{side:?}: r = {r:.3} over {n}");
    }
}

#[test]
fn resume_after_a_crash_gives_the_uninterrupted_file() {
    let dir = tmpdir("tune-data-resume");
    for name in ["r.txt", "r.bin"] {
        let whole = dir.join(format!("whole-{name}"));
        gen(&whole, 6, 2, None, 3);
        let out = dir.join(name);
        gen(&out, 3, 2, None, 3);
        // A crash in the middle of the next game: half its data written, its journal line
        // torn.
        let mut data = bytes(&out);
        let len = data.len();
        data.extend_from_slice(&bytes(&whole)[len..len + 50]);
        std::fs::write(&out, data).unwrap();
        let j = journal_path(&out);
        let mut journal = std::fs::read_to_string(&j).unwrap();
        journal.push_str("{\"type\":\"game\",\"game\":4,");
        std::fs::write(&j, journal).unwrap();
        resume(&out, 6);
        assert_eq!(bytes(&out), bytes(&whole), "{name}");
        let lines = |p: &Path| std::fs::read_to_string(journal_path(p)).unwrap();
        assert_eq!(lines(&out), lines(&whole));
        // Resuming a finished run plays nothing more; other settings are refused.
        resume(&out, 6);
        assert_eq!(bytes(&out), bytes(&whole));
        let r = GenRun {
            settings: settings(4),
            out: out.clone(),
            format: Format::of_path(&out),
            games: 6,
            shard: None,
            threads: 1,
            resume: true,
            overwrite: false,
            progress_s: 0.0,
        };
        assert!(run(&r).unwrap_err().contains("other settings"));
    }
}

#[test]
fn version_1_files_are_still_read() {
    let dir = tmpdir("tune-data-v1");
    let txt = dir.join("v1.txt");
    std::fs::write(
        &txt,
        "# punct-sample 1 text: PIECES SIDE PLY SCORE(cp:N|mate:N|-) DEPTH RESULT GAME\n\
         Wb7b8b9/Wd12d11c10/Bk7j6j7/Bo10o9p9 w 4 cp:135 4 0-1 2\n\
         Wb7b8b9 b 1 - - 1/2-1/2 3\n",
    )
    .unwrap();
    let jsonl = dir.join("v1.jsonl");
    std::fs::write(
        &jsonl,
        "{\"type\":\"sample\",\"version\":1,\"position\":\"Wb7b8b9/Wd12d11c10/Bk7j6j7/Bo10o9p9 w 4\",\
         \"side\":\"w\",\"ply\":4,\"score\":{\"cp\":135},\"depth\":4,\"result\":\"0-1\",\"game\":2}\n",
    )
    .unwrap();
    let t = samples(&txt);
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].score, Some(Score::Cp(135)));
    assert_eq!((t[0].best, t[1].best, t[1].score), (None, None, None));
    assert_eq!(samples(&jsonl), t[..1]);
    // And they convert to version 2 (no best move: `-`).
    let out = dir.join("v2.txt");
    convert(&[txt], &out, Format::Text, None).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("# punct-sample 2 text"));
    assert!(text.contains("Wb7b8b9 b 1 - - 1/2-1/2 3 -\n"), "{text}");
}

#[test]
fn broken_binary_files_are_errors_not_panics() {
    let dir = tmpdir("tune-data-broken");
    let bin = dir.join("b.bin");
    let n = gen(&bin, 3, 2, None, 3) as usize;
    let good = bytes(&bin);
    let read = |data: &[u8]| {
        let p = dir.join("x.bin");
        std::fs::write(&p, data).unwrap();
        read_samples(&p).and_then(|r| r.collect::<Result<Vec<_>, _>>())
    };
    assert_eq!(read(&good).unwrap().len(), n);
    // Truncated: in a record, in the header.
    let e = read(&good[..good.len() - 10]).unwrap_err();
    assert!(e.contains("truncated") && e.contains("78 bytes"), "{e}");
    let e = read(&good[..40]).unwrap_err();
    assert!(e.contains("truncated"), "{e}");
    // A newer version, a bad piece code, reserved bits.
    let mut v = good.clone();
    v[8] = 9;
    assert!(read(&v).unwrap_err().contains("version 9"));
    let at = binary::BLOCK;
    let mut v = good.clone();
    v[at + 16..at + 18].copy_from_slice(&0x7FFFu16.to_le_bytes());
    let e = read(&v).unwrap_err();
    assert!(e.contains(&format!("record at byte {at}")), "{e}");
    let mut v = good.clone();
    v[at + 6] |= 0x80;
    assert!(read(&v).unwrap_err().contains("reserved"));
    // Random damage anywhere: an error or other samples, never a panic.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..2000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut v = good.clone();
        let i = (state % v.len() as u64) as usize;
        v[i] ^= 1 << ((state >> 32) % 8);
        let _ = read(&v);
    }
}
