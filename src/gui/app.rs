//! The GUI's shared state: one game (every tab shows the same board), the engines, analysis,
//! and the subscribers of the event stream. Engine events and the clock tick arrive on the
//! controller thread ([`run_controller`]); HTTP handlers call the `act_*` methods
//! (`actions.rs`). Every change is pushed to the page as a `state` event (`state.rs`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use serde_json::{json, Value};

use crate::gui::engines::{EngineCaps, EngineCmd, EngineEvent, EngineHandle, EngineState};
use crate::gui::game::{Game, Seat};
use crate::gui::info::parse_info;
use crate::gui::levels::{is_strength_option, Level};
use crate::gui::records;
use crate::referee::settings::EngineConfig;
use crate::rules::piece::Colour;
use crate::rules::position::Variant;

/// Most event-stream subscribers at once (tabs); more are refused.
pub const MAX_SUBSCRIBERS: usize = 32;

/// Why an engine is searching.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Its move in the game, with the number of moves played when it was asked.
    Move(usize),
    Analysis,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Search {
    pub(crate) id: u64,
    pub(crate) engine: usize,
    pub(crate) purpose: Purpose,
    /// The position it searches, by moves from the start: the end of the game for a move,
    /// the board shown for analysis.
    pub(crate) cursor: usize,
    pub(crate) version: u64,
}

pub(crate) struct EngineSlot {
    pub(crate) cfg: EngineConfig,
    handle: Option<EngineHandle>,
    /// Counts starts, so that a late event of an old process is not taken for the new one.
    generation: u64,
    pub(crate) state: EngineState,
    pub(crate) caps: EngineCaps,
    /// Restarts after missing a deadline (automatic), shown on the page.
    pub(crate) restarts: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisSetting {
    pub on: bool,
    pub engine: usize,
    pub multipv: u32,
}

pub struct App {
    pub game: Game,
    pub(crate) engines: Vec<EngineSlot>,
    events_tx: Sender<EngineEvent>,
    pub(crate) search: Option<Search>,
    next_search: u64,
    /// Bumped by every change of the game (to tell stale searches); browsing is not one.
    pub(crate) game_version: u64,
    /// Bumped by every state sent.
    pub(crate) version: u64,
    pub analysis: AnalysisSetting,
    /// Whether play was paused before analysis started (restored when it stops).
    pub(crate) paused_before_analysis: bool,
    /// Engines do not move and the clock is held while paused (watching engine games step by
    /// step, analysis, a loaded record); change it with [`App::set_paused`].
    pub paused: bool,
    /// The last notice for the page (an error or what happened).
    pub(crate) message: String,
    subscribers: Vec<Sender<String>>,
    pub results_dir: PathBuf,
    /// Tells this server's states from another's (the page orders states by `version` only
    /// within one boot).
    pub(crate) boot: u64,
    /// The last score and depth of the engine searching its move (for the PGN record).
    move_info: (Option<crate::referee::players::player::Score>, Option<u32>),
    /// The level the engine searching its move plays at (for the record), as the PGN names it.
    move_level: Option<String>,
    /// The engine's best move for a position (the hint button), as JSON.
    pub hint: Option<Value>,
    /// The review of the game (evaluation of every position), when one was asked for.
    pub review: Option<Review>,
    /// A clock or time chosen while a game goes on: for the next game.
    pub(crate) next_time: Option<crate::gui::game::TimeSetting>,
    /// The games of the PGN text loaded last, when it held several (to choose another), and
    /// the one loaded.
    pub(crate) pgn_games: Vec<Value>,
    pub(crate) pgn_index: usize,
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
            move_level: None,
            hint: None,
            review: None,
            next_time: None,
            pgn_games: Vec::new(),
            pgn_index: 0,
        };
        (app, rx)
    }

    /// Engine `i`'s configuration for the review and the hint, which always play at full
    /// strength: its level options are left out and, when its option list is known, turned
    /// off explicitly.
    pub fn full_strength_config(&self, i: usize) -> Option<EngineConfig> {
        let slot = self.engines.get(i)?;
        let mut cfg = slot.cfg.clone();
        cfg.options.retain(|(n, _)| !is_strength_option(n));
        cfg.options.extend(slot.caps.strength.setoptions(None));
        Some(cfg)
    }

    /// The level an engine seated on `side` plays at (None: a person, full strength, or an
    /// engine without levels or not started yet).
    pub(crate) fn seat_level(&self, side: Colour) -> Option<Level> {
        let Seat::Engine(i) = self.game.seats[side.index()] else {
            return None;
        };
        let step = self.game.levels[side.index()];
        self.engines.get(i)?.caps.strength.level(step)
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

    pub(crate) fn stop_search(&mut self) {
        if let Some(s) = self.search.take() {
            if let Some(h) = &self.engines[s.engine].handle {
                h.send(EngineCmd::Stop);
            }
        }
    }

    /// Engines do not move and the clock is held while paused.
    pub(crate) fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        self.game.hold_clock(paused);
    }

    /// Starts, keeps or stops searches so that they match the state: analysis of the shown
    /// position, or the move of an engine whose turn it is in the game (whatever the board
    /// shows: browsing does not stop it).
    pub(crate) fn schedule(&mut self) {
        let wanted: Option<(usize, Purpose, usize)> = if self.analysis.on {
            let shown = self.game.shown();
            (!shown.is_finished()).then_some((
                self.analysis.engine,
                Purpose::Analysis,
                self.game.cursor(),
            ))
        } else if !self.game.finished() && !self.paused {
            let n = self.game.moves().len();
            match self.game.seats[self.game.game_side().index()] {
                Seat::Engine(i) => Some((i, Purpose::Move(n), n)),
                Seat::Human => None,
            }
        } else {
            None
        };
        if let Some(s) = self.search {
            let same = wanted.is_some_and(|(e, p, at)| {
                e == s.engine && p == s.purpose && s.version == self.game_version && at == s.cursor
            });
            if same {
                return;
            }
            self.stop_search();
        }
        let Some((engine, purpose, at)) = wanted else {
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
        // Options before the search: the variant, the lines, the level (a move plays at its
        // seat's level; analysis, like the hint and the review, at full strength).
        let mut options = Vec::new();
        let slot = &self.engines[engine];
        if slot.caps.has_variant {
            options.push((
                "Variant".to_string(),
                self.game.variant().name().to_string(),
            ));
        }
        if let Some(max) = slot.caps.multipv_max {
            let n = match purpose {
                Purpose::Analysis => self.analysis.multipv.clamp(1, max),
                Purpose::Move(_) => 1,
            };
            options.push(("MultiPV".to_string(), n.to_string()));
        }
        let level = match purpose {
            Purpose::Move(_) => self.seat_level(self.game.game_side()),
            Purpose::Analysis => None,
        };
        options.extend(slot.caps.strength.setoptions(level.as_ref()));
        let Some(h) = &slot.handle else { return };
        self.move_info = (None, None);
        self.move_level = level.map(|l| l.option_text());
        h.send(EngineCmd::Go {
            id,
            options,
            position: self.game.position_command(at),
            go,
            limit,
        });
        self.search = Some(Search {
            id,
            engine,
            purpose,
            cursor: at,
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
                    let current = s.version == self.game_version && self.game.moves().len() == n;
                    if current {
                        let name = self.engines[engine].cfg.name.clone();
                        let played = token
                            .parse::<crate::rules::moves::Move>()
                            .map_err(|e| format!("'{token}': {e}"))
                            .and_then(|mv| self.game.play_at_end(mv, &name));
                        match played {
                            Ok(_) => {
                                self.message.clear();
                                self.game.note_last(
                                    self.move_info.0,
                                    self.move_info.1,
                                    self.move_level.clone(),
                                );
                            }
                            Err(e) => {
                                self.set_paused(true);
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

    /// A change of the game: searches are checked, the state is sent.
    pub(crate) fn changed(&mut self) {
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

    pub fn pgn_text(&self) -> String {
        let seated = Colour::ALL.map(|c| self.seat_level(c).map(|l| l.option_text()));
        records::game_pgn(&self.game, seated)
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

    pub(crate) fn publish(&mut self, event: &str, data: &str) {
        let msg = sse_event(event, data);
        self.subscribers.retain(|s| s.try_send(msg.clone()).is_ok());
    }
}

fn sse_event(event: &str, data: &str) -> String {
    // Data is one line of JSON: no newline can break the frame.
    format!("event: {event}\ndata: {}\n\n", data.replace('\n', " "))
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

/// Who sits on a side, as the hands name it.
pub fn seat_name(engines: &[EngineConfig], s: Seat) -> String {
    match s {
        Seat::Human => "Human".into(),
        Seat::Engine(i) => engines.get(i).map_or("engine".into(), |e| e.name.clone()),
    }
}
