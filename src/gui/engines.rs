//! Engines as child processes, each driven by its own thread through the referee's
//! [`EngineProcess`] (process group, deadlines, crash detection). The thread takes commands from
//! a channel and reports every output line, every `bestmove` and every change of state as an
//! [`EngineEvent`]; nothing it does blocks the HTTP server.

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use serde::Serialize;

use crate::gui::levels::{AnnouncedOption, StrengthOptions};
use crate::referee::players::engine_process::{EngineProcess, IoFault};
use crate::referee::settings::EngineConfig;

/// How long an engine has for the handshake (`uciok`, `readyok`).
pub const HANDSHAKE: Duration = Duration::from_secs(10);
/// Grace on top of a search's own time before an engine counts as hung.
pub const HANG_GRACE: Duration = Duration::from_secs(5);
/// How long after `stop` the `bestmove` must come.
pub const STOP_GRACE: Duration = Duration::from_secs(3);

/// Commands to an engine's thread.
#[derive(Debug)]
pub enum EngineCmd {
    /// Search: the `options` that differ from what the engine has (then `isready`, its
    /// `readyok` awaited), `position`, then `go`; `limit` is how long it may take (None: until
    /// `stop`).
    Go {
        id: u64,
        options: Vec<(String, String)>,
        position: String,
        go: String,
        limit: Option<Duration>,
    },
    Stop,
    Quit,
}

/// What an engine is doing, as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state", content = "detail", rename_all = "lowercase")]
pub enum EngineState {
    /// Not started yet (engines start when first needed).
    Off,
    Starting,
    Ready,
    Thinking,
    /// Exited, crashed, could not start, or did not answer in time (then it was killed).
    Failed(String),
}

/// What the options list of the handshake offered.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EngineCaps {
    /// The largest `MultiPV`, when the engine has the option.
    pub multipv_max: Option<u32>,
    pub has_variant: bool,
    /// The options for strength levels (`UCI_Elo`, `Skill Level`...).
    pub strength: StrengthOptions,
    /// The handshake was read (a failed or unstarted engine's options are not known).
    pub known: bool,
}

#[derive(Clone, Debug)]
pub enum EngineEvent {
    /// Engine index, the generation of its handle (a restart makes a new one), the state.
    State(usize, u64, EngineState, EngineCaps),
    /// An output line (not `bestmove`), stamped with when it was read.
    Line {
        engine: usize,
        search: Option<u64>,
        line: String,
        at: Instant,
    },
    BestMove {
        engine: usize,
        search: u64,
        token: String,
    },
    /// The engine missed a deadline and is being started again (engine, generation, why): its
    /// search is lost and is asked again when it is ready.
    Restarted(usize, u64, String),
}

/// A running engine's handle; dropping it asks the thread to quit (which kills the group).
pub struct EngineHandle {
    tx: Sender<EngineCmd>,
}

impl EngineHandle {
    /// Starts the engine's thread; the handshake runs there.
    pub fn start(
        index: usize,
        generation: u64,
        cfg: EngineConfig,
        events: Sender<EngineEvent>,
    ) -> EngineHandle {
        let (tx, rx) = crossbeam_channel::unbounded();
        let name = format!("gui-engine-{index}");
        let spawned = std::thread::Builder::new()
            .name(name)
            .spawn(move || drive((index, generation), &cfg, &rx, &events));
        if let Err(e) = spawned {
            log::error!("cannot start an engine thread: {e}");
        }
        EngineHandle { tx }
    }

    pub fn send(&self, cmd: EngineCmd) {
        let _ = self.tx.send(cmd);
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        let _ = self.tx.send(EngineCmd::Quit);
    }
}

/// Parses `option name MultiPV type spin default 1 min 1 max 500`.
fn read_option(line: &str, caps: &mut EngineCaps) {
    let Some(o) = AnnouncedOption::parse(line) else {
        return;
    };
    caps.strength.read(&o);
    if o.name.eq_ignore_ascii_case("MultiPV") {
        caps.multipv_max = Some(o.max.and_then(|m| u32::try_from(m).ok()).unwrap_or(1));
    } else if o.name.eq_ignore_ascii_case("Variant") {
        caps.has_variant = true;
    }
}

fn handshake(p: &mut EngineProcess, cfg: &EngineConfig) -> Result<EngineCaps, String> {
    let hello = cfg.proto.name();
    let ok = format!("{hello}ok");
    let mut caps = EngineCaps::default();
    let fault = |f: IoFault, what: &str| match f {
        IoFault::Timeout => format!("no {what} within {} s", HANDSHAKE.as_secs()),
        IoFault::Disconnected => format!("the engine exited before {what}"),
        IoFault::InputBlocked => format!("the engine does not read its input (before {what})"),
    };
    p.send(hello).map_err(|f| fault(f, &ok))?;
    p.wait_for(&ok, Instant::now() + HANDSHAKE, |l| {
        read_option(l, &mut caps)
    })
    .map_err(|f| fault(f, &ok))?;
    for (name, value) in &cfg.options {
        p.send(&format!("setoption name {name} value {value}"))
            .map_err(|f| fault(f, "readyok"))?;
    }
    p.send("isready").map_err(|f| fault(f, "readyok"))?;
    p.wait_for("readyok", Instant::now() + HANDSHAKE, |_| {})
        .map_err(|f| fault(f, "readyok"))?;
    caps.known = true;
    Ok(caps)
}

/// Sends the options of `wanted` that differ from those in force (by name, any case), then
/// `isready`, and waits for `readyok`, so that the search after it runs with them.
fn set_options(
    p: &mut EngineProcess,
    in_force: &mut Vec<(String, String)>,
    wanted: &[(String, String)],
) -> Result<(), IoFault> {
    let mut sent = false;
    for (name, value) in wanted {
        let at = in_force
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name));
        if at.is_some_and(|i| in_force[i].1 == *value) {
            continue;
        }
        p.send(&format!("setoption name {name} value {value}"))?;
        match at {
            Some(i) => in_force[i].1 = value.clone(),
            None => in_force.push((name.clone(), value.clone())),
        }
        sent = true;
    }
    if sent {
        p.send("isready")?;
        p.wait_for("readyok", Instant::now() + HANDSHAKE, |_| {})?;
    }
    Ok(())
}

/// How often in a row an engine that missed a deadline is restarted by itself before it is
/// shown as failed (a success resets the count).
pub const AUTO_RESTARTS: u32 = 1;

/// Why one life of an engine process ended.
enum End {
    /// Told to quit (or the GUI is going away).
    Quit,
    /// Failed for good (could not start, exited, bad handshake...).
    Failed(String),
    /// Missed a deadline; restarted by itself unless that happened too often.
    Late(String),
}

/// The engine thread: start, handshake, then commands in and lines out until told to quit or
/// the engine fails. An engine that answers late is first asked to `stop` (a late answer is
/// still taken), then killed and started again, so that the game goes on.
fn drive(
    (index, generation): (usize, u64),
    cfg: &EngineConfig,
    rx: &Receiver<EngineCmd>,
    events: &Sender<EngineEvent>,
) {
    let mut restarts = 0;
    loop {
        match live((index, generation), cfg, rx, events, &mut restarts) {
            End::Quit => return,
            End::Failed(why) => {
                let _ = events.send(EngineEvent::State(
                    index,
                    generation,
                    EngineState::Failed(why),
                    EngineCaps::default(),
                ));
                return;
            }
            End::Late(why) if restarts >= AUTO_RESTARTS => {
                let _ = events.send(EngineEvent::State(
                    index,
                    generation,
                    EngineState::Failed(why),
                    EngineCaps::default(),
                ));
                return;
            }
            End::Late(why) => {
                restarts += 1;
                log::warn!("engine {}: {why}; restarting it ({restarts})", cfg.name);
                let _ = events.send(EngineEvent::Restarted(index, generation, why));
            }
        }
    }
}

/// One life of the engine process.
fn live(
    (index, generation): (usize, u64),
    cfg: &EngineConfig,
    rx: &Receiver<EngineCmd>,
    events: &Sender<EngineEvent>,
    restarts: &mut u32,
) -> End {
    let state = |s: EngineState, caps: &EngineCaps| {
        let _ = events.send(EngineEvent::State(index, generation, s, caps.clone()));
    };
    let none = EngineCaps::default();
    state(EngineState::Starting, &none);
    let mut p = match EngineProcess::spawn(cfg) {
        Ok(p) => p,
        Err(e) => return End::Failed(format!("cannot start '{}': {e}", cfg.cmd)),
    };
    let caps = match handshake(&mut p, cfg) {
        Ok(c) => c,
        Err(e) => {
            p.kill();
            return End::Failed(e);
        }
    };
    state(EngineState::Ready, &caps);
    // The options the engine was given (the handshake's, then each search's).
    let mut in_force = cfg.options.clone();
    // The running search, when it must have answered, and whether `stop` was sent for being
    // late.
    let mut search: Option<(u64, Option<Instant>)> = None;
    let mut nudged = false;
    loop {
        match rx.try_recv() {
            Ok(EngineCmd::Go {
                id,
                options,
                position,
                go,
                limit,
            }) => {
                // A search still running is stopped and its bestmove read here, so that it
                // cannot be taken for the answer to this one.
                if search.take().is_some() {
                    let _ = p.send("stop");
                    if let Err(f) = p.wait_for("bestmove", Instant::now() + STOP_GRACE, |_| {}) {
                        p.kill();
                        return match f {
                            IoFault::Timeout => End::Late("the engine did not stop in time".into()),
                            IoFault::Disconnected => End::Failed("the engine exited".into()),
                            IoFault::InputBlocked => {
                                End::Failed("the engine does not read its input".into())
                            }
                        };
                    }
                }
                p.drain();
                if let Err(f) = set_options(&mut p, &mut in_force, &options) {
                    p.kill();
                    return match f {
                        IoFault::Timeout => End::Late("no readyok after its options".into()),
                        IoFault::Disconnected => End::Failed("the engine exited".into()),
                        IoFault::InputBlocked => {
                            End::Failed("the engine does not read its input".into())
                        }
                    };
                }
                let sent = p.send(&position).and_then(|_| p.send(&go));
                if sent.is_err() {
                    p.kill();
                    return End::Failed("the engine closed its input".into());
                }
                search = Some((id, limit.map(|l| Instant::now() + l + HANG_GRACE)));
                nudged = false;
                state(EngineState::Thinking, &caps);
            }
            Ok(EngineCmd::Stop) => {
                if let Some((id, deadline)) = search {
                    let _ = p.send("stop");
                    let by = Instant::now() + STOP_GRACE;
                    search = Some((id, Some(deadline.map_or(by, |d| d.min(by)))));
                    nudged = true;
                }
            }
            Ok(EngineCmd::Quit) | Err(TryRecvError::Disconnected) => {
                p.quit(Duration::from_millis(300));
                return End::Quit;
            }
            Err(TryRecvError::Empty) => {}
        }
        if let Some((id, Some(deadline))) = search {
            if Instant::now() > deadline {
                if !nudged {
                    // Late: a `stop` may still bring the answer (a loaded machine).
                    log::warn!("engine {}: late; sending stop", cfg.name);
                    let _ = p.send("stop");
                    search = Some((id, Some(Instant::now() + STOP_GRACE)));
                    nudged = true;
                } else {
                    p.kill();
                    return End::Late("the engine did not answer in time".into());
                }
            }
        }
        // Short waits so that commands are taken up within a few milliseconds.
        match p.recv(Instant::now() + Duration::from_millis(8)) {
            Ok((at, line)) => {
                if line.split_whitespace().next() == Some("bestmove") {
                    if let Some((id, _)) = search.take() {
                        let token = line.split_whitespace().nth(1).unwrap_or("").to_string();
                        let _ = events.send(EngineEvent::BestMove {
                            engine: index,
                            search: id,
                            token,
                        });
                        *restarts = 0;
                        state(EngineState::Ready, &caps);
                    }
                } else {
                    let _ = events.send(EngineEvent::Line {
                        engine: index,
                        search: search.map(|s| s.0),
                        line,
                        at,
                    });
                }
            }
            Err(IoFault::Timeout) => {}
            Err(IoFault::Disconnected) => {
                p.kill();
                return End::Failed("the engine exited".into());
            }
            Err(IoFault::InputBlocked) => {
                p.kill();
                return End::Failed("the engine does not read its input".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_give_multipv_and_variant() {
        let mut caps = EngineCaps::default();
        read_option(
            "option name Hash type spin default 16 min 1 max 1024",
            &mut caps,
        );
        assert_eq!(caps, EngineCaps::default());
        read_option(
            "option name MultiPV type spin default 1 min 1 max 64",
            &mut caps,
        );
        read_option(
            "option name Variant type combo default standard var standard var basic",
            &mut caps,
        );
        read_option(
            "option name Skill Level type spin default 20 min 0 max 20",
            &mut caps,
        );
        assert_eq!(caps.multipv_max, Some(64));
        assert!(caps.has_variant);
        assert_eq!(caps.strength.skill, Some((0, 20)));
        read_option("option name", &mut caps);
    }
}
