//! `-compliance cmd=...`: a numbered checklist of protocol steps run against any engine, and
//! `-check-pgn FILE`: replay recorded games with the rules.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::referee::exit::{EXIT_CHECK_FAILED, EXIT_OK};
use crate::referee::openings::random_opening;
use crate::referee::players::engine_process::{EngineProcess, IoFault};
use crate::referee::players::player::SearchInfo;
use crate::referee::records::pgn::{broken_tags, read_games};
use crate::referee::settings::{EngineConfig, Proto};
use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::position::{Position, Variant};

type StepResult = Result<String, String>;

struct Checker<'a> {
    cfg: &'a EngineConfig,
    variant: Variant,
    p: Option<EngineProcess>,
    options: Vec<String>,
    last_info: SearchInfo,
    passed: usize,
    failed: usize,
    n: usize,
    /// Set when a step gave up waiting for an answer: the engine is then in an unknown state
    /// (still searching, flooding, hung), so it is killed, as a match kills an engine that
    /// missed its deadline, and the later steps fail at once instead of each waiting out its
    /// own deadline.
    stale: bool,
    /// Why the engine was killed (the step that missed its deadline).
    killed: Option<String>,
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

impl<'a> Checker<'a> {
    fn step(&mut self, name: &str, f: impl FnOnce(&mut Self) -> StepResult) {
        self.n += 1;
        let r = if self.p.is_none() && self.n > 1 && !name.starts_with("EOF") {
            match &self.killed {
                Some(why) => Err(format!("engine not running ({why})")),
                None => Err("engine not running".to_string()),
            }
        } else {
            f(self)
        };
        if std::mem::take(&mut self.stale) {
            if let Some(mut p) = self.p.take() {
                p.kill();
                self.killed = Some(format!("killed after step {} missed its deadline", self.n));
            }
        }
        match r {
            Ok(note) => {
                self.passed += 1;
                let note = if note.is_empty() {
                    String::new()
                } else {
                    format!(" ({note})")
                };
                println!("{:2}. {name}: ok{note}", self.n);
            }
            Err(why) => {
                self.failed += 1;
                println!("{:2}. {name}: FAILED: {why}", self.n);
            }
        }
    }

    fn hello(&self) -> &'static str {
        self.cfg.proto.name()
    }

    fn proc(&mut self) -> Result<&mut EngineProcess, String> {
        self.p
            .as_mut()
            .ok_or_else(|| "engine not running".to_string())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let r = self.proc()?.send(line).map(|_| ());
        r.map_err(|f| {
            self.stale = true;
            match f {
                IoFault::InputBlocked => {
                    format!("engine does not read its input (sending '{line}')")
                }
                _ => format!("engine closed its input (sending '{line}')"),
            }
        })
    }

    /// Waits for a line starting with `word`; info lines update `last_info`.
    fn expect(&mut self, word: &str, within: Duration) -> Result<(Duration, String), String> {
        let start = Instant::now();
        let mut info = SearchInfo::default();
        let mut other = 0u64;
        let r = self.proc()?.wait_for(word, start + within, |l| {
            info.update(l);
            other += 1;
        });
        self.last_info = info;
        match r {
            Ok((at, line)) => Ok((at.saturating_duration_since(start), line)),
            Err(f) => {
                self.stale = true;
                Err(format!(
                    "no '{word}' within {} ms ({f:?}; {other} other lines read)",
                    within.as_millis()
                ))
            }
        }
    }

    fn start(&mut self) -> StepResult {
        let mut p = EngineProcess::spawn(self.cfg).map_err(|e| format!("cannot start: {e}"))?;
        let hello = self.hello();
        p.send(hello).map_err(|_| "closed its input".to_string())?;
        let mut id = false;
        let mut options = Vec::new();
        let r = p.wait_for(&format!("{hello}ok"), Instant::now() + secs(10.0), |l| {
            if l.starts_with("id name") {
                id = true;
            }
            if l.starts_with("option ") {
                options.push(l.to_string());
            }
        });
        self.p = Some(p);
        r.map_err(|f| {
            self.stale = true;
            format!("no {hello}ok within 10 s ({f:?})")
        })?;
        self.options = options;
        if !id {
            return Err(format!("no 'id name' line before {hello}ok"));
        }
        Ok(format!("{} options", self.options.len()))
    }

    /// Sends `position` and `go`, waits for a legal `bestmove`.
    fn search(
        &mut self,
        position: &str,
        pos: &Position,
        go: &str,
        within: Duration,
    ) -> Result<(Move, Duration), String> {
        self.send(position)?;
        self.send(go)?;
        let (t, line) = self.expect("bestmove", within)?;
        let token = line.split_whitespace().nth(1).unwrap_or("");
        let mv = parse_move(token).map_err(|e| format!("bestmove '{token}': {e}"))?;
        pos.check_move(mv)
            .map_err(|e| format!("bestmove '{token}' is illegal: {e}"))?;
        Ok((mv, t))
    }

    fn clocks(&self, ms: u64, inc: u64) -> String {
        match self.cfg.proto {
            Proto::Uci => format!("wtime {ms} btime {ms} winc {inc} binc {inc}"),
            Proto::Ugi => format!("p1time {ms} p2time {ms} p1inc {inc} p2inc {inc}"),
        }
    }
}

fn option_ok(line: &str) -> Result<(Option<String>, Option<String>), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ty = words
        .iter()
        .position(|w| *w == "type")
        .ok_or(format!("no type in '{line}'"))?;
    if words.get(1) != Some(&"name") || ty < 3 {
        return Err(format!("no name in '{line}'"));
    }
    let name = words[2..ty].join(" ");
    let kind = *words.get(ty + 1).unwrap_or(&"");
    if !matches!(kind, "check" | "spin" | "combo" | "button" | "string") {
        return Err(format!("unknown type '{kind}' in '{line}'"));
    }
    let default = words
        .iter()
        .position(|w| *w == "default")
        .and_then(|i| words.get(i + 1))
        .map(|s| s.to_string());
    if kind == "button" {
        return Ok((None, None));
    }
    Ok((Some(name), default))
}

/// Runs the checklist; exit status 0 when every step passed, 1 otherwise.
pub fn run(cfg: &EngineConfig, variant: Variant) -> u8 {
    println!(
        "Compliance check of '{}' ({} handshake)",
        cfg.name,
        cfg.proto.name()
    );
    let mut c = Checker {
        cfg,
        variant,
        p: None,
        options: Vec::new(),
        last_info: SearchInfo::default(),
        passed: 0,
        failed: 0,
        n: 0,
        stale: false,
        killed: None,
    };
    let hello = c.hello();
    let newgame = format!("{hello}newgame");
    c.step(
        &format!("start and '{hello}' handshake, 'id name', '{hello}ok' within 10 s"),
        |c| c.start(),
    );
    c.step("option lines are well-formed", |c| {
        for l in &c.options {
            option_ok(l)?;
        }
        Ok(format!("{} checked", c.options.len()))
    });
    c.step("isready answered by readyok within 5 s", |c| {
        c.send("isready")?;
        c.expect("readyok", secs(5.0))
            .map(|(t, _)| format!("{} ms", t.as_millis()))
    });
    c.step(
        "setoption of every option to its default, then readyok",
        |c| {
            let opts: Vec<_> = c.options.iter().filter_map(|l| option_ok(l).ok()).collect();
            let mut n = 0;
            for (name, default) in opts {
                if let (Some(name), Some(default)) = (name, default) {
                    if default != "<empty>" {
                        c.send(&format!("setoption name {name} value {default}"))?;
                        n += 1;
                    }
                }
            }
            c.send("isready")?;
            c.expect("readyok", secs(5.0))?;
            Ok(format!("{n} set"))
        },
    );
    c.step(&format!("{newgame} then readyok"), |c| {
        c.send(&newgame)?;
        c.send("isready")?;
        c.expect("readyok", secs(5.0)).map(|_| String::new())
    });
    let start = Position::new(variant);
    c.step("position startpos, go depth 1: legal bestmove", |c| {
        c.search("position startpos", &start, "go depth 1", secs(10.0))
            .map(|(m, t)| format!("{m} in {} ms", t.as_millis()))
    });
    c.step("info lines before bestmove carry a score", |c| {
        match c.last_info.score {
            Some(s) => Ok(format!("score {s}")),
            None => Err("no 'info ... score cp|mate' line".into()),
        }
    });
    let opening = random_opening(variant, 6, 99);
    let opos = parse_position(&opening, variant).expect("generated opening parses");
    c.step("position fen <PIECES SIDE PLY>: legal bestmove", |c| {
        c.search(
            &format!("position fen {opening}"),
            &opos,
            "go depth 1",
            secs(10.0),
        )
        .map(|(m, _)| m.to_string())
    });
    // The same position reached through moves from the start.
    let mut moves_pos = Position::new(variant);
    let mut moves = Vec::new();
    {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..4 {
            let ms = moves_pos.legal_moves();
            let m = ms[rng.gen_range(0..ms.len())];
            moves_pos.make(m);
            moves.push(m.to_string());
        }
    }
    let moves_text = moves.join(" ");
    c.step("position startpos moves ...: legal bestmove", |c| {
        c.search(
            &format!("position startpos moves {moves_text}"),
            &moves_pos,
            "go depth 1",
            secs(10.0),
        )
        .map(|(m, _)| m.to_string())
    });
    c.step("position fen ... moves ...: legal bestmove", |c| {
        let mut p = opos.clone();
        let m = p.legal_moves()[0];
        p.make(m);
        c.search(
            &format!("position fen {opening} moves {m}"),
            &p,
            "go depth 1",
            secs(10.0),
        )
        .map(|(m, _)| m.to_string())
    });
    c.step("go movetime 200: bestmove within 200 ms + 100 ms", |c| {
        let (_, t) = c.search("position startpos", &start, "go movetime 200", secs(5.0))?;
        if t > Duration::from_millis(300) {
            return Err(format!("took {} ms", t.as_millis()));
        }
        Ok(format!("{} ms", t.as_millis()))
    });
    c.step(
        "go with both clocks and increments: move within the clock",
        |c| {
            let go = format!("go {}", c.clocks(2000, 20));
            let (_, t) = c.search("position startpos", &start, &go, secs(5.0))?;
            if t > Duration::from_millis(2000) {
                return Err(format!("took {} ms of a 2000 ms clock", t.as_millis()));
            }
            Ok(format!("{} ms", t.as_millis()))
        },
    );
    c.step("go with clocks and movestogo", |c| {
        let go = format!("go {} movestogo 5", c.clocks(1000, 0));
        let (_, t) = c.search(&format!("position fen {opening}"), &opos, &go, secs(5.0))?;
        if t > Duration::from_millis(1000) {
            return Err(format!("took {} ms of a 1000 ms clock", t.as_millis()));
        }
        Ok(format!("{} ms", t.as_millis()))
    });
    c.step("go nodes 1000: legal bestmove", |c| {
        c.search("position startpos", &start, "go nodes 1000", secs(10.0))
            .map(|(m, t)| format!("{m} in {} ms", t.as_millis()))
    });
    c.step("go depth 2: legal bestmove", |c| {
        c.search(
            &format!("position fen {opening}"),
            &opos,
            "go depth 2",
            secs(30.0),
        )
        .map(|(m, t)| format!("{m} in {} ms", t.as_millis()))
    });
    c.step(
        "go infinite: no bestmove on its own, readyok at once mid-search, stop gives bestmove",
        |c| {
            c.send("position startpos")?;
            c.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(300));
            c.send("isready")?;
            let asked = Instant::now();
            let mut early = false;
            let r = c.proc()?.wait_for("readyok", asked + secs(1.0), |l| {
                early |= l.starts_with("bestmove");
            });
            if early {
                return Err("bestmove before stop in go infinite".into());
            }
            let t =
                r.map_err(|f| {
                    c.stale = true;
                    format!("no readyok within 1 s mid-search ({f:?})")
                })?
                .0 - asked;
            c.send("stop")?;
            let (st, line) = c.expect("bestmove", secs(1.0))?;
            let token = line.split_whitespace().nth(1).unwrap_or("");
            let mv = parse_move(token).map_err(|e| format!("bestmove '{token}': {e}"))?;
            start
                .check_move(mv)
                .map_err(|e| format!("illegal after stop: {e}"))?;
            Ok(format!(
                "readyok {} ms, stop->bestmove {} ms",
                t.as_millis(),
                st.as_millis()
            ))
        },
    );
    c.step(
        "go ponder: no bestmove before ponderhit, then a legal bestmove",
        |c| {
            let first = start.legal_moves()[0];
            let mut p = start.clone();
            p.make(first);
            c.send(&format!("position startpos moves {first}"))?;
            c.send(&format!("go ponder {}", c.clocks(1000, 0)))?;
            let early = c.proc()?.wait_for(
                "bestmove",
                Instant::now() + Duration::from_millis(300),
                |_| {},
            );
            if early.is_ok() {
                return Err("bestmove while pondering, before ponderhit".into());
            }
            c.send("ponderhit")?;
            let (t, line) = c.expect("bestmove", secs(2.0))?;
            let token = line.split_whitespace().nth(1).unwrap_or("");
            let mv = parse_move(token).map_err(|e| format!("bestmove '{token}': {e}"))?;
            p.check_move(mv)
                .map_err(|e| format!("illegal after ponderhit: {e}"))?;
            Ok(format!("{} ms after ponderhit", t.as_millis()))
        },
    );
    c.step(
        "stop while idle is ignored (readyok follows, no bestmove)",
        |c| {
            c.send("stop")?;
            c.send("isready")?;
            let mut stray = false;
            let r = c
                .proc()?
                .wait_for("readyok", Instant::now() + secs(2.0), |l| {
                    stray |= l.starts_with("bestmove");
                });
            r.map_err(|f| {
                c.stale = true;
                format!("no readyok within 2 s ({f:?})")
            })?;
            if stray {
                return Err("bestmove after an idle stop".into());
            }
            Ok(String::new())
        },
    );
    c.step(
        "finished game: go answers at once with bestmove (none) or 0000",
        |c| {
            let fin = finished_position(c.variant);
            c.send(&format!("position fen {fin}"))?;
            c.send("go depth 3")?;
            let (t, line) = c.expect("bestmove", secs(2.0))?;
            let token = line.split_whitespace().nth(1).unwrap_or("");
            if token != "(none)" && token != "0000" {
                return Err(format!("answered '{token}' in a finished game"));
            }
            Ok(format!("{token} in {} ms", t.as_millis()))
        },
    );
    c.step("quit: the engine exits within 1 s", |c| {
        let p = c.proc()?;
        let _ = p.send("quit");
        let ok = wait_exit(p, secs(1.0));
        c.p = None;
        if ok {
            Ok(String::new())
        } else {
            Err("still running 1 s after quit".into())
        }
    });
    c.step("EOF on input: the engine exits within 1 s", |c| {
        c.start()?;
        let p = c.proc()?;
        p.close_input();
        let ok = wait_exit(p, secs(1.0));
        c.p = None;
        if ok {
            Ok(String::new())
        } else {
            Err("still running 1 s after its input closed".into())
        }
    });
    println!("{} passed, {} failed", c.passed, c.failed);
    if c.failed == 0 {
        EXIT_OK
    } else {
        EXIT_CHECK_FAILED
    }
}

fn wait_exit(p: &mut EngineProcess, within: Duration) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if !p.is_running() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// A finished game from seeded random play.
fn finished_position(variant: Variant) -> String {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut pos = Position::new(variant);
    for _ in 0..5000 {
        let ms = pos.legal_moves();
        if ms.is_empty() {
            break;
        }
        pos.make(ms[rng.gen_range(0..ms.len())]);
    }
    pos.to_string()
}

/// Replays every game of the files with the rules; exit status 1 on any problem.
pub fn check_pgn(files: &[PathBuf], variant: Variant) -> u8 {
    let mut bad = 0;
    let mut total = 0;
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                println!("{}: {e}", f.display());
                bad += 1;
                continue;
            }
        };
        for problem in broken_tags(&text) {
            bad += 1;
            println!("{}: {problem}", f.display());
        }
        for g in read_games(&text) {
            total += 1;
            let round = g.tag("Round").unwrap_or("?").to_string();
            let v = g
                .tag("Variant")
                .and_then(Variant::from_name)
                .unwrap_or(variant);
            if let Err(e) = replay(&g, v) {
                bad += 1;
                println!("{} game {round}: {e}", f.display());
            }
        }
    }
    println!("{total} games checked, {bad} with problems");
    if bad == 0 {
        EXIT_OK
    } else {
        EXIT_CHECK_FAILED
    }
}

fn replay(g: &crate::referee::records::pgn::PgnGame, variant: Variant) -> Result<(), String> {
    let fen = g.tag("FEN").unwrap_or("startpos");
    let mut pos = parse_position(fen, variant).map_err(|e| format!("FEN: {e}"))?;
    for (i, m) in g.moves.iter().enumerate() {
        let mv = parse_move(m).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.play(mv)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
    }
    if let Some(n) = g.tag("PlyCount").and_then(|n| n.parse::<usize>().ok()) {
        if n != g.moves.len() {
            return Err(format!("PlyCount {n} but {} moves", g.moves.len()));
        }
    }
    if g.tag("Termination") == Some("normal") {
        let result = g.result.as_deref().unwrap_or("*");
        match pos.outcome() {
            Some(o) => {
                let expected = match o.winner {
                    Some(crate::rules::piece::Colour::White) => "1-0",
                    Some(crate::rules::piece::Colour::Black) => "0-1",
                    None => "1/2-1/2",
                };
                if expected != result {
                    return Err(format!(
                        "result {result} but the rules say {expected} ({o})"
                    ));
                }
            }
            None if result == "1/2-1/2" && pos.repetitions() >= 3 => {}
            None => return Err(format!("result {result} (normal) but the game is not over")),
        }
    }
    Ok(())
}
