//! The answer each search owes, given exactly once, and the watchdog that gives it on time.
//!
//! The worker answers when its search ends. On a loaded machine the search thread waits for a
//! core and sees the clock only once it runs again, often many milliseconds past its limit.
//! The loop thread sleeps until the search's deadline instead, and a sleeping thread is woken
//! on time where a busy one is not: at the deadline ([`Watch`]) it answers with the moves of
//! the last line the search reported (a completed iteration, or a better move found in the
//! iteration under way), unless the worker has answered. After the answer nothing more of that
//! search is printed. Before its first reported line a search has no answer to give: the
//! watchdog then leaves it to the worker, whose first iteration always completes.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::engine::protocol::fmt;
use crate::engine::search::timeman::{allocate, kept_back};
use crate::engine::types::{Limits, SearchControl};
use crate::rules::moves::Move;

/// Past the search's hard limit, the least time the worker has to answer before the watchdog
/// does (on an idle machine it answers within about a millisecond). It has half the time kept
/// back for communication (`Move Overhead`) when that is more; the other half is the pipe's.
pub const DEADLINE_GRACE: Duration = Duration::from_millis(2);

/// After `stop`, the time the worker has to answer before the watchdog does.
pub const STOP_GRACE: Duration = Duration::from_millis(5);

/// One search's answer, shared by the worker (which reports lines and answers at the end) and
/// the loop's watchdog.
#[derive(Default)]
pub struct Answer {
    state: Mutex<State>,
}

/// What the watchdog would answer, and whether the search was answered.
#[derive(Default)]
pub struct State {
    /// The best and ponder moves of the last reported line (MultiPV 1), checked legal.
    moves: Option<(Move, Option<Move>)>,
    /// That line, when it was not printed (the info throttle held it back).
    unprinted: Option<String>,
    answered: bool,
}

impl State {
    /// Takes note of a reported line: its moves, and the line itself when it was not printed.
    pub fn offer(&mut self, best: Move, ponder: Option<Move>, unprinted: Option<String>) {
        self.moves = Some((best, ponder));
        self.unprinted = unprinted;
    }

    /// Marks the search answered (by the worker).
    pub fn answer(&mut self) {
        self.answered = true;
    }
}

impl Answer {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the state unless the search was answered; whether it ran. The worker
    /// prints under it, so that no line of its search comes after the watchdog's answer.
    pub fn while_open(&self, f: impl FnOnce(&mut State)) -> bool {
        let mut state = self.lock();
        if state.answered {
            return false;
        }
        f(&mut state);
        true
    }

    /// The watchdog's answer: the lines to print (the last reported line if it was not
    /// printed, and `bestmove`), or `None` when the search was answered or has no line yet.
    /// The search counts as answered from then on.
    pub fn claim(&self) -> Option<Vec<String>> {
        let mut state = self.lock();
        if state.answered {
            return None;
        }
        let (best, ponder) = state.moves?;
        state.answered = true;
        let mut lines: Vec<String> = state.unprinted.take().into_iter().collect();
        lines.push(fmt::bestmove_line(Some(best), ponder));
        Some(lines)
    }

    pub fn is_answered(&self) -> bool {
        self.lock().answered
    }
}

/// The loop's watch over the running search: when the worker must have answered by.
pub struct Watch {
    pub id: u64,
    pub answer: Arc<Answer>,
    pub ctl: Arc<SearchControl>,
    /// The search's hard limit plus the worker's grace (`None`: no time limit).
    late: Option<Duration>,
    /// When the watchdog answers (`None`: not armed).
    deadline: Option<Instant>,
}

impl Watch {
    /// The watch of search `id` with `limits`, whose `go` came at `received`: armed at the
    /// hard limit plus the worker's grace (see [`DEADLINE_GRACE`]) unless it ponders or has no
    /// time limit.
    pub fn new(
        id: u64,
        answer: Arc<Answer>,
        ctl: Arc<SearchControl>,
        limits: &Limits,
        received: Instant,
        pondering: bool,
    ) -> Watch {
        let grace = DEADLINE_GRACE.max(kept_back(limits) / 2);
        let late = allocate(limits).map(|t| t.hard + grace);
        Watch {
            id,
            answer,
            ctl,
            late,
            deadline: late.filter(|_| !pondering).map(|l| received + l),
        }
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// `ponderhit` at `now`: the clock starts.
    pub fn ponderhit(&mut self, now: Instant) {
        self.deadline = self.late.map(|l| now + l);
    }

    /// `stop` at `now`: the worker has [`STOP_GRACE`] to answer.
    pub fn stop(&mut self, now: Instant) {
        let by = now + STOP_GRACE;
        self.deadline = Some(self.deadline.map_or(by, |d| d.min(by)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;

    fn mv(s: &str) -> Move {
        parse_move(s).unwrap()
    }

    #[test]
    fn the_watchdog_answers_with_the_last_line_and_then_the_worker_is_silent() {
        let a = Answer::default();
        assert_eq!(a.claim(), None, "no line reported yet: nothing to answer");
        assert!(a.while_open(|s| s.offer(mv("e6e7e8"), Some(mv("k3k4k5")), None)));
        assert!(a.while_open(|s| s.offer(mv("e5f5g5"), None, Some("info depth 2".into()))));
        assert_eq!(
            a.claim(),
            Some(vec![
                "info depth 2".to_string(),
                "bestmove e5f5g5".to_string()
            ])
        );
        assert!(a.is_answered());
        assert_eq!(a.claim(), None, "one answer only");
        let mut ran = false;
        assert!(!a.while_open(|_| ran = true));
        assert!(
            !ran,
            "the worker prints nothing after the watchdog's answer"
        );
    }

    #[test]
    fn after_the_worker_answers_the_watchdog_is_silent() {
        let a = Answer::default();
        a.while_open(|s| s.offer(mv("e6e7e8"), None, None));
        assert!(a.while_open(State::answer));
        assert_eq!(a.claim(), None);
    }

    #[test]
    fn the_deadline_is_the_hard_limit_from_the_go_and_stop_brings_it_forward() {
        let t0 = Instant::now();
        let ctl = Arc::new(SearchControl::default());
        let answer = Arc::new(Answer::default());
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let mut w = Watch::new(1, answer.clone(), ctl.clone(), &limits, t0, false);
        assert_eq!(
            w.deadline(),
            Some(t0 + Duration::from_millis(95)),
            "hard limit 90 ms, then half the 10 ms kept back"
        );
        w.stop(t0);
        assert_eq!(w.deadline(), Some(t0 + STOP_GRACE));
        // Pondering: armed only at ponderhit; no time limit: armed only by stop.
        let mut p = Watch::new(2, answer.clone(), ctl.clone(), &limits, t0, true);
        assert_eq!(p.deadline(), None);
        let hit = t0 + Duration::from_millis(500);
        p.ponderhit(hit);
        assert_eq!(p.deadline(), Some(hit + Duration::from_millis(95)));
        // No time kept back: the least grace.
        let bare = Limits {
            move_overhead: Duration::ZERO,
            ..limits.clone()
        };
        let b = Watch::new(4, answer.clone(), ctl.clone(), &bare, t0, false);
        assert_eq!(
            b.deadline(),
            Some(t0 + Duration::from_millis(100) + DEADLINE_GRACE)
        );
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut i = Watch::new(3, answer, ctl, &infinite, t0, false);
        assert_eq!(i.deadline(), None);
        i.stop(hit);
        assert_eq!(i.deadline(), Some(hit + STOP_GRACE));
    }
}
