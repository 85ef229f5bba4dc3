//! The engine binary driven over its stdin/stdout, for the tests that talk to the process.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use punct::{parse_move, Move, Position};

pub const LONG: Duration = Duration::from_secs(20);

/// Extra time the in-process timing bounds allow under Wine (`.ci/windows-test.sh`), where a
/// thread that is woken or a timer that fires goes through the emulator's server, and the
/// suite's own engines load both cores: a stop was answered in 147 ms and, with three PUCT
/// threads, 306 ms (once in three whole runs; alone it passed five times of five), against a
/// 100 ms bound that Linux keeps under load. Zero elsewhere.
pub const WINE_SLACK: Duration = if cfg!(windows) {
    Duration::from_millis(400)
} else {
    Duration::ZERO
};

/// A running `punct` with its output lines on a channel; killed when dropped.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = spawn(args);
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().unwrap();
    }

    /// The lines up to and including the first one starting with `prefix`.
    pub fn until(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        self.until_line(|l| l.starts_with(prefix), prefix, timeout)
    }

    /// The lines up to and including the first one for which `done` holds.
    pub fn until_line(
        &self,
        done: impl Fn(&str) -> bool,
        what: &str,
        timeout: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let end = done(&line);
                    seen.push(line);
                    if end {
                        return seen;
                    }
                }
                Err(e) => panic!("no line '{what}' ({e:?}); got {seen:#?}"),
            }
        }
    }

    /// All lines that arrive within `wait`.
    pub fn lines_within(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout) => return seen,
                Err(RecvTimeoutError::Disconnected) => return seen,
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", LONG);
        lines.pop();
        lines
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `punct` with `args` on the whole of `input` (a script ending in `quit`, or at the
/// end of input) and returns its exit status and standard output.
pub fn run_script(args: &[&str], input: &str) -> (ExitStatus, String) {
    let mut child = spawn(args);
    (child.stdin.take().expect("stdin piped"))
        .write_all(input.as_bytes())
        .expect("punct reads its input");
    let out = child.wait_with_output().expect("punct ends");
    let text = String::from_utf8(out.stdout).expect("the output is UTF-8");
    (out.status, text)
}

/// `punct` with `args`, its stdin and stdout piped (stderr dropped).
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("punct starts")
}

/// The move of a `bestmove` line, checked legal in `pos`.
pub fn legal_bestmove(line: &str, pos: &Position) -> Move {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens[0], "bestmove", "{line}");
    let mv = parse_move(tokens[1]).unwrap_or_else(|e| panic!("{line}: {e}"));
    pos.check_move(mv)
        .unwrap_or_else(|e| panic!("{line} in {pos}: {e}"));
    mv
}

/// Searches `pos` within `limits` on a thread of its own, sets the stop flag after `wait`,
/// and returns the result and how long the search took to end after the flag was set.
pub fn stop_after(
    pos: Position,
    limits: punct::engine::types::Limits,
    wait: Duration,
) -> (punct::engine::types::SearchResult, Duration) {
    use punct::engine::search::Searcher;
    use punct::engine::types::SearchControl;
    use std::sync::atomic::Ordering;
    use std::sync::Arc;
    let ctl = Arc::new(SearchControl::default());
    let worker = {
        let ctl = Arc::clone(&ctl);
        thread::spawn(move || {
            let r = Searcher::new(8).search(&pos, &limits, &ctl, &mut |_| {});
            (r, Instant::now())
        })
    };
    thread::sleep(wait);
    let stopped_at = Instant::now();
    ctl.stop.store(true, Ordering::SeqCst);
    let (r, ended) = worker.join().unwrap();
    (r, ended.duration_since(stopped_at))
}
