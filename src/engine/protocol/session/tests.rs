//! The session state machine, driven line by line without threads or processes.
use super::*;
use crate::engine::protocol::command::parse_line;
use crate::rules::moves::Move;

fn run(s: &mut Session, line: &str) -> Vec<Effect> {
    match parse_line(line) {
        Ok(Some(p)) => s.handle(p),
        Ok(None) => vec![],
        Err(e) => s.bad_line(&e),
    }
}

/// The lines the effects print, at once or through the worker (see `printed_at_once`).
fn printed(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .flat_map(|e| match e {
            Effect::Print(l) => vec![l.clone()],
            Effect::Work(Work::Print(lines)) => lines.clone(),
            Effect::Work(Work::Ready) => vec!["readyok".to_string()],
            _ => vec![],
        })
        .collect()
}

/// The lines the effects print at once, ahead of the worker's queue.
fn printed_at_once(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Print(l) => Some(l.clone()),
            _ => None,
        })
        .collect()
}

fn errors(effects: &[Effect]) -> Vec<String> {
    printed(effects)
        .into_iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn search_job(effects: &[Effect]) -> Option<SearchJob> {
    effects.iter().find_map(|e| match e {
        Effect::Work(Work::Search(j)) => Some((**j).clone()),
        _ => None,
    })
}

fn new() -> Session {
    Session::new(Variant::Standard)
}

/// A finished standard game: drops (the first one listed) until the game ends.
fn finished_game() -> (Position, Vec<Move>) {
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
        moves.push(mv);
    }
    (pos, moves)
}

#[test]
fn uci_and_ugi_handshakes() {
    let mut s = new();
    let out = printed(&run(&mut s, "uci"));
    assert_eq!(out[0], format!("id name {ENGINE_NAME}"));
    assert!(out[1].starts_with("id author "));
    assert_eq!(out.last().unwrap(), "uciok");
    let options: Vec<_> = out
        .iter()
        .filter(|l| l.starts_with("option name "))
        .collect();
    assert_eq!(options.len(), options::specs().len());
    assert_eq!(out.len(), options.len() + 3);
    assert_eq!(s.handshake(), Handshake::Uci);
    let out = printed(&run(&mut s, "ugi"));
    assert_eq!(out.last().unwrap(), "ugiok");
    assert_eq!(s.handshake(), Handshake::Ugi);
}

#[test]
fn isready_waits_for_the_worker_unless_searching() {
    let mut s = new();
    assert!(matches!(
        run(&mut s, "isready")[..],
        [Effect::Work(Work::Ready)]
    ));
    let job = search_job(&run(&mut s, "go infinite")).unwrap();
    assert!(s.is_searching());
    assert_eq!(printed_at_once(&run(&mut s, "isready")), vec!["readyok"]);
    // Once stopped, readyok comes after the bestmove, through the worker.
    assert!(matches!(run(&mut s, "stop")[..], [Effect::Stop]));
    assert!(matches!(
        run(&mut s, "isready")[..],
        [Effect::Work(Work::Ready)]
    ));
    s.search_done(job.id);
    assert!(!s.is_searching());
}

/// Whether every line the effects print goes through the worker's queue.
fn all_queued(effects: &[Effect]) -> bool {
    printed_at_once(effects).is_empty() && !printed(effects).is_empty()
}

#[test]
fn answers_queue_behind_earlier_work_unless_a_search_runs() {
    let mut s = new();
    // Idle: every answer goes through the worker, so it comes after earlier queued work
    // (a bench, a perft, a readyok, a Hash change) in the order of the commands.
    for line in [
        "uci",
        "ugi",
        "query p1turn",
        "query fen",
        "d",
        "eval",
        "moves",
        "help",
        "xyzzy",
        "isready junk",
    ] {
        let out = run(&mut s, line);
        assert!(all_queued(&out), "{line}: {out:?}");
    }
    // Consecutive lines travel as one piece of work.
    let out = run(&mut s, "uci");
    assert!(matches!(&out[..], [Effect::Work(Work::Print(l))] if l.last().unwrap() == "uciok"));
    // A go's complaints queue ahead of its search.
    let out = run(&mut s, "go depth 1 searchmoves zz");
    let complaint = out
        .iter()
        .position(|e| matches!(e, Effect::Work(Work::Print(l)) if l[0].contains("zz")))
        .expect("the complaint about zz");
    let search = out
        .iter()
        .position(|e| matches!(e, Effect::Work(Work::Search(_))))
        .unwrap();
    assert!(complaint < search, "{out:?}");
    // While that search runs (not stopped), answers are printed at once, as readyok is:
    // they would otherwise wait for the search's end.
    for (line, first) in [
        ("query p1turn", "response true"),
        ("isready", "readyok"),
        ("moves", "moves "),
        ("d", ""),
        ("eval", "eval "),
        ("xyzzy", "info string error: "),
    ] {
        let out = run(&mut s, line);
        let now = printed_at_once(&out);
        assert!(
            !now.is_empty() && now[0].starts_with(first),
            "{line}: {out:?}"
        );
        assert!(!out.iter().any(|e| matches!(e, Effect::Work(_))), "{line}");
    }
    // Stopped: the answers wait for its bestmove again.
    assert!(matches!(run(&mut s, "stop")[..], [Effect::Stop]));
    assert!(all_queued(&run(&mut s, "query p1turn")));
    assert!(matches!(
        run(&mut s, "isready")[..],
        [Effect::Work(Work::Ready)]
    ));
    // stop, ponderhit and quit act at once whatever runs.
    let job = search_job(&run(&mut s, "go ponder infinite")).unwrap();
    assert!(matches!(run(&mut s, "ponderhit")[..], [Effect::PonderHit]));
    assert!(matches!(run(&mut s, "stop")[..], [Effect::Stop]));
    assert!(matches!(run(&mut s, "quit")[..], [Effect::Quit]));
    s.search_done(job.id);
    assert!(matches!(run(&mut s, "quit")[..], [Effect::Quit]));
}

#[test]
fn a_late_end_of_an_old_search_does_not_end_the_new_one() {
    let mut s = new();
    let first = search_job(&run(&mut s, "go infinite")).unwrap();
    run(&mut s, "stop");
    let second = search_job(&run(&mut s, "go infinite")).unwrap();
    assert_ne!(first.id, second.id);
    s.search_done(first.id);
    assert!(s.is_searching());
    s.search_done(second.id);
    assert!(!s.is_searching());
}

#[test]
fn go_while_searching_stops_the_running_search_first() {
    let mut s = new();
    run(&mut s, "go infinite");
    let out = run(&mut s, "go depth 1");
    let stop_at = out.iter().position(|e| matches!(e, Effect::Stop)).unwrap();
    let go_at = out
        .iter()
        .position(|e| matches!(e, Effect::Work(Work::Search(_))))
        .unwrap();
    assert!(stop_at < go_at);
}

#[test]
fn stop_and_ponderhit() {
    let mut s = new();
    // An idle stop is harmless.
    assert!(matches!(run(&mut s, "stop")[..], [Effect::Stop]));
    assert!(run(&mut s, "ponderhit").is_empty());
    let job = search_job(&run(&mut s, "go ponder wtime 1000 btime 1000")).unwrap();
    assert!(job.ponder);
    assert!(matches!(run(&mut s, "ponderhit")[..], [Effect::PonderHit]));
    // A second ponderhit has nothing to do.
    assert!(run(&mut s, "ponderhit").is_empty());
    run(&mut s, "debug on");
    assert_eq!(
        printed(&run(&mut s, "ponderhit")),
        vec!["info string ponderhit: not pondering"]
    );
}

#[test]
fn position_is_all_or_nothing() {
    let mut s = new();
    run(&mut s, "position startpos moves c5c6d6");
    let after_one = s.position().to_string();
    assert_eq!(after_one, "Wc5c6d6 b 1");
    for (line, needle) in [
        (
            "position startpos moves c5c6d6 f5f6f7 zz99",
            "move 3 'zz99' cannot be read",
        ),
        (
            "position startpos moves c5c6d6 c5c6d6",
            "move 2 'c5c6d6' is illegal",
        ),
        ("position startpos moves i9i10j10", "central hexagon"),
        ("position startpos moves pass", "passing is allowed only"),
        ("position fen Wc5c6d6/Bf5f6f8 w 2", "bad position"),
        ("position fen - w", "3 fields"),
        ("position fen - x 0", "side to move 'x'"),
        ("position fen - w 01", "ply '01'"),
        ("position fen Wc5c6d6 w 0", "less than the 1 pieces"),
        ("position", "startpos or fen"),
        ("position startpos extra", "'extra'"),
    ] {
        let out = run(&mut s, line);
        let errs = errors(&out);
        assert_eq!(errs.len(), 1, "{line}: {out:?}");
        assert!(errs[0].contains(needle), "{line}: {}", errs[0]);
        assert!(errs[0].contains("position not changed"), "{}", errs[0]);
        assert_eq!(s.position().to_string(), after_one, "{line}");
    }
    run(&mut s, "position fen Wc5c6d6/Bf5f6f7 w 2 moves pass");
    assert_eq!(s.position().to_string(), after_one, "pass is illegal here");
    run(&mut s, "position fen Wc5c6d6/Bf5f6f7 w 2");
    assert_eq!(s.position().to_string(), "Wc5c6d6/Bf5f6f7 w 2");
    run(&mut s, "position fen startpos");
    assert_eq!(s.position().to_string(), "- w 0");
}

#[test]
fn go_resolves_the_clock_of_the_side_to_move() {
    let mut s = new();
    let mut out = vec![];
    let go = |line: &str| match parse_line(line).unwrap().unwrap().command {
        Command::Go(g) => g,
        _ => unreachable!(),
    };
    let l = s.limits(
        &go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 0"),
        &mut out,
    );
    assert_eq!(l.time_left, Some(Duration::from_millis(1000)));
    assert_eq!(l.increment, Duration::from_millis(10));
    assert_eq!(l.movestogo, None);
    assert_eq!(l.move_overhead, Duration::from_millis(10));
    assert_eq!(l.multipv, 1);
    run(&mut s, "position startpos moves c5c6d6");
    let l = s.limits(
        &go("go p1time 1000 p2time -50 p1inc 10 p2inc 20 movestogo 5"),
        &mut out,
    );
    assert_eq!(l.time_left, Some(Duration::ZERO), "negative clocks are 0");
    assert_eq!(l.increment, Duration::from_millis(20));
    assert_eq!(l.movestogo, Some(5));
    let l = s.limits(&go("go depth 0 nodes 500 movetime 30"), &mut out);
    assert_eq!(l.depth, Some(1));
    assert_eq!(l.nodes, Some(500));
    assert_eq!(l.movetime, Some(Duration::from_millis(30)));
    assert_eq!(s.limits(&go("go mate 2"), &mut out).depth, Some(3));
    run(&mut s, "setoption name MultiPV value 3");
    run(&mut s, "setoption name Move Overhead value 0");
    let l = s.limits(&go("go infinite"), &mut out);
    assert!(l.infinite);
    assert_eq!((l.multipv, l.move_overhead), (3, Duration::ZERO));
    assert!(out.is_empty());
}

#[test]
fn searchmoves_keep_only_legal_moves() {
    let mut s = new();
    let out = run(
        &mut s,
        "go depth 1 searchmoves c5c6d6 i9i10j10 zz c5c6d6 e3e4f4",
    );
    let job = search_job(&out).unwrap();
    let kept: Vec<String> = job
        .limits
        .searchmoves
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(kept, vec!["c5c6d6", "e3e4f4"]);
    let errs = errors(&out);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs[0].contains("'i9i10j10'") && errs[1].contains("'zz'"));
    let out = run(&mut s, "go depth 1 searchmoves zz");
    assert!(search_job(&out).unwrap().limits.searchmoves.is_empty());
    assert!(errors(&out)
        .iter()
        .any(|e| e.contains("searching all moves")));
}

#[test]
fn go_in_a_finished_game_answers_bestmove_none_through_the_worker() {
    let (end, moves) = finished_game();
    let mut s = new();
    let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let out = run(
        &mut s,
        &format!("position startpos moves {}", list.join(" ")),
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(s.position(), &end);
    for go in ["go depth 3", "go infinite", "go ponder"] {
        let out = run(&mut s, go);
        let [Effect::Work(Work::Print(lines))] = &out[..] else {
            panic!("{out:?}")
        };
        assert!(lines[0].starts_with("info string game over: "), "{lines:?}");
        assert_eq!(lines[1], "bestmove (none)");
        assert!(!s.is_searching());
    }
    assert_eq!(
        printed(&run(&mut s, "query gameover")),
        vec!["response true"]
    );
    let result = printed(&run(&mut s, "query result"));
    let expected = fmt::ugi_result(end.outcome());
    assert_eq!(result, vec![format!("response {expected}")]);
    assert_ne!(expected, "none");
    assert_eq!(printed(&run(&mut s, "moves")), vec!["moves"]);
    // The same position read from its string is finished too.
    run(&mut s, "ucinewgame");
    run(&mut s, &format!("position fen {end}"));
    assert!(s.position().is_finished());
}

#[test]
fn ugi_search_jobs_omit_the_ponder_move() {
    let mut s = new();
    run(&mut s, "uci");
    assert!(!search_job(&run(&mut s, "go depth 1")).unwrap().omit_ponder);
    run(&mut s, "ugi");
    assert!(search_job(&run(&mut s, "go depth 1")).unwrap().omit_ponder);
}

#[test]
fn setoption_effects() {
    let mut s = new();
    assert!(matches!(
        run(&mut s, "setoption name hash value 32")[..],
        [Effect::Work(Work::SetHash(32))]
    ));
    assert!(matches!(
        run(&mut s, "setoption name THREADS value 2")[..],
        [Effect::Work(Work::SetThreads(2))]
    ));
    // More threads than the machine has are capped, with a word why.
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let out = run(&mut s, "setoption name Threads value 64");
    let set = out.iter().find_map(|e| match e {
        Effect::Work(Work::SetThreads(n)) => Some(*n),
        _ => None,
    });
    assert_eq!(set, Some(cores.min(64)));
    assert_eq!(
        printed(&out).iter().any(|l| l.contains("hardware threads")),
        cores < 64
    );
    assert!(matches!(
        run(&mut s, "setoption name Seed value 7")[..],
        [Effect::Work(Work::SetSeed(7))]
    ));
    assert!(matches!(
        run(&mut s, "setoption name Clear Hash")[..],
        [Effect::Work(Work::Clear)]
    ));
    assert!(matches!(
        &run(&mut s, "setoption name Debug Log File value /tmp/x")[..],
        [Effect::SetLogFile(Some(p))] if p == "/tmp/x"
    ));
    let spec = crate::engine::search::params::specs()[0];
    let out = run(
        &mut s,
        &format!("setoption name {} value {}", spec.name, spec.min),
    );
    assert!(
        matches!(&out[..], [Effect::Work(Work::SetParam(n, v))] if *n == spec.name && *v == spec.min)
    );
    assert_eq!(s.options().params.get(spec.name), Some(spec.min));
    for bad in [
        "setoption name Hash value -1",
        "setoption name Hash value lots",
        "setoption name Nothing value 1",
        "setoption name Variant value chess",
        "setoption name Ponder value maybe",
    ] {
        let out = run(&mut s, bad);
        assert_eq!(errors(&out).len(), 1, "{bad}");
        assert_eq!(out.len(), 1, "{bad}");
    }
    assert_eq!(s.options().hash_mb, 32);
    run(&mut s, "position startpos moves c5c6d6");
    run(&mut s, "setoption name Variant value basic");
    assert_eq!(s.options().variant, Variant::Basic);
    assert_eq!(s.position(), &Position::new(Variant::Basic));
    // A centre drop is legal for Black in the basic game only.
    let out = run(&mut s, "position startpos moves c5c6d6 i9i10j10");
    assert!(errors(&out).is_empty(), "{out:?}");
}

#[test]
fn newgame_clears_and_resets_the_position() {
    let mut s = new();
    run(&mut s, "position startpos moves c5c6d6");
    assert!(matches!(
        run(&mut s, "uginewgame")[..],
        [Effect::Work(Work::Clear)]
    ));
    assert_eq!(s.position().to_string(), "- w 0");
}

#[test]
fn queries_answer_with_response() {
    let mut s = new();
    let ask = |s: &mut Session, q: &str| printed(&run(s, q)).join("|");
    assert_eq!(ask(&mut s, "query gameover"), "response false");
    assert_eq!(ask(&mut s, "query p1turn"), "response true");
    assert_eq!(ask(&mut s, "query result"), "response none");
    assert_eq!(ask(&mut s, "query fen"), "response - w 0");
    assert_eq!(ask(&mut s, "query islegal c5c6d6"), "response true");
    assert_eq!(ask(&mut s, "query islegal C5D6C6"), "response true");
    assert_eq!(ask(&mut s, "query islegal i9i10j10"), "response false");
    assert_eq!(ask(&mut s, "query islegal zz"), "response false");
    run(&mut s, "position startpos moves c5c6d6");
    assert_eq!(ask(&mut s, "query p1turn"), "response false");
    assert_eq!(ask(&mut s, "query fen"), "response Wc5c6d6 b 1");
}

#[test]
fn display_moves_eval_help_perft_bench() {
    let mut s = new();
    run(&mut s, "position startpos moves c5c6d6 f5f6f7");
    let d = printed(&run(&mut s, "d")).join("\n");
    let pos = s.position().clone();
    assert_eq!(pos.to_string(), "Wc5c6d6/Bf5f6f7 w 2");
    assert!(d.contains(&format!("Fen: {pos}")), "{d}");
    assert!(d.contains(&format!("Key: {:016x}", pos.hash())));
    assert!(d.contains("Side to move: White (p1)"));
    assert!(d.contains("Game: in progress"));
    assert!(
        d.contains("In hand White: T5 S4 C2 A2 L2 R2 (total 17)"),
        "{d}"
    );
    let moves = printed(&run(&mut s, "moves"));
    let listed: Vec<&str> = moves[0].split_whitespace().skip(1).collect();
    assert_eq!(listed.len(), pos.legal_moves().len());
    let eval = printed(&run(&mut s, "eval"));
    let terms = evaluate::trace(&pos, &s.options().params);
    assert_eq!(eval.len(), terms.len() + 2);
    assert!(eval[terms.len()].starts_with(&format!(
        "eval total {}",
        evaluate::evaluate(&pos, &s.options().params)
    )));
    // Then the network's output (the embedded one while EvalFile is none).
    let net = crate::engine::search::nnue::embedded();
    let value = crate::engine::search::nnue::evaluate(
        &net,
        &mut crate::engine::search::nnue::Accumulator::new(),
        &pos,
        &s.options().params,
    );
    assert!(eval
        .last()
        .unwrap()
        .starts_with(&format!("eval net {value} (EvalFile ")));
    assert_eq!(printed(&run(&mut s, "help")).len(), HELP.len());
    assert!(matches!(
        &run(&mut s, "go perft 2")[..],
        [Effect::Work(Work::Perft { depth: 2, pos: p })] if **p == pos
    ));
    assert!(matches!(
        run(&mut s, "bench")[..],
        [Effect::Work(Work::Bench {
            depth: bench::DEFAULT_DEPTH
        })]
    ));
    assert!(matches!(run(&mut s, "quit")[..], [Effect::Quit]));
}

#[test]
fn the_drawing_shows_stacks_bridges_and_blocked_pieces() {
    let mut s = new();
    // A straight bridge e5-f5-g5 resting on two straights, over the empty f5.
    let out = run(&mut s, "position fen We5e6e7/Wg5g6g7/We5f5g5 b 3");
    assert!(errors(&out).is_empty(), "{out:?}");
    let d = printed(&run(&mut s, "d")).join("\n");
    assert!(
        d.contains("Stacks (bottom to top, colour+level): e5=W0,W1 g5=W0,W1"),
        "{d}"
    );
    assert!(d.contains("Blocked: We5e6e7 Wg5g6g7"), "{d}");
    assert!(d.contains("Bridges: We5f5g5"), "{d}");
    // e5: the bridge's PUNCT at height 2; e6: a blocked piece's dot; f5: the gap.
    assert!(
        d.contains("W2 ") && d.contains("w1*") && d.contains("w2^"),
        "{d}"
    );
    assert_eq!(d.matches("w1*").count(), 4, "{d}");
    assert_eq!(d.matches(" : ").count(), 19, "the empty central hexagon");
}

#[test]
fn warnings_and_errors_are_one_error_line_each() {
    let mut s = new();
    let out = run(&mut s, "isready junk");
    assert_eq!(errors(&out).len(), 1);
    assert!(matches!(out[1], Effect::Work(Work::Ready)));
    let out = run(&mut s, "go depth x");
    assert_eq!(errors(&out).len(), 1);
    assert!(search_job(&out).is_some(), "a go always searches");
    assert_eq!(errors(&run(&mut s, "xyzzy")).len(), 1);
    assert_eq!(errors(&run(&mut s, "query what")).len(), 1);
}

#[test]
fn random_lines_never_panic_and_keep_the_state_consistent() {
    const WORDS: &[&str] = &[
        "uci",
        "ugi",
        "isready",
        "debug",
        "on",
        "off",
        "setoption",
        "name",
        "value",
        "Hash",
        "Variant",
        "basic",
        "standard",
        "Move",
        "Overhead",
        "Clear",
        "Ponder",
        "true",
        "MultiPV",
        "Seed",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "wtime",
        "btime",
        "p1inc",
        "movestogo",
        "movetime",
        "depth",
        "nodes",
        "mate",
        "infinite",
        "ponder",
        "searchmoves",
        "perft",
        "stop",
        "ponderhit",
        "d",
        "eval",
        "bench",
        "query",
        "gameover",
        "p1turn",
        "result",
        "islegal",
        "help",
        "0",
        "1",
        "-1",
        "99999999999999999999",
        "w",
        "b",
        "-",
        "pass",
        "0000",
        "c5c6d6",
        "f5f6f7",
        "i9",
        "c5-c5b4b5",
        "Wc5c6d6/Bf5f6f7",
        "Wc5c6d6",
        "\u{fffd}",
        "#",
        "x",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut s = new();
    for _ in 0..20_000 {
        let n = 1 + next() % 8;
        let line: Vec<&str> = (0..n)
            .map(|_| WORDS[(next() % WORDS.len() as u64) as usize])
            .collect();
        let line = line.join(" ");
        let before = s.position().clone();
        let out = run(&mut s, &line);
        if line.starts_with("position") && !errors(&out).is_empty() {
            assert_eq!(s.position(), &before, "{line}");
        }
        if let Some(job) = search_job(&out) {
            assert!(!job.pos.is_finished(), "{line}");
            for mv in &job.limits.searchmoves {
                assert!(job.pos.check_move(*mv).is_ok(), "{line}");
            }
            s.search_done(job.id);
        }
        let printed = printed(&out);
        assert!(
            printed.iter().all(|l| !l.contains('\u{0}')),
            "{line}: {printed:?}"
        );
    }
}
