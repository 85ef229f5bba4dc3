//! An engine process for the measurement examples: lines in, and lines out with the moment
//! each arrived (read on a thread of its own).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Engine {
    pub fn start(bin: &str) -> Engine {
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// The process id (to read its memory and descriptors in /proc).
    #[allow(dead_code)] // not every example reads it
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends `quit` and waits for the process to exit.
    #[allow(dead_code)]
    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.child.wait().expect("wait for the engine")
    }

    /// One search from a cleared table: `ucinewgame`, the position, `isready`, then `go`
    /// (`go` followed by `limits`). Returns when `go` was sent and the lines up to `bestmove`.
    #[allow(dead_code)]
    pub fn fresh_search(&mut self, fen: &str, limits: &str) -> (Instant, Vec<(Instant, String)>) {
        self.send("ucinewgame");
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.until("readyok");
        let go = Instant::now();
        self.send(&format!("go {limits}"));
        (go, self.until("bestmove"))
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`, with their arrival.
    pub fn until(&self, prefix: &str) -> Vec<(Instant, String)> {
        let mut seen = Vec::new();
        loop {
            let (at, line) = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}' line within 30 s"));
            let done = line.starts_with(prefix);
            seen.push((at, line));
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
