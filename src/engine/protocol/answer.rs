//! The answer each search owes, given exactly once, and the watchdog that gives it on time.
//!
//! The worker answers when its search ends. On a loaded machine the search thread waits for a
//! core and sees the clock only once it runs again, often many milliseconds past its limit.
//! The loop thread sleeps until the search's deadline instead, and a sleeping thread is woken
//! on time where a busy one is not: at the deadline ([`Watch`]) it answers with the moves of
//! the search's latest line (the last reported, or a better move found in the iteration under
//! way, which the search shares through its `SearchControl`), unless the worker has answered.
//! After the answer nothing more of that search is printed. Before its first reported line a
//! search has no answer to give: the watchdog then leaves it to the worker, whose first
//! iteration always completes.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::engine::protocol::fmt;
use crate::engine::protocol::session::SearchJob;
use crate::engine::search::timeman::{allocate, kept_back};
use crate::engine::types::{lock, SearchControl, SearchInfo};
use crate::rules::moves::Move;
use crate::rules::position::Position;

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

/// An answer a line offers: its best and ponder moves (checked legal), and the line itself
/// when it was not printed.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    best: Move,
    ponder: Option<Move>,
    unprinted: Option<String>,
}

impl Offer {
    /// The answer `line` (MultiPV 1) gives in `pos`; `None` for another MultiPV line or a
    /// line without a legal first move. `printed`: whether the line is out already.
    pub fn of(
        pos: &Position,
        line: &SearchInfo,
        omit_ponder: bool,
        printed: bool,
    ) -> Option<Offer> {
        let best = line.pv.first().copied()?;
        if line.multipv != 1 || pos.check_move(best).is_err() {
            return None;
        }
        let ponder = line.pv.get(1).copied().filter(|&p| {
            if omit_ponder {
                return false;
            }
            let mut after = pos.clone();
            after.make(best);
            after.check_move(p).is_ok()
        });
        Some(Offer {
            best,
            ponder,
            unprinted: (!printed).then(|| fmt::info_line(line)),
        })
    }
}

/// What the watchdog would answer, and whether the search was answered.
#[derive(Default)]
pub struct State {
    /// The answer of the last reported line.
    offer: Option<Offer>,
    answered: bool,
}

impl State {
    /// Takes note of a reported line's answer.
    pub fn offer(&mut self, offer: Offer) {
        self.offer = Some(offer);
    }

    /// Marks the search answered (by the worker).
    pub fn answer(&mut self) {
        self.answered = true;
    }
}

impl Answer {
    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
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

    /// The watchdog's answer: the lines to print (the answering line if it was not printed,
    /// and `bestmove`), from `newer` (a line not reported) or else the last reported line;
    /// `None` when the search was answered or has no line yet. The search counts as answered
    /// from then on.
    pub fn claim(&self, newer: Option<Offer>) -> Option<Vec<String>> {
        let mut state = self.lock();
        if state.answered {
            return None;
        }
        let offer = newer.or_else(|| state.offer.take())?;
        state.answered = true;
        let mut lines: Vec<String> = offer.unprinted.into_iter().collect();
        lines.push(fmt::bestmove_line(Some(offer.best), offer.ponder));
        Some(lines)
    }
}

/// The loop's watch over the running search: when the worker must have answered by.
pub struct Watch {
    pub id: u64,
    answer: Arc<Answer>,
    pub ctl: Arc<SearchControl>,
    pos: Position,
    omit_ponder: bool,
    /// The search's hard limit plus the worker's grace (`None`: no time limit).
    late: Option<Duration>,
    /// When the watchdog answers (`None`: not armed).
    deadline: Option<Instant>,
}

impl Watch {
    /// The watch of search `job`, whose `go` came at `received`: armed at the hard limit plus
    /// the worker's grace (see [`DEADLINE_GRACE`]) unless it ponders or has no time limit.
    pub fn new(
        job: &SearchJob,
        answer: Arc<Answer>,
        ctl: Arc<SearchControl>,
        received: Instant,
    ) -> Watch {
        let grace = DEADLINE_GRACE.max(kept_back(&job.limits) / 2);
        let late = allocate(&job.limits).map(|t| t.hard + grace);
        Watch {
            id: job.id,
            answer,
            ctl,
            pos: job.pos.clone(),
            omit_ponder: job.omit_ponder,
            late,
            deadline: late.filter(|_| !job.ponder).map(|l| received + l),
        }
    }

    /// The watchdog's answer (see [`Answer::claim`]), with the search's better move of the
    /// iteration under way if it has one.
    pub fn claim(&self) -> Option<Vec<String>> {
        let newer = (self.ctl.take_partial())
            .and_then(|line| Offer::of(&self.pos, &line, self.omit_ponder, false));
        self.answer.claim(newer)
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
    use crate::engine::types::{Bound, Limits, Score};
    use crate::rules::position::Variant;

    fn line(depth: u32, multipv: usize, pv: &[Move]) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv,
            score: Score::Cp(12),
            bound: Bound::Exact,
            nodes: 1000,
            time: Duration::from_millis(3),
            hashfull: 0,
            pv: pv.to_vec(),
        }
    }

    /// The start position, two of its moves, and a legal reply to the first.
    fn setup() -> (Position, Move, Move, Move) {
        let pos = Position::new(Variant::Standard);
        let moves = pos.legal_moves();
        let (a, b) = (moves[0], moves[7]);
        let mut after = pos.clone();
        after.make(a);
        let reply = after.legal_moves()[0];
        (pos, a, b, reply)
    }

    #[test]
    fn a_line_offers_its_legal_moves() {
        let (pos, a, b, reply) = setup();
        let o = Offer::of(&pos, &line(3, 1, &[a, reply]), false, true).unwrap();
        assert_eq!((o.best, o.ponder, o.unprinted), (a, Some(reply), None));
        // No ponder move after a `ugi` handshake, nor an illegal one.
        let o = Offer::of(&pos, &line(3, 1, &[a, reply]), true, true).unwrap();
        assert_eq!(o.ponder, None);
        let o = Offer::of(&pos, &line(3, 1, &[a, a]), false, true).unwrap();
        assert_eq!(o.ponder, None, "{a} cannot be played twice");
        // An unprinted line is kept to be printed with the answer.
        let o = Offer::of(&pos, &line(3, 1, &[b]), false, false).unwrap();
        assert_eq!(o.unprinted, Some(fmt::info_line(&line(3, 1, &[b]))));
        // Another MultiPV line, an empty PV, an illegal first move: no answer.
        assert_eq!(Offer::of(&pos, &line(3, 2, &[a]), false, true), None);
        assert_eq!(Offer::of(&pos, &line(3, 1, &[]), false, true), None);
        let mut moved = pos.clone();
        moved.make(a);
        assert_eq!(Offer::of(&moved, &line(3, 1, &[a]), false, true), None);
    }

    #[test]
    fn the_watchdog_answers_with_the_latest_line_and_then_the_worker_is_silent() {
        let (pos, a, b, reply) = setup();
        let answer = Answer::default();
        assert_eq!(answer.claim(None), None, "no line yet: nothing to answer");
        let first = Offer::of(&pos, &line(2, 1, &[a, reply]), false, true).unwrap();
        let second = Offer::of(&pos, &line(3, 1, &[b]), false, false).unwrap();
        assert!(answer.while_open(|s| s.offer(first)));
        assert!(answer.while_open(|s| s.offer(second)));
        let expected = vec![fmt::info_line(&line(3, 1, &[b])), format!("bestmove {b}")];
        assert_eq!(answer.claim(None), Some(expected));
        assert_eq!(answer.claim(None), None, "one answer only");
        let mut ran = false;
        assert!(!answer.while_open(|_| ran = true));
        assert!(
            !ran,
            "the worker prints nothing after the watchdog's answer"
        );
    }

    #[test]
    fn a_newer_line_wins_and_after_the_worker_the_watchdog_is_silent() {
        let (pos, a, b, reply) = setup();
        let answer = Answer::default();
        let old = Offer::of(&pos, &line(2, 1, &[a, reply]), false, true).unwrap();
        answer.while_open(|s| s.offer(old));
        let newer = Offer::of(&pos, &line(2, 1, &[b]), false, true);
        assert_eq!(answer.claim(newer), Some(vec![format!("bestmove {b}")]));
        let done = Answer::default();
        done.while_open(|s| s.offer(Offer::of(&pos, &line(2, 1, &[a]), false, true).unwrap()));
        assert!(done.while_open(State::answer));
        assert_eq!(done.claim(None), None);
    }

    fn job(limits: Limits, ponder: bool) -> SearchJob {
        SearchJob {
            id: 1,
            pos: Position::new(Variant::Standard),
            limits,
            ponder,
            omit_ponder: false,
        }
    }

    #[test]
    fn the_watch_answers_with_the_searchs_better_move_of_the_iteration_under_way() {
        let (_, a, b, reply) = setup();
        let answer = Arc::new(Answer::default());
        let ctl = Arc::new(SearchControl::default());
        let w = Watch::new(
            &job(Limits::default(), false),
            answer.clone(),
            ctl.clone(),
            Instant::now(),
        );
        let reported = Offer::of(&w.pos, &line(4, 1, &[a, reply]), false, true).unwrap();
        answer.while_open(|s| s.offer(reported));
        let partial = line(4, 1, &[b]);
        ctl.set_partial(Some(partial.clone()));
        let expected = vec![fmt::info_line(&partial), format!("bestmove {b}")];
        assert_eq!(
            w.claim(),
            Some(expected),
            "the unreported better move, printed first"
        );
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
        let watch = |limits: &Limits, ponder| {
            Watch::new(
                &job(limits.clone(), ponder),
                answer.clone(),
                ctl.clone(),
                t0,
            )
        };
        let mut w = watch(&limits, false);
        assert_eq!(
            w.deadline(),
            Some(t0 + Duration::from_millis(95)),
            "hard limit 90 ms, then half the 10 ms kept back"
        );
        w.stop(t0);
        assert_eq!(w.deadline(), Some(t0 + STOP_GRACE));
        // Pondering: armed only at ponderhit; no time limit: armed only by stop.
        let mut p = watch(&limits, true);
        assert_eq!(p.deadline(), None);
        let hit = t0 + Duration::from_millis(500);
        p.ponderhit(hit);
        assert_eq!(p.deadline(), Some(hit + Duration::from_millis(95)));
        // No time kept back: the least grace.
        let bare = Limits {
            move_overhead: Duration::ZERO,
            ..limits.clone()
        };
        let b = watch(&bare, false);
        assert_eq!(
            b.deadline(),
            Some(t0 + Duration::from_millis(100) + DEADLINE_GRACE)
        );
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut i = watch(&infinite, false);
        assert_eq!(i.deadline(), None);
        i.stop(hit);
        assert_eq!(i.deadline(), Some(hit + STOP_GRACE));
    }
}
