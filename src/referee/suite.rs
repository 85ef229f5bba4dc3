//! `-suite FILE`: test positions for one engine, for CI (docs/referee.md, "Test suites").
//!
//! A suite file holds one position a line, EPD style:
//!
//! ```text
//! # comment
//! Wc5c6d6/Bf5f6f7 w 2 bm c4c5d5 c4d5c5; id "wins-01";
//! Wc5c6d6/Bf5f6f7 w 2 am d4e4e5; id "blocks-07"; variant basic;
//! variant basic;      # a line of its own: the variant of the lines after it
//! ```
//!
//! `bm`: solved when the engine's move is one of these; `am`: solved when it is none of these
//! (both may be given). Every position and move is checked with the rules before any engine
//! starts; a bad line is an error naming the file and the line. Positions are searched
//! concurrently, each with a fresh `ucinewgame`, through the same engine wrapper (deadlines on
//! every read and write) as matches, so an engine fault is a failed position with its reason.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::referee::exit::{
    EXIT_BAD_ARGS, EXIT_CHECK_FAILED, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK,
};
use crate::referee::game::{go_command, move_deadline, position_command};
use crate::referee::junit;
use crate::referee::players::builtin::builtin_player;
use crate::referee::players::player::{EnginePlayer, Fault, Player, Score, ThinkRequest, Timeouts};
use crate::referee::settings::SuiteConfig;
use crate::referee::signals;
use crate::referee::timecontrol::Clock;
use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position, position_to_string};
use crate::rules::position::{Position, Variant};

/// One test position.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// The suite file as given on the command line.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// The `id` (default: `FILE:LINE`).
    pub id: String,
    pub pos: Position,
    /// Best moves: solved when the engine plays one of them.
    pub bm: Vec<Move>,
    /// Avoid moves: solved when the engine plays none of them.
    pub am: Vec<Move>,
}

impl SuitePosition {
    /// Whether `mv` solves the position.
    pub fn solved_by(&self, mv: Move) -> bool {
        (self.bm.is_empty() || self.bm.contains(&mv)) && !self.am.contains(&mv)
    }

    /// `bm ...; am ...` as written in canonical notation.
    pub fn answer_text(&self) -> String {
        let list = |ms: &[Move]| {
            ms.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut parts = Vec::new();
        if !self.bm.is_empty() {
            parts.push(format!("bm {}", list(&self.bm)));
        }
        if !self.am.is_empty() {
            parts.push(format!("am {}", list(&self.am)));
        }
        parts.join("; ")
    }
}

/// Splits `text` at `sep` outside double quotes.
fn split_outside_quotes(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&text[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out
}

/// The text before a `#` that is not inside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

fn parse_variant(v: &str) -> Result<Variant, String> {
    Variant::from_name(v).ok_or_else(|| format!("variant '{v}' is not standard or basic"))
}

/// Reads one suite from its text. `file` names it in errors (`FILE:LINE: ...`).
pub fn parse_suite(
    file: &str,
    text: &str,
    default_variant: Variant,
) -> Result<Vec<SuitePosition>, String> {
    let mut out = Vec::new();
    let mut variant = default_variant;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let at = |e: String| format!("{file}:{line}: {e}");
        let body = strip_comment(raw).trim();
        if body.is_empty() {
            continue;
        }
        if body.starts_with("variant ") || body.starts_with("variant;") {
            // A line of its own: the variant of the lines after it.
            let v = body
                .trim_start_matches("variant")
                .trim()
                .trim_end_matches(';')
                .trim();
            variant = parse_variant(v).map_err(at)?;
            continue;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let fields = if words[0] == "startpos" { 1 } else { 3 };
        if words.len() < fields {
            return Err(at(format!(
                "'{body}' is not a position (PIECES SIDE PLY) with bm or am"
            )));
        }
        let pos_text = words[..fields].join(" ");
        // The operations: the text after the position's fields.
        let mut rest = body;
        for w in &words[..fields] {
            rest = rest.trim_start();
            rest = &rest[w.len()..];
        }
        let (mut bm_text, mut am_text) = (Vec::new(), Vec::new());
        let mut id = None;
        let mut line_variant = variant;
        for op in split_outside_quotes(rest, ';') {
            let op = op.trim();
            if op.is_empty() {
                continue;
            }
            let (code, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            let operands = operands.trim();
            match code {
                "bm" | "am" => {
                    let list: Vec<&str> = operands.split_whitespace().collect();
                    if list.is_empty() {
                        return Err(at(format!("'{code}' without a move")));
                    }
                    if code == "bm" {
                        bm_text.extend(list);
                    } else {
                        am_text.extend(list);
                    }
                }
                "id" => {
                    let name = operands
                        .strip_prefix('"')
                        .and_then(|s| s.strip_suffix('"'))
                        .unwrap_or(operands);
                    if name.is_empty() {
                        return Err(at("an empty id".into()));
                    }
                    id = Some(name.to_string());
                }
                "variant" => line_variant = parse_variant(operands).map_err(at)?,
                c if c.len() == 2 && c.starts_with('c') && c[1..].parse::<u8>().is_ok() => {}
                _ => {
                    return Err(at(format!(
                        "unknown operation '{code}' (bm, am, id, variant, c0..c9)"
                    )))
                }
            }
        }
        if bm_text.is_empty() && am_text.is_empty() {
            return Err(at(format!("'{body}' has neither bm nor am")));
        }
        let pos = parse_position(&pos_text, line_variant)
            .map_err(|e| at(format!("bad position '{pos_text}': {e}")))?;
        if pos.is_finished() {
            return Err(at(format!("the game is over in '{pos_text}'")));
        }
        let moves = |texts: &[&str]| -> Result<Vec<Move>, String> {
            let mut v = Vec::new();
            for t in texts {
                let mv = parse_move(t).map_err(|e| at(format!("bad move '{t}': {e}")))?;
                pos.check_move(mv)
                    .map_err(|e| at(format!("illegal move '{t}' in '{pos_text}': {e}")))?;
                if !v.contains(&mv) {
                    v.push(mv);
                }
            }
            Ok(v)
        };
        let bm = moves(&bm_text)?;
        let am = moves(&am_text)?;
        if let Some(m) = bm.iter().find(|m| am.contains(m)) {
            return Err(at(format!("{m} is both in bm and in am")));
        }
        out.push(SuitePosition {
            file: file.to_string(),
            line,
            id: id.unwrap_or_else(|| format!("{file}:{line}")),
            pos,
            bm,
            am,
        });
    }
    if out.is_empty() {
        return Err(format!("{file}: no positions"));
    }
    Ok(out)
}

/// Reads a suite file.
pub fn read_suite(path: &Path, variant: Variant) -> Result<Vec<SuitePosition>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    parse_suite(&name, &text, variant)
}

/// What the engine did with one position.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub solved: bool,
    /// The move token as the engine sent it.
    pub played: Option<String>,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    /// An engine fault (crash, timeout, stall, illegal or garbage move), with its reason.
    pub fault: Option<String>,
    pub elapsed: Duration,
}

fn fault_text(f: &Fault) -> String {
    match f {
        Fault::Disconnected(why) => format!("disconnects ({why})"),
        Fault::Stall(why) => format!("connection stalls ({why})"),
        Fault::Timeout { elapsed } => {
            format!("no bestmove in time ({} ms)", elapsed.as_millis())
        }
    }
}

/// Asks `player` for its move in `p`.
fn solve(player: &mut dyn Player, cfg: &SuiteConfig, p: &SuitePosition, seed: u64) -> Outcome {
    let started = Instant::now();
    let fail = |why: String, played: Option<String>| Outcome {
        solved: false,
        played,
        score: None,
        depth: None,
        fault: Some(why),
        elapsed: started.elapsed(),
    };
    if let Err(f) = player.new_game(seed) {
        return fail(fault_text(&f), None);
    }
    let e = &cfg.engine;
    let side = p.pos.side_to_move();
    let clock = e.time_control().map(|tc| Clock::new(&tc));
    let clocks = [clock.clone(), clock];
    let position = position_command(&position_to_string(&p.pos), false, &[]);
    let go = go_command(player.proto(), &clocks, e, side);
    let deadline = move_deadline(cfg.watchdog, clocks[side.index()].as_ref(), e);
    let req = ThinkRequest {
        position: &position,
        go: &go,
        deadline,
        pos: &p.pos,
    };
    let reply = match player.think(&req) {
        Ok(r) => r,
        Err(f) => return fail(fault_text(&f), None),
    };
    let token = reply.bestmove.clone();
    let mv = match parse_move(&token) {
        Ok(m) => m,
        Err(err) => return fail(format!("illegal move: {token} ({err})"), Some(token)),
    };
    if let Err(err) = p.pos.check_move(mv) {
        return fail(format!("illegal move: {token} ({err})"), Some(token));
    }
    Outcome {
        solved: p.solved_by(mv),
        played: Some(token),
        score: reply.info.score,
        depth: reply.info.depth,
        fault: None,
        elapsed: started.elapsed(),
    }
}

fn score_text(s: Option<Score>) -> String {
    match s {
        Some(Score::Cp(c)) => format!("cp {c}"),
        Some(Score::Mate(m)) => format!("mate {m}"),
        None => "-".into(),
    }
}

/// The line printed for one position.
pub fn result_line(i: usize, total: usize, p: &SuitePosition, o: &Outcome) -> String {
    let verdict = if o.solved { "solved  " } else { "UNSOLVED" };
    let depth = o.depth.map_or("-".to_string(), |d| d.to_string());
    let mut s = format!(
        "[{i:>w$}/{total}] {verdict} {}: played {}, score {}, depth {depth}",
        p.id,
        o.played.as_deref().unwrap_or("-"),
        score_text(o.score),
        w = total.to_string().len()
    );
    if let Some(f) = &o.fault {
        s.push_str(&format!(", engine fault: {f}"));
    }
    if !o.solved {
        s.push_str(&format!(" (expected {})", p.answer_text()));
    }
    s
}

fn make_player(cfg: &SuiteConfig) -> Box<dyn Player> {
    let e = &cfg.engine;
    builtin_player(&e.cmd, &e.name).unwrap_or_else(|| {
        Box::new(EnginePlayer::new(
            e.clone(),
            Timeouts {
                startup: cfg.startup_timeout,
                ready: cfg.ready_timeout,
            },
        ))
    })
}

/// Searches every position, `cfg.concurrency` at a time; calls `report` in suite order as
/// results come in. None if interrupted.
fn run_positions(
    cfg: &SuiteConfig,
    positions: &[SuitePosition],
    mut report: impl FnMut(usize, &Outcome),
) -> Option<Vec<Outcome>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; positions.len()]);
    let (tx, rx) = crossbeam_channel::unbounded::<()>();
    let workers = cfg.concurrency.clamp(1, positions.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, results) = (&next, &results);
            s.spawn(move || {
                let mut player = make_player(cfg);
                loop {
                    if signals::interrupted() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(p) = positions.get(i) else { break };
                    let o = solve(player.as_mut(), cfg, p, i as u64 + 1);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(o);
                    let _ = tx.send(());
                }
                player.shutdown();
            });
        }
        drop(tx);
        let mut shown = 0;
        while rx.recv().is_ok() {
            let r = results.lock().unwrap_or_else(|e| e.into_inner());
            while shown < r.len() {
                let Some(o) = &r[shown] else { break };
                report(shown, o);
                shown += 1;
            }
        }
    });
    if signals::interrupted() {
        return None;
    }
    let all = results.into_inner().unwrap_or_else(|e| e.into_inner());
    all.into_iter().collect()
}

/// The JUnit report of a finished suite run: one testsuite per file.
fn junit_report(files: &[PathBuf], positions: &[SuitePosition], outcomes: &[Outcome]) -> String {
    let mut suites: Vec<junit::Suite> = files
        .iter()
        .map(|f| junit::Suite {
            name: f.display().to_string(),
            cases: Vec::new(),
        })
        .collect();
    for (p, o) in positions.iter().zip(outcomes) {
        let classname = Path::new(&p.file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| p.file.clone());
        let failure = (!o.solved).then(|| {
            let played = o.played.as_deref().unwrap_or("-");
            let (kind, message) = match &o.fault {
                Some(f) => ("engine-fault", format!("engine fault: {f}")),
                None => ("unsolved", format!("played {played}")),
            };
            let text = format!(
                "position {}\nplayed {played}\nexpected {}\nscore {}, depth {}\nline {} of {}",
                position_to_string(&p.pos),
                p.answer_text(),
                score_text(o.score),
                o.depth.map_or("-".to_string(), |d| d.to_string()),
                p.line,
                p.file
            );
            (kind.to_string(), message, text)
        });
        let case = junit::Case {
            name: p.id.clone(),
            classname,
            seconds: o.elapsed.as_secs_f64(),
            failure,
        };
        if let Some(s) = suites.iter_mut().find(|s| s.name == p.file) {
            s.cases.push(case);
        }
    }
    junit::to_xml(&suites)
}

/// Runs `-suite`: exit 0 when enough positions are solved (all, or `-suite-min`), 1 when not,
/// 2 for a bad suite file (before any engine starts), 5 when the JUnit file cannot be written.
pub fn run(cfg: &SuiteConfig) -> u8 {
    let mut positions = Vec::new();
    for f in &cfg.files {
        match read_suite(f, cfg.variant) {
            Ok(p) => positions.extend(p),
            Err(e) => {
                eprintln!("punct-referee: {e}");
                return EXIT_BAD_ARGS;
            }
        }
    }
    let total = positions.len();
    if cfg.min_solved.is_some_and(|m| m > total) {
        eprintln!(
            "punct-referee: -suite-min {} is more than the {total} positions",
            cfg.min_solved.unwrap_or(0)
        );
        return EXIT_BAD_ARGS;
    }
    println!(
        "Suite: {total} positions from {} file(s), engine {} ({}), concurrency {}",
        cfg.files.len(),
        cfg.engine.name,
        cfg.engine.limit_text(),
        cfg.concurrency
    );
    let started = Instant::now();
    let Some(outcomes) = run_positions(cfg, &positions, |i, o| {
        println!("{}", result_line(i + 1, total, &positions[i], o));
    }) else {
        println!("Interrupted");
        return EXIT_INTERRUPTED;
    };
    let solved = outcomes.iter().filter(|o| o.solved).count();
    let faults = outcomes.iter().filter(|o| o.fault.is_some()).count();
    if cfg.files.len() > 1 {
        for f in &cfg.files {
            let name = f.display().to_string();
            let of_file = positions
                .iter()
                .zip(&outcomes)
                .filter(|(p, _)| p.file == name);
            let (n, ok) = of_file.fold((0, 0), |(n, ok), (_, o)| (n + 1, ok + o.solved as usize));
            println!("{name}: solved {ok} of {n}");
        }
    }
    println!("Solved {solved} of {total}");
    if faults > 0 {
        println!("Engine faults: {faults}");
    }
    let need = cfg.min_solved.unwrap_or(total);
    let pass = solved >= need;
    println!(
        "{} (at least {need} needed) in {:.1} s",
        if pass { "Passed" } else { "Failed" },
        started.elapsed().as_secs_f64()
    );
    if let Some(path) = &cfg.junit {
        let xml = junit_report(&cfg.files, &positions, &outcomes);
        // Its folder is made as for the other records (`-junit out/report.xml`).
        let made = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir),
            None => Ok(()),
        };
        if let Err(e) = made.and_then(|()| std::fs::write(path, xml)) {
            eprintln!("punct-referee: -junit {}: {e}", path.display());
            return EXIT_ERROR;
        }
    }
    if pass {
        EXIT_OK
    } else {
        EXIT_CHECK_FAILED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_bm_am_id_variant_and_comments() {
        let text = "# a comment\n\
                    \n\
                    - w 0 bm c5c6d6 c5d6c6; id \"start # not a comment\"; # comment\n\
                    variant basic;\n\
                    Wc5c6d6/Bf5f6f7 w 2 am i9i10j10; c0 \"x\";\n\
                    - w 0 bm b1c1c2; am c5c6d6; variant standard; id \"s\";\n";
        let s = parse_suite("t.epd", text, Variant::Standard).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].id, "start # not a comment");
        assert_eq!(s[0].bm.len(), 1, "two spellings of one move are one move");
        assert_eq!(s[0].line, 3);
        assert_eq!(s[1].pos.variant(), Variant::Basic);
        assert_eq!(s[1].id, "t.epd:5");
        assert_eq!(s[2].pos.variant(), Variant::Standard);
        assert_eq!((s[2].bm.len(), s[2].am.len()), (1, 1));
        let c = parse_move("c5c6d6").unwrap();
        assert!(s[0].solved_by(c) && !s[2].solved_by(c));
        assert!(s[1].solved_by(c));
    }

    #[test]
    fn bad_lines_name_the_file_and_line() {
        for (text, want) in [
            (
                "- w 0 bm c5c6d6\n- w 0 bm i9i10j10\n",
                "t.epd:2: illegal move 'i9i10j10'",
            ),
            ("- w 0 bm zz\n", "t.epd:1: bad move 'zz'"),
            ("Wq99 w 1 bm c5c6d6\n", "t.epd:1: bad position"),
            ("- w 0 id \"x\"\n", "t.epd:1:"),
            ("- w 0 bm c5c6d6; xx 1\n", "t.epd:1: unknown operation 'xx'"),
            ("# nothing\n", "t.epd: no positions"),
        ] {
            let e = parse_suite("t.epd", text, Variant::Standard).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
