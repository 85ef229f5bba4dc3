//! The GUI's state and what the page can ask of it: one shared game (every tab shows the same
//! board), the engines, analysis, and the subscribers of the event stream. Engine events and
//! the clock tick arrive on the controller thread ([`run_controller`]); HTTP handlers call the
//! `act_*` methods. Every change is pushed to the page as a `state` event.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use serde_json::{json, Value};

use crate::gui::engines::{EngineCaps, EngineCmd, EngineEvent, EngineHandle, EngineState};
use crate::gui::game::{read_position, Game, Seat, TimeSetting};
use crate::gui::info::parse_info;
use crate::gui::records;
use crate::referee::settings::EngineConfig;
use crate::rules::moves::Move;
use crate::rules::notation::{parse_cell, position_to_string};
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::{EndReason, Position, Variant};
use crate::rules::svg::{board_svg, connection_path, SvgOptions};

/// Most event-stream subscribers at once (tabs); more are refused.
pub const MAX_SUBSCRIBERS: usize = 32;

/// Why an engine is searching.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    /// Its move in the game, with the number of moves played when it was asked.
    Move(usize),
    Analysis,
}

#[derive(Copy, Clone, Debug)]
struct Search {
    id: u64,
    engine: usize,
    purpose: Purpose,
    /// The position it searches, by moves on the board (to notice a stale search).
    cursor: usize,
    version: u64,
}

struct EngineSlot {
    cfg: EngineConfig,
    handle: Option<EngineHandle>,
    /// Counts starts, so that a late event of an old process is not taken for the new one.
    generation: u64,
    state: EngineState,
    caps: EngineCaps,
    /// Restarts after missing a deadline (automatic), shown on the page.
    restarts: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisSetting {
    pub on: bool,
    pub engine: usize,
    pub multipv: u32,
}

pub struct App {
    pub game: Game,
    engines: Vec<EngineSlot>,
    events_tx: Sender<EngineEvent>,
    search: Option<Search>,
    next_search: u64,
    /// Bumped by every change of the game (to tell stale searches).
    game_version: u64,
    /// Bumped by every state sent.
    version: u64,
    pub analysis: AnalysisSetting,
    /// Whether play was paused before analysis started (restored when it stops).
    paused_before_analysis: bool,
    /// Engines do not move while paused (watching engine games step by step).
    pub paused: bool,
    /// The last notice for the page (an error or what happened).
    pub(crate) message: String,
    subscribers: Vec<Sender<String>>,
    pub results_dir: PathBuf,
    /// Tells this server's states from another's (the page orders states by `version` only
    /// within one boot).
    boot: u64,
    /// The last score and depth of the engine searching its move (for the PGN record).
    move_info: (Option<crate::referee::players::player::Score>, Option<u32>),
    /// The engine's best move for a position (the hint button), as JSON.
    pub hint: Option<Value>,
    /// The review of the game (evaluation of every position), when one was asked for.
    pub review: Option<Review>,
}

/// A game review running or done in its own thread (`src/referee/review.rs`).
pub struct Review {
    /// Counts reviews, so that a late report of an old one is not taken for this one.
    pub id: u64,
    pub start: String,
    pub moves: Vec<String>,
    pub engine: String,
    pub movetime_ms: u64,
    pub evals: Vec<crate::referee::review::Eval>,
    pub running: bool,
    pub error: Option<String>,
    pub cancel: Arc<AtomicBool>,
}

/// The shared app.
pub type Shared = Arc<Mutex<App>>;

/// Locks the app even if a handler panicked while holding it (the state stays usable).
pub fn lock(app: &Shared) -> MutexGuard<'_, App> {
    app.lock().unwrap_or_else(|e| e.into_inner())
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

impl App {
    pub fn new(
        engines: Vec<EngineConfig>,
        variant: Variant,
        results_dir: PathBuf,
    ) -> (App, Receiver<EngineEvent>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut game = Game::new(variant);
        if engines.is_empty() {
            game.seats = [Seat::Human, Seat::Human];
        }
        game.names = [
            seat_name(&engines, game.seats[0]),
            seat_name(&engines, game.seats[1]),
        ];
        let app = App {
            game,
            engines: engines
                .into_iter()
                .map(|cfg| EngineSlot {
                    cfg,
                    handle: None,
                    generation: 0,
                    state: EngineState::Off,
                    caps: EngineCaps::default(),
                    restarts: 0,
                })
                .collect(),
            events_tx: tx,
            search: None,
            next_search: 1,
            game_version: 0,
            version: 0,
            analysis: AnalysisSetting {
                on: false,
                engine: 0,
                multipv: 1,
            },
            paused: false,
            paused_before_analysis: false,
            message: String::new(),
            subscribers: Vec::new(),
            results_dir,
            boot: (now_ms() as u64) ^ u64::from(std::process::id()) << 40,
            move_info: (None, None),
            hint: None,
            review: None,
        };
        (app, rx)
    }

    pub fn engine_config(&self, i: usize) -> Option<EngineConfig> {
        self.engines.get(i).map(|e| e.cfg.clone())
    }

    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.cfg.name.clone()).collect()
    }

    // ----- engines -----

    /// Starts engine `i` if it is not running (a failed one stays failed until restarted).
    fn ensure_engine(&mut self, i: usize) {
        let slot = &mut self.engines[i];
        let failed = matches!(slot.state, EngineState::Failed(_));
        if slot.handle.is_none() && !failed {
            slot.state = EngineState::Starting;
            slot.generation += 1;
            slot.handle = Some(EngineHandle::start(
                i,
                slot.generation,
                slot.cfg.clone(),
                self.events_tx.clone(),
            ));
        }
    }

    pub fn start_engine(&mut self, i: usize) {
        if i < self.engines.len() {
            self.ensure_engine(i);
        }
    }

    fn engine_ready(&self, i: usize) -> bool {
        matches!(
            self.engines[i].state,
            EngineState::Ready | EngineState::Thinking
        )
    }

    /// Restarts engine `i` (after a crash or hang, or on request).
    pub fn act_restart(&mut self, i: usize) -> Result<(), String> {
        if i >= self.engines.len() {
            return Err(format!("no engine {i}"));
        }
        if self.search.is_some_and(|s| s.engine == i) {
            self.search = None;
        }
        self.engines[i].handle = None;
        self.engines[i].state = EngineState::Off;
        self.ensure_engine(i);
        self.message = format!("{} restarted", self.engines[i].cfg.name);
        self.changed();
        Ok(())
    }

    fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            if let Some(h) = &self.engines[s.engine].handle {
                h.send(EngineCmd::Stop);
            }
        }
    }

    /// Starts, keeps or stops searches so that they match the state: analysis of the shown
    /// position, or the move of an engine whose turn it is.
    fn schedule(&mut self) {
        let wanted: Option<(usize, Purpose)> = if self.analysis.on {
            let shown = self.game.shown();
            (!shown.is_finished()).then_some((self.analysis.engine, Purpose::Analysis))
        } else if self.game.at_end() && !self.game.finished() && !self.paused {
            let side = self.game.shown().side_to_move();
            match self.game.seats[side.index()] {
                Seat::Engine(i) => Some((i, Purpose::Move(self.game.moves().len()))),
                Seat::Human => None,
            }
        } else {
            None
        };
        if let Some(s) = self.search {
            let same = wanted.is_some_and(|(e, p)| {
                e == s.engine && p == s.purpose && s.version == self.game_version
            });
            if same {
                return;
            }
            self.stop_search();
        }
        let Some((engine, purpose)) = wanted else {
            return;
        };
        if engine >= self.engines.len() {
            return;
        }
        self.ensure_engine(engine);
        if !self.engine_ready(engine) {
            // Asked again when the engine reports Ready.
            return;
        }
        let id = self.next_search;
        self.next_search += 1;
        let (go, limit) = match purpose {
            Purpose::Analysis => ("go infinite".to_string(), None),
            Purpose::Move(_) => (self.game.go_command(), Some(self.game.think_limit())),
        };
        let slot = &self.engines[engine];
        let Some(h) = &slot.handle else { return };
        if slot.caps.has_variant {
            h.send(EngineCmd::SetOption(
                "Variant".into(),
                self.game.variant().name().into(),
            ));
        }
        if let Some(max) = slot.caps.multipv_max {
            let n = match purpose {
                Purpose::Analysis => self.analysis.multipv.clamp(1, max),
                Purpose::Move(_) => 1,
            };
            h.send(EngineCmd::SetOption("MultiPV".into(), n.to_string()));
        }
        self.move_info = (None, None);
        h.send(EngineCmd::Go {
            id,
            position: self.game.position_command(),
            go,
            limit,
        });
        self.search = Some(Search {
            id,
            engine,
            purpose,
            cursor: self.game.cursor(),
            version: self.game_version,
        });
    }

    /// Takes one event from an engine's thread.
    pub fn on_engine_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::State(i, generation, state, caps) => {
                if generation != self.engines[i].generation {
                    return;
                }
                if let EngineState::Failed(why) = &state {
                    self.message = format!("engine {}: {why}", self.engines[i].cfg.name);
                    if self.search.is_some_and(|s| s.engine == i) {
                        self.search = None;
                    }
                    self.engines[i].handle = None;
                }
                let was_ready = self.engine_ready(i);
                self.engines[i].state = state;
                self.engines[i].caps = caps;
                if !was_ready && self.engine_ready(i) {
                    self.schedule();
                }
                self.changed_view();
            }
            EngineEvent::Restarted(i, generation, why) => {
                if generation != self.engines[i].generation {
                    return;
                }
                self.message = format!(
                    "engine {}: {why}; it was restarted",
                    self.engines[i].cfg.name
                );
                if self.search.is_some_and(|s| s.engine == i) {
                    // Asked again when the engine reports Ready.
                    self.search = None;
                }
                self.engines[i].state = EngineState::Starting;
                self.engines[i].restarts += 1;
                self.changed_view();
            }
            EngineEvent::Line {
                engine,
                search,
                line,
                at,
            } => {
                let Some(s) = self.search.filter(|s| Some(s.id) == search) else {
                    return;
                };
                if matches!(s.purpose, Purpose::Move(_)) {
                    let mut si = crate::referee::players::player::SearchInfo::default();
                    si.update(&line);
                    if si.score.is_some() {
                        self.move_info = (si.score, si.depth.or(self.move_info.1));
                    }
                }
                if line.starts_with("info") {
                    let read_ms = now_ms() - at.elapsed().as_secs_f64() * 1000.0;
                    let mut info = parse_info(&line);
                    info["engine"] = json!(engine);
                    info["engine_name"] = json!(self.engines[engine].cfg.name);
                    info["search"] = json!(s.id);
                    info["purpose"] = json!(match s.purpose {
                        Purpose::Analysis => "analysis",
                        Purpose::Move(_) => "move",
                    });
                    info["read_ms"] = json!(read_ms);
                    info["cursor"] = json!(s.cursor);
                    self.publish("info", &info.to_string());
                }
            }
            EngineEvent::BestMove {
                engine,
                search,
                token,
            } => {
                let Some(s) = self.search.filter(|s| s.id == search) else {
                    return;
                };
                self.search = None;
                if let Purpose::Move(n) = s.purpose {
                    let current = s.version == self.game_version
                        && self.game.moves().len() == n
                        && self.game.at_end();
                    if current {
                        let name = self.engines[engine].cfg.name.clone();
                        match self.game.play_text(&token) {
                            Ok(_) => {
                                self.message.clear();
                                self.game.note_last(self.move_info.0, self.move_info.1);
                            }
                            Err(e) => {
                                self.paused = true;
                                self.message = format!(
                                    "{name} played an illegal move '{token}': {e} (paused)"
                                );
                            }
                        }
                        self.game_version += 1;
                    }
                }
                self.schedule();
                self.changed_view();
            }
        }
    }

    /// The clock tick: a flag fall ends the game.
    pub fn tick(&mut self) {
        if self.game.check_flag() {
            self.game_version += 1;
            self.stop_search();
            self.changed_view();
        }
    }

    // ----- actions from the page -----

    fn changed(&mut self) {
        self.game_version += 1;
        self.schedule();
        self.changed_view();
    }

    /// A change that is not a new game state (engine state, message): only sent.
    pub fn changed_view(&mut self) {
        self.version += 1;
        if !self.subscribers.is_empty() {
            let state = self.state_json().to_string();
            self.publish("state", &state);
        }
    }

    pub fn act_move(&mut self, text: &str) -> Result<(), String> {
        let side = self.game.shown().side_to_move();
        if self.game.seats[side.index()] != Seat::Human && self.game.at_end() {
            return Err(format!("it is the engine's turn ({} to move)", side.name()));
        }
        match self.game.play_text(text) {
            Ok(_) => {
                self.message.clear();
                // A move of one's own resumes the game (the engine answers), unless analysing.
                if !self.analysis.on {
                    self.paused = false;
                }
                self.changed();
                Ok(())
            }
            Err(e) => {
                self.message = e.clone();
                self.changed_view();
                Err(e)
            }
        }
    }

    pub fn act_goto(&mut self, ply: usize) {
        self.game.go_to(ply);
        self.changed();
    }

    /// Takes back moves until a human is to move (at most two), or one in engine games.
    pub fn act_undo(&mut self) -> Result<(), String> {
        self.stop_search();
        if !self.game.undo() {
            return Err("no move to take back".into());
        }
        let side = self.game.shown().side_to_move();
        let humans = self.game.seats.contains(&Seat::Human);
        if humans && self.game.seats[side.index()] != Seat::Human {
            self.game.undo();
        }
        self.paused = self.paused || !humans;
        self.message.clear();
        self.changed();
        Ok(())
    }

    pub fn act_new(&mut self, req: &Value) -> Result<(), String> {
        let variant = match req.get("variant").and_then(Value::as_str) {
            Some(v) => Variant::from_name(v).ok_or_else(|| format!("unknown variant '{v}'"))?,
            None => self.game.variant(),
        };
        let seats = [
            self.parse_seat(req.get("white"))?
                .unwrap_or(self.game.seats[0]),
            self.parse_seat(req.get("black"))?
                .unwrap_or(self.game.seats[1]),
        ];
        let time = match req.get("time") {
            Some(t) => parse_time(t)?,
            None => self.game.time,
        };
        let start = match req.get("start").and_then(Value::as_str) {
            Some(p) if !p.trim().is_empty() => read_position(p, variant)?,
            _ => Position::new(variant),
        };
        self.stop_search();
        self.game.seats = seats;
        self.game.time = time;
        self.game.names = [
            seat_name(&self.engine_cfgs(), seats[0]),
            seat_name(&self.engine_cfgs(), seats[1]),
        ];
        self.game.reset(start);
        self.paused = false;
        self.analysis.on = false;
        self.message = format!(
            "new {} game: {} vs {}",
            variant.name(),
            self.game.names[0],
            self.game.names[1]
        );
        self.changed();
        Ok(())
    }

    /// Seats and time from the page, applied at once: an engine seated on the side to move
    /// starts thinking (play resumes, unless analysing).
    pub fn act_setup(&mut self, req: &Value) -> Result<(), String> {
        let seats = [
            self.parse_seat(req.get("white"))?
                .unwrap_or(self.game.seats[0]),
            self.parse_seat(req.get("black"))?
                .unwrap_or(self.game.seats[1]),
        ];
        if let Some(t) = req.get("time") {
            let t = parse_time(t)?;
            if t != self.game.time {
                self.game.time = t;
                self.game.reset_clocks();
            }
        }
        if seats != self.game.seats {
            self.game.seats = seats;
            self.game.names = [
                seat_name(&self.engine_cfgs(), seats[0]),
                seat_name(&self.engine_cfgs(), seats[1]),
            ];
            let side = self.game.shown().side_to_move();
            if matches!(seats[side.index()], Seat::Engine(_)) && !self.analysis.on {
                self.paused = false;
            }
            self.message = format!("{} vs {}", self.game.names[0], self.game.names[1]);
        }
        self.changed();
        Ok(())
    }

    /// Plays on from the shown position (a loaded game, or any move of the list): the moves
    /// after it are dropped, seats and time as given (else as they are), play resumes.
    pub fn act_play_from(&mut self, req: &Value) -> Result<(), String> {
        if let Some(p) = req.get("ply").and_then(Value::as_u64) {
            self.game.go_to(p as usize);
        }
        let dropped = self.game.moves().len() - self.game.cursor();
        self.stop_search();
        self.game.truncate();
        self.game.reset_clocks();
        self.analysis.on = false;
        self.paused = false;
        self.act_setup(req)?;
        self.message = format!(
            "playing on from move {}{}: {} vs {}",
            self.game.cursor(),
            if dropped > 0 {
                format!(" ({dropped} later moves dropped)")
            } else {
                String::new()
            },
            self.game.names[0],
            self.game.names[1]
        );
        self.changed_view();
        Ok(())
    }

    fn engine_cfgs(&self) -> Vec<EngineConfig> {
        self.engines.iter().map(|e| e.cfg.clone()).collect()
    }

    fn parse_seat(&self, v: Option<&Value>) -> Result<Option<Seat>, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s == "human" => Ok(Some(Seat::Human)),
            Some(v) => match v.as_u64() {
                Some(i) if (i as usize) < self.engines.len() => Ok(Some(Seat::Engine(i as usize))),
                _ => Err(format!("a side is \"human\" or an engine number, not {v}")),
            },
        }
    }

    pub fn act_analysis(&mut self, req: &Value) -> Result<(), String> {
        let on = req
            .get("on")
            .and_then(Value::as_bool)
            .ok_or("analysis needs \"on\": true or false")?;
        if let Some(e) = req.get("engine") {
            let e = e.as_u64().filter(|&e| (e as usize) < self.engines.len());
            self.analysis.engine = e.ok_or("no such engine")? as usize;
        }
        if let Some(m) = req.get("multipv") {
            self.analysis.multipv = m
                .as_u64()
                .filter(|m| (1..=64).contains(m))
                .ok_or("multipv is 1..64")? as u32;
        }
        if on && self.engines.is_empty() {
            return Err("no engine is configured".into());
        }
        if on && !self.analysis.on {
            // Analysis takes the board: engines do not move meanwhile.
            self.paused_before_analysis = self.paused;
            self.paused = true;
        } else if !on && self.analysis.on {
            self.paused = self.paused_before_analysis;
        }
        self.analysis.on = on;
        // A new setting restarts the search.
        self.game_version += 1;
        self.schedule();
        self.changed_view();
        Ok(())
    }

    pub fn act_pause(&mut self, paused: bool) {
        self.paused = paused;
        if !paused {
            self.analysis.on = false;
            self.game.go_to(self.game.moves().len());
        }
        self.changed();
    }

    /// Loads a game from text: PGN, a position string, or a move list from the start.
    pub fn act_load(&mut self, text: &str) -> Result<(), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("nothing to load".into());
        }
        let variant = self.game.variant();
        if text.starts_with('[') || text.contains("{") {
            let games = crate::referee::records::pgn::read_games(text);
            let g = games.first().ok_or("no complete game in the PGN text")?;
            return self.load_pgn_game(g);
        }
        let result = match read_position(text, variant) {
            Ok(p) => self.game.load(p, &[]),
            Err(pos_err) => {
                let moves: Vec<String> = text
                    .split_whitespace()
                    .filter(|t| !t.ends_with('.'))
                    .map(str::to_string)
                    .collect();
                self.game
                    .load(Position::new(variant), &moves)
                    .map_err(|e| format!("neither a position ({pos_err}) nor a move list ({e})"))
            }
        };
        result?;
        self.after_load("loaded");
        Ok(())
    }

    fn load_pgn_game(&mut self, g: &crate::referee::records::pgn::PgnGame) -> Result<(), String> {
        let variant = match g.tag("Variant") {
            Some(v) => Variant::from_name(v).ok_or_else(|| format!("unknown variant '{v}'"))?,
            None => self.game.variant(),
        };
        let start = match g.tag("FEN") {
            Some(f) => read_position(f, variant)?,
            None => Position::new(variant),
        };
        self.game.load(start, &g.moves)?;
        let names = [
            g.tag("White").unwrap_or("White").to_string(),
            g.tag("Black").unwrap_or("Black").to_string(),
        ];
        self.game.names = names;
        // Replaying: from the start, nobody moves by itself.
        self.game.seats = [Seat::Human, Seat::Human];
        self.game.go_to(0);
        let result = g.result.clone().unwrap_or_default();
        self.after_load(&format!(
            "loaded {} vs {} ({result}): step through with the arrows",
            self.game.names[0], self.game.names[1]
        ));
        Ok(())
    }

    fn after_load(&mut self, what: &str) {
        self.stop_search();
        self.analysis.on = false;
        self.paused = true;
        self.message = what.to_string();
        self.changed();
    }

    pub fn act_load_result(&mut self, file: &str, index: usize) -> Result<(), String> {
        let games = records::read_result_file(&self.results_dir, file)?;
        let g = games
            .get(index)
            .ok_or_else(|| format!("{file} has no game {index}"))?;
        self.load_pgn_game(g)
    }

    pub fn pgn_text(&self) -> String {
        records::game_pgn(&self.game)
    }

    // ----- the event stream -----

    /// A new subscriber; None when there are too many.
    pub fn subscribe(&mut self) -> Option<Receiver<String>> {
        // Drops tabs that are gone (receiver dropped) or not reading (channel full).
        self.subscribers
            .retain(|s| s.try_send(": ping\n\n".to_string()).is_ok());
        if self.subscribers.len() >= MAX_SUBSCRIBERS {
            return None;
        }
        // Bounded: a tab that stops reading is dropped instead of growing memory.
        let (tx, rx) = crossbeam_channel::bounded(256);
        let _ = tx.send(sse_event("state", &self.state_json().to_string()));
        self.subscribers.push(tx);
        Some(rx)
    }

    fn publish(&mut self, event: &str, data: &str) {
        let msg = sse_event(event, data);
        self.subscribers.retain(|s| s.try_send(msg.clone()).is_ok());
    }

    // ----- the state for the page -----

    pub fn state_json(&self) -> Value {
        let shown = self.game.shown();
        let last = self.game.last_shown_move();
        let side = shown.side_to_move();
        let human_turn = self.game.seats[side.index()] == Seat::Human || !self.game.at_end();
        let ended_on_time = self.game.at_end().then_some(self.game.time_loss).flatten();
        let can_move = !shown.is_finished() && ended_on_time.is_none() && human_turn;
        let legal = if can_move {
            legal_json(&shown)
        } else {
            json!({"drops": {}, "shifts": {}, "pass": false, "movable": {}})
        };
        let svg = |flipped| {
            board_svg(
                &shown,
                &SvgOptions {
                    flipped,
                    last_move: last,
                    panel: false,
                },
            )
        };
        let outcome = if let Some(t) = ended_on_time {
            json!({"text": format!("{} loses on time", t.0.name()), "winner": colour_name(!t.0),
                   "reason": "time", "path": []})
        } else if let Some(o) = shown.outcome() {
            let path = match (o.winner, o.reason) {
                (Some(w), EndReason::Connection) => connection_path(&shown, w)
                    .unwrap_or_default()
                    .iter()
                    .map(|c| c.to_string())
                    .collect(),
                _ => Vec::new(),
            };
            json!({"text": o.to_string(), "winner": o.winner.map(colour_name),
                   "reason": reason_name(o.reason), "path": path})
        } else {
            Value::Null
        };
        let hands: BTreeMap<&str, BTreeMap<String, u8>> = Colour::ALL
            .iter()
            .map(|&c| {
                (
                    colour_name(c),
                    Kind::ALL
                        .iter()
                        .map(|&k| (k.letter().to_string(), shown.in_hand(c, k)))
                        .collect(),
                )
            })
            .collect();
        let seat = |s: Seat| match s {
            Seat::Human => json!("human"),
            Seat::Engine(i) => json!(i),
        };
        let time = match self.game.time {
            TimeSetting::MoveTime(ms) => json!({"movetime": ms}),
            TimeSetting::Clock { base, inc } => json!({"base": base, "inc": inc}),
        };
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                let (state, detail) = match &e.state {
                    EngineState::Off => ("off", String::new()),
                    EngineState::Starting => ("starting", String::new()),
                    EngineState::Ready => ("ready", String::new()),
                    EngineState::Thinking => ("thinking", String::new()),
                    EngineState::Failed(d) => ("failed", d.clone()),
                };
                json!({"name": e.cfg.name, "state": state, "detail": detail,
                       "multipv_max": e.caps.multipv_max, "restarts": e.restarts})
            })
            .collect();
        let [cw, cb] = shown.centre_count();
        let review = self.review.as_ref().map(|r| {
            let same_game = r.start == position_to_string(self.game.start_position())
                && self.game.moves().len() >= r.moves.len()
                && self
                    .game
                    .moves()
                    .iter()
                    .zip(&r.moves)
                    .all(|(a, b)| a.to_string() == *b);
            let start = read_position(&r.start, self.game.variant())
                .unwrap_or_else(|_| self.game.start_position().clone());
            let verdicts = crate::referee::review::verdicts(&start, &r.moves, &r.evals);
            json!({
                "current": same_game,
                "engine": r.engine,
                "movetime": r.movetime_ms,
                "total": r.moves.len() + 1,
                "done": r.evals.len(),
                "running": r.running,
                "error": r.error,
                "evals": r.evals.iter().map(|e| json!({"cp": e.white_cp, "text": e.text,
                    "depth": e.depth, "best": e.best})).collect::<Vec<_>>(),
                "marks": verdicts.iter().map(|v| json!({"class": v.class.map(|c| c.name()),
                    "drop": v.drop, "better": v.better})).collect::<Vec<_>>(),
            })
        });
        let notes: Vec<Value> = self
            .game
            .notes()
            .iter()
            .map(|n| json!({"ms": n.ms.round()}))
            .collect();
        json!({
            "boot": self.boot,
            "version": self.version,
            "review": review,
            "hint": self.hint,
            "notes": notes,
            "variant": self.game.variant().name(),
            "start": position_to_string(self.game.start_position()),
            "moves": self.game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "cursor": self.game.cursor(),
            "at_end": self.game.at_end(),
            "position": position_to_string(&shown),
            "side": colour_name(side),
            "ply": shown.ply(),
            "last": last.map(|m| m.to_string()),
            "hands": hands,
            "centre": [cw, cb],
            "outcome": outcome,
            "can_move": can_move,
            "legal": legal,
            "seats": [seat(self.game.seats[0]), seat(self.game.seats[1])],
            "names": self.game.names,
            "time": time,
            "clocks": self.game.clocks_now(),
            "engines": engines,
            "thinking": self.search.map(|s| json!({"engine": s.engine, "search": s.id,
                "purpose": if s.purpose == Purpose::Analysis { "analysis" } else { "move" }})),
            "analysis": {"on": self.analysis.on, "engine": self.analysis.engine, "multipv": self.analysis.multipv},
            "paused": self.paused,
            "message": self.message,
            "svg": svg(false),
            "svg_flipped": svg(true),
        })
    }
}

fn sse_event(event: &str, data: &str) -> String {
    // Data is one line of JSON: no newline can break the frame.
    format!("event: {event}\ndata: {}\n\n", data.replace('\n', " "))
}

fn seat_name(engines: &[EngineConfig], s: Seat) -> String {
    match s {
        Seat::Human => "Human".into(),
        Seat::Engine(i) => engines.get(i).map_or("engine".into(), |e| e.name.clone()),
    }
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

fn reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::Connection => "connection",
        EndReason::CentreCount { .. } => "centre_count",
        EndReason::LastDrop => "last_drop",
        EndReason::DoublePass => "double_pass",
    }
}

pub fn parse_time(t: &Value) -> Result<TimeSetting, String> {
    let ms = |k: &str| t.get(k).and_then(Value::as_u64);
    if let Some(m) = ms("movetime") {
        if !(10..=3_600_000).contains(&m) {
            return Err("movetime is 10 ms .. 1 hour".into());
        }
        return Ok(TimeSetting::MoveTime(m));
    }
    match (ms("base"), ms("inc")) {
        (Some(base), inc) if (100..=36_000_000).contains(&base) => Ok(TimeSetting::Clock {
            base,
            inc: inc.unwrap_or(0).min(600_000),
        }),
        _ => Err(
            "time is {\"movetime\": ms} or {\"base\": ms, \"inc\": ms} (base at least 100)".into(),
        ),
    }
}

/// The legal moves of a position for the page: drops by kind, shifts by the space they leave,
/// whether a pass is legal, and for each top dot of a movable piece the space of its PÜNCT.
pub fn legal_json(pos: &Position) -> Value {
    let mut drops: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut shifts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pass = false;
    for m in pos.legal_moves() {
        match m {
            Move::Drop(p) => drops
                .entry(p.kind().letter().to_string())
                .or_default()
                .push(p.to_string()),
            Move::Shift { from, to } => shifts
                .entry(from.to_string())
                .or_default()
                .push(to.to_string()),
            Move::Pass => pass = true,
        }
    }
    let mut movable = BTreeMap::new();
    for from in shifts.keys() {
        let Ok(c) = parse_cell(from) else { continue };
        if let Some(i) = pos.movable_piece_at(c) {
            for cell in pos.piece(i).placement.cells() {
                if pos.top_piece(cell) == Some(i) {
                    movable.insert(cell.to_string(), from.clone());
                }
            }
        }
    }
    json!({"drops": drops, "shifts": shifts, "pass": pass, "movable": movable})
}

/// The controller thread: engine events and a clock tick every 50 ms until `stop`.
pub fn run_controller(app: Shared, events: Receiver<EngineEvent>, stop: Arc<AtomicBool>) {
    let mut last_tick = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        match events.recv_timeout(Duration::from_millis(50)) {
            Ok(ev) => lock(&app).on_engine_event(ev),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if last_tick.elapsed() >= Duration::from_millis(50) {
            lock(&app).tick();
            last_tick = Instant::now();
        }
    }
    // Engines quit when their handles go.
    let mut a = lock(&app);
    a.search = None;
    for e in &mut a.engines {
        e.handle = None;
    }
    a.subscribers.clear();
}
