//! The protocol state machine: a pure function of (state, command) to effects.
//!
//! The session holds what the protocol defines (position, options, handshake, whether a search
//! runs) and answers every command with [`Effect`]s: lines to print now, work for the search
//! worker (done in order), and signals for the running search. It does no I/O and starts no
//! thread, so it is tested without processes; `uci.rs` carries the effects out.
//!
//! Answers come in the order of the commands that asked for them: a line that answers a
//! command goes through the worker's queue ([`Work::Print`]), behind the work of earlier
//! commands, unless a search is running (a `go` not yet stopped): then every answer is printed
//! at once, as `isready` is, since the search's own answer waits for its end. `stop`,
//! `ponderhit` and `quit` always act at once.

use std::sync::Arc;
use std::time::Duration;

use crate::engine::protocol::command::{quote, Command, GoParams, Parsed, Query, Setup};
use crate::engine::protocol::fmt;
use crate::engine::protocol::options::{self, Change, OptionValues};
use crate::engine::search::bench;
use crate::engine::search::evaluate;
use crate::engine::search::nnue::{self, Accumulator, Network};
use crate::engine::search::SearchMode;
use crate::engine::types::Limits;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::piece::Colour;
use crate::rules::position::{Position, Variant};

pub const ENGINE_NAME: &str = concat!("Punct ", env!("PUNCT_VERSION"));
pub const ENGINE_AUTHOR: &str = "the PUNCT project";

/// Which handshake the client used (it decides `uciok`/`ugiok` and the `ponder` token).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Handshake {
    None,
    Uci,
    Ugi,
}

/// One search to run on the worker.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// Tells this search's end apart from an earlier one's.
    pub id: u64,
    pub pos: Position,
    pub limits: Limits,
    /// `go ponder`: time does not run until `ponderhit`.
    pub ponder: bool,
    /// After a `ugi` handshake `bestmove` has no `ponder` token.
    pub omit_ponder: bool,
}

/// Work for the search worker, done in the order given.
#[derive(Clone, Debug)]
pub enum Work {
    Search(Box<SearchJob>),
    Perft {
        pos: Box<Position>,
        depth: u32,
    },
    Bench {
        depth: u32,
    },
    /// Print `readyok` (after all earlier work).
    Ready,
    /// Print these lines (after all earlier work).
    Print(Vec<String>),
    /// Forget the hash table and histories.
    Clear,
    SetHash(usize),
    SetThreads(usize),
    SetSeed(u64),
    SetSearchMode(SearchMode),
    SetParam(&'static str, i32),
    /// The evaluation: a network, or `None` for the hand evaluation (`EvalFile`).
    SetNet(Option<Arc<Network>>),
}

impl Work {
    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Work::Search(_) => "search",
            Work::Perft { .. } => "perft",
            Work::Bench { .. } => "bench",
            Work::Ready => "isready",
            Work::Print(_) => "output",
            Work::Clear => "clear",
            Work::SetHash(_) => "Hash",
            Work::SetThreads(_) => "Threads",
            Work::SetSeed(_) => "Seed",
            Work::SetSearchMode(_) => "SearchMode",
            Work::SetParam(..) => "setoption",
            Work::SetNet(_) => "EvalFile",
        }
    }
}

/// What the engine must do in answer to a command.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Print this line now.
    Print(String),
    /// Queue work for the worker.
    Work(Work),
    /// Stop whatever the worker is running (a no-op when idle).
    Stop,
    /// The ponder move was played: the running search may now use its clock.
    PonderHit,
    /// Start (or stop, with `None`) copying all input and output to this file.
    SetLogFile(Option<String>),
    Quit,
}

/// The search the session started and has not seen end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct ActiveSearch {
    id: u64,
    pondering: bool,
    stopped: bool,
}

/// The protocol state.
#[derive(Clone, Debug)]
pub struct Session {
    position: Position,
    options: OptionValues,
    handshake: Handshake,
    debug: bool,
    search: Option<ActiveSearch>,
    next_id: u64,
    /// The network `EvalFile` loaded (`None`: the hand evaluation), for `eval`.
    net: Option<Arc<Network>>,
}

/// The search threads for `Threads` `n`: no more than the machine's hardware threads. Beyond
/// them the main thread waits for a core behind its helpers and overruns its time (measured:
/// `Threads` 64 on 2 cores, `go movetime 300` took 718 ms and `stop` 341 ms).
fn threads_in_use(n: usize, out: &mut Vec<Effect>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n <= cores {
        return n;
    }
    out.push(print(format!(
        "info string Threads {n} is more than the {cores} hardware threads: searching with {cores}"
    )));
    cores
}

/// An error line; the message may quote input or a reason from the rules library that quotes
/// it, so control characters are escaped (newlines too: one error, one line).
fn error(msg: impl std::fmt::Display) -> Effect {
    let msg = msg.to_string().replace('\n', "\\n");
    Effect::Print(format!("info string error: {}", fmt::escape_controls(&msg)))
}

fn print(line: impl Into<String>) -> Effect {
    Effect::Print(line.into())
}

const HELP: &[&str] = &[
    "uci | ugi                         handshake: id, options, uciok | ugiok",
    "isready                           readyok once earlier commands took effect",
    "setoption name <N> [value <V>]    set an option (uci lists them)",
    "ucinewgame | uginewgame           new game: clear hash and histories, start position",
    "position startpos|fen <P S N> [moves <m>...]   set the position (all or nothing)",
    "go [wtime|p1time <ms>] [btime|p2time <ms>] [winc|p1inc <ms>] [binc|p2inc <ms>]",
    "   [movestogo <n>] [movetime <ms>] [depth <n>] [nodes <n>] [mate <n>] [infinite]",
    "   [ponder] [searchmoves <m>...]  search; ends with one bestmove line",
    "go perft <n> | perft <n>          count move paths, split by first move",
    "stop | ponderhit | quit           end the search / the ponder move was played / exit",
    "debug on|off                      extra info strings",
    "d | showboard                     draw the board and the position details",
    "moves | legal                     the legal moves on one line",
    "eval                              the evaluation term by term",
    "bench [depth]                     fixed search of fixed positions: nodes and nps",
    "query gameover|p1turn|result|islegal <m>|fen   answered by: response <answer>",
    "help                              this list",
];

impl Session {
    pub fn new(variant: Variant) -> Session {
        let options = OptionValues {
            variant,
            ..OptionValues::default()
        };
        Session {
            position: Position::new(variant),
            options,
            handshake: Handshake::None,
            debug: false,
            search: None,
            next_id: 1,
            net: nnue::default_net(),
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn options(&self) -> &OptionValues {
        &self.options
    }

    pub fn handshake(&self) -> Handshake {
        self.handshake
    }

    /// Whether a search was started and has not reported its end yet.
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// The worker finished search `id` (its `bestmove` is out).
    pub fn search_done(&mut self, id: u64) {
        if self.search.is_some_and(|s| s.id == id) {
            self.search = None;
        }
    }

    /// Whether a search is running and not stopped: then answers are printed at once (they
    /// would otherwise wait for the search's end); else they queue behind earlier work.
    pub fn answers_at_once(&self) -> bool {
        self.search.is_some_and(|s| !s.stopped)
    }

    /// The effects of a line that could not be parsed.
    pub fn bad_line(&self, message: &str) -> Vec<Effect> {
        self.in_order(vec![error(message)], self.answers_at_once())
    }

    /// Lines to print become work for the worker (consecutive lines as one), so that they come
    /// after the answers of earlier commands, unless `at_once`.
    fn in_order(&self, effects: Vec<Effect>, at_once: bool) -> Vec<Effect> {
        if at_once {
            return effects;
        }
        let mut out: Vec<Effect> = Vec::with_capacity(effects.len());
        for effect in effects {
            match (effect, out.last_mut()) {
                (Effect::Print(line), Some(Effect::Work(Work::Print(lines)))) => lines.push(line),
                (Effect::Print(line), _) => out.push(Effect::Work(Work::Print(vec![line]))),
                (other, _) => out.push(other),
            }
        }
        out
    }

    /// The effects of one parsed command.
    pub fn handle(&mut self, parsed: Parsed) -> Vec<Effect> {
        // Decided before the command: a `go` queues its complaints ahead of its search, a
        // `stop` of a running search prints at once whatever it prints.
        let at_once = self.answers_at_once();
        let out = self.effects(parsed);
        self.in_order(out, at_once)
    }

    fn effects(&mut self, parsed: Parsed) -> Vec<Effect> {
        let mut out: Vec<Effect> = parsed.warnings.iter().map(error).collect();
        match parsed.command {
            Command::Uci => self.greet(Handshake::Uci, &mut out),
            Command::Ugi => self.greet(Handshake::Ugi, &mut out),
            Command::IsReady => out.push(match self.search {
                Some(s) if !s.stopped => print("readyok"),
                _ => Effect::Work(Work::Ready),
            }),
            Command::Debug(on) => self.debug = on,
            Command::SetOption { name, value } => {
                self.set_option(&name, value.as_deref(), &mut out)
            }
            Command::NewGame => {
                self.position = Position::new(self.options.variant);
                out.push(Effect::Work(Work::Clear));
            }
            Command::Position { setup, moves } => match self.build_position(&setup, &moves) {
                Ok(pos) => {
                    if self.debug {
                        out.push(print(format!("info string position {pos}")));
                    }
                    self.position = pos;
                }
                Err(e) => out.push(error(e)),
            },
            Command::Go(go) => self.go(&go, &mut out),
            Command::Perft(depth) => out.push(Effect::Work(Work::Perft {
                pos: Box::new(self.position.clone()),
                depth,
            })),
            Command::Stop => {
                if let Some(s) = &mut self.search {
                    s.stopped = true;
                } else if self.debug {
                    out.push(print("info string stop: no search is running"));
                }
                out.push(Effect::Stop);
            }
            Command::PonderHit => match &mut self.search {
                Some(s) if s.pondering && !s.stopped => {
                    s.pondering = false;
                    out.push(Effect::PonderHit);
                }
                _ if self.debug => out.push(print("info string ponderhit: not pondering")),
                _ => {}
            },
            Command::Quit => out.push(Effect::Quit),
            Command::Display => out.push(print(fmt::board_drawing(&self.position))),
            Command::Moves => {
                let mut moves: Vec<String> = self
                    .position
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                moves.sort();
                let mut line = String::from("moves");
                for m in moves {
                    line.push(' ');
                    line.push_str(&m);
                }
                out.push(print(line));
            }
            Command::Eval => self.eval(&mut out),
            Command::Bench(depth) => out.push(Effect::Work(Work::Bench {
                depth: depth.unwrap_or(bench::DEFAULT_DEPTH),
            })),
            Command::Query(q) => out.push(self.query(&q)),
            Command::Help => out.extend(HELP.iter().map(|l| print(*l))),
        }
        out
    }

    fn greet(&mut self, kind: Handshake, out: &mut Vec<Effect>) {
        self.handshake = kind;
        out.push(print(format!("id name {ENGINE_NAME}")));
        out.push(print(format!("id author {ENGINE_AUTHOR}")));
        for spec in options::specs() {
            out.push(print(options::option_line(&spec)));
        }
        out.push(print(match kind {
            Handshake::Ugi => "ugiok",
            _ => "uciok",
        }));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, out: &mut Vec<Effect>) {
        if name.trim().eq_ignore_ascii_case(options::EVAL_FILE) {
            // Loaded here, so that a bad file changes nothing.
            match nnue::from_option(value.unwrap_or("")) {
                Err(e) => out.push(error(format!(
                    "setoption: EvalFile: {e}; EvalFile keeps its value {}",
                    quote(&self.options.eval_file)
                ))),
                Ok(net) => {
                    let _ = self.options.set(name, value);
                    self.net = net.clone();
                    out.push(Effect::Work(Work::SetNet(net)));
                }
            }
            return;
        }
        match self.options.set(name, value) {
            Err(e) => out.push(error(format!("setoption: {e}"))),
            Ok(Change::Threads(n)) => {
                let n = threads_in_use(n, out);
                out.push(Effect::Work(Work::SetThreads(n)));
            }
            Ok(change) => out.extend(match change {
                Change::Hash(mb) => Some(Effect::Work(Work::SetHash(mb))),
                Change::Threads(_) => unreachable!("handled above"),
                Change::Seed(s) => Some(Effect::Work(Work::SetSeed(s))),
                Change::SearchMode(m) => Some(Effect::Work(Work::SetSearchMode(m))),
                Change::Param(name, v) => Some(Effect::Work(Work::SetParam(name, v))),
                Change::ClearHash => Some(Effect::Work(Work::Clear)),
                Change::DebugLogFile(path) => Some(Effect::SetLogFile(path)),
                Change::Variant(v) => {
                    // Positions are read under the variant: start over in the new one.
                    self.position = Position::new(v);
                    None
                }
                Change::MoveOverhead
                | Change::Ponder
                | Change::MultiPv
                | Change::EvalFile(_)
                | Change::Strength => None,
            }),
        }
    }

    /// Reads a `position` command, all or nothing.
    fn build_position(&self, setup: &Setup, moves: &[String]) -> Result<Position, String> {
        let variant = self.options.variant;
        let mut pos = match setup {
            Setup::StartPos => Position::new(variant),
            Setup::Fen(text) => parse_position(text, variant)
                .map_err(|e| format!("position not changed: bad position {}: {e}", quote(text)))?,
        };
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(text).map_err(|e| {
                format!(
                    "position not changed: move {} {} cannot be read: {e}",
                    i + 1,
                    quote(text)
                )
            })?;
            pos.play(mv).map_err(|e| {
                format!(
                    "position not changed: move {} {} is illegal: {e}",
                    i + 1,
                    quote(text)
                )
            })?;
        }
        Ok(pos)
    }

    /// The `Limits` of a `go` for the current position; complaints go to `out`.
    pub fn limits(&self, go: &GoParams, out: &mut Vec<Effect>) -> Limits {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let (time, inc) = match self.position.side_to_move() {
            Colour::White => (go.wtime, go.winc),
            Colour::Black => (go.btime, go.binc),
        };
        let mate_depth = go.mate.map(|m| m.max(1).saturating_mul(2) - 1);
        let depth = match (go.depth, mate_depth) {
            (Some(d), Some(m)) => Some(d.min(m)),
            (d, m) => d.or(m),
        };
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match parse_move(text) {
                Err(e) => out.push(error(format!(
                    "go: searchmoves {} ignored: cannot be read: {e}",
                    quote(text)
                ))),
                Ok(mv) => match self.position.check_move(mv) {
                    Err(e) => out.push(error(format!(
                        "go: searchmoves {} ignored: illegal: {e}",
                        quote(text)
                    ))),
                    Ok(()) if !searchmoves.contains(&mv) => searchmoves.push(mv),
                    Ok(()) => {}
                },
            }
        }
        if searchmoves.is_empty() && !go.searchmoves.is_empty() {
            out.push(error(
                "go: no legal move in searchmoves; searching all moves",
            ));
        }
        Limits {
            depth: depth.map(|d| d.max(1)),
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            time_left: time.map(ms),
            increment: inc.map(ms).unwrap_or_default(),
            movestogo: go.movestogo.filter(|&n| n > 0),
            infinite: go.infinite,
            searchmoves,
            multipv: self.options.multipv,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
            received: None,
            level: self.options.level(),
        }
    }

    fn go(&mut self, go: &GoParams, out: &mut Vec<Effect>) {
        if self.search.is_some_and(|s| !s.stopped) {
            out.push(print(
                "info string warning: go while searching: the running search is stopped first",
            ));
            out.push(Effect::Stop);
        }
        if let Some(outcome) = self.position.outcome() {
            // Through the worker, so that it comes after any earlier bestmove.
            out.push(Effect::Work(Work::Print(vec![
                format!("info string game over: {outcome}"),
                fmt::bestmove_line(None, None),
            ])));
            return;
        }
        let limits = self.limits(go, out);
        if let Some(level) = limits.level {
            out.push(print(fmt::level_line(level, self.options.limit_strength)));
        }
        if self.debug {
            out.push(print(format!("info string go {limits:?}")));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.search = Some(ActiveSearch {
            id,
            pondering: go.ponder,
            stopped: false,
        });
        out.push(Effect::Work(Work::Search(Box::new(SearchJob {
            id,
            pos: self.position.clone(),
            limits,
            ponder: go.ponder,
            omit_ponder: self.handshake == Handshake::Ugi,
        }))));
    }

    fn eval(&self, out: &mut Vec<Effect>) {
        let pos = &self.position;
        let params = &self.options.params;
        let side = pos.side_to_move().name();
        for (term, value) in evaluate::trace(pos, params) {
            out.push(print(format!("eval {term} {value}")));
        }
        out.push(print(format!(
            "eval total {} ({side} to move's point of view)",
            evaluate::evaluate(pos, params)
        )));
        let (net, what) = match &self.net {
            Some(net) => (net.clone(), "the search uses it"),
            None => (
                nnue::embedded(),
                "the embedded network; the search uses the hand evaluation",
            ),
        };
        out.push(print(format!(
            "eval net {} (EvalFile {}: {} hidden units; {what})",
            nnue::evaluate(&net, &mut Accumulator::new(), pos, params),
            self.options.eval_file,
            net.hidden
        )));
        if let Some(o) = pos.outcome() {
            out.push(print(format!("info string game over: {o}")));
        }
    }

    fn query(&self, q: &Query) -> Effect {
        let pos = &self.position;
        let answer = match q {
            Query::GameOver => pos.is_finished().to_string(),
            Query::P1Turn => (pos.side_to_move() == Colour::White).to_string(),
            Query::Result => fmt::ugi_result(pos.outcome()).to_string(),
            Query::Fen => pos.to_string(),
            Query::IsLegal(text) => parse_move(text)
                .is_ok_and(|mv| pos.check_move(mv).is_ok())
                .to_string(),
        };
        print(format!("response {answer}"))
    }
}

#[cfg(test)]
mod tests;
