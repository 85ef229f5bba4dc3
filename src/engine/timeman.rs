//! Time management: a soft limit (no new iteration after it) and a hard limit (abort the
//! search) from the clock, increment and movestogo, minus the move overhead.

use std::time::Duration;

use crate::engine::types::Limits;

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
        // Keep back the overhead, but never more than half the move time.
        let hard = mt.saturating_sub(overhead.min(mt / 2));
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // About a 25th of the clock plus most of the increment; abort well before a quarter.
        assert_eq!(t.soft, Duration::from_micros(46_900));
        assert!(t.hard <= Duration::from_millis(250));
        assert!(t.hard > t.soft);
        let late = clock(100, 10, None, 10);
        assert!(late.hard < Duration::from_millis(30));
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
        assert!(allocate(&Limits {
            infinite: true,
            time_left: Some(Duration::from_secs(1)),
            ..Limits::default()
        })
        .is_none());
        assert!(allocate(&Limits::default()).is_none());
    }
}
