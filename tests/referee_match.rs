//! Whole runs: a match of the mock engine against builtin:random with legal games and readable
//! records, tournaments, limits, adjudication, SPRT, the compliance checklist and shipped configs.

use crate::referee_common;

use punct::referee::cli::{parse_args, Command};
use punct::referee::stats::sprt::SprtDecision;
use punct::{parse_move, parse_position, Colour, Variant};
use referee_common::*;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let (code, out, _) = output_of(referee().args(args));
    (code, out)
}

#[test]
fn mock_against_random_plays_legal_games_with_readable_records() {
    let dir = tmpdir("match");
    let (pgn, jsonl) = (dir.join("m.pgn"), dir.join("m.jsonl"));
    let (code, out) = run(&[
        "-engine",
        &format!("cmd={MOCK}"),
        "name=mock",
        "tc=10+0.1",
        "-engine",
        "cmd=builtin:random",
        "name=rnd",
        "-games",
        "20",
        "-concurrency",
        "2",
        "-random-openings",
        "plies=3",
        "-srand",
        "4",
        "-pgnout",
        pgn.to_str().unwrap(),
        "-jsonl",
        jsonl.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.matches("Finished game ").count(), 20);
    assert!(out.contains("Score of mock vs rnd: "));
    assert!(out.contains("Ptnml(0-2): ["));
    assert!(out.contains("Finished match"));
    let objs = read_jsonl(&jsonl);
    assert!(objs.iter().all(|o| o["version"] == 1));
    let gs = games(&objs);
    assert_eq!(gs.len(), 20);
    for g in &gs {
        // Replay independently of the referee.
        let mut pos = parse_position(&s(&g["opening"]), Variant::Standard).unwrap();
        assert_eq!(pos.ply(), 3);
        for m in g["moves"].as_array().unwrap() {
            pos.play(parse_move(&s(&m["move"])).unwrap()).unwrap();
            assert!(m["ms"].as_f64().unwrap() >= 0.0);
        }
        assert_eq!(pos.to_string(), s(&g["final_position"]));
        assert!(g.get("fault_player").is_none(), "{g}");
        match s(&g["reason"]).as_str() {
            "repetition" => assert_eq!(g["result"], "1/2-1/2"),
            _ => {
                let o = pos.outcome().expect("rules ended the game");
                let r = match o.winner {
                    Some(Colour::White) => "1-0",
                    Some(Colour::Black) => "0-1",
                    None => "1/2-1/2",
                };
                assert_eq!(s(&g["result"]), r);
            }
        }
    }
    // Ten pairs of two games (in whatever order they finished), each pair one opening with
    // colours swapped.
    let mut pairs: std::collections::BTreeMap<u64, Vec<&serde_json::Value>> = Default::default();
    for g in &gs {
        pairs
            .entry(g["pair"].as_u64().unwrap())
            .or_default()
            .push(g);
    }
    assert_eq!(pairs.len(), 10, "{:?}", pairs.keys());
    for (pair, games) in &pairs {
        assert_eq!(games.len(), 2, "pair {pair}");
        let (a, b) = (games[0], games[1]);
        assert_eq!(a["opening"], b["opening"], "pair {pair}");
        assert_eq!(a["white"], b["black"], "pair {pair}");
        assert_eq!(a["black"], b["white"], "pair {pair}");
    }
    let summary = objs.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["games"], 20);
    assert!(summary["overhead_median_us"].as_f64().unwrap() > 0.0);
    let ptnml: u64 = summary["encounters"][0]["ptnml"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(ptnml, 10);
    // The PGN reads back and replays legally.
    let (code, out) = run(&["-check-pgn", pgn.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("20 games checked, 0 with problems"));
    let text = std::fs::read_to_string(&pgn).unwrap();
    for tag in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Termination",
        "Variant",
        "TimeControl",
        "FEN",
        "PlyCount",
    ] {
        assert_eq!(text.matches(&format!("[{tag} \"")).count(), 20, "{tag}");
    }
}

#[test]
fn check_pgn_finds_an_illegal_game() {
    let dir = tmpdir("badpgn");
    let p = dir.join("bad.pgn");
    std::fs::write(
        &p,
        "[Round \"1\"]\n[FEN \"- w 0\"]\n[Termination \"normal\"]\n\n1. a2a3b3 a2a3b3 1-0\n\n",
    )
    .unwrap();
    let (code, out) = run(&["-check-pgn", p.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("1 games checked, 1 with problems"));
}

#[test]
fn round_robin_and_gauntlet_and_ugi() {
    let mock = format!("cmd={MOCK}");
    // The mock `m` (as `head` gives it) and two random players, two games per encounter.
    let with_randoms = |head: &[&str]| {
        let mut args = head.to_vec();
        args.extend([
            "-engine",
            "cmd=builtin:random",
            "name=r1",
            "-engine",
            "cmd=builtin:random",
            "name=r2",
            "-games",
            "2",
        ]);
        run(&args)
    };
    let (code, out) = with_randoms(&["-engine", &mock, "name=m", "proto=ugi", "depth=1"]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.matches("Finished game ").count(), 6);
    assert!(out.contains("Rank"), "{out}");
    let (code, out) = with_randoms(&[
        "-tournament",
        "gauntlet",
        "-each",
        "depth=1",
        "-engine",
        &mock,
        "name=m",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.matches("Finished game ").count(), 4);
    assert!(!out.contains("(r1 vs r2)") && !out.contains("(r2 vs r1)"));
}

#[test]
fn move_limit_repetition_and_draw_adjudication() {
    let dir = tmpdir("limits");
    let j = dir.join("a.jsonl");
    let (code, _) = run(&[
        "-engine",
        "cmd=builtin:random",
        "-engine",
        "cmd=builtin:random",
        "-games",
        "2",
        "-maxmoves",
        "5",
        "-jsonl",
        j.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0));
    for g in games(&read_jsonl(&j)) {
        assert_eq!(g["reason"], "max_moves");
        assert_eq!(g["result"], "1/2-1/2");
        assert_eq!(g["moves"].as_array().unwrap().len(), 10);
    }
    // The mock always reports cp 0: both sides level for 2 moves each from move 3 on.
    let j = dir.join("b.jsonl");
    let mock = format!("cmd={MOCK}");
    let (code, _) = run(&[
        "-each",
        "depth=1",
        "-engine",
        &mock,
        "name=a",
        "-engine",
        &mock,
        "name=b",
        "-games",
        "2",
        "-draw",
        "movenumber=3",
        "movecount=2",
        "score=10",
        "-jsonl",
        j.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0));
    for g in games(&read_jsonl(&j)) {
        assert_eq!(g["reason"], "adjudication_draw", "{g}");
        assert_eq!(g["termination"], "adjudication");
        // Scores are counted from full move 3 (plies 5..8).
        assert_eq!(g["moves"].as_array().unwrap().len(), 8);
    }
}

#[test]
fn sprt_stops_when_h0_is_accepted() {
    let (code, out, _) = output_of(random_pair().args([
        "-games",
        "2000",
        "-sprt",
        "elo0=300",
        "elo1=500",
        "-ratinginterval",
        "0",
    ]));
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("H0 was accepted"), "{out}");
    assert!(out.matches("Finished game ").count() < 2000);
}

/// A run stopped by its SPRT reports the decision that stopped it, made on the games counted
/// at that moment (replayed here from the journal, which holds the games in the order they
/// finished), even when the games in flight move the final LLR.
#[test]
fn sprt_stop_reports_the_decision_that_stopped_the_run() {
    let dir = tmpdir("sprtstop");
    let j = dir.join("s.jsonl");
    let args = [
        "-games",
        "2000",
        "-concurrency",
        "6",
        "-sprt",
        "elo0=300",
        "elo1=500",
        "-ratinginterval",
        "0",
        "-jsonl",
        j.to_str().unwrap(),
    ];
    let (code, out, _) = output_of(random_pair().args(args));
    assert_eq!(code, Some(3), "{out}");
    let objs = read_jsonl(&j);
    let summary = objs.iter().rev().find(|o| o["type"] == "summary").unwrap();
    let sprt = &summary["encounters"][0]["sprt"];
    assert_eq!(sprt["decision"], "H0", "{summary}");
    let at = sprt["stopped_at_games"].as_u64().unwrap();
    let played = summary["games"].as_u64().unwrap();
    assert!(at >= 2 && at <= played, "{summary}");
    assert!(
        out.contains(&format!("SPRT: H0 accepted after {at} games")),
        "{out}"
    );
    assert!(out.contains("completed - H0 was accepted"), "{out}");
    assert_eq!(
        out.contains("games that finished after it"),
        played > at,
        "the stop line appears exactly when games finished after the decision: {out}"
    );

    // The stop is the first crossing: replay the journal's games in order.
    let all: Vec<String> = [
        "-engine",
        "cmd=builtin:random",
        "-engine",
        "cmd=builtin:random",
    ]
    .iter()
    .chain(args.iter())
    .map(|s| s.to_string())
    .collect();
    let Ok(Command::Run(cfg)) = parse_args(&all) else {
        panic!("the arguments parse")
    };
    let test = cfg.sprt.unwrap().to_sprt();
    let (objects, _) =
        punct::referee::records::jsonl::read_objects(&std::fs::read_to_string(&j).unwrap())
            .unwrap();
    let records = punct::referee::records::jsonl::games_of(&objects).unwrap();
    assert_eq!(records.len() as u64, played);
    let mut st = punct::referee::tournament::Standings::new(2);
    let llr = |st: &punct::referee::tournament::Standings| {
        let e = &st.encounters[&(0, 1)];
        test.llr_of(&e.wdl, &e.ptnml)
    };
    for (i, g) in records.iter().enumerate() {
        st.add(g);
        let n = i as u64 + 1;
        let decided = test.decide(llr(&st));
        if n < at {
            assert_eq!(decided, None, "decided already after {n} games");
        } else if n == at {
            assert_eq!(decided, Some(SprtDecision::AcceptH0));
            let stopped_llr = sprt["stopped_llr"].as_f64().unwrap();
            assert!((llr(&st) - stopped_llr).abs() < 1e-9, "{summary}");
        }
    }
    let final_llr = sprt["llr"].as_f64().unwrap();
    assert!((llr(&st) - final_llr).abs() < 1e-9, "{summary}");
}

#[test]
fn bad_arguments_exit_2() {
    assert_eq!(run(&["-engine", "cmd=x"]).0, Some(2));
    assert_eq!(run(&["-games", "x"]).0, Some(2));
    let (code, _) = run(&[
        "-engine",
        "cmd=/no/such/engine",
        "depth=1",
        "-engine",
        "cmd=builtin:random",
    ]);
    assert_eq!(code, Some(2));
    let (code, out) = run(&["--help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("-engine") && out.contains("Exit status"));
}

#[test]
fn compliance_passes_a_good_engine_and_fails_a_bad_one() {
    let (code, out) = run(&["-compliance", &format!("cmd={MOCK}")]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(" 0 failed"));
    let (code, out) = run(&["-compliance", &format!("cmd={MOCK}"), "args=--mode illegal"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAILED: bestmove 'pass' is illegal"), "{out}");
    let (code, out) = run(&["-compliance", &format!("cmd={MOCK}"), "proto=ugi"]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn shipped_configs_parse() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tournaments");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "toml") {
            let args = vec!["-config".to_string(), p.display().to_string()];
            match parse_args(&args) {
                Ok(Command::Run(c)) => {
                    let out = c
                        .pgnout
                        .as_ref()
                        .or(c.jsonl.as_ref())
                        .expect("writes records");
                    assert!(out.starts_with("tournaments/results"), "{}", p.display());
                }
                other => panic!("{}: {other:?}", p.display()),
            }
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn time_used_per_move_is_reported_against_the_time_allotted() {
    let dir = tmpdir("timeuse");
    let jsonl = dir.join("t.jsonl");
    // The slow mock answers after 40 ms with 20 ms per move: every move of it is over budget
    // (forgiven by the margin).
    let (code, out) = run(&[
        "-engine",
        &format!("cmd={MOCK}"),
        "args=--mode slow --delay-ms 40",
        "name=slow",
        "st=0.02",
        "timemargin=2000",
        "-engine",
        "cmd=builtin:random",
        "name=rnd",
        "st=0.02",
        "-games",
        "4",
        "-random-openings",
        "plies=3",
        "-srand",
        "9",
        "-maxmoves",
        "6",
        "-jsonl",
        jsonl.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let objs = read_jsonl(&jsonl);
    let gs = games(&objs);
    // Every move carries its allotted time.
    let all_moves: Vec<&serde_json::Value> = gs
        .iter()
        .flat_map(|g| g["moves"].as_array().unwrap())
        .collect();
    assert!(
        all_moves.iter().all(|m| m["budget_ms"] == 20.0),
        "{all_moves:?}"
    );
    let summary = objs.last().unwrap();
    let time = |i: usize| &summary["players"][i]["time"];
    let (slow, rnd) = (time(0), time(1));
    let (ns, nr) = (
        slow["moves"].as_u64().unwrap(),
        rnd["moves"].as_u64().unwrap(),
    );
    assert_eq!((ns + nr) as usize, all_moves.len());
    assert!(ns > 0 && nr > 0);
    assert_eq!(slow["over_budget"].as_u64(), Some(ns), "{slow}");
    // The random player answers at once; only a stalled machine could make it late.
    assert!(rnd["over_budget"].as_u64().unwrap() < nr, "{rnd}");
    assert!(slow["mean_ms"].as_f64().unwrap() >= 40.0, "{slow}");
    assert!(slow["max_ms"].as_f64() >= slow["p99_ms"].as_f64());
    assert_eq!(slow["mean_budget_ms"].as_f64(), Some(20.0));
    assert!(
        out.contains(&format!("Time: slow  moves {ns}  mean ")),
        "{out}"
    );
    assert!(out.contains(&format!("over budget {ns}")), "{out}");
}
