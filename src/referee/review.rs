//! Game review: an engine evaluates every position of a game for a fixed time, and each move is
//! judged by how much it lowered the mover's win chance (inaccuracy, mistake, blunder, as
//! lichess does), with the engine's better move. Shared by `punct-referee review` (PGN in,
//! annotated PGN out) and the GUI's review (evaluation graph, marks in the move list).
//!
//! Scores are turned to White's point of view; a finished position is scored by its result.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::referee::cli::{build_engine, split_words, unknown_flag};
use crate::referee::players::engine_process::{EngineProcess, IoFault};
use crate::referee::players::player::{Score, SearchInfo};
use crate::referee::records::pgn::{read_games, PgnGame};
use crate::referee::settings::EngineConfig;
use crate::rules::notation::{parse_move, parse_position, position_to_string};
use crate::rules::piece::Colour;
use crate::rules::position::{Position, Variant};

/// How long an engine has for the handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// Grace on top of the time per position before `stop`, and after `stop` before giving up.
const GRACE: Duration = Duration::from_secs(5);
/// A mate (or a finished game) as centipawns, for graphs and win chances.
pub const MATE_CP: i32 = 10_000;

/// The evaluation of one position, from White's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// Centipawns for White; a mate or a decided game is about ±[`MATE_CP`].
    pub white_cp: i32,
    /// `+0.45`, `-M3` (White's view), or `1-0`, `0-1`, `1/2-1/2` for a finished game.
    pub text: String,
    pub depth: Option<u32>,
    /// The engine's best move (None for a finished position).
    pub best: Option<String>,
}

impl Eval {
    /// White's chance to win, 0..1 (the logistic curve lichess uses on centipawns).
    pub fn white_win_chance(&self) -> f64 {
        win_chance(self.white_cp)
    }

    /// The comment text: `+0.45/12`, or the result.
    pub fn comment(&self) -> String {
        match self.depth {
            Some(d) => format!("{}/{d}", self.text),
            None => self.text.clone(),
        }
    }
}

/// Win chance 0..1 for a centipawn score.
pub fn win_chance(cp: i32) -> f64 {
    1.0 / (1.0 + (-0.003_682_08 * cp as f64).exp())
}

/// How bad a move was, by the drop in the mover's win chance.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The move glyph (written inside comments: the referee's PGN reader takes bare tokens for
    /// moves).
    pub fn glyph(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// The class of a drop in win chance (0..1): 0.1, 0.2 and 0.3 as on lichess.
    pub fn of_drop(drop: f64) -> Option<Class> {
        if drop >= 0.3 {
            Some(Class::Blunder)
        } else if drop >= 0.2 {
            Some(Class::Mistake)
        } else if drop >= 0.1 {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The drop of the mover's win chance (0..1; negative when the move did better than the
    /// engine expected).
    pub drop: f64,
    pub class: Option<Class>,
    /// The engine's move in the position before, when it differs from the one played.
    pub better: Option<String>,
}

/// Judges the move from `before` to `after` played by `mover`.
pub fn judge(mover: Colour, played: &str, before: &Eval, after: &Eval) -> Verdict {
    let (b, a) = (before.white_win_chance(), after.white_win_chance());
    let drop = match mover {
        Colour::White => b - a,
        Colour::Black => a - b,
    };
    let better = before.best.clone().filter(|m| m != played);
    // A move that lets the mover be mated (a mate score or a lost game against the mover
    // after it, and not before; centipawn scores stop at MATE_CP - 100) is judged as lichess
    // does ("mate created"), by how lost the mover already was: a blunder from -4.57 to -M2
    // (not "?!" for its 16 %), a mistake below -7.00, an inaccuracy below -10.00 (the loss was
    // already all but unavoidable: -12.11 to -M3 is no blunder).
    let mover_cp = match mover {
        Colour::White => before.white_cp,
        Colour::Black => -before.white_cp,
    };
    let lost = |e: &Eval| match mover {
        Colour::White => e.white_cp < -(MATE_CP - 100),
        Colour::Black => e.white_cp > MATE_CP - 100,
    };
    let allowed_mate = lost(after) && !lost(before);
    let mate_class = if mover_cp < -999 {
        Class::Inaccuracy
    } else if mover_cp < -700 {
        Class::Mistake
    } else {
        Class::Blunder
    };
    // The engine's own move is never marked (its evaluations differ a little by depth).
    let class = better.as_ref().and_then(|_| {
        if allowed_mate {
            Some(mate_class.max(Class::of_drop(drop).unwrap_or(mate_class)))
        } else {
            Class::of_drop(drop)
        }
    });
    Verdict {
        drop,
        class,
        better,
    }
}

/// An engine process ready to evaluate positions.
pub struct Analyser {
    p: EngineProcess,
    name: String,
    has_variant: bool,
    variant: Option<Variant>,
}

impl Analyser {
    /// Starts the engine and runs the handshake (with the configuration's options).
    pub fn start(cfg: &EngineConfig) -> Result<Analyser, String> {
        if cfg.is_builtin() {
            return Err(format!(
                "{}: a built-in player cannot evaluate positions",
                cfg.cmd
            ));
        }
        let mut p =
            EngineProcess::spawn(cfg).map_err(|e| format!("cannot start '{}': {e}", cfg.cmd))?;
        let hello = cfg.proto.name();
        let fault = |f: IoFault, what: &str| format!("{}: {what}: {f:?}", cfg.name);
        p.send(hello).map_err(|f| fault(f, hello))?;
        let mut has_variant = false;
        p.wait_for(&format!("{hello}ok"), Instant::now() + HANDSHAKE, |l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            if w.len() > 2 && w[0] == "option" && w[1] == "name" && w[2] == "Variant" {
                has_variant = true;
            }
        })
        .map_err(|f| fault(f, "handshake"))?;
        for (name, value) in &cfg.options {
            p.send(&format!("setoption name {name} value {value}"))
                .map_err(|f| fault(f, "setoption"))?;
        }
        p.send("isready").map_err(|f| fault(f, "isready"))?;
        p.wait_for("readyok", Instant::now() + HANDSHAKE, |_| {})
            .map_err(|f| fault(f, "readyok"))?;
        Ok(Analyser {
            p,
            name: cfg.name.clone(),
            has_variant,
            variant: None,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Evaluates `pos` (reached from `start` by `moves`) for `movetime`.
    pub fn evaluate(
        &mut self,
        start: &Position,
        moves: &[String],
        pos: &Position,
        movetime: Duration,
    ) -> Result<Eval, String> {
        if let Some(o) = pos.outcome() {
            let (cp, text) = match o.winner {
                Some(Colour::White) => (MATE_CP, "1-0"),
                Some(Colour::Black) => (-MATE_CP, "0-1"),
                None => (0, "1/2-1/2"),
            };
            return Ok(Eval {
                white_cp: cp,
                text: text.into(),
                depth: None,
                best: None,
            });
        }
        let fault = |f: IoFault| format!("{}: {f:?}", self.name);
        if self.has_variant && self.variant != Some(pos.variant()) {
            self.p
                .send(&format!(
                    "setoption name Variant value {}",
                    pos.variant().name()
                ))
                .map_err(fault)?;
            self.variant = Some(pos.variant());
        }
        let s = position_to_string(start);
        let mut cmd = if s == "- w 0" {
            "position startpos".to_string()
        } else {
            format!("position fen {s}")
        };
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        self.p.drain();
        self.p.send(&cmd).map_err(fault)?;
        self.p
            .send(&format!("go movetime {}", movetime.as_millis().max(1)))
            .map_err(fault)?;
        let mut info = SearchInfo::default();
        let deadline = Instant::now() + movetime + GRACE;
        let line = match self.p.wait_for("bestmove", deadline, |l| info.update(l)) {
            Ok((_, l)) => l,
            Err(IoFault::Timeout) => {
                // Late: ask it to stop and take the answer if it comes.
                let _ = self.p.send("stop");
                self.p
                    .wait_for("bestmove", Instant::now() + GRACE, |l| info.update(l))
                    .map_err(fault)?
                    .1
            }
            Err(f) => return Err(fault(f)),
        };
        let best = line.split_whitespace().nth(1).map(str::to_string);
        let flip = if pos.side_to_move() == Colour::White {
            1
        } else {
            -1
        };
        let (white_cp, text) = match info.score {
            Some(Score::Cp(c)) => {
                let w = (c * flip).clamp(-MATE_CP + 100, MATE_CP - 100);
                (w, format!("{:+.2}", w as f64 / 100.0))
            }
            Some(Score::Mate(m)) => {
                let w = m * flip;
                let cp = if w > 0 {
                    MATE_CP - w.abs()
                } else {
                    -MATE_CP + w.abs()
                };
                (cp, format!("{}M{}", if w > 0 { '+' } else { '-' }, w.abs()))
            }
            None => (0, "+0.00".to_string()),
        };
        Ok(Eval {
            white_cp,
            text,
            depth: info.depth,
            best,
        })
    }

    /// Quits the engine.
    pub fn quit(mut self) {
        self.p.quit(Duration::from_millis(300));
    }
}

/// Evaluates every position of a game, from the start to after the last move; `progress` sees
/// each evaluation as it comes (index of the position, evaluation). Stops early, with the
/// evaluations so far, when `cancel` is set.
pub fn review_game(
    analyser: &mut Analyser,
    start: &Position,
    moves: &[String],
    movetime: Duration,
    cancel: &AtomicBool,
    mut progress: impl FnMut(usize, &Eval),
) -> Result<Vec<Eval>, String> {
    let mut pos = start.clone();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        if cancel.load(Ordering::SeqCst) {
            break;
        }
        if i > 0 {
            let mv = parse_move(&moves[i - 1]).map_err(|e| format!("move {i}: {e}"))?;
            pos.play(mv).map_err(|e| format!("move {i}: {e}"))?;
        }
        let e = analyser.evaluate(start, &moves[..i], &pos, movetime)?;
        progress(i, &e);
        evals.push(e);
    }
    Ok(evals)
}

/// The verdicts of the moves of a reviewed game (`evals` has one more entry than `moves`, or
/// fewer when cut short: then only the moves with both evaluations are judged).
pub fn verdicts(start: &Position, moves: &[String], evals: &[Eval]) -> Vec<Verdict> {
    let mut side = start.side_to_move();
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let (Some(b), Some(a)) = (evals.get(i), evals.get(i + 1)) else {
            break;
        };
        out.push(judge(side, m, b, a));
        side = !side;
    }
    out
}

/// The game as PGN with a comment after every move: the evaluation after it (White's view) and
/// depth, `{+0.45/12}`, and for a marked move its class and the engine's better move,
/// `{-1.20/12 ?? blunder; better c5c6d6}`. Tags are kept, an `Annotator` tag added.
pub fn annotated_pgn(game: &PgnGame, start: &Position, evals: &[Eval], annotator: &str) -> String {
    let mut s = String::new();
    for (k, v) in &game.tags {
        if k != "Annotator" {
            let _ = writeln!(
                s,
                "[{k} \"{}\"]",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            );
        }
    }
    let _ = writeln!(s, "[Annotator \"{}\"]", annotator.replace('"', "'"));
    s.push('\n');
    let vs = verdicts(start, &game.moves, evals);
    let mut toks: Vec<String> = Vec::new();
    if let Some(e) = evals.first() {
        toks.push(format!("{{start {}}}", e.comment()));
    }
    let start_ply = start.ply() as usize;
    for (i, m) in game.moves.iter().enumerate() {
        let ply = start_ply + i;
        if ply.is_multiple_of(2) {
            toks.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            toks.push(format!("{}...", ply / 2 + 1));
        }
        toks.push(m.clone());
        if let Some(e) = evals.get(i + 1) {
            let mut c = e.comment();
            if let Some(v) = vs.get(i) {
                if let Some(class) = v.class {
                    let _ = write!(c, " {} {}", class.glyph(), class.name());
                    if let Some(b) = &v.better {
                        let _ = write!(c, "; better {b}");
                    }
                }
            }
            toks.push(format!("{{{c}}}"));
        }
    }
    toks.push(game.result.clone().unwrap_or_else(|| "*".into()));
    let mut line = String::new();
    for t in toks {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// The start position of a PGN game (its `FEN` tag, else the empty board) and its variant.
pub fn game_start(game: &PgnGame, default: Variant) -> Result<Position, String> {
    let variant = match game.tag("Variant") {
        Some(v) => Variant::from_name(v).ok_or_else(|| format!("unknown variant '{v}'"))?,
        None => default,
    };
    match game.tag("FEN") {
        Some(f) => parse_position(f.trim(), variant).map_err(|e| format!("bad FEN '{f}': {e}")),
        None => Ok(Position::new(variant)),
    }
}

const USAGE: &str = "\
usage: punct-referee review -engine cmd=PROG [name=N] [option.K=V]... [st=SECONDS]
                            -pgn IN.pgn [-out OUT.pgn] [-variant standard|basic]
Evaluates every position of every game of IN.pgn for st seconds (default 1) and writes the
games with a comment after each move: the evaluation after it from White's point of view and
the depth, {+0.45/12}; inaccuracies (?!), mistakes (?) and blunders (??) by the drop of the
mover's win chance (10, 20, 30 %) with the engine's better move. Output to OUT.pgn or stdout.
";

/// `punct-referee review ...`: when the first argument is `review`, runs it and returns the exit
/// status (0 done, 1 engine or game error, 2 bad arguments); else None.
pub fn dispatch() -> Option<u8> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) != Some("review") {
        return None;
    }
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .target(env_logger::Target::Stderr)
        .try_init();
    Some(run(&args[1..]))
}

/// The review command on its arguments (after `review`).
pub fn run(args: &[String]) -> u8 {
    let mut engine: Vec<String> = Vec::new();
    let (mut input, mut output, mut variant) = (None, None, Variant::Standard);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        match a {
            "-engine" => {
                while i < args.len() && !args[i].starts_with('-') {
                    engine.extend(split_words(&args[i]));
                    i += 1;
                }
            }
            "-pgn" | "-out" | "-variant" if i < args.len() => {
                let v = args[i].clone();
                i += 1;
                match a {
                    "-pgn" => input = Some(v),
                    "-out" => output = Some(v),
                    _ => match Variant::from_name(&v) {
                        Some(x) => variant = x,
                        None => {
                            eprintln!("punct-referee review: unknown variant '{v}'\n{USAGE}");
                            return 2;
                        }
                    },
                }
            }
            "-h" | "-help" | "--help" => {
                print!("{USAGE}");
                return 0;
            }
            "-pgn" | "-out" | "-variant" => {
                eprintln!("punct-referee review: {a} needs a value\n{USAGE}");
                return 2;
            }
            _ if a.starts_with('-') => {
                let known = ["-engine", "-pgn", "-out", "-variant", "--help"];
                eprintln!("punct-referee review: {}", unknown_flag(a, known));
                return 2;
            }
            _ => {
                eprintln!("punct-referee review: unexpected '{a}': not a flag\n{USAGE}");
                return 2;
            }
        }
    }
    let cfg = match build_engine(&[], &engine, "-engine") {
        Ok(c) => c,
        Err(e) => {
            eprintln!("punct-referee review: {e}\n{USAGE}");
            return 2;
        }
    };
    let Some(input) = input else {
        eprintln!("punct-referee review: -pgn FILE is missing\n{USAGE}");
        return 2;
    };
    let text = match std::fs::read_to_string(&input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("punct-referee review: {input}: {e}");
            return 1;
        }
    };
    let games = read_games(&text);
    if games.is_empty() {
        eprintln!("punct-referee review: {input}: no complete game");
        return 1;
    }
    let movetime = cfg.st.unwrap_or(Duration::from_secs(1));
    let mut analyser = match Analyser::start(&cfg) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("punct-referee review: {e}");
            return 1;
        }
    };
    let annotator = format!(
        "punct-referee review: {} st={}",
        cfg.name,
        movetime.as_secs_f64()
    );
    let mut out = String::new();
    let never = AtomicBool::new(false);
    for (n, g) in games.iter().enumerate() {
        let start = match game_start(g, variant) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("punct-referee review: game {}: {e}", n + 1);
                return 1;
            }
        };
        log::info!(
            "game {} of {}: {} positions at {:.2} s",
            n + 1,
            games.len(),
            g.moves.len() + 1,
            movetime.as_secs_f64()
        );
        let evals = match review_game(&mut analyser, &start, &g.moves, movetime, &never, |i, e| {
            log::debug!("position {i}: {}", e.comment())
        }) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("punct-referee review: game {}: {e}", n + 1);
                return 1;
            }
        };
        let marks = verdicts(&start, &g.moves, &evals)
            .iter()
            .filter(|v| v.class.is_some())
            .count();
        log::info!("game {}: {marks} marked moves", n + 1);
        out.push_str(&annotated_pgn(g, &start, &evals, &annotator));
    }
    analyser.quit();
    let written = match &output {
        Some(path) => std::fs::write(path, &out).map_err(|e| format!("{path}: {e}")),
        None => {
            print!("{out}");
            Ok(())
        }
    };
    if let Err(e) = written {
        eprintln!("punct-referee review: {e}");
        return 1;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(cp: i32, best: &str) -> Eval {
        Eval {
            white_cp: cp,
            text: format!("{:+.2}", cp as f64 / 100.0),
            depth: Some(5),
            best: Some(best.into()),
        }
    }

    #[test]
    fn drops_are_classed_for_the_mover() {
        // White goes from +1.00 to -3.00: a blunder for White.
        let v = judge(Colour::White, "a", &ev(100, "b"), &ev(-300, "x"));
        assert_eq!(v.class, Some(Class::Blunder));
        assert_eq!(v.better.as_deref(), Some("b"));
        // The same swing is good for Black.
        let v = judge(Colour::Black, "a", &ev(100, "b"), &ev(-300, "x"));
        assert_eq!(v.class, None);
        // The engine's own move is never marked.
        let v = judge(Colour::White, "b", &ev(100, "b"), &ev(-300, "x"));
        assert_eq!((v.class, v.better), (None, None));
        assert_eq!(Class::of_drop(0.15), Some(Class::Inaccuracy));
        assert_eq!(Class::of_drop(0.25), Some(Class::Mistake));
        assert!((win_chance(0) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_move_that_allows_a_forced_loss_is_a_blunder() {
        // -4.57 to -M2 for White: the drop in win chance is only about 16 %, but it is a blunder.
        let v = judge(Colour::White, "a", &ev(-457, "b"), &ev(-MATE_CP + 2, "x"));
        assert_eq!(v.class, Some(Class::Blunder));
        // The same for Black, from +4.57 to +M2 (White's view).
        let v = judge(Colour::Black, "a", &ev(457, "b"), &ev(MATE_CP - 2, "x"));
        assert_eq!(v.class, Some(Class::Blunder));
        // Already mated before: no worse.
        let v = judge(
            Colour::White,
            "a",
            &ev(-MATE_CP + 4, "b"),
            &ev(-MATE_CP + 2, "x"),
        );
        assert_eq!(v.class, None);
        // The engine's own move stays unmarked.
        let v = judge(Colour::White, "b", &ev(-457, "b"), &ev(-MATE_CP + 2, "x"));
        assert_eq!(v.class, None);
    }

    /// Issue 46, bug 7: a move played at -12.11 that allows a mate lost 1 % of win chance: it
    /// is no blunder (lichess: an inaccuracy below -10.00, a mistake below -7.00).
    #[test]
    fn a_mate_allowed_in_a_lost_position_is_judged_by_how_lost_it_was() {
        let v = judge(Colour::White, "a", &ev(-1211, "b"), &ev(-MATE_CP + 3, "x"));
        assert!(v.drop < 0.02, "{v:?}");
        assert_eq!(v.class, Some(Class::Inaccuracy));
        let v = judge(Colour::Black, "a", &ev(1211, "b"), &ev(MATE_CP - 3, "x"));
        assert_eq!(v.class, Some(Class::Inaccuracy));
        let v = judge(Colour::White, "a", &ev(-800, "b"), &ev(-MATE_CP + 3, "x"));
        assert_eq!(v.class, Some(Class::Mistake));
        let v = judge(Colour::Black, "a", &ev(800, "b"), &ev(MATE_CP - 3, "x"));
        assert_eq!(v.class, Some(Class::Mistake));
        // Winning before: the drop itself makes it a blunder.
        let v = judge(Colour::White, "a", &ev(300, "b"), &ev(-MATE_CP + 3, "x"));
        assert_eq!(v.class, Some(Class::Blunder));
    }
}
