//! `-sample`: every record is a position of its game (replaying the journal's moves from the
//! opening reaches it, and playing the rest of the game reaches the recorded result), with the
//! score and depth the engine reported there; a crash and `-resume` lose or double nothing.

use crate::referee_common;

use std::collections::BTreeMap;
use std::path::Path;

use punct::referee::players::player::Score;
use punct::referee::records::sample::{read_samples, Sample};
use punct::rules::notation::{parse_move, parse_position};
use punct::Variant;
use referee_common::*;
use serde_json::Value;

const ENGINE: &str = env!("CARGO_BIN_EXE_punct");

fn run(dir: &Path, engine: &str, extra: &[&str]) -> std::process::Output {
    let mut c = referee();
    c.args(["-each", engine, "-engine", "name=a", "-engine", "name=b"]);
    c.args(["-games", "6", "-random-openings", "plies=2", "-srand", "5"]);
    c.args(["-ratinginterval", "0", "-concurrency", "2", "-jsonl"]);
    c.arg(dir.join("g.jsonl")).args(extra);
    c.output().unwrap()
}

fn games_by_number(dir: &Path) -> BTreeMap<u64, Value> {
    read_jsonl(&dir.join("g.jsonl"))
        .into_iter()
        .filter(|v| v["type"] == "game")
        .map(|v| (v["game"].as_u64().unwrap(), v))
        .collect()
}

#[test]
fn samples_replay_to_their_games_and_results() {
    let dir = tmpdir("tune-sample-replay");
    let file = dir.join("s.jsonl");
    let engine = format!("cmd={ENGINE}");
    let out = run(
        &dir,
        &engine,
        &[
            "-each",
            "nodes=300",
            "-sample",
            &format!("file={}", file.display()),
            "format=jsonl",
            "skipplies=3",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = games_by_number(&dir);
    let samples = read_samples(&file).unwrap();
    assert!(samples.len() > 20, "{} samples", samples.len());
    let mut per_game = BTreeMap::<u64, usize>::new();
    for s in &samples {
        *per_game.entry(s.game).or_default() += 1;
        let g = &games[&s.game];
        assert_eq!(s.result, g["result"].as_str().unwrap());
        assert!(s.ply >= 3);
        let mut pos = parse_position(g["opening"].as_str().unwrap(), Variant::Standard).unwrap();
        let moves = g["moves"].as_array().unwrap();
        let first = pos.ply();
        let mut found = false;
        for (i, m) in moves.iter().enumerate() {
            if pos.ply() == s.ply {
                assert_eq!(pos.to_string(), s.position, "game {} ply {}", s.game, s.ply);
                assert_eq!(pos.side_to_move(), s.side);
                let score: Option<Score> = serde_json::from_value(m["score"].clone()).ok();
                assert_eq!(s.score, score);
                assert_eq!(s.depth, m["depth"].as_u64().map(|d| d as u32));
                assert!(
                    s.score.is_some() && s.depth.is_some(),
                    "the engine reports both"
                );
                // The best-move label (version 2) is the move the engine chose there.
                assert_eq!(s.best.map(|b| b.to_string()).as_deref(), m["move"].as_str());
                found = true;
            }
            pos.play(parse_move(m["move"].as_str().unwrap()).unwrap())
                .unwrap();
            assert_eq!(pos.ply() as usize, first as usize + i + 1);
        }
        assert!(found, "game {} has no ply {}", s.game, s.ply);
        // The rest of the game from the sampled position reaches the recorded result.
        if g["reason"] == "connection" || g["reason"] == "centre_count" {
            let o = pos.outcome().expect("the game ended by the rules");
            let result = match o.winner {
                Some(punct::Colour::White) => "1-0",
                Some(punct::Colour::Black) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(result, s.result);
        }
    }
    // Every position the engine moved from, from ply 3 on, is there (freq 1, no filter).
    for (n, g) in &games {
        let opening_ply: usize = g["opening"]
            .as_str()
            .unwrap()
            .split(' ')
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        let moves = g["moves"].as_array().unwrap().len();
        let expected = (opening_ply..opening_ply + moves)
            .filter(|&p| p >= 3)
            .count();
        assert_eq!(per_game.get(n).copied().unwrap_or(0), expected, "game {n}");
    }
}

fn sorted_lines(path: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

#[test]
fn resume_after_a_crash_loses_and_doubles_nothing() {
    let whole = tmpdir("tune-sample-resume");
    // The crash is staged in the same directory (the journal's fingerprint names its paths).
    let cut = &whole;
    let rnd = "cmd=builtin:random";
    let sample = |d: &Path| format!("file={}", d.join("s.txt").display());
    let out = run(&whole, rnd, &["-sample", &sample(&whole), "freq=0.6"]);
    assert!(out.status.success());
    let expected = sorted_lines(&whole.join("s.txt"));
    assert!(expected.len() > 30);

    // A crash after game 3 entered the journal and while game 4's samples were being written:
    // the journal holds games 1-3, the sample file also game 4's lines and a torn one.
    let journal = std::fs::read_to_string(whole.join("g.jsonl")).unwrap();
    let mut kept = String::new();
    for line in journal.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "start" || (v["type"] == "game" && v["game"].as_u64().unwrap() <= 3) {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    std::fs::write(cut.join("g.jsonl"), kept).unwrap();
    let text = std::fs::read_to_string(whole.join("s.txt")).unwrap();
    let mut partial = String::new();
    for line in text.lines() {
        let game = line.split(' ').nth(6).and_then(|g| g.parse::<u64>().ok());
        if game.is_none_or(|g| g <= 4) {
            partial.push_str(line);
            partial.push('\n');
        }
    }
    partial.push_str("Wc5c6d6 b 1 - - 1-");
    std::fs::write(cut.join("s.txt"), partial).unwrap();

    let again = run(cut, rnd, &["-sample", &sample(cut), "freq=0.6"]);
    assert!(
        !again.status.success(),
        "a fresh run refuses an existing sample file"
    );
    let resumed = run(cut, rnd, &["-sample", &sample(cut), "freq=0.6", "-resume"]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(sorted_lines(&cut.join("s.txt")), expected);
    let s: Vec<Sample> = read_samples(&cut.join("s.txt")).unwrap();
    assert_eq!(s.len(), expected.len() - 1, "one header line");
}
