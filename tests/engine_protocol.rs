//! The engine protocol end to end: spawn `punct`, talk to it over stdin/stdout with timeouts.
//! Nothing here depends on the strength of the search, only on the protocol.

use crate::engine_common;

use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use engine_common::{legal_bestmove, Engine, LONG};
use punct::{parse_move, Move, Position, Variant};

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn position_after(moves: &[&str]) -> Position {
    let mut pos = Position::new(Variant::Standard);
    for m in moves {
        pos.play(parse_move(m).unwrap()).unwrap();
    }
    pos
}

#[test]
fn uci_handshake_is_fast_and_lists_every_option() {
    let start = Instant::now();
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", LONG);
    let elapsed = start.elapsed();
    eprintln!("start to uciok: {elapsed:?} (debug build)");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    assert!(lines[0].starts_with("id name "));
    assert!(lines[1].starts_with("id author "));
    let options: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .collect();
    assert_eq!(options.len(), lines.len() - 3, "{lines:#?}");
    for name in [
        "Hash type spin default 16 ",
        "Threads type spin default 1 ",
        "Variant type combo default standard",
        "Move Overhead type spin",
        "Ponder type check",
        "Clear Hash type button",
        "MultiPV type spin default 1 ",
        "Seed type spin",
        "Debug Log File type string",
    ] {
        assert!(
            options
                .iter()
                .any(|o| o.starts_with(&format!("option name {name}"))),
            "{name}: {options:#?}"
        );
    }
    for spec in punct::engine::search::params::specs() {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            spec.name, spec.default, spec.min, spec.max
        );
        assert_eq!(options.iter().filter(|o| ***o == line).count(), 1, "{line}");
    }
    assert!(e.sync().is_empty());
}

#[test]
fn ugi_handshake_and_bestmove_without_ponder() {
    let mut e = Engine::start();
    e.send("ugi");
    assert_eq!(e.until("ugiok", LONG).last().unwrap(), "ugiok");
    e.send("uginewgame");
    e.send("position startpos moves c5c6d6");
    e.send("go depth 2");
    let lines = e.until("bestmove", LONG);
    let best = lines.last().unwrap();
    assert_eq!(best.split_whitespace().count(), 2, "{best}");
    legal_bestmove(best, &position_after(&["c5c6d6"]));
    e.send("query p1turn");
    assert_eq!(e.until("response", LONG).last().unwrap(), "response false");
    e.send("query result");
    assert_eq!(e.until("response", LONG).last().unwrap(), "response none");
    e.send("query gameover");
    assert_eq!(e.until("response", LONG).last().unwrap(), "response false");
    e.send("query islegal c5c6d6");
    assert_eq!(e.until("response", LONG).last().unwrap(), "response false");
    e.send("query islegal f5f6f7");
    assert_eq!(e.until("response", LONG).last().unwrap(), "response true");
}

#[test]
fn go_depth_1_returns_a_legal_move_after_a_final_info() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    for moves in [&[][..], &["c5c6d6"], &["c5c6d6", "f5f6f7"]] {
        let text = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&text);
        e.send("go depth 1");
        let lines = e.until("bestmove", LONG);
        let n = lines.len();
        assert!(n >= 2, "{lines:#?}");
        assert!(lines[n - 2].starts_with("info depth "), "{lines:#?}");
        let mv = legal_bestmove(&lines[n - 1], &position_after(moves));
        // The final info's PV starts with the best move.
        let pv = lines[n - 2].split(" pv ").nth(1).expect("a pv");
        assert_eq!(pv.split_whitespace().next(), Some(mv.to_string().as_str()));
        for info in &lines[..n - 1] {
            for field in [
                "depth", "seldepth", "score", "nodes", "nps", "time", "hashfull",
            ] {
                assert!(info.contains(&format!(" {field} ")), "{field}: {info}");
            }
        }
    }
}

#[test]
fn go_infinite_holds_bestmove_until_stop_then_answers_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.sync();
    e.send("go infinite");
    let early = e.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:#?}"
    );
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", LONG);
    let latency = t.elapsed();
    eprintln!("stop to bestmove: {latency:?} (debug build)");
    assert!(latency < Duration::from_millis(500), "{latency:?}");
    legal_bestmove(lines.last().unwrap(), &Position::new(Variant::Standard));
    // Exactly one bestmove per go: nothing more comes.
    e.send("stop");
    let after = e.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:#?}"
    );
}

#[test]
fn isready_mid_search_is_answered_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(2));
    eprintln!("isready to readyok mid-search: {:?}", t.elapsed());
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    e.send("stop");
    e.until("bestmove", LONG);
}

#[test]
fn a_stop_right_after_go_is_never_lost() {
    // Each answer must be a legal move of the position searched, not of the start position
    // nor of the previous search's (a stop that lands before the search has a move).
    let fen = "Wc1c2c3/Wc4c5c6/Wd8e9f10/Wg11h12i13/Bq13p12q12 b 5";
    let setups: [(String, Position); 4] = [
        ("position startpos".into(), position_after(&[])),
        (
            "position startpos moves c5c6d6".into(),
            position_after(&["c5c6d6"]),
        ),
        (
            "position startpos moves c5c6d6 f5f6f7".into(),
            position_after(&["c5c6d6", "f5f6f7"]),
        ),
        (
            format!("position fen {fen}"),
            punct::parse_position(fen, Variant::Standard).unwrap(),
        ),
    ];
    let mut e = Engine::start();
    for i in 0..20 {
        let (command, pos) = &setups[i % setups.len()];
        e.send(command);
        e.send("go infinite");
        e.send("stop");
        let lines = e.until("bestmove", Duration::from_secs(5));
        legal_bestmove(lines.last().unwrap(), pos);
    }
}

#[test]
fn garbage_gets_one_error_line_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    let huge = format!("position startpos moves {}\n", "x".repeat(2 << 20));
    let long_token = format!("{}\n", "q".repeat(100_000));
    let garbage: Vec<&[u8]> = vec![
        b"frobnicate\n",
        b"\xff\xfe\xfd\n",
        b"is\xffready\n",
        b"\x00\x01\x02\x1b[2J\n",
        huge.as_bytes(),
        long_token.as_bytes(),
        b"debug sideways\n",
        b"setoption name Hash value lots\n",
        b"setoption name Hash value 0\n",
        b"setoption name No Such Option value 1\n",
        b"setoption Hash 1\n",
        b"position\n",
        b"position fen junk\n",
        b"position startpos moves zz9\n",
        b"query nothing\n",
        b"perft many\n",
        b"bench -3\n",
        b"uci please\n",
    ];
    for g in garbage {
        e.send_bytes(g);
        let lines = e.sync();
        let errs = errors(&lines);
        let shown = String::from_utf8_lossy(&g[..g.len().min(60)]).to_string();
        assert_eq!(errs.len(), 1, "{shown:?}: {lines:#?}");
        assert!(errs[0].len() < 400, "{shown:?}: error line too long");
    }
    // Junk tokens inside a go: one error, and the go still searches.
    e.send("go depth 1 banana");
    let lines = e.until("bestmove", LONG);
    assert_eq!(errors(&lines).len(), 1, "{lines:#?}");
    // Still alive and sane.
    e.send("position startpos moves c5c6d6");
    e.send("go depth 1");
    let lines = e.until("bestmove", LONG);
    legal_bestmove(lines.last().unwrap(), &position_after(&["c5c6d6"]));
    // Blank lines, comments and CR line ends are fine.
    e.send_bytes(b"\n   \n# a comment\r\nisready\r\n");
    assert_eq!(e.until("readyok", LONG), vec!["readyok"]);
}

#[test]
fn illegal_moves_and_bad_positions_keep_the_old_position() {
    let mut e = Engine::start();
    e.send("position startpos moves c5c6d6 f5f6f7");
    e.send("query fen");
    let fen = e.until("response", LONG).pop().unwrap();
    assert_eq!(fen, "response Wc5c6d6/Bf5f6f7 w 2");
    for (bad, named) in [
        ("position startpos moves c5c6d6 c5c6d6", "'c5c6d6'"),
        (
            "position startpos moves c5c6d6 f5f6f7 i9i10j10",
            "'i9i10j10'",
        ),
        ("position startpos moves c5c6d6 f5f6f7 a1b2c3", "'a1b2c3'"),
        ("position fen Wc5c6d6/Bf5f6f8 w 2", "'Wc5c6d6/Bf5f6f8 w 2'"),
        ("position fen Wc5c6d6 w", "'Wc5c6d6 w'"),
        ("position fen - w zero", "'zero'"),
        ("position startpos moves", ""),
    ] {
        e.send(bad);
        let lines = e.sync();
        if named.is_empty() {
            // `moves` with no moves is the start position: valid, no error.
            assert!(errors(&lines).is_empty(), "{bad}: {lines:#?}");
            e.send("position startpos moves c5c6d6 f5f6f7");
            continue;
        }
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{bad}: {lines:#?}");
        assert!(errs[0].contains(named), "{bad}: {}", errs[0]);
        e.send("query fen");
        assert_eq!(e.until("response", LONG).pop().unwrap(), fen, "{bad}");
    }
}

#[test]
fn end_of_input_exits_with_status_0_quickly_even_mid_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(1));
    eprintln!("EOF to exit mid-search: {:?}", t.elapsed());
    assert!(status.is_some_and(|s| s.success()), "{status:?}");

    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(1));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

fn bench_nodes(lines: &[String]) -> u64 {
    let last = lines
        .iter()
        .rev()
        .find(|l| l.ends_with(" nps"))
        .expect("a summary line");
    let tokens: Vec<&str> = last.split_whitespace().collect();
    assert_eq!((tokens.len(), tokens[1], tokens[3]), (4, "nodes", "nps"));
    tokens[0].parse().unwrap()
}

#[test]
fn bench_node_count_is_the_same_every_run() {
    let mut e = Engine::start();
    let summary = |l: &str| l.ends_with(" nps");
    e.send("bench");
    let first = bench_nodes(&e.until_line(summary, "N nodes M nps", Duration::from_secs(120)));
    e.send("bench");
    let second = bench_nodes(&e.until_line(summary, "N nodes M nps", Duration::from_secs(120)));
    assert_eq!(first, second);
    assert!(first > 0);
    let out = Command::new(env!("CARGO_BIN_EXE_punct"))
        .arg("bench")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(bench_nodes(&lines), first, "{text}");
}

#[test]
fn ponder_holds_until_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok", LONG);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves c5c6d6 f5f6f7");
    e.sync();
    e.send("go ponder wtime 2000 btime 2000 winc 10 binc 10");
    let early = e.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:#?}"
    );
    e.send("ponderhit");
    let lines = e.until("bestmove", Duration::from_secs(5));
    legal_bestmove(
        lines.last().unwrap(),
        &position_after(&["c5c6d6", "f5f6f7"]),
    );

    // A ponder miss: stop, then the real position.
    e.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.until("bestmove", Duration::from_secs(2));
    e.send("position startpos moves c5c6d6");
    e.send("go movetime 50");
    let lines = e.until("bestmove", Duration::from_secs(5));
    legal_bestmove(lines.last().unwrap(), &position_after(&["c5c6d6"]));
}

#[test]
fn searchmoves_are_respected() {
    let mut e = Engine::start();
    let pos = position_after(&["c5c6d6", "f5f6f7"]);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    let picks = [
        vec![legal[7].clone()],
        vec![legal[100].clone(), legal[legal.len() - 1].clone()],
        vec![legal[3].clone(), legal[2000].clone(), legal[1000].clone()],
    ];
    e.send("position startpos moves c5c6d6 f5f6f7");
    for pick in picks {
        e.send(&format!("go depth 2 searchmoves {}", pick.join(" ")));
        let lines = e.until("bestmove", LONG);
        let mv = legal_bestmove(lines.last().unwrap(), &pos);
        assert!(pick.contains(&mv.to_string()), "{mv} not in {pick:?}");
        assert!(errors(&lines).is_empty(), "{lines:#?}");
    }
}

#[test]
fn a_finished_game_answers_bestmove_none_at_once() {
    // Drop pieces until the game ends (connection or last drop).
    let mut pos = Position::new(Variant::Standard);
    let mut moves = Vec::new();
    while !pos.is_finished() {
        let legal = pos.legal_moves();
        let mv = legal
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Drop(_)))
            .unwrap_or(legal[0]);
        pos.make(mv);
        moves.push(mv.to_string());
    }
    let mut e = Engine::start();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    assert!(errors(&e.sync()).is_empty());
    for go in ["go depth 5", "go infinite", "go wtime 1000 btime 1000"] {
        let t = Instant::now();
        e.send(go);
        let lines = e.until("bestmove", Duration::from_secs(2));
        assert!(t.elapsed() < Duration::from_millis(500));
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
        assert!(
            lines[lines.len() - 2].starts_with("info string game over: "),
            "{lines:#?}"
        );
    }
    e.send(&format!("position fen {pos}"));
    e.send("query gameover");
    assert_eq!(e.until("response", LONG).pop().unwrap(), "response true");
    e.send("moves");
    assert_eq!(e.until("moves", LONG).pop().unwrap(), "moves");
}

#[test]
fn extensions_d_moves_perft_eval_help() {
    let mut e = Engine::start();
    e.send("position startpos moves c5c6d6");
    e.send("d");
    let d = e.until("Game:", LONG);
    assert!(d.iter().any(|l| l == "Fen: Wc5c6d6 b 1"), "{d:#?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ")));
    assert_eq!(d.last().unwrap(), "Game: in progress");
    let pos = position_after(&["c5c6d6"]);
    e.send("moves");
    let moves = e.until("moves", LONG).pop().unwrap();
    assert_eq!(
        moves.split_whitespace().count() - 1,
        pos.legal_moves().len()
    );
    e.send("go perft 1");
    let perft = e.until("Nodes searched", LONG);
    assert_eq!(
        perft.last().unwrap(),
        &format!("Nodes searched: {}", pos.legal_moves().len())
    );
    assert_eq!(perft.len(), pos.legal_moves().len() + 2);
    e.send("eval");
    let eval = e.until("eval total", LONG);
    assert!(eval.iter().all(|l| l.starts_with("eval ")), "{eval:#?}");
    e.send("help");
    let help = e.lines_within(Duration::from_millis(300));
    assert!(help.iter().any(|l| l.starts_with("query ")), "{help:#?}");
}

#[test]
fn debug_log_file_copies_input_and_output() {
    let path = std::env::temp_dir().join(format!("punct-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    e.sync();
    e.send("frobnicate");
    e.sync();
    e.send("setoption name Debug Log File value <empty>");
    e.sync();
    let log = std::fs::read_to_string(&path).expect("the log was written");
    let _ = std::fs::remove_file(&path);
    assert!(log.contains(">> isready\n<< readyok\n"), "{log}");
    // The answer to frobnicate is the first output line after it (it goes through the worker
    // behind earlier work, so the next input line may be logged before it).
    let after = &log[log.find(">> frobnicate\n").expect("input logged")..];
    let answer = after
        .lines()
        .find(|l| l.starts_with("<< "))
        .expect("answered");
    assert!(answer.starts_with("<< info string error: "), "{log}");
}

#[test]
fn variant_option_and_command_line_flag() {
    // A drop into the centre is legal for Black in the basic game only.
    let mut e = Engine::start();
    e.send("setoption name Variant value basic");
    e.send("position startpos moves c5c6d6 i9i10j10");
    assert!(errors(&e.sync()).is_empty());
    let mut e = Engine::start_with(&["--variant", "basic"]);
    e.send("position startpos moves c5c6d6 i9i10j10");
    assert!(errors(&e.sync()).is_empty());
    let mut e = Engine::start();
    e.send("position startpos moves c5c6d6 i9i10j10");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn random_bytes_never_kill_the_engine() {
    let mut e = Engine::start();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut sent = 0;
    for _ in 0..300 {
        let len = (next() % 200) as usize;
        let mut line: Vec<u8> = (0..len).map(|_| (next() % 256) as u8).collect();
        line.retain(|&b| b != b'\n');
        line.push(b'\n');
        e.send_bytes(&line);
        sent += 1;
    }
    let lines = e.sync();
    // Each line was one unknown command (or blank): never more than one error line per line.
    assert!(errors(&lines).len() <= sent, "{}", lines.len());
    assert!(
        lines.iter().all(|l| l.starts_with("info string error: ")),
        "{lines:#?}"
    );
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until("bestmove", LONG);
    legal_bestmove(lines.last().unwrap(), &Position::new(Variant::Standard));
}

/// `movestogo` reaches the time manager: with one move to the time control the engine may
/// spend half of the usable clock, so it does not answer before that (the soft limit: no new
/// iteration is started after it, none is cut short before it). In sudden death the same
/// clock gives a 25th. The exact shares are the unit tests of `engine/search/timeman.rs`.
#[test]
fn movestogo_one_spends_half_the_clock() {
    let mut e = Engine::start();
    e.send("position startpos moves c5c6d6");
    e.sync();
    let t = Instant::now();
    // Usable clock 400 - 10 (Move Overhead) - 5 (safety) = 385 ms; half of it is 192.5 ms.
    e.send("go wtime 100 btime 400 movestogo 1");
    let lines = e.until("bestmove", LONG);
    let took = t.elapsed();
    legal_bestmove(lines.last().unwrap(), &position_after(&["c5c6d6"]));
    assert!(took >= Duration::from_millis(190), "{took:?}");
    assert!(errors(&lines).is_empty(), "{lines:#?}");
}

/// The lines that mark the answer of one command in `pipelined_commands_are_answered_in_order`.
fn is_key_line(l: &str) -> bool {
    [
        "id name ",
        "uciok",
        "readyok",
        "response ",
        "info string error",
        "Nodes searched",
        "Fen: ",
        "eval total",
        "moves ",
        "bestmove ",
    ]
    .iter()
    .any(|k| l.starts_with(k))
}

#[test]
fn pipelined_commands_are_answered_in_order() {
    // A whole session written at once, without waiting for any answer: each answer must come
    // after the answers of every earlier command (readyok is queued behind the worker's work;
    // query, d, eval and moves must not overtake it, nor a perft, nor a stopped search).
    let script = [
        "uci",
        "isready",
        "query p1turn",
        "go perft 1",
        "query p1turn",
        "setoption name Hash value 8",
        "setoption name Nope value 1",
        "position startpos moves c5c6d6",
        "query p1turn",
        "query fen",
        "d",
        "eval",
        "moves",
        "go depth 3",
        "stop",
        "query islegal f5f6f7",
        "isready",
        "ucinewgame",
        "query fen",
        "isready",
    ];
    let mut e = Engine::start();
    e.send_bytes(format!("{}\n", script.join("\n")).as_bytes());
    let mut lines = Vec::new();
    while lines.iter().filter(|l: &&String| *l == "readyok").count() < 3 {
        lines.extend(e.until("readyok", LONG));
    }
    let keys: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| is_key_line(l))
        .collect();
    let perft = Position::new(Variant::Standard).legal_moves().len();
    let n = keys.len();
    assert!(n >= 15, "{keys:#?}");
    let expected_prefix = [
        format!("id name Punct {}", env!("PUNCT_VERSION")),
        "uciok".into(),
        "readyok".into(),
        "response true".into(),
        format!("Nodes searched: {perft}"),
        "response true".into(),
    ];
    assert_eq!(keys[..6], expected_prefix, "{keys:#?}");
    assert!(
        keys[6].starts_with("info string error: setoption: "),
        "{keys:#?}"
    );
    assert_eq!(
        keys[7..11],
        [
            "response false",
            "response Wc5c6d6 b 1",
            "Fen: Wc5c6d6 b 1",
            keys[10]
        ],
        "{keys:#?}"
    );
    assert!(keys[10].starts_with("eval total "), "{keys:#?}");
    assert!(keys[11].starts_with("moves "), "{keys:#?}");
    legal_bestmove(keys[12], &position_after(&["c5c6d6"]));
    assert_eq!(
        keys[13..],
        ["response true", "readyok", "response - w 0", "readyok"],
        "{keys:#?}"
    );
    // The search's info lines all come between moves and bestmove.
    let first_info = lines.iter().position(|l| l.starts_with("info depth"));
    let moves_at = lines.iter().position(|l| l.starts_with("moves ")).unwrap();
    assert!(first_info.is_some_and(|i| i > moves_at), "{lines:#?}");
}

#[test]
fn answers_during_a_running_search_keep_their_order() {
    // While a search runs, isready and the other answers come at once (they do not wait for
    // the search), still in the order of their commands and after the answers of the work
    // queued before the search (here a perft); the search ends with one bestmove.
    let mut e = Engine::start();
    e.send_bytes(
        b"go perft 1\nsetoption name Nope value 1\nposition startpos moves c5c6d6\ngo depth 3\n\
          isready\nquery p1turn\nd\neval\nquery fen\n",
    );
    let mut lines = e.until("response Wc5c6d6", LONG);
    if !lines.iter().any(|l| l.starts_with("bestmove")) {
        lines.extend(e.until("bestmove", LONG));
    }
    let keys: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| is_key_line(l) && !l.starts_with("bestmove"))
        .collect();
    assert_eq!(keys.len(), 7, "{keys:#?}");
    let perft = Position::new(Variant::Standard).legal_moves().len();
    assert_eq!(keys[0], format!("Nodes searched: {perft}"), "{keys:#?}");
    assert!(
        keys[1].starts_with("info string error: setoption: "),
        "{keys:#?}"
    );
    assert_eq!(
        keys[2..5],
        ["readyok", "response false", "Fen: Wc5c6d6 b 1"],
        "{keys:#?}"
    );
    assert!(keys[5].starts_with("eval total "), "{keys:#?}");
    assert_eq!(keys[6], "response Wc5c6d6 b 1");
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:#?}");
    legal_bestmove(best[0], &position_after(&["c5c6d6"]));
}
