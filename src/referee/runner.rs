//! Runs a tournament: worker threads play the scheduled games (`-concurrency`), the main thread
//! writes each finished game to the records, keeps the standings, prints cutechess-style lines
//! and a progress line, and stops on SPRT, `-strict` faults or a signal.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use serde_json::json;

use crate::referee::exit::{
    EXIT_BAD_ARGS, EXIT_ENGINE_FAILURE, EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_SPRT_H0,
};
use crate::referee::game::{play_game, GameSpec};
use crate::referee::openings::Openings;
use crate::referee::players::builtin::builtin_player;
use crate::referee::players::player::{EnginePlayer, Player, Timeouts};
use crate::referee::records::jsonl::{JsonlWriter, OpenError};
use crate::referee::records::pgn::format_game;
use crate::referee::records::record::GameRecord;
use crate::referee::records::resume::{fingerprint, load_journal, rewrite_pgn};
use crate::referee::records::sample::Sampler;
use crate::referee::settings::{EngineConfig, RunConfig, TournamentKind};
use crate::referee::signals;
use crate::referee::stats::elo::{pentanomial_elo, trinomial_elo, Pentanomial, Wdl};
use crate::referee::stats::report::{
    match_summary, score_line, standings_table, time_loss_note, MatchReport, PlayerStanding,
};
use crate::referee::stats::sprt::{SprtDecision, SprtStop};
use crate::referee::tournament::{schedule, schedule_len, time_lines, Standings};

enum Event {
    Started(GameSpec),
    Finished(Box<GameRecord>),
}

/// Stdout with a live progress line when it is a terminal.
struct Console {
    tty: bool,
    live: bool,
}

impl Console {
    fn line(&mut self, s: &str) {
        let mut out = std::io::stdout().lock();
        if self.live {
            let _ = write!(out, "\r\x1b[K");
            self.live = false;
        }
        let _ = writeln!(out, "{s}");
    }

    fn progress(&mut self, s: &str) {
        if self.tty {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\r\x1b[K{s}");
            let _ = out.flush();
            self.live = true;
        }
    }

    fn end_live(&mut self) {
        if self.live {
            let _ = writeln!(std::io::stdout().lock());
            self.live = false;
        }
    }
}

fn make_player(e: &EngineConfig, cfg: &RunConfig) -> Box<dyn Player> {
    if let Some(p) = builtin_player(&e.cmd, &e.name) {
        p
    } else {
        Box::new(EnginePlayer::new(
            e.clone(),
            Timeouts {
                startup: cfg.startup_timeout,
                ready: cfg.ready_timeout,
            },
        ))
    }
}

/// The games still to play, made one by one as workers take them.
type Queue<'a> = Mutex<Box<dyn Iterator<Item = GameSpec> + Send + 'a>>;

fn worker(cfg: &RunConfig, queue: &Queue, events: Sender<Event>, stop: &AtomicBool) {
    let mut players: Vec<Option<Box<dyn Player>>> = cfg
        .engines
        .iter()
        .map(|e| Some(make_player(e, cfg)))
        .collect();
    while !stop.load(Ordering::SeqCst) && !signals::interrupted() {
        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
        let Some(spec) = next else { break };
        let _ = events.send(Event::Started(spec.clone()));
        let mut w = players[spec.white].take().expect("player present");
        let mut b = players[spec.black].take().expect("player present");
        let engines = [&cfg.engines[spec.white], &cfg.engines[spec.black]];
        let record = play_game(&spec, [w.as_mut(), b.as_mut()], engines, cfg);
        players[spec.white] = Some(w);
        players[spec.black] = Some(b);
        match record {
            Some(r) => {
                // Stop before taking another game, not after the main thread has seen this one.
                if cfg.strict && r.fault_player.is_some() {
                    stop.store(true, Ordering::SeqCst);
                }
                let _ = events.send(Event::Finished(Box::new(r)));
            }
            None => break,
        }
    }
    for p in players.iter_mut().flatten() {
        p.shutdown();
    }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

fn copy_wdl(w: &Wdl) -> Wdl {
    Wdl {
        wins: w.wins,
        losses: w.losses,
        draws: w.draws,
    }
}

/// Elo so far of an encounter: pentanomial when there are pairs, trinomial otherwise.
fn elo_text(wdl: &Wdl, ptnml: &Pentanomial) -> String {
    let est = if ptnml.pairs() > 0 {
        pentanomial_elo(ptnml)
    } else {
        trinomial_elo(wdl)
    };
    match est {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => {
            format!("Elo {:+.1} +/- {:.1}", e.elo, e.error)
        }
        Some(e) if e.elo.is_finite() => format!("Elo {:+.1}", e.elo),
        _ => "Elo -".to_string(),
    }
}

struct Output {
    pgn: Option<std::fs::File>,
    jsonl: Option<JsonlWriter>,
}

/// Why the records cannot be opened: the exit status and the message.
type OpenFailure = (u8, String);

/// Opens the PGN file and writes the journal's `start` line. The journal (`jsonl`, already
/// opened and locked) and the records of an earlier run were checked by the caller.
fn open_outputs(
    cfg: &RunConfig,
    jsonl: Option<JsonlWriter>,
    done: &[GameRecord],
    fp: &str,
    total: u64,
) -> Result<Output, OpenFailure> {
    let io = |p: &Path, e: std::io::Error| (EXIT_ERROR, format!("{}: {e}", p.display()));
    let mut out = Output {
        pgn: None,
        jsonl: None,
    };
    if let (Some(path), Some(mut w)) = (&cfg.jsonl, jsonl) {
        let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
        w.write(
            "start",
            json!({
                "referee": concat!("punct-referee ", env!("PUNCT_VERSION")),
                "resumed": cfg.resume,
                "fingerprint": fp,
                "players": names,
                "variant": cfg.variant.name(),
                "games_total": total,
                "games_done": done.len(),
                "shard": cfg.shard.map(|s| s.label()),
            }),
        )
        .map_err(|e| io(path, e))?;
        out.jsonl = Some(w);
    }
    if let Some(path) = &cfg.pgnout {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        // With a journal the PGN belongs to the run and is rewritten from the journal on resume,
        // so a fresh run must not take over (and later rewrite) someone else's file.
        if cfg.jsonl.is_some() && cfg.resume {
            rewrite_pgn(path, done, &cfg.event).map_err(|e| (EXIT_ERROR, e))?;
        }
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io(path, e))?;
        out.pgn = Some(f);
    }
    Ok(out)
}

/// A path as the file system resolves it, also for a file that does not exist yet (its
/// directory resolved), so two spellings of one file compare equal.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// Refuses two outputs that name the same file: a later `-resume` would rewrite one over the
/// other (the PGN over the journal).
fn check_distinct_outputs(cfg: &RunConfig) -> Result<(), String> {
    let outputs: Vec<(&str, PathBuf)> = cfg
        .output_paths()
        .into_iter()
        .map(|(flag, p)| (flag, resolved(p)))
        .collect();
    for (i, (a, pa)) in outputs.iter().enumerate() {
        if let Some((b, _)) = outputs[..i].iter().find(|(_, pb)| pb == pa) {
            return Err(format!(
                "{b} and {a} name the same file ({}): give each output its own file",
                pa.display()
            ));
        }
    }
    Ok(())
}

/// Opens and locks the journal, then, for a fresh run, makes sure no records of another run
/// are taken over (or replaces them with `-overwrite`).
fn prepare_records(cfg: &RunConfig) -> Result<Option<JsonlWriter>, OpenFailure> {
    let journal = match &cfg.jsonl {
        None => None,
        Some(path) => match JsonlWriter::append(path) {
            Ok(w) => Some(w),
            Err(OpenError::Locked) => {
                return Err((
                    EXIT_BAD_ARGS,
                    format!(
                        "{} is in use by another referee run (locked); wait for it to end",
                        path.display()
                    ),
                ))
            }
            Err(OpenError::Io(e)) => return Err((EXIT_ERROR, format!("{}: {e}", path.display()))),
        },
    };
    let mut journal = journal;
    if cfg.overwrite {
        if let Some(w) = journal.as_mut() {
            // Emptied, not removed: the lock is on this file.
            w.truncate()
                .map_err(|e| (EXIT_ERROR, format!("cannot replace the journal: {e}")))?;
        }
        if let Some(path) = &cfg.pgnout {
            if let Err(e) = std::fs::remove_file(path) {
                if e.kind() != std::io::ErrorKind::NotFound {
                    return Err((
                        EXIT_ERROR,
                        format!("cannot replace {}: {e}", path.display()),
                    ));
                }
            }
        }
    }
    // A fresh run never takes over records of another run: with a journal the PGN belongs to
    // the run and is rewritten from the journal on resume.
    if cfg.jsonl.is_some() && !cfg.resume {
        for path in cfg.jsonl.iter().chain(cfg.pgnout.iter()) {
            if std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0) {
                return Err((
                    EXIT_BAD_ARGS,
                    format!(
                        "{} exists: continue that run with -resume, or start over with -overwrite",
                        path.display()
                    ),
                ));
            }
        }
    }
    Ok(journal)
}

/// Writes one game to the records; on failure, whether the journal holds it, and why.
fn write_game(
    out: &mut Output,
    g: &GameRecord,
    event: &str,
    pgn_path: Option<&Path>,
) -> Result<(), (bool, String)> {
    if let Some(w) = out.jsonl.as_mut() {
        w.write_game(g)
            .map_err(|e| (false, format!("journal: {e}")))?;
    }
    let journal = out.jsonl.is_some();
    if let Some(f) = out.pgn.as_mut() {
        let err = |e: std::io::Error| {
            format!(
                "{}: {e}",
                pgn_path
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            )
        };
        let res = f
            .write_all(format_game(g, event).as_bytes())
            .and_then(|_| f.flush())
            .and_then(|_| f.sync_data());
        res.map_err(|e| (journal, err(e)))?;
    }
    Ok(())
}

/// The text lines that report the standings (score lines or a table).
/// `-svgout`: the final position of a game as `DIR/game-NNNN.svg` (last move marked).
fn write_final_svg(
    dir: &Path,
    g: &GameRecord,
    variant: crate::rules::position::Variant,
) -> Result<(), String> {
    let pos = crate::rules::notation::parse_position(&g.final_position, variant)
        .map_err(|e| e.to_string())?;
    let last_move = g
        .moves
        .last()
        .and_then(|m| crate::rules::notation::parse_move(&m.mv).ok());
    let opts = crate::rules::svg::SvgOptions {
        flipped: false,
        last_move,
        panel: true,
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("game-{:04}.svg", g.game));
    std::fs::write(&path, crate::rules::svg::board_svg(&pos, &opts))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn standings_lines(
    cfg: &RunConfig,
    st: &Standings,
    final_report: bool,
    stopped: Option<SprtStop>,
) -> Vec<String> {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let mut lines = Vec::new();
    if cfg.engines.len() == 2 {
        let e = st.encounters.get(&(0, 1));
        let wdl = e.map(|e| copy_wdl(&e.wdl)).unwrap_or(Wdl {
            wins: 0,
            losses: 0,
            draws: 0,
        });
        lines.push(score_line(names[0], names[1], &wdl));
        if final_report {
            let sprt = cfg.sprt.map(|s| s.to_sprt());
            let ptnml = e.map(|e| Pentanomial(e.ptnml.0)).filter(|p| p.pairs() > 0);
            lines.extend(match_summary(&MatchReport {
                first: names[0],
                second: names[1],
                wdl,
                ptnml,
                sprt: sprt.as_ref(),
                stopped,
            }));
        }
    } else {
        let players: Vec<PlayerStanding> = names
            .iter()
            .zip(&st.players)
            .map(|(n, w)| PlayerStanding {
                name: n.to_string(),
                wdl: copy_wdl(w),
            })
            .collect();
        lines.extend(standings_table(&players).lines().map(str::to_string));
        if final_report {
            for ((a, b), e) in &st.encounters {
                lines.push(score_line(names[*a], names[*b], &e.wdl));
            }
        }
    }
    lines
}

/// The SPRT's decision on the games counted so far, if it has crossed a bound.
fn sprt_decision(cfg: &RunConfig, st: &Standings) -> Option<SprtStop> {
    let s = cfg.sprt?.to_sprt();
    let e = st.encounters.get(&(0, 1))?;
    let llr = s.llr_of(&e.wdl, &e.ptnml);
    if !llr.is_finite() {
        return None;
    }
    s.decide(llr).map(|decision| SprtStop {
        decision,
        llr,
        games: st.games,
    })
}

fn summary_json(
    cfg: &RunConfig,
    st: &Standings,
    total: u64,
    wall: Duration,
    played_now: u64,
    stopped: Option<SprtStop>,
) -> serde_json::Value {
    let players: Vec<_> = cfg
        .engines
        .iter()
        .zip(&st.players)
        .zip(&st.faults)
        .zip(&st.time_use)
        .map(|(((e, w), f), t)| {
            let time = t.summary().map(|t| {
                json!({"moves": t.moves, "mean_ms": t.mean_ms, "p99_ms": t.p99_ms,
                       "max_ms": t.max_ms, "mean_budget_ms": t.mean_budget_ms,
                       "over_budget": t.over_budget})
            });
            json!({"name": e.name, "wins": w.wins, "losses": w.losses, "draws": w.draws,
                   "points": w.points(), "timeouts": f.timeouts, "disconnects": f.disconnects,
                   "stalls": f.stalls, "illegal_moves": f.illegal, "time": time})
        })
        .collect();
    let encounters: Vec<_> = st
        .encounters
        .iter()
        .map(|((a, b), e)| {
            let elo = if e.ptnml.pairs() > 0 { pentanomial_elo(&e.ptnml) } else { trinomial_elo(&e.wdl) };
            let mut v = json!({"first": cfg.engines[*a].name, "second": cfg.engines[*b].name,
                "wins": e.wdl.wins, "losses": e.wdl.losses, "draws": e.wdl.draws,
                "ptnml": e.ptnml.0,
                "elo": elo.as_ref().map(|x| x.elo).filter(|x| x.is_finite()),
                "elo_error": elo.as_ref().map(|x| x.error).filter(|x| x.is_finite())});
            if let (Some(s), (0, 1)) = (cfg.sprt, (*a, *b)) {
                let s = s.to_sprt();
                let llr = s.llr_of(&e.wdl, &e.ptnml);
                let (lo, hi) = s.bounds();
                // The decision is the one that stopped the run; the LLR counts every game.
                let decision = stopped.map(|d| d.decision).or_else(|| s.decide(llr));
                v["sprt"] = json!({"llr": if llr.is_finite() { Some(llr) } else { None }, "lower": lo, "upper": hi,
                    "elo0": s.elo0, "elo1": s.elo1,
                    "decision": decision.map_or("none", SprtDecision::hypothesis),
                    "stopped_at_games": stopped.map(|d| d.games),
                    "stopped_llr": stopped.map(|d| d.llr)});
            }
            v
        })
        .collect();
    let secs = wall.as_secs_f64();
    json!({
        "interrupted": signals::interrupted(),
        "games": st.games,
        "games_total": total,
        "players": players,
        "encounters": encounters,
        "overhead_median_us": st.overhead_median_us(),
        "moves_measured": st.overheads.len(),
        "games_played_this_session": played_now,
        "wall_seconds": secs,
        "games_per_minute": if secs > 0.0 { played_now as f64 * 60.0 / secs } else { 0.0 },
    })
}

/// Whether an engine program can be found (see
/// [`crate::referee::players::engine_process::find_program`]).
pub fn program_exists(e: &EngineConfig) -> bool {
    crate::referee::players::engine_process::find_program(e).is_some()
}

/// Runs the tournament; returns the exit status.
pub fn run(cfg: &RunConfig) -> u8 {
    for e in cfg.engines.iter().filter(|e| !e.is_builtin()) {
        if !program_exists(e) {
            eprintln!(
                "punct-referee: engine '{}': program '{}' not found or not executable",
                e.name, e.cmd
            );
            return EXIT_BAD_ARGS;
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cfg.concurrency > cores {
        log::warn!(
            "-concurrency {} is more than the {cores} hardware threads: expect time losses",
            cfg.concurrency
        );
    }
    let openings = match Openings::new(&cfg.openings, cfg.variant, cfg.srand) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("punct-referee: {e}");
            return EXIT_BAD_ARGS;
        }
    };
    let pairs = schedule_len(cfg).div_ceil(2);
    if let Some(book) = openings.book_len().filter(|&b| (b as u64) < pairs) {
        // Engines limited by nodes or depth play the same game again from the same opening.
        log::warn!(
            "{pairs} game pairs but only {book} openings: openings are used again, and engines \
             limited by nodes or depth then replay the same games (use a larger book or \
             -random-openings)"
        );
    }
    if let Err(e) = check_distinct_outputs(cfg) {
        eprintln!("punct-referee: {e}");
        return EXIT_BAD_ARGS;
    }
    let total = match cfg.shard {
        None => schedule_len(cfg),
        Some(_) => crate::referee::records::shard::select(schedule(cfg, &openings), cfg.shard)
            .count() as u64,
    };
    let fp = fingerprint(cfg);
    // The journal is locked before it is read, and stays locked until the run ends.
    let journal = match prepare_records(cfg) {
        Ok(j) => j,
        Err((code, e)) => {
            eprintln!("punct-referee: {e}");
            return code;
        }
    };
    let done = match (&cfg.jsonl, cfg.resume) {
        (Some(path), true) => match load_journal(path, &fp) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("punct-referee: {e}");
                return EXIT_BAD_ARGS;
            }
        },
        _ => Vec::new(),
    };
    let mut out = match open_outputs(cfg, journal, &done, &fp, total) {
        Ok(o) => o,
        Err((code, e)) => {
            eprintln!("punct-referee: {e}");
            return code;
        }
    };
    let mut standings = Standings::new(cfg.engines.len());
    let done_set: HashSet<u64> = done.iter().map(|g| g.game).collect();
    let mut sampler = match Sampler::open(cfg, &done_set) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("punct-referee: {e}");
            return EXIT_BAD_ARGS;
        }
    };
    for g in &done {
        standings.add(g);
    }
    // The finished games' records are not needed any more: only their numbers (the queue skips
    // them), and the statistics above.
    let done_games = done.len() as u64;
    drop(done);
    let mut console = Console {
        tty: std::io::stdout().is_terminal(),
        live: false,
    };
    if cfg.resume {
        console.line(&format!(
            "Resuming: {done_games} of {total} games already finished"
        ));
    }
    let left = total.saturating_sub(done_games);
    let queue: Queue = Mutex::new(Box::new(
        crate::referee::records::shard::select(schedule(cfg, &openings), cfg.shard)
            .filter(|s| !done_set.contains(&s.game)),
    ));
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let stop = AtomicBool::new(false);
    let mut exit = EXIT_OK;
    // Set once, when the test first crosses a bound: the games still in flight finish and are
    // counted, but they do not reopen or change the decision.
    let mut sprt_stop = sprt_decision(cfg, &standings);
    if let Some(d) = sprt_stop {
        stop.store(true, Ordering::SeqCst);
        if d.decision == SprtDecision::AcceptH0 {
            exit = EXIT_SPRT_H0;
        }
    }
    let started = Instant::now();
    let mut played_now = 0u64;
    let mut records_failed = false;
    let (etx, erx) = crossbeam_channel::unbounded();
    let workers = (cfg.concurrency as u64).min(left.max(1));
    std::thread::scope(|scope| {
        for n in 0..workers {
            let (q, e, stop) = (&queue, etx.clone(), &stop);
            std::thread::Builder::new()
                .name(format!("game-{n}"))
                .spawn_scoped(scope, move || worker(cfg, q, e, stop))
                .expect("spawn worker thread");
        }
        drop(etx);
        for ev in erx.iter() {
            match ev {
                Event::Started(s) => console.line(&format!(
                    "Started game {} of {total} ({} vs {})",
                    s.game, names[s.white], names[s.black]
                )),
                Event::Finished(g) => {
                    if records_failed {
                        // Games that end after a write error are neither recorded nor counted.
                        continue;
                    }
                    // Samples before the journal: a game in the journal has all its samples.
                    let sampled = sampler.as_mut().map(|s| s.write_game(&g));
                    if let Some(Err(e)) = sampled {
                        console.line(&format!("punct-referee: cannot write samples: {e}"));
                        stop.store(true, Ordering::SeqCst);
                        exit = EXIT_ERROR;
                        records_failed = true;
                        continue;
                    } else if let Err((in_journal, e)) =
                        write_game(&mut out, &g, &cfg.event, cfg.pgnout.as_deref())
                    {
                        console.line(&format!("punct-referee: cannot write records: {e}"));
                        stop.store(true, Ordering::SeqCst);
                        exit = EXIT_ERROR;
                        records_failed = true;
                        // The statistics count what the records hold: the journal if any.
                        if !in_journal {
                            continue;
                        }
                    }
                    if let Some(dir) = &cfg.svgout {
                        if let Err(e) = write_final_svg(dir, &g, cfg.variant) {
                            console.line(&format!(
                                "punct-referee: no picture of game {}: {e}",
                                g.game
                            ));
                        }
                    }
                    standings.add(&g);
                    played_now += 1;
                    console.line(&format!(
                        "Finished game {} ({} vs {}): {} {{{}}}",
                        g.game, g.white, g.black, g.result, g.reason_text
                    ));
                    let interval = cfg.ratinginterval as u64;
                    let periodic = interval > 0 && standings.games.is_multiple_of(interval);
                    if periodic {
                        for l in standings_lines(cfg, &standings, false, sprt_stop) {
                            console.line(&l);
                        }
                    }
                    if cfg.strict && g.fault_player.is_some() {
                        console.line(&format!(
                            "Stopping: engine failure under -strict ({})",
                            g.reason_text
                        ));
                        stop.store(true, Ordering::SeqCst);
                        exit = EXIT_ENGINE_FAILURE;
                    }
                    if exit == EXIT_OK && sprt_stop.is_none() {
                        sprt_stop = sprt_decision(cfg, &standings);
                        if let Some(d) = sprt_stop {
                            stop.store(true, Ordering::SeqCst);
                            console.line(&format!(
                                "SPRT: {} accepted after {} games (LLR {:.2}); stopping",
                                d.decision.hypothesis(),
                                d.games,
                                d.llr
                            ));
                            if d.decision == SprtDecision::AcceptH0 {
                                exit = EXIT_SPRT_H0;
                            }
                        }
                    }
                    let elapsed = started.elapsed();
                    let left_now = total.saturating_sub(standings.games);
                    let eta = elapsed.mul_f64(left_now as f64 / played_now as f64);
                    let score = if cfg.engines.len() == 2 {
                        standings
                            .encounters
                            .get(&(0, 1))
                            .map(|e| {
                                format!(
                                    "score {:.3}, {},",
                                    e.wdl.score(),
                                    elo_text(&e.wdl, &e.ptnml)
                                )
                            })
                            .unwrap_or_default()
                    } else {
                        String::new()
                    };
                    let positions = sampler
                        .as_ref()
                        .map(|s| {
                            format!(
                                "{} positions ({:.0}/s), ",
                                s.kept + s.written,
                                s.written as f64 / elapsed.as_secs_f64().max(1e-9)
                            )
                        })
                        .unwrap_or_default();
                    let progress = format!(
                        "[{}/{total}] {score} {positions}ETA {}",
                        standings.games,
                        fmt_duration(eta)
                    );
                    if console.tty {
                        console.progress(&progress);
                    } else if periodic {
                        console.line(&format!("Progress: {progress}"));
                    }
                }
            }
        }
    });
    console.end_live();
    let wall = started.elapsed();
    let interrupted = signals::interrupted();
    if interrupted {
        exit = EXIT_INTERRUPTED;
    }
    for l in standings_lines(cfg, &standings, true, sprt_stop) {
        console.line(&l);
    }
    if cfg.tournament != TournamentKind::Match || cfg.engines.len() > 2 {
        console.line(&format!(
            "Tournament: {:?}, {} players",
            cfg.tournament,
            cfg.engines.len()
        ));
    }
    for (e, f) in cfg.engines.iter().zip(&standings.faults) {
        if f.timeouts + f.disconnects + f.stalls + f.illegal > 0 {
            console.line(&format!(
                "Player: {}  Timeouts: {}  Crashed: {}  Stalls: {}  Illegal moves: {}",
                e.name, f.timeouts, f.disconnects, f.stalls, f.illegal
            ));
        }
    }
    for e in &cfg.engines {
        if let Some(level) = e.level_text() {
            console.line(&format!("Level: {}  {level}", e.name));
        }
    }
    if standings.faults.iter().any(|f| f.timeouts > 0) {
        let margins: Vec<u128> = (cfg.engines.iter())
            .map(|e| e.timemargin.as_millis())
            .collect();
        console.line(&time_loss_note(&margins));
    }
    let names = cfg.engines.iter().map(|e| e.name.as_str());
    for line in time_lines(names, &standings) {
        console.line(&line);
    }
    if let Some(m) = standings.overhead_median_us() {
        console.line(&format!(
            "Referee overhead per move: median {m:.0} us over {} moves",
            standings.overheads.len()
        ));
    }
    if played_now > 0 {
        console.line(&format!(
            "Played {played_now} games in {} ({:.1} games/min, concurrency {})",
            fmt_duration(wall),
            played_now as f64 * 60.0 / wall.as_secs_f64().max(1e-9),
            cfg.concurrency
        ));
    }
    if let Some(w) = out.jsonl.as_mut() {
        if let Err(e) = w.write(
            "summary",
            summary_json(cfg, &standings, total, wall, played_now, sprt_stop),
        ) {
            console.line(&format!("punct-referee: cannot write the summary: {e}"));
            exit = EXIT_ERROR;
        }
    }
    if interrupted {
        console.line(&format!(
            "Interrupted by signal {}: {} of {total} games finished; continue with -resume",
            signals::signal_number(),
            standings.games
        ));
    } else {
        console.line(match exit {
            EXIT_SPRT_H0 => "Finished match (SPRT: H0 was accepted)",
            EXIT_ENGINE_FAILURE => "Stopped: engine failure",
            EXIT_ERROR => "Stopped: referee error",
            _ => "Finished match",
        });
    }
    signals::kill_all_groups();
    exit
}
