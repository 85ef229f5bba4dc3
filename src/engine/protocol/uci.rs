//! The engine process: a reader thread, the protocol loop and a search worker thread.
//!
//! - The reader thread reads stdin as bytes (lines capped at [`MAX_LINE`], decoded lossily) and
//!   only ever waits for input.
//! - The loop thread parses each line, feeds the [`Session`] and carries out its effects: prints,
//!   signals the running search through its [`SearchControl`], queues work for the worker.
//! - The worker owns the [`Searcher`] and does its work in order, so `readyok` and the other
//!   answers (queued as work unless a search is running) come only after every earlier command
//!   took effect and in the order of the commands.
//!
//! Every stoppable job gets a fresh `SearchControl` made by the loop before it is queued: a
//! `stop` sent right after `go` always reaches that search, and never an older or newer one.
//!
//! Answers the session gives at once during a search ([`Held`]) wait until the worker has
//! started every queued search: the work queued before the search (its lines included) is then
//! done, so an answer never overtakes the answer of an earlier command.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, unbounded, Receiver, Sender};

use crate::engine::protocol::answer::{Answer, Offer, Watch};
use crate::engine::protocol::command::parse_line;
use crate::engine::protocol::fmt;
use crate::engine::protocol::session::{Effect, SearchJob, Session, Work};
use crate::engine::search::bench;
use crate::engine::search::params::Params;
use crate::engine::search::Searcher;
use crate::engine::types::{lock, Bound, SearchControl, SearchInfo, SearchResult};
use crate::rules::moves::Move;
use crate::rules::perft::perft;
use crate::rules::position::{Position, Variant};

/// Longest input line accepted, in bytes; longer lines are dropped with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Least time between two `info` lines of the same iteration.
const INFO_INTERVAL: Duration = Duration::from_millis(100);

/// How long `quit` waits for the worker to wind down before exiting anyway.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The protocol output (stdout) and the optional debug log, shared by the loop and the worker.
pub struct Output {
    inner: Mutex<OutputInner>,
}

struct OutputInner {
    out: Box<dyn Write + Send>,
    log: Option<File>,
}

impl Output {
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Mutex::new(OutputInner { out, log: None }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, OutputInner> {
        lock(&self.inner)
    }

    /// Prints one line (or several joined by newlines) and flushes. Other control characters
    /// are escaped, whatever their source.
    pub fn line(&self, text: &str) {
        let text = fmt::escape_controls(text);
        let mut inner = self.lock();
        // A closed stdout is not worth dying for: the loop ends at EOF of stdin anyway.
        let _ = writeln!(inner.out, "{text}");
        let _ = inner.out.flush();
        if let Some(log) = &mut inner.log {
            for l in text.split('\n') {
                let _ = writeln!(log, "<< {l}");
            }
        }
    }

    /// Copies an input line to the debug log.
    pub fn input(&self, text: &str) {
        if let Some(log) = &mut self.lock().log {
            let _ = writeln!(log, ">> {text}");
        }
    }

    /// Starts (appending) or stops the debug log.
    pub fn set_log(&self, path: Option<&str>) -> Result<(), String> {
        let file = match path {
            None => None,
            Some(p) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("cannot open debug log file '{p}': {e}"))?,
            ),
        };
        self.lock().log = file;
        Ok(())
    }
}

/// One line of input as the reader delivers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length), dropped.
    TooLong(usize),
    Eof,
}

/// Reads one line of at most `cap` bytes; longer lines are consumed and reported by length.
/// Never fails on bytes that are not UTF-8 (they become U+FFFD).
pub fn read_line_capped(r: &mut impl BufRead, cap: usize) -> io::Result<InputLine> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            if len == 0 {
                return Ok(InputLine::Eof);
            }
            break;
        }
        let (piece, used, end) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        len += piece.len();
        if len <= cap {
            buf.extend_from_slice(piece);
        } else {
            buf = Vec::new();
        }
        r.consume(used);
        if end {
            break;
        }
    }
    if len > cap {
        return Ok(InputLine::TooLong(len));
    }
    let text = String::from_utf8_lossy(&buf);
    Ok(InputLine::Line(text.trim_end_matches('\r').to_string()))
}

/// Reads stdin on its own thread; each line goes out with the moment it was read (the clock of
/// a `go` runs from then).
fn spawn_reader(input: impl Read + Send + 'static, tx: Sender<(InputLine, Instant)>) {
    let spawned = thread::Builder::new().name("reader".into()).spawn(move || {
        let mut r = BufReader::with_capacity(1 << 16, input);
        loop {
            let line = read_line_capped(&mut r, MAX_LINE).unwrap_or_else(|e| {
                log::warn!("stdin: {e}");
                InputLine::Eof
            });
            let eof = line == InputLine::Eof;
            if tx.send((line, Instant::now())).is_err() || eof {
                return;
            }
        }
    });
    if let Err(e) = spawned {
        log::error!("cannot start the reader thread: {e}");
    }
}

/// Prints `info` lines from the search's reports: every new depth and every completed one,
/// else at most one line per [`INFO_INTERVAL`]; MultiPV lines go with their first line. A main line (`multipv 1`) that
/// would say nothing the last one printed did not (see [`same_but_the_clock`]) is not printed.
struct InfoThrottle {
    last_print: Option<Instant>,
    /// The depth of the last main line printed, and whether it was a completed iteration's.
    last_stage: (u32, bool),
    printing_batch: bool,
    latest: Option<SearchInfo>,
    /// The last main line printed.
    printed: Option<SearchInfo>,
}

impl InfoThrottle {
    fn new() -> InfoThrottle {
        InfoThrottle {
            last_print: None,
            last_stage: (0, false),
            printing_batch: false,
            latest: None,
            printed: None,
        }
    }

    /// Prints the line if it is due; whether it was printed.
    fn report(&mut self, info: &SearchInfo, out: &Output) -> bool {
        if info.multipv > 1 {
            if self.printing_batch {
                self.print(info, out);
            }
            return self.printing_batch;
        }
        self.latest = Some(info.clone());
        let now = Instant::now();
        let stage = (info.depth, info.bound == Bound::Exact);
        let due = stage != self.last_stage
            || self
                .last_print
                .is_none_or(|t| now.duration_since(t) >= INFO_INTERVAL);
        self.printing_batch = due && self.is_news(info);
        if self.printing_batch {
            self.last_print = Some(now);
            self.last_stage = stage;
            self.print(info, out);
        }
        self.printing_batch
    }

    /// Whether `info` says more than the last main line printed.
    fn is_news(&self, info: &SearchInfo) -> bool {
        self.printed
            .as_ref()
            .is_none_or(|p| !same_but_the_clock(p, info))
    }

    fn print(&mut self, info: &SearchInfo, out: &Output) {
        out.line(&fmt::info_line(info));
        if info.multipv == 1 {
            self.printed = Some(info.clone());
        }
    }
}

/// Two lines that differ at most in time, nps and hashfull: the second one is a repeat (as
/// the final line of a search whose last iteration was just printed, its nodes unchanged).
fn same_but_the_clock(a: &SearchInfo, b: &SearchInfo) -> bool {
    SearchInfo {
        time: b.time,
        hashfull: b.hashfull,
        ..a.clone()
    } == *b
}

/// Lines to print at once, held while a search queued before them has not started (the
/// worker is still busy with the work queued before it, whose output must come first).
#[derive(Default)]
struct Held {
    /// Searches queued so far, and of those the ones the worker has started.
    queued: u64,
    started: u64,
    /// Each held line with the number of searches queued before it.
    lines: Vec<(u64, String)>,
}

/// The [`Held`] lines, shared by the loop and the worker.
#[derive(Clone, Default)]
struct HeldLines(Arc<Mutex<Held>>);

impl HeldLines {
    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        lock(&self.0)
    }

    /// Prints the line now, or holds it until the searches queued before it have started.
    fn print(&self, out: &Output, line: &str) {
        let mut held = self.lock();
        if held.started < held.queued {
            let after = held.queued;
            held.lines.push((after, line.to_string()));
        } else {
            out.line(line);
        }
    }

    /// The loop queues a search (called before the worker can see it).
    fn search_queued(&self) {
        self.lock().queued += 1;
    }

    /// The worker starts a search: the lines that waited only for it (and the searches
    /// before it) go out, in order. A line of a later command waits for its own searches.
    fn search_started(&self, out: &Output) {
        let mut held = self.lock();
        held.started += 1;
        let started = held.started;
        let ready = held
            .lines
            .iter()
            .take_while(|(after, _)| *after <= started)
            .count();
        for (_, line) in held.lines.drain(..ready) {
            out.line(&line);
        }
    }
}

/// What the worker holds between jobs.
struct Worker {
    searcher: Searcher,
    /// The settings, to rebuild the searcher after an internal failure.
    hash_mb: usize,
    threads: usize,
    seed: u64,
    search_mode: crate::engine::search::SearchMode,
    params: Params,
    net: Option<Arc<crate::engine::search::nnue::Network>>,
    out: Arc<Output>,
    wake: Receiver<()>,
    done: Sender<u64>,
    quitting: Arc<AtomicBool>,
    held: HeldLines,
}

impl Worker {
    fn run(mut self, jobs: Receiver<Job>) {
        for Job { work, ctl, answer } in jobs {
            // After quit, queued searches still answer, but at once.
            if self.quitting.load(Ordering::SeqCst) {
                ctl.stop.store(true, Ordering::SeqCst);
            }
            let what = work.name();
            // What a search owes its client even if it fails: one legal bestmove.
            let owed = match &work {
                Work::Search(job) => Some((job.id, job.pos.legal_moves().first().copied())),
                _ => None,
            };
            if catch_unwind(AssertUnwindSafe(|| self.work(work, &ctl, &answer))).is_err() {
                answer.while_open(|state| {
                    self.out.line(&format!(
                        "info string error: internal failure in {what}; recovered"
                    ));
                    if let Some((id, best)) = owed {
                        let _ = self.done.send(id);
                        self.out.line(&fmt::bestmove_line(best, None));
                    }
                    state.answer();
                });
                self.rebuild();
            }
        }
    }

    /// A fresh searcher with the current settings (after a panic left the old one unknown).
    fn rebuild(&mut self) {
        self.searcher = Searcher::new(self.hash_mb);
        self.searcher.set_threads(self.threads);
        self.searcher.set_seed(self.seed);
        self.searcher.set_mode(self.search_mode);
        *self.searcher.params_mut() = self.params.clone();
        self.searcher.set_net(self.net.clone());
    }

    fn work(&mut self, work: Work, ctl: &SearchControl, answer: &Answer) {
        match work {
            Work::Search(job) => self.search(job, ctl, answer),
            Work::Perft { pos, depth } => self.perft(pos, depth, ctl),
            Work::Bench { depth } => {
                let report = bench::run(&mut self.searcher, depth);
                for l in fmt::bench_lines(&report, depth) {
                    self.out.line(&l);
                }
            }
            Work::Ready => self.out.line("readyok"),
            Work::Print(lines) => lines.iter().for_each(|l| self.out.line(l)),
            Work::Clear => self.searcher.clear(),
            Work::SetHash(mb) => {
                self.hash_mb = mb;
                self.searcher.set_hash_size(mb);
            }
            Work::SetThreads(n) => {
                self.threads = n;
                self.searcher.set_threads(n);
            }
            Work::SetSeed(s) => {
                self.seed = s;
                self.searcher.set_seed(s);
            }
            Work::SetSearchMode(mode) => {
                self.search_mode = mode;
                self.searcher.set_mode(mode);
            }
            Work::SetNet(net) => {
                self.net = net.clone();
                self.searcher.set_net(net);
            }
            Work::SetParam(name, v) => match self.params.set(name, v) {
                Ok(()) => *self.searcher.params_mut() = self.params.clone(),
                Err(e) => self.out.line(&format!("info string error: {e}")),
            },
        }
    }

    fn perft(&mut self, mut pos: Box<Position>, depth: u32, ctl: &SearchControl) {
        let mut total = if depth == 0 { 1 } else { 0 };
        if depth > 0 {
            let mut moves = pos.legal_moves();
            moves.sort_by_cached_key(|m| m.to_string());
            for mv in moves {
                if ctl.stopped() {
                    self.out.line("info string perft stopped");
                    break;
                }
                pos.make(mv);
                let n = perft(&mut pos, depth - 1);
                pos.unmake();
                total += n;
                self.out.line(&format!("{mv}: {n}"));
            }
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
    }

    /// Runs the search and answers it, unless the loop's watchdog has (then nothing more of
    /// it is printed).
    fn search(&mut self, job: Box<SearchJob>, ctl: &SearchControl, answer: &Answer) {
        self.held.search_started(&self.out);
        while self.wake.try_recv().is_ok() {}
        let mut throttle = InfoThrottle::new();
        let out = Arc::clone(&self.out);
        let searched = catch_unwind(AssertUnwindSafe(|| {
            self.searcher
                .search(&job.pos, &job.limits, ctl, &mut |info| {
                    answer.while_open(|state| {
                        let printed = throttle.report(info, &out);
                        if let Some(offer) = Offer::of(&job.pos, info, job.omit_ponder, printed) {
                            state.offer(offer);
                        }
                    });
                })
        }));
        let result = match searched {
            Ok(r) => Some(r),
            Err(_) => {
                self.out
                    .line("info string error: the search failed; playing a legal move");
                self.rebuild();
                None
            }
        };
        // `go infinite` and `go ponder` never end on their own: hold the answer.
        while !ctl.stopped() && (ctl.is_pondering() || job.limits.infinite) {
            let _ = self.wake.recv_timeout(Duration::from_millis(50));
        }
        let (best, ponder) =
            checked_moves(&job, result.as_ref(), throttle.latest.as_ref(), &self.out);
        let info = final_info(
            result.as_ref(),
            throttle.latest.take(),
            best,
            ponder,
            self.searcher.hashfull(),
        );
        let ponder = if job.omit_ponder { None } else { ponder };
        // The final line, unless the last main line said it all already (no repeated line;
        // with MultiPV the lines of the last batch then stand, as Stockfish leaves them).
        let news = throttle.is_news(&info);
        let answered = answer.while_open(|state| {
            if let Some(line) = result.as_ref().and_then(|r| fmt::visits_line(&r.visits)) {
                self.out.line(&line);
            }
            if news {
                self.out.line(&fmt::info_line(&info));
            }
            // Told before the client can see bestmove, so a `go` sent in answer to it never
            // finds this search still running.
            let _ = self.done.send(job.id);
            self.out.line(&fmt::bestmove_line(best, ponder));
            state.answer();
        });
        if !answered {
            // The watchdog answered: the loop knows the search is over; the worker is free.
            let _ = self.done.send(job.id);
            log::debug!("search {} answered by the watchdog", job.id);
        }
    }
}

/// The best and ponder moves, made safe: a best move that is missing or illegal (a search bug)
/// is replaced by a legal one, and a ponder move must be legal after it.
fn checked_moves(
    job: &SearchJob,
    result: Option<&SearchResult>,
    latest: Option<&SearchInfo>,
    out: &Output,
) -> (Option<Move>, Option<Move>) {
    let pos = &job.pos;
    let mut best = result.and_then(|r| r.best);
    if best.is_none_or(|m| pos.check_move(m).is_err()) {
        let fallback = job
            .limits
            .searchmoves
            .first()
            .copied()
            .or_else(|| pos.legal_moves().first().copied());
        if let (Some(bad), Some(_)) = (best, fallback) {
            out.line(&format!(
                "info string error: the search chose the illegal move {bad}; playing a legal move"
            ));
        }
        best = fallback;
    }
    let ponder = best.and_then(|b| {
        // The reply in the last reported line of the best move (so that the final info's PV
        // and bestmove agree), else the search's own ponder move.
        let from_pv = latest
            .filter(|i| i.pv.first() == Some(&b))
            .and_then(|i| i.pv.get(1).copied());
        let p = from_pv.or(result.and_then(|r| r.ponder))?;
        let mut after = pos.clone();
        after.make(b);
        after.check_move(p).is_ok().then_some(p)
    });
    (best, ponder)
}

/// One piece of work for the worker, with the control and the answer of its search.
struct Job {
    work: Work,
    ctl: Arc<SearchControl>,
    answer: Arc<Answer>,
}

/// The `info` line sent just before `bestmove`: the search's totals, its exact score, and a PV
/// that starts with the best move.
fn final_info(
    result: Option<&SearchResult>,
    latest: Option<SearchInfo>,
    best: Option<Move>,
    ponder: Option<Move>,
    hashfull: u32,
) -> SearchInfo {
    let mut info = latest.unwrap_or(SearchInfo {
        depth: 0,
        seldepth: 0,
        multipv: 1,
        score: crate::engine::types::Score::Cp(0),
        bound: Bound::Exact,
        nodes: 0,
        time: Duration::ZERO,
        hashfull,
        pv: Vec::new(),
    });
    let reported = !info.pv.is_empty() && info.pv.first().copied() == best;
    if let Some(r) = result {
        // The last report for the best move is the last complete word on its score; the
        // result's own score is used when no report shows that move.
        if !reported {
            // Never below a depth already shown.
            info.depth = info.depth.max(r.depth);
            info.seldepth = info.seldepth.max(r.depth);
            info.score = r.score;
            info.bound = Bound::Exact;
        }
        info.nodes = r.nodes;
        info.time = r.time;
    }
    info.multipv = 1;
    info.hashfull = hashfull;
    if !reported {
        info.pv = best.into_iter().chain(ponder).collect();
    }
    info
}

/// Runs the engine on stdin/stdout until `quit` or end of input; returns the exit status.
pub fn run(variant: Variant) -> i32 {
    run_with(variant, io::stdin(), Box::new(io::stdout()))
}

/// The engine loop on any input and output.
pub fn run_with(
    variant: Variant,
    input: impl Read + Send + 'static,
    output: Box<dyn Write + Send>,
) -> i32 {
    let out = Arc::new(Output::new(output));
    let (line_tx, line_rx) = unbounded();
    spawn_reader(input, line_tx);

    let (job_tx, job_rx) = unbounded::<Job>();
    let (wake_tx, wake_rx) = unbounded();
    let (done_tx, mut done_rx) = unbounded();
    let quitting = Arc::new(AtomicBool::new(false));
    let worker_out = Arc::clone(&out);
    let worker_quitting = Arc::clone(&quitting);
    let held = HeldLines::default();
    let worker_held = held.clone();
    let hash_mb = Session::new(variant).options().hash_mb;
    let worker = thread::Builder::new().name("search".into()).spawn(move || {
        Worker {
            searcher: Searcher::new(hash_mb),
            hash_mb,
            threads: 1,
            seed: 0,
            search_mode: Default::default(),
            params: Params::default(),
            net: crate::engine::search::nnue::default_net(),
            out: worker_out,
            wake: wake_rx,
            done: done_tx,
            quitting: worker_quitting,
            held: worker_held,
        }
        .run(job_rx)
    });
    let worker = match worker {
        Ok(w) => w,
        Err(e) => {
            log::error!("cannot start the search thread: {e}");
            return 1;
        }
    };

    let mut session = Session::new(variant);
    let mut ctl = Arc::new(SearchControl::default());
    let mut answer = Arc::new(Answer::default());
    // The running search's watch: the watchdog answers for a late worker at its deadline.
    let mut watch: Option<Watch> = None;
    loop {
        let timer = match watch.as_ref().and_then(Watch::deadline) {
            Some(at) => crossbeam_channel::at(at),
            None => crossbeam_channel::never(),
        };
        let mut received = Instant::now();
        let effects = select! {
            recv(line_rx) -> line => match line.unwrap_or((InputLine::Eof, received)) {
                (InputLine::Line(text), at) => {
                    received = at;
                    while let Ok(id) = done_rx.try_recv() {
                        session.search_done(id);
                    }
                    out.input(&text);
                    match parse_line(&text) {
                        Ok(Some(parsed)) => session.handle(parsed),
                        Ok(None) => Vec::new(),
                        Err(e) => session.bad_line(&e),
                    }
                }
                (InputLine::TooLong(n), _) => {
                    out.input(&format!("<line of {n} bytes>"));
                    session.bad_line(&format!(
                        "line too long ({n} bytes, the limit is {MAX_LINE}); ignored"
                    ))
                }
                (InputLine::Eof, _) => vec![Effect::Quit],
            },
            recv(done_rx) -> id => {
                match id {
                    Ok(id) => {
                        session.search_done(id);
                        if watch.as_ref().is_some_and(|w| w.id == id) {
                            watch = None;
                        }
                    }
                    // The worker is gone (it only ends after quit): stop listening to it.
                    Err(_) => done_rx = crossbeam_channel::never(),
                }
                Vec::new()
            }
            recv(timer) -> _ => {
                if let Some(w) = watch.take() {
                    watchdog(&w, &mut session, &held, &out, &wake_tx);
                }
                Vec::new()
            }
        };
        for effect in effects {
            match effect {
                Effect::Print(line) => held.print(&out, &line),
                Effect::Work(work) => {
                    if matches!(
                        work,
                        Work::Search(_) | Work::Perft { .. } | Work::Bench { .. }
                    ) {
                        // A fresh control, flags set before the job is visible to the worker.
                        ctl = Arc::new(SearchControl::default());
                        answer = Arc::new(Answer::default());
                    }
                    let mut work = work;
                    if let Work::Search(job) = &mut work {
                        ctl.pondering.store(job.ponder, Ordering::SeqCst);
                        held.search_queued();
                        job.limits.received = Some(received);
                        watch = Some(Watch::new(
                            job,
                            Arc::clone(&answer),
                            Arc::clone(&ctl),
                            received,
                        ));
                    }
                    let _ = job_tx.send(Job {
                        work,
                        ctl: Arc::clone(&ctl),
                        answer: Arc::clone(&answer),
                    });
                }
                Effect::Stop => {
                    ctl.stop.store(true, Ordering::SeqCst);
                    let _ = wake_tx.send(());
                    if let Some(w) = &mut watch {
                        w.stop(Instant::now());
                    }
                }
                Effect::PonderHit => {
                    ctl.ponder_hit(received);
                    let _ = wake_tx.send(());
                    if let Some(w) = &mut watch {
                        w.ponderhit(received);
                    }
                }
                Effect::SetLogFile(path) => {
                    if let Err(e) = out.set_log(path.as_deref()) {
                        let line = format!("info string error: {e}");
                        if session.answers_at_once() {
                            held.print(&out, &line);
                        } else {
                            let _ = job_tx.send(Job {
                                work: Work::Print(vec![line]),
                                ctl: Arc::clone(&ctl),
                                answer: Arc::clone(&answer),
                            });
                        }
                    }
                }
                Effect::Quit => {
                    quitting.store(true, Ordering::SeqCst);
                    ctl.stop.store(true, Ordering::SeqCst);
                    let _ = wake_tx.send(());
                    drop(job_tx);
                    let deadline = Instant::now() + QUIT_GRACE;
                    while !worker.is_finished() && Instant::now() < deadline {
                        thread::sleep(Duration::from_millis(2));
                    }
                    return 0;
                }
            }
        }
    }
}

/// The watchdog's turn: the worker has not answered search `w.id` by its deadline, so the loop
/// answers with the search's last line and stops it (the worker prints nothing more of it).
fn watchdog(w: &Watch, session: &mut Session, held: &HeldLines, out: &Output, wake: &Sender<()>) {
    let Some(lines) = w.claim() else {
        return;
    };
    w.ctl.stop.store(true, Ordering::SeqCst);
    let _ = wake.send(());
    // Over before the client can see bestmove, as when the worker answers.
    session.search_done(w.id);
    log::debug!("search {}: the watchdog answers for the worker", w.id);
    for line in lines {
        held.print(out, &line);
    }
}

#[cfg(test)]
mod tests;
