//! The types shared by the protocol side and the search: what to search (`Limits`), how to
//! stop it (`SearchControl`), and what it reports (`SearchInfo`, `SearchResult`).
//!
//! The search knows nothing of stdin or stdout: it gets a position, `Limits`, a
//! `SearchControl` and a callback for `SearchInfo`, and returns a `SearchResult`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::rules::moves::Move;

/// The limits of one search, as given by `go` (clocks already resolved to the side to move).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Time left on the side to move's clock.
    pub time_left: Option<Duration>,
    /// Increment of the side to move.
    pub increment: Duration,
    /// Moves to the next time control (None: sudden death).
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (1 = normal).
    pub multipv: usize,
    /// Time kept back per move for communication (the `Move Overhead` option).
    pub move_overhead: Duration,
    /// When the `go` arrived: the clock runs from then, not from when the search thread
    /// got to it (`None`: from the search's start).
    pub received: Option<Instant>,
    /// A strength level below full strength (`Skill Level`, `UCI_Elo`); `None`: full strength.
    pub level: Option<Level>,
}

/// A strength level below full strength: `Skill Level` as a real number in `0.0..20.0`
/// (`UCI_Elo` maps to a fractional skill). What a level does is in `search::skill`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Level {
    pub skill: f64,
}

/// Shared flags between the protocol loop and a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Set by `stop`/`quit`: end the search as soon as possible. Reset before each search
    /// by the side that starts it, so a `stop` sent right after `go` is never lost.
    pub stop: AtomicBool,
    /// True while pondering: time limits do not run until `ponderhit` clears it.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived: the clock runs from then (not from when the search saw it).
    ponderhit_at: Mutex<Option<Instant>>,
    /// The main thread's better move of the iteration under way, as a line at the last
    /// completed depth (not reported yet): an answer for a protocol side that cannot wait.
    partial: Mutex<Option<SearchInfo>>,
}

impl SearchControl {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// `ponderhit` arrived `at`: the search's clock starts then.
    pub fn ponder_hit(&self, at: Instant) {
        *lock(&self.ponderhit_at) = Some(at);
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// When `ponderhit` arrived, if it did.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        *lock(&self.ponderhit_at)
    }

    /// The search found a better move in the iteration under way (`None`: the iteration
    /// completed and was reported).
    pub fn set_partial(&self, line: Option<SearchInfo>) {
        *lock(&self.partial) = line;
    }

    /// The better move of the iteration under way, if any.
    pub fn take_partial(&self) -> Option<SearchInfo> {
        lock(&self.partial).take()
    }
}

/// A mutex's guard, also after a panic elsewhere (the engine's shared values stay valid: a
/// panic elsewhere must not silence the engine).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units.
    Cp(i32),
    /// Full moves to a win (positive) or to a loss (negative), as UCI's `mate`.
    Mate(i32),
}

/// Whether a reported score is exact or a bound (aspiration fail high/low).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line's worth of search progress.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of this line with MultiPV.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        let us = self.time.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / us
    }
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// None only when the position has no legal move (finished game).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// `SearchMode puct`: the root's most visited moves, most first (empty for alpha-beta).
    pub visits: Vec<MoveVisits>,
    /// Alpha-beta: the best `MultiPV` lines of the last completed iteration, best first
    /// (empty when no iteration completed, and for `SearchMode puct`).
    pub lines: Vec<RootLine>,
}

/// One root move's line at the last completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine {
    pub score: Score,
    pub pv: Vec<Move>,
}

/// One root move's share of a PUCT search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveVisits {
    pub mv: Move,
    pub visits: u32,
    /// Its prior, 0..1.
    pub prior: f32,
    /// Its mean value for the side to move, -1..1 (NaN: not visited).
    pub q: f64,
}
