//! An engine seen from outside: `punct` behind a shell that writes everything the GUI sends it
//! (`> ` lines) and everything it prints (`< ` lines) to a file of its own process, and can hide
//! options of its `uci` answer (to stand for an engine that lacks them). What the engine was
//! sent and printed, not what the GUI says it sent.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use super::PUNCT;

/// `--engine` words for `punct` named `name`, logged to `DIR/engine-PID.log`, with the options
/// named in `hide` left out of what it answers to `uci`.
pub fn logged_engine(dir: &Path, name: &str, hide: &[&str]) -> Vec<String> {
    let hidden: Vec<String> = hide
        .iter()
        .map(|o| format!("\"option name {o} type \"*"))
        .collect();
    let filter = if hidden.is_empty() {
        String::new()
    } else {
        format!("case \"$l\" in {}) continue;; esac; ", hidden.join("|"))
    };
    let script = format!(
        "log=\"{dir}/engine-$$.log\"; : > \"$log\"; \
         while IFS= read -r l; do printf '> %s\\n' \"$l\" >> \"$log\"; printf '%s\\n' \"$l\"; done \
         | \"{PUNCT}\" | while IFS= read -r l; do {filter}printf '< %s\\n' \"$l\" >> \"$log\"; \
         printf '%s\\n' \"$l\"; done",
        dir = dir.display()
    );
    vec![
        "--engine".into(),
        "cmd=/bin/sh".into(),
        "arg=-c".into(),
        format!("arg={script}"),
        format!("name={name}"),
    ]
}

/// The transcripts in `dir`, oldest process first (by the log's file name order of creation).
pub fn transcripts(dir: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "log"))
                .map(|p| {
                    let t = std::fs::metadata(&p)
                        .and_then(|m| m.created().or_else(|_| m.modified()))
                        .unwrap_or(std::time::UNIX_EPOCH);
                    (t, p)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|(_, p)| {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (p, text.lines().map(str::to_string).collect())
        })
        .collect()
}

/// The lines sent to the engine from the one before each `go` back to the previous `go`, with
/// the `go` and what it printed until its `bestmove` (or the end): one entry per search.
pub struct Search {
    pub before: Vec<String>,
    pub go: String,
    pub printed: Vec<String>,
}

impl Search {
    /// Whether `setoption name NAME value VALUE` was sent before this search (since the
    /// previous one).
    pub fn set(&self, name: &str, value: &str) -> bool {
        self.before
            .iter()
            .any(|l| l == &format!("> setoption name {name} value {value}"))
    }

    /// The `info string level ...` the engine printed for this search, if any.
    pub fn level_line(&self) -> Option<&str> {
        self.printed
            .iter()
            .find(|l| l.starts_with("< info string level "))
            .map(String::as_str)
    }

    /// Whether `isready` was sent and answered after the last `setoption` before the `go`.
    pub fn ready_after_options(&self) -> bool {
        let last_set = self
            .before
            .iter()
            .rposition(|l| l.starts_with("> setoption"));
        let ready = self.before.iter().rposition(|l| l == "< readyok");
        let asked = self.before.iter().rposition(|l| l == "> isready");
        match (last_set, asked, ready) {
            (Some(s), Some(a), Some(r)) => s < a && a < r,
            (None, _, _) => true,
            _ => false,
        }
    }
}

/// The searches of one transcript, in order.
pub fn searches(lines: &[String]) -> Vec<Search> {
    let mut out = Vec::new();
    let mut before = Vec::new();
    let mut current: Option<Search> = None;
    for l in lines {
        if l.starts_with("> go") {
            if let Some(s) = current.take() {
                out.push(s);
            }
            current = Some(Search {
                before: std::mem::take(&mut before),
                go: l.clone(),
                printed: Vec::new(),
            });
            continue;
        }
        match &mut current {
            Some(s)
                if !l.starts_with('>')
                    && s.printed
                        .last()
                        .is_none_or(|p| !p.starts_with("< bestmove")) =>
            {
                s.printed.push(l.clone())
            }
            _ => before.push(l.clone()),
        }
    }
    out.extend(current);
    out
}
