//! An engine program as a child process in its own process group, with a deadline on every read
//! and every write.
//!
//! Output lines come from a reader thread, stamped with the instant they were read, so move times
//! do not depend on when the game thread wakes up. The queue between them is bounded: an engine
//! that floods its output is held back by the pipe (memory stays flat), and a line read after its
//! deadline never counts, however many lines came before it. Writes go to a non-blocking pipe
//! (Unix), or where pipes block (Windows) to a writer thread whose answer is awaited up to the
//! deadline, so an engine that does not read its input cannot hang the referee. The engine's own
//! exit is watched too, not only the end of its output (a child may still hold the pipe).
//!
//! The whole process group (a job object on Windows) is killed on drop, on a fault, and by the
//! signal handler of [`crate::referee::signals`]; the engine also dies when the referee is killed
//! outright (`PR_SET_PDEATHSIG` on Linux, the job's kill-on-close on Windows). A descendant that
//! leaves the group (`setsid`, or a breakaway from the job) is out of reach: a known limit
//! (docs/referee.md, "Reliability"). What each platform gives is in [`crate::referee::platform`].

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::referee::platform;
use crate::referee::settings::EngineConfig;
use crate::referee::signals;

/// Longest output line kept; the rest of a longer line is dropped.
const MAX_LINE: u64 = 64 * 1024;

/// Output lines read ahead of the game thread. With [`MAX_LINE`] this bounds the memory an engine
/// can make the referee hold to 8 MB; a normal engine never has more than a few lines waiting.
const LINE_QUEUE: usize = 128;

/// How often a wait for output also looks whether the engine process has exited.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// After the engine exited, how long lines it wrote before are still taken.
const EXIT_GRACE: Duration = Duration::from_millis(50);

/// Default bound on one write (see [`EngineProcess::set_write_timeout`]).
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a read or write failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IoFault {
    /// The deadline passed with no matching line.
    Timeout,
    /// The engine closed its output or its input, or its process exited (crashed).
    Disconnected,
    /// A write could not complete before its deadline: the engine does not read its input.
    InputBlocked,
}

/// A line of engine output and when it was read.
pub type Line = (Instant, String);

/// `-debug` (as cutechess's): every line to and from every engine is copied to stderr.
static DEBUG_IO: AtomicBool = AtomicBool::new(false);
static DEBUG_START: OnceLock<Instant> = OnceLock::new();

/// Turns the copy of engine I/O to stderr on or off (for the whole process).
pub fn set_debug_io(on: bool) {
    DEBUG_START.get_or_init(Instant::now);
    DEBUG_IO.store(on, Ordering::Relaxed);
}

/// With `-debug`, one line of engine I/O on stderr as cutechess prints it: milliseconds since
/// the start, `>` for a line sent to the engine and `<` for one read from it, then the engine
/// (its name and process id) and the line, control characters escaped.
fn debug_io(direction: &str, who: &str, line: &str) {
    if DEBUG_IO.load(Ordering::Relaxed) {
        let ms = DEBUG_START.get_or_init(Instant::now).elapsed().as_millis();
        if line.chars().any(char::is_control) {
            eprintln!("{ms} {direction}{who}: {}", line.escape_default());
        } else {
            eprintln!("{ms} {direction}{who}: {line}");
        }
    }
}

pub struct EngineProcess {
    name: String,
    /// The name and process id, as `-debug` shows the engine.
    who: String,
    child: Child,
    pgid: i32,
    stdin: Option<Input>,
    lines: LineQueue,
    slot: Option<usize>,
    write_timeout: Duration,
    /// When the engine's own exit was seen.
    exited: Option<Instant>,
}

impl EngineProcess {
    /// Starts the program of `cfg` in a new process group.
    pub fn spawn(cfg: &EngineConfig) -> std::io::Result<EngineProcess> {
        let program = match find_program(cfg) {
            Some(p) if platform::SEARCHES_HERE => p,
            _ => PathBuf::from(&cfg.cmd),
        };
        let mut cmd = Command::new(program);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        platform::isolate(&mut cmd);
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn()?;
        let pgid = platform::adopt(&child);
        let slot = signals::register_group(pgid);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = crossbeam_channel::bounded(LINE_QUEUE);
        let name = cfg.name.clone();
        let reader_name = name.clone();
        let who = format!("{name}({pgid})");
        let (out_who, err_who) = (who.clone(), format!("{who} stderr"));
        std::thread::Builder::new()
            .name(format!("{name}-out"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = Vec::new();
                while let Some(line) = read_line_capped(&mut r, &mut buf) {
                    log::trace!("{reader_name} > {line}");
                    debug_io("<", &out_who, &line);
                    if tx.send((Instant::now(), line)).is_err() {
                        break;
                    }
                }
            })?;
        let err_name = name.clone();
        std::thread::Builder::new()
            .name(format!("{name}-err"))
            .spawn(move || {
                let mut r = BufReader::new(stderr);
                let mut buf = Vec::new();
                while let Some(line) = read_line_capped(&mut r, &mut buf) {
                    log::debug!("{err_name} stderr: {line}");
                    debug_io("<", &err_who, &line);
                }
            })?;
        let stdin = match child.stdin.take() {
            Some(s) if platform::set_nonblocking(&s) => Some(Input::Pipe(s)),
            Some(s) => Some(Input::writer(s, &name)?),
            None => None,
        };
        let mut process = EngineProcess {
            name,
            who,
            child,
            pgid,
            stdin,
            lines: LineQueue::new(rx),
            slot,
            write_timeout: WRITE_TIMEOUT,
            exited: None,
        };
        if signals::interrupted() {
            process.kill();
        }
        Ok(process)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The longest time [`EngineProcess::send`] may take.
    pub fn set_write_timeout(&mut self, t: Duration) {
        self.write_timeout = t;
    }

    /// Writes one line and returns when it was written, within the write timeout.
    pub fn send(&mut self, line: &str) -> Result<Instant, IoFault> {
        self.send_by(line, Instant::now() + self.write_timeout)
    }

    /// Writes one line and returns when it was written; [`IoFault::InputBlocked`] if the pipe
    /// stays full until `deadline` (the engine does not read).
    pub fn send_by(&mut self, line: &str, deadline: Instant) -> Result<Instant, IoFault> {
        log::trace!("{} < {line}", self.name);
        debug_io(">", &self.who, line);
        let stdin = self.stdin.as_mut().ok_or(IoFault::Disconnected)?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match stdin {
            Input::Pipe(pipe) => write_nonblocking(pipe, &bytes, deadline)?,
            Input::Writer(w) => w.write(bytes, deadline)?,
        }
        Ok(Instant::now())
    }

    /// The next line, or a fault when `deadline` passes or the engine is gone. A line read after
    /// the deadline is a timeout, so a flood of output cannot put a forfeit off; that line is kept
    /// for the next read (no line is ever lost: the GUI polls with short deadlines).
    pub fn recv(&mut self, deadline: Instant) -> Result<Line, IoFault> {
        loop {
            let now = Instant::now();
            let slice = deadline.min(now + EXIT_POLL);
            match self.lines.take(slice, deadline) {
                Take::Late => return Err(IoFault::Timeout),
                Take::Line(l) => {
                    if self.exited.is_some_and(|t| t.elapsed() > EXIT_GRACE) {
                        return Err(IoFault::Disconnected);
                    }
                    return Ok(l);
                }
                Take::Closed => return Err(IoFault::Disconnected),
                Take::Empty => {
                    if Instant::now() >= deadline {
                        return Err(IoFault::Timeout);
                    }
                    match self.exited {
                        Some(t) if t.elapsed() > EXIT_GRACE => return Err(IoFault::Disconnected),
                        Some(_) => {}
                        // Its output may stay open (a child holds the pipe): the exit counts.
                        None => {
                            if !self.is_running() {
                                self.exited = Some(Instant::now());
                            }
                        }
                    }
                }
            }
        }
    }

    /// Reads until a line whose first word is `word`; every other line goes to `other`.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        mut other: impl FnMut(&str),
    ) -> Result<Line, IoFault> {
        loop {
            let (at, line) = self.recv(deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok((at, line));
            }
            other(&line);
        }
    }

    /// Closes the engine's input (it sees end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Drops output already read, on purpose (stale lines before a new `go`, e.g. a late
    /// `bestmove` after a timeout), the line kept by a late read too.
    pub fn drain(&mut self) {
        self.lines.clear();
    }

    /// True while the process has not exited.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to quit, waits up to `grace`, then kills its group.
    pub fn quit(&mut self, grace: Duration) {
        let _ = self.send_by("quit", Instant::now() + grace);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if !self.is_running() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the whole process group and reaps the child.
    pub fn kill(&mut self) {
        self.stdin = None;
        platform::kill_group(self.pgid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(slot) = self.slot.take() {
            signals::unregister_group(slot);
        }
        // Safe to repeat: the pid is not reused while `child` holds the process.
        platform::release_group(self.pgid);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Where the program of `cfg` is, as it will be started: a path as given (relative to the
/// engine's folder `dir=`), or a bare name looked up on PATH; on Windows first in the engine's
/// folder (the current one without `dir=`) and in the folder of the running program, as
/// Windows users expect. None if no runnable file is there, so that a typo is a configuration
/// error rather than a run of lost games.
pub fn find_program(cfg: &EngineConfig) -> Option<PathBuf> {
    let cmd = Path::new(&cfg.cmd);
    if cfg.cmd.contains(std::path::is_separator) {
        return match &cfg.dir {
            Some(d) if cmd.is_relative() => platform::runnable(&d.join(cmd)),
            _ => platform::runnable(cmd),
        };
    }
    let mut folders = Vec::new();
    if platform::SEARCHES_HERE {
        folders.push(cfg.dir.clone().unwrap_or_else(|| PathBuf::from(".")));
        if let Some(own) = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            folders.push(own);
        }
    }
    if let Some(paths) = std::env::var_os("PATH") {
        folders.extend(std::env::split_paths(&paths));
    }
    folders
        .iter()
        .find_map(|d| platform::runnable(&d.join(cmd)))
}

/// The engine's input.
enum Input {
    /// A non-blocking pipe, written here.
    Pipe(ChildStdin),
    /// A blocking pipe, written by a thread of its own.
    Writer(InputWriter),
}

impl Input {
    fn writer(pipe: ChildStdin, name: &str) -> std::io::Result<Input> {
        let (tx, rx) = crossbeam_channel::unbounded::<Vec<u8>>();
        let (done_tx, done) = crossbeam_channel::unbounded();
        std::thread::Builder::new()
            .name(format!("{name}-in"))
            .spawn(move || {
                let mut pipe = pipe;
                for bytes in rx {
                    let ok = pipe.write_all(&bytes).and_then(|_| pipe.flush()).is_ok();
                    if done_tx.send(ok).is_err() || !ok {
                        break;
                    }
                }
            })?;
        Ok(Input::Writer(InputWriter {
            tx,
            done,
            pending: false,
        }))
    }
}

/// The game thread's side of a writer thread: dropping it closes the engine's input once the
/// write in progress, if any, is done.
struct InputWriter {
    tx: Sender<Vec<u8>>,
    /// One answer per write: whether it succeeded.
    done: Receiver<bool>,
    /// A write handed over whose answer has not come (it blocked past an earlier deadline).
    pending: bool,
}

impl InputWriter {
    /// Hands `bytes` over and waits for the write, all by `deadline`.
    fn write(&mut self, bytes: Vec<u8>, deadline: Instant) -> Result<(), IoFault> {
        if self.pending {
            self.wait(deadline)?;
        }
        self.tx.send(bytes).map_err(|_| IoFault::Disconnected)?;
        self.pending = true;
        self.wait(deadline)
    }

    fn wait(&mut self, deadline: Instant) -> Result<(), IoFault> {
        match self.done.recv_deadline(deadline) {
            Ok(true) => {
                self.pending = false;
                Ok(())
            }
            Ok(false) | Err(RecvTimeoutError::Disconnected) => Err(IoFault::Disconnected),
            Err(RecvTimeoutError::Timeout) => Err(IoFault::InputBlocked),
        }
    }
}

/// Writes `bytes` to a non-blocking pipe, waiting for room up to `deadline`.
fn write_nonblocking(
    pipe: &mut ChildStdin,
    bytes: &[u8],
    deadline: Instant,
) -> Result<(), IoFault> {
    let mut done = 0;
    while done < bytes.len() {
        match pipe.write(&bytes[done..]) {
            Ok(0) => return Err(IoFault::Disconnected),
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(IoFault::InputBlocked);
                }
                platform::wait_writable(pipe, left);
            }
            Err(_) => return Err(IoFault::Disconnected),
        }
    }
    Ok(())
}

/// The lines of the reader thread, with room for one held back: a read that takes a line
/// stamped after its deadline keeps it for the next read.
struct LineQueue {
    rx: Receiver<Line>,
    held: Option<Line>,
}

/// What one look at the queue gives.
#[derive(Debug, PartialEq)]
enum Take {
    Line(Line),
    /// A line came, read after the deadline: it is kept for the next read.
    Late,
    /// Nothing by the time given.
    Empty,
    /// The reader thread ended (end of the engine's output).
    Closed,
}

impl LineQueue {
    fn new(rx: Receiver<Line>) -> LineQueue {
        LineQueue { rx, held: None }
    }

    /// The next line if one is there by `until`; [`Take::Late`] when it was read after
    /// `deadline`.
    fn take(&mut self, until: Instant, deadline: Instant) -> Take {
        let next = match self.held.take() {
            Some(l) => Ok(l),
            None => self.rx.recv_deadline(until),
        };
        match next {
            Ok(l) if l.0 > deadline => {
                self.held = Some(l);
                Take::Late
            }
            Ok(l) => Take::Line(l),
            Err(RecvTimeoutError::Timeout) => Take::Empty,
            Err(RecvTimeoutError::Disconnected) => Take::Closed,
        }
    }

    /// Drops every line read so far.
    fn clear(&mut self) {
        self.held = None;
        while self.rx.try_recv().is_ok() {}
    }
}

/// One line without its end, decoded lossily; None at end of file or on a read error.
fn read_line_capped<R: Read>(r: &mut BufReader<R>, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    let n = r.by_ref().take(MAX_LINE).read_until(b'\n', buf).ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        // Too long: skip to the end of this line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = r
                .by_ref()
                .take(MAX_LINE)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Some(String::from_utf8_lossy(buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line stamped after a read's deadline (it arrived as the read gave up, e.g. at the end
    /// of the GUI's 8 ms poll) is a timeout for that read and the answer of the next one.
    #[test]
    fn a_late_line_is_kept_for_the_next_read() {
        let (tx, rx) = crossbeam_channel::bounded(LINE_QUEUE);
        let mut q = LineQueue::new(rx);
        let t0 = Instant::now();
        for i in 0..300u32 {
            let deadline = t0 + Duration::from_millis(u64::from(i));
            let late = deadline + Duration::from_nanos(1);
            tx.send((late, format!("bestmove {i}"))).unwrap();
            assert_eq!(q.take(deadline, deadline), Take::Late, "read {i}");
            // Still late for the same deadline, and nothing else is taken meanwhile.
            tx.send((late, format!("info {i}"))).unwrap();
            assert_eq!(q.take(deadline, deadline), Take::Late, "read {i} again");
            let next = late + Duration::from_millis(8);
            assert_eq!(
                q.take(next, next),
                Take::Line((late, format!("bestmove {i}")))
            );
            assert_eq!(q.take(next, next), Take::Line((late, format!("info {i}"))));
            assert_eq!(q.take(t0, t0), Take::Empty);
        }
        // A line on time is taken at once; clear drops the held line too.
        tx.send((t0, "readyok".into())).unwrap();
        assert_eq!(q.take(t0, t0), Take::Line((t0, "readyok".into())));
        tx.send((t0 + Duration::from_secs(1), "late".into()))
            .unwrap();
        assert_eq!(q.take(t0, t0), Take::Late);
        q.clear();
        assert_eq!(q.take(t0, t0 + Duration::from_secs(2)), Take::Empty);
        drop(tx);
        assert_eq!(q.take(t0, t0), Take::Closed);
    }

    #[test]
    fn lines_are_capped_trimmed_and_decoded_lossily() {
        let mut data = b"uciok\r\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 200_000));
        data.extend(b"\nbest\xffmove a\nlast");
        let mut r = BufReader::new(std::io::Cursor::new(data));
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut r, &mut buf).as_deref(), Some("uciok"));
        let long = read_line_capped(&mut r, &mut buf).unwrap();
        assert_eq!(long.len(), MAX_LINE as usize);
        assert_eq!(
            read_line_capped(&mut r, &mut buf).as_deref(),
            Some("best\u{fffd}move a")
        );
        assert_eq!(read_line_capped(&mut r, &mut buf).as_deref(), Some("last"));
        assert_eq!(read_line_capped(&mut r, &mut buf), None);
    }
}
