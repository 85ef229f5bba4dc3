//! Time management: a soft limit (no new iteration after it) and a hard limit (abort the
//! search) from the clock, increment and movestogo, minus the move overhead.

use std::time::{Duration, Instant};

use crate::engine::types::{Limits, SearchControl};

/// Moves the clock is spread over in sudden death.
const SUDDEN_DEATH_MOVES: u32 = 25;
/// Never plan to use more than this fraction of the remaining clock on one move.
const MAX_SHARE: u32 = 4;
/// Kept back on the clock beyond the move overhead.
const SAFETY: Duration = Duration::from_millis(5);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// Do not start a new iteration once this much time has passed.
    pub soft: Duration,
    /// Abort the search at this time.
    pub hard: Duration,
}

/// The limits for one move, or `None` when the search has no time limit.
pub fn allocate(limits: &Limits) -> Option<TimeLimits> {
    if limits.infinite {
        return None;
    }
    let overhead = limits.move_overhead;
    if let Some(mt) = limits.movetime {
        let hard = mt.saturating_sub(kept_back(limits));
        return Some(TimeLimits { soft: hard, hard });
    }
    let left = limits.time_left?;
    let usable = left.saturating_sub(overhead + SAFETY);
    let mtg = limits.movestogo.unwrap_or(SUDDEN_DEATH_MOVES).clamp(1, 50);
    let inc = limits.increment;
    let soft = (usable / mtg + inc * 3 / 4).min(usable / 2);
    let hard = (soft * 3).min(usable / MAX_SHARE.min(mtg + 1).max(1));
    let hard = if mtg == 1 { usable * 3 / 4 } else { hard };
    // A floor so that a nearly empty clock still yields a move, never beyond the clock.
    let ceiling = left
        .saturating_sub(overhead)
        .max(Duration::from_micros(200));
    let hard = hard.max(Duration::from_millis(1)).min(ceiling);
    Some(TimeLimits {
        soft: soft.min(hard),
        hard,
    })
}

/// The time kept back from the search for communication: the move overhead, but never more
/// than half a fixed move time.
pub fn kept_back(limits: &Limits) -> Duration {
    match limits.movetime {
        Some(mt) => limits.move_overhead.min(mt / 2),
        None => limits.move_overhead,
    }
}

/// The clock of one search: time limits start after `ponderhit`.
pub(super) struct Clock {
    pub(super) started: Instant,
    /// Start of the timed part (search start, or the moment pondering ended).
    pub(super) timed_from: Instant,
    pub(super) limits: Option<TimeLimits>,
    pub(super) pondering: bool,
}

impl Clock {
    pub(super) fn new(limits: &Limits, ctl: &SearchControl) -> Clock {
        let now = limits.received.unwrap_or_else(Instant::now);
        Clock {
            started: now,
            timed_from: now,
            limits: allocate(limits),
            pondering: ctl.is_pondering(),
        }
    }

    pub(super) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    pub(super) fn update_ponder(&mut self, ctl: &SearchControl) {
        if self.pondering && !ctl.is_pondering() {
            self.pondering = false;
            self.timed_from = ctl.ponderhit_at().unwrap_or_else(Instant::now);
        }
    }

    pub(super) fn hard_expired(&mut self, ctl: &SearchControl) -> bool {
        self.update_ponder(ctl);
        match self.limits {
            Some(l) if !self.pondering => self.timed_from.elapsed() >= l.hard,
            _ => false,
        }
    }

    /// For a search that can stop after any visit (`SearchMode puct`): a quarter of the way
    /// from the soft limit to the hard one. Alpha-beta stops only between iterations, past the
    /// soft limit: at `tc=10+0.1` it used 1.45 times what stopping at the soft limit used.
    pub(super) fn anytime_expired(&mut self, ctl: &SearchControl) -> bool {
        self.update_ponder(ctl);
        match self.limits {
            Some(l) if !self.pondering => {
                self.timed_from.elapsed() >= l.soft + l.hard.saturating_sub(l.soft) / 4
            }
            _ => false,
        }
    }

    pub(super) fn soft_expired(&mut self, ctl: &SearchControl) -> bool {
        self.update_ponder(ctl);
        match self.limits {
            Some(l) if !self.pondering => self.timed_from.elapsed() >= l.soft,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    fn clock(left_ms: u64, inc_ms: u64, mtg: Option<u32>, overhead_ms: u64) -> TimeLimits {
        allocate(&Limits {
            time_left: Some(Duration::from_millis(left_ms)),
            increment: Duration::from_millis(inc_ms),
            movestogo: mtg,
            move_overhead: Duration::from_millis(overhead_ms),
            ..Limits::default()
        })
        .unwrap()
    }

    #[test]
    fn soft_below_hard_below_clock() {
        for (left, inc, mtg, ov) in [
            (1000, 10, None, 10),
            (60_000, 0, None, 30),
            (300_000, 2000, Some(40), 10),
            (5_000, 100, Some(1), 10),
            (50, 10, None, 10),
            (20, 0, None, 10),
        ] {
            let t = clock(left, inc, mtg, ov);
            assert!(t.soft <= t.hard, "{t:?} for {left} {inc} {mtg:?}");
            assert!(
                t.hard < Duration::from_millis(left),
                "{t:?} for {left} {inc} {mtg:?}"
            );
        }
    }

    #[test]
    fn one_second_game_figures() {
        let t = clock(1000, 10, None, 10);
        // Usable 985 ms: a 25th of it plus 3/4 of the increment, and three times that to abort.
        assert_eq!(t.soft, Duration::from_micros(46_900));
        assert_eq!(t.hard, Duration::from_micros(140_700));
        // Usable 85 ms: the soft share is 10.9 ms, the hard one capped at a quarter.
        let late = clock(100, 10, None, 10);
        assert_eq!(late.soft, Duration::from_micros(10_900));
        assert_eq!(late.hard, Duration::from_micros(21_250));
    }

    /// `movestogo` N spreads the usable clock (clock - overhead - 5 ms) over N moves; the hard
    /// limit is three soft shares, at most the usable clock over min(4, N + 1), so that the
    /// moves still to come keep something. The figures are worked out by hand.
    #[test]
    fn movestogo_figures() {
        // N = 40, usable 39 995 ms: soft 999.875 ms, hard 3 x soft (below usable / 4).
        let t = clock(40_000, 0, Some(40), 0);
        assert_eq!((t.soft, t.hard), (us(999_875), us(2_999_625)));
        // N = 10 with increment 100 and overhead 20, usable 9 975 ms: soft 997.5 + 75 ms, hard
        // 3 x soft is more than usable / 4 = 2 493.75 ms.
        let t = clock(10_000, 100, Some(10), 20);
        assert_eq!((t.soft, t.hard), (us(1_072_500), us(2_493_750)));
        // N = 3, usable 9 995 ms: soft usable / 3, hard usable / 4, and soft never above hard.
        let t = clock(10_000, 0, Some(3), 0);
        assert_eq!((t.soft, t.hard), (us(2_498_750), us(2_498_750)));
        // N = 2: soft usable / 2, hard usable / 3 (one move still to come after the next).
        let t = clock(10_000, 0, Some(2), 0);
        let third = Duration::from_millis(9995) / 3;
        assert_eq!((t.soft, t.hard), (third, third));
        // N = 1, the last move before the control: half the clock, abort at 3/4.
        let t = clock(10_000, 0, Some(1), 0);
        assert_eq!((t.soft, t.hard), (us(4_997_500), us(7_496_250)));
        // N = 0 is read as 1, N above 50 as 50.
        assert_eq!(clock(10_000, 0, Some(0), 0), t);
        let t = clock(100_000, 0, Some(80), 0);
        assert_eq!((t.soft, t.hard), (us(1_999_900), us(5_999_700)));
        assert_eq!(clock(100_000, 0, Some(50), 0), t);
        // A large increment: the soft limit is still at most half the usable clock.
        let t = clock(1000, 2000, Some(1), 0);
        assert_eq!((t.soft, t.hard), (us(497_500), us(746_250)));
    }

    #[test]
    fn nearly_empty_clock_floors() {
        // Usable 5 ms: hard 0.6 ms is raised to the 1 ms floor; soft stays 0.2 ms.
        let t = clock(20, 0, None, 10);
        assert_eq!((t.soft, t.hard), (us(200), us(1000)));
        // Nothing usable: the floor is cut to the clock minus the overhead, at least 200 us.
        let t = clock(12, 0, None, 12);
        assert_eq!((t.soft, t.hard), (Duration::ZERO, us(200)));
        let t = clock(14, 0, None, 10);
        assert_eq!((t.soft, t.hard), (Duration::ZERO, us(1000)));
    }

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    #[test]
    fn movetime_and_infinite() {
        let t = allocate(&Limits {
            movetime: Some(Duration::from_millis(200)),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        })
        .unwrap();
        assert_eq!(t.hard, Duration::from_millis(190));
        assert_eq!(t.soft, t.hard);
        // An overhead beyond half the move time keeps back only half.
        let t = allocate(&Limits {
            movetime: Some(Duration::from_millis(10)),
            move_overhead: Duration::from_millis(30),
            ..Limits::default()
        })
        .unwrap();
        assert_eq!((t.soft, t.hard), (us(5000), us(5000)));
        assert!(allocate(&Limits {
            infinite: true,
            time_left: Some(Duration::from_secs(1)),
            ..Limits::default()
        })
        .is_none());
        assert!(allocate(&Limits::default()).is_none());
    }

    /// The clock runs from the `go`'s arrival (`Limits::received`) and, when pondering, from
    /// the `ponderhit`'s, not from when the search thread gets to them.
    #[test]
    fn the_clock_runs_from_the_arrival_of_go_and_of_ponderhit() {
        let limits = |received| Limits {
            movetime: Some(Duration::from_millis(100)),
            move_overhead: Duration::ZERO,
            received,
            ..Limits::default()
        };
        let ctl = SearchControl::default();
        let long_ago = Instant::now() - Duration::from_millis(150);
        let mut late = Clock::new(&limits(Some(long_ago)), &ctl);
        assert!(late.hard_expired(&ctl) && late.elapsed() >= Duration::from_millis(150));
        let mut fresh = Clock::new(&limits(None), &ctl);
        assert!(!fresh.hard_expired(&ctl));
        // Pondering: no limit runs until ponderhit, then from its arrival.
        ctl.pondering.store(true, Ordering::SeqCst);
        let mut pondering = Clock::new(&limits(Some(long_ago)), &ctl);
        assert!(!pondering.hard_expired(&ctl));
        ctl.ponder_hit(Instant::now() - Duration::from_millis(50));
        assert!(!pondering.hard_expired(&ctl), "50 ms of 100 have passed");
        ctl.ponder_hit(long_ago);
        let mut hit_long_ago = Clock::new(&limits(None), &SearchControl::default());
        hit_long_ago.pondering = true;
        assert!(hit_long_ago.hard_expired(&ctl), "150 ms of 100 have passed");
    }
}
