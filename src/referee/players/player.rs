//! A player as the game sees it: an engine process or a built-in mover, behind one trait.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::referee::players::engine_process::{EngineProcess, IoFault};
use crate::referee::settings::{EngineConfig, Proto};
use crate::rules::position::Position;

/// A score as the engine reported it, from its own point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// As the engine wrote it: `cp 220`, `mate -3`.
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

impl Score {
    /// Centipawn-like value for adjudication (mates far beyond any evaluation).
    pub fn value(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

/// What the last `info` lines before `bestmove` said.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl SearchInfo {
    /// Takes the fields of one `info` line (other lines are ignored, and so are the lines of
    /// MultiPV after the first: the engine's word is its main line).
    pub fn update(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        let words: Vec<&str> = words.collect();
        let fields: Vec<&str> = words
            .iter()
            .copied()
            .take_while(|&w| w != "string")
            .collect();
        if (fields.windows(2)).any(|w| w[0] == "multipv" && w[1].parse().is_ok_and(|k: u32| k > 1))
        {
            return;
        }
        let mut i = 0;
        while i < words.len() {
            let next = words.get(i + 1);
            match words[i] {
                "string" => break,
                "depth" => {
                    if let Some(d) = next.and_then(|v| v.parse().ok()) {
                        self.depth = Some(d);
                    }
                }
                "nodes" => {
                    if let Some(n) = next.and_then(|v| v.parse().ok()) {
                        self.nodes = Some(n);
                    }
                }
                "score" => {
                    let value = words.get(i + 2).and_then(|v| v.parse().ok());
                    match (next.copied(), value) {
                        (Some("cp"), Some(v)) => self.score = Some(Score::Cp(v)),
                        (Some("mate"), Some(v)) => self.score = Some(Score::Mate(v)),
                        _ => {}
                    }
                    i += 1;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
    }
}

/// One answered `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move token as sent (may be anything: the game checks it).
    pub bestmove: String,
    pub go_sent: Instant,
    pub received: Instant,
    pub info: SearchInfo,
}

/// Why a player could not answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// Crash, exit or closed pipe; also a program that cannot be started.
    Disconnected(String),
    /// No `uciok`/`readyok` within its deadline.
    Stall(String),
    /// No `bestmove` before the deadline.
    Timeout { elapsed: Duration },
}

/// What a move request carries.
pub struct ThinkRequest<'a> {
    /// The full `position ...` command.
    pub position: &'a str,
    /// The full `go ...` command.
    pub go: &'a str,
    /// How long after `go` the move must have arrived.
    pub deadline: Duration,
    pub pos: &'a Position,
}

pub trait Player: Send {
    fn name(&self) -> &str;
    fn proto(&self) -> Proto;
    /// Gets ready for a new game (starting or restarting the engine if needed).
    fn new_game(&mut self, seed: u64) -> Result<(), Fault>;
    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, Fault>;
    /// After a fault: kill the engine, so the next game starts a fresh one.
    fn reset(&mut self);
    /// The process id of the running engine, if any.
    fn pid(&self) -> Option<u32>;
    /// Ends the engine politely at the end of the run.
    fn shutdown(&mut self) {}
}

/// Deadlines of the engine handshake.
#[derive(Copy, Clone, Debug)]
pub struct Timeouts {
    pub startup: Duration,
    pub ready: Duration,
}

/// An engine program.
pub struct EnginePlayer {
    cfg: EngineConfig,
    timeouts: Timeouts,
    process: Option<EngineProcess>,
}

impl EnginePlayer {
    pub fn new(cfg: EngineConfig, timeouts: Timeouts) -> EnginePlayer {
        EnginePlayer {
            cfg,
            timeouts,
            process: None,
        }
    }

    fn io_fault(&mut self, f: IoFault, waiting_for: &str) -> Fault {
        self.reset();
        match f {
            IoFault::Timeout => Fault::Stall(format!("no {waiting_for} in time")),
            IoFault::Disconnected => {
                Fault::Disconnected(format!("closed while waiting for {waiting_for}"))
            }
            IoFault::InputBlocked => Fault::Stall("does not read its input".into()),
        }
    }

    /// Starts the program, does the handshake and sends the options.
    fn start(&mut self) -> Result<(), Fault> {
        let mut p = EngineProcess::spawn(&self.cfg)
            .map_err(|e| Fault::Disconnected(format!("cannot start '{}': {e}", self.cfg.cmd)))?;
        // An engine gets as long to take a command as to answer `isready`.
        p.set_write_timeout(self.timeouts.ready);
        let hello = self.cfg.proto.name();
        let ok = format!("{hello}ok");
        let deadline = Instant::now() + self.timeouts.startup;
        let res = p
            .send(hello)
            .and_then(|_| p.wait_for(&ok, deadline, |_| {}).map(|_| ()));
        self.process = Some(p);
        res.map_err(|f| self.io_fault(f, &ok))?;
        let p = self.process.as_mut().expect("just started");
        for (name, value) in &self.cfg.options {
            if let Err(f) = p.send(&format!("setoption name {name} value {value}")) {
                return Err(self.io_fault(f, "options to be read"));
            }
        }
        Ok(())
    }

    fn ready(&mut self) -> Result<(), Fault> {
        let deadline = Instant::now() + self.timeouts.ready;
        let p = self.process.as_mut().expect("started");
        let res = p
            .send("isready")
            .and_then(|_| p.wait_for("readyok", deadline, |_| {}).map(|_| ()));
        res.map_err(|f| self.io_fault(f, "readyok"))
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.cfg.name
    }

    fn proto(&self) -> Proto {
        self.cfg.proto
    }

    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        let alive = self.process.as_mut().is_some_and(|p| p.is_running());
        if !alive {
            self.reset();
            self.start()?;
        }
        let newgame = format!("{}newgame", self.cfg.proto.name());
        let p = self.process.as_mut().expect("started");
        if p.send(&newgame).is_err() {
            return Err(self.io_fault(IoFault::Disconnected, "newgame"));
        }
        self.ready()
    }

    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, Fault> {
        let Some(p) = self.process.as_mut() else {
            return Err(Fault::Disconnected("not running".into()));
        };
        // Anything read before `go` is stale (e.g. a second bestmove): it must not answer it.
        p.drain();
        // Writes are bounded by the move's deadline too (an engine that stopped reading).
        let by = Instant::now() + req.deadline;
        let sent = p
            .send_by(req.position, by)
            .and_then(|_| p.send_by(req.go, by));
        let go_sent = match sent {
            Ok(t) => t,
            Err(f) => return Err(self.io_fault(f, "bestmove")),
        };
        let mut info = SearchInfo::default();
        match p.wait_for("bestmove", go_sent + req.deadline, |l| info.update(l)) {
            Ok((received, line)) => Ok(Reply {
                bestmove: line.split_whitespace().nth(1).unwrap_or("").to_string(),
                go_sent,
                received,
                info,
            }),
            Err(IoFault::Timeout) => {
                let elapsed = go_sent.elapsed();
                self.reset();
                Err(Fault::Timeout { elapsed })
            }
            Err(f) => Err(self.io_fault(f, "bestmove")),
        }
    }

    fn reset(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.pid())
    }

    fn shutdown(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.quit(Duration::from_millis(500));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_depth_nodes() {
        let mut s = SearchInfo::default();
        s.update("info depth 5 seldepth 9 score cp -31 nodes 1234 nps 99 pv a1b2c3");
        assert_eq!(
            s,
            SearchInfo {
                score: Some(Score::Cp(-31)),
                depth: Some(5),
                nodes: Some(1234)
            }
        );
        s.update("info depth 6 score mate 3 upperbound");
        assert_eq!(s.score, Some(Score::Mate(3)));
        // A second MultiPV line is not the engine's score.
        s.update("info depth 7 multipv 2 score cp -90 nodes 2000");
        assert_eq!((s.depth, s.score), (Some(6), Some(Score::Mate(3))));
        assert_eq!(s.depth, Some(6));
        assert_eq!(s.nodes, Some(1234));
        // Strings and junk change nothing.
        s.update("info string depth 99 score cp 7");
        s.update("info depth x score cp");
        s.update("bestmove foo");
        assert_eq!(s.depth, Some(6));
        assert_eq!(s.score, Some(Score::Mate(3)));
        assert!(Score::Mate(2).value() > Score::Cp(5000).value());
        assert_eq!(
            (Score::Cp(220).to_string(), Score::Mate(-3).to_string()),
            ("cp 220".into(), "mate -3".into())
        );
        assert!(Score::Mate(-2).value() < Score::Cp(-5000).value());
    }
}
