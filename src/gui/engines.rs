//! Engines as child processes, each driven by its own thread through the referee's
//! [`EngineProcess`] (process group, deadlines, crash detection). The thread takes commands from
//! a channel and reports every output line, every `bestmove` and every change of state as an
//! [`EngineEvent`]; nothing it does blocks the HTTP server.

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use serde::Serialize;

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
    /// Search: `position`, then `go`; `limit` is how long it may take (None: until `stop`).
    Go {
        id: u64,
        position: String,
        go: String,
        limit: Option<Duration>,
    },
    Stop,
    /// `setoption name N value V` (between searches).
    SetOption(String, String),
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
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
        return;
    }
    let Some(type_at) = words.iter().position(|w| *w == "type") else {
        return;
    };
    let name = words[2..type_at].join(" ");
    if name.eq_ignore_ascii_case("MultiPV") {
        let max = words
            .iter()
            .position(|w| *w == "max")
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        caps.multipv_max = Some(max);
    } else if name.eq_ignore_ascii_case("Variant") {
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
    Ok(caps)
}

/// The engine thread: start, handshake, then commands in and lines out until told to quit or
/// the engine fails.
fn drive(
    (index, generation): (usize, u64),
    cfg: &EngineConfig,
    rx: &Receiver<EngineCmd>,
    events: &Sender<EngineEvent>,
) {
    let state = |s: EngineState, caps: &EngineCaps| {
        let _ = events.send(EngineEvent::State(index, generation, s, caps.clone()));
    };
    let none = EngineCaps::default();
    state(EngineState::Starting, &none);
    let mut p = match EngineProcess::spawn(cfg) {
        Ok(p) => p,
        Err(e) => {
            state(
                EngineState::Failed(format!("cannot start '{}': {e}", cfg.cmd)),
                &none,
            );
            return;
        }
    };
    let caps = match handshake(&mut p, cfg) {
        Ok(c) => c,
        Err(e) => {
            p.kill();
            state(EngineState::Failed(e), &none);
            return;
        }
    };
    state(EngineState::Ready, &caps);
    // The running search and when it must have answered.
    let mut search: Option<(u64, Option<Instant>)> = None;
    loop {
        match rx.try_recv() {
            Ok(EngineCmd::Go {
                id,
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
                        let why = match f {
                            IoFault::Timeout => "the engine did not stop in time and was killed",
                            IoFault::Disconnected => "the engine exited",
                            IoFault::InputBlocked => "the engine does not read its input",
                        };
                        state(EngineState::Failed(why.into()), &caps);
                        return;
                    }
                }
                p.drain();
                let sent = p.send(&position).and_then(|_| p.send(&go));
                if sent.is_err() {
                    state(
                        EngineState::Failed("the engine closed its input".into()),
                        &caps,
                    );
                    return;
                }
                search = Some((id, limit.map(|l| Instant::now() + l + HANG_GRACE)));
                state(EngineState::Thinking, &caps);
            }
            Ok(EngineCmd::Stop) => {
                if let Some((id, deadline)) = search {
                    let _ = p.send("stop");
                    let by = Instant::now() + STOP_GRACE;
                    search = Some((id, Some(deadline.map_or(by, |d| d.min(by)))));
                }
            }
            Ok(EngineCmd::SetOption(name, value)) => {
                let _ = p.send(&format!("setoption name {name} value {value}"));
            }
            Ok(EngineCmd::Quit) | Err(TryRecvError::Disconnected) => {
                p.quit(Duration::from_millis(300));
                return;
            }
            Err(TryRecvError::Empty) => {}
        }
        if let Some((_, Some(deadline))) = search {
            if Instant::now() > deadline {
                p.kill();
                state(
                    EngineState::Failed("the engine did not answer in time and was stopped".into()),
                    &caps,
                );
                return;
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
                state(EngineState::Failed("the engine exited".into()), &caps);
                return;
            }
            Err(IoFault::InputBlocked) => {
                p.kill();
                let why = "the engine does not read its input";
                state(EngineState::Failed(why.into()), &caps);
                return;
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
        assert_eq!(caps.multipv_max, Some(64));
        assert!(caps.has_variant);
        read_option("option name", &mut caps);
    }
}
