//! Time controls in cutechess syntax and the referee's own game clock.
//!
//! Syntax: `[moves/]time[+increment]` where `time` is seconds (`60`, `0.5`) or `m:s` (`1:30`,
//! `2:05.5`), and the increment is seconds; or `inf` for no clock. With `moves/`, the base time is
//! added again after every `moves` moves of that player (cutechess semantics: the remaining time
//! carries over). The increment is added after each move, as in UCI (`wtime` is sent without it).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A per-player time control. `infinite` means no clock at all; the other fields are then zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Moves per period (`40/` in `40/60+0.6`); `None` is sudden death.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
    pub infinite: bool,
}

impl TimeControl {
    /// No clock (`inf`).
    pub fn infinite() -> TimeControl {
        TimeControl {
            infinite: true,
            ..TimeControl::default()
        }
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let bad = |why: &str| {
            format!("invalid time control '{text}': {why} (expected [moves/]time[+inc], time as seconds or m:s, or 'inf')")
        };
        if text.is_empty() {
            return Err(bad("empty"));
        }
        if text.eq_ignore_ascii_case("inf") {
            return Ok(TimeControl::infinite());
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = m
                    .parse()
                    .map_err(|_| bad("moves per period must be a positive whole number"))?;
                if moves == 0 {
                    return Err(bad("moves per period must be at least 1"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((t, i)) => (t, Some(i)),
            None => (rest, None),
        };
        let base = parse_clock_time(time).map_err(|why| bad(&format!("time: {why}")))?;
        if base.is_zero() {
            return Err(bad("the base time must be positive"));
        }
        let increment = match inc {
            Some(i) => parse_seconds(i).map_err(|why| bad(&format!("increment: {why}")))?,
            None => Duration::ZERO,
        };
        Ok(TimeControl {
            moves,
            base,
            increment,
            infinite: false,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.infinite {
            return write!(f, "inf");
        }
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", format_seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", format_seconds(self.increment))?;
        }
        Ok(())
    }
}

/// `s` or `m:s` (the seconds part may have a fraction).
fn parse_clock_time(text: &str) -> Result<Duration, String> {
    match text.split_once(':') {
        Some((m, s)) => {
            if m.is_empty() || !m.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("'{text}' has bad minutes"));
            }
            let minutes: u64 = m.parse().map_err(|_| format!("'{m}' is too large"))?;
            let seconds = parse_seconds(s)?;
            if seconds >= Duration::from_secs(60) {
                return Err(format!("'{s}' seconds must be below 60 in m:s"));
            }
            minutes
                .checked_mul(60)
                .and_then(|m| Duration::from_secs(m).checked_add(seconds))
                .ok_or_else(|| format!("'{text}' is too large"))
        }
        None => parse_seconds(text),
    }
}

/// A non-negative decimal number of seconds, exact to the nanosecond (no float rounding:
/// `0.6` is exactly 600 ms, so Display round-trips).
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return Err(format!("'{text}' is not a non-negative number of seconds"));
    }
    if frac.len() > 9 {
        return Err(format!("'{text}' has more than 9 decimals"));
    }
    let secs: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| format!("'{text}' is too large"))?
    };
    let nanos: u32 = if frac.is_empty() {
        0
    } else {
        // Pad to 9 digits: "6" -> 600000000 ns.
        format!("{frac:0<9}").parse().unwrap_or(0)
    };
    Ok(Duration::new(secs, nanos))
}

/// Seconds with the shortest exact decimal fraction: 60, 0.6, 1.25.
fn format_seconds(d: Duration) -> String {
    let nanos = d.subsec_nanos();
    if nanos == 0 {
        return d.as_secs().to_string();
    }
    let frac = format!("{nanos:09}");
    format!("{}.{}", d.as_secs(), frac.trim_end_matches('0'))
}

/// One player's clock during a game.
#[derive(Debug, Clone)]
pub struct Clock {
    tc: TimeControl,
    remaining: Duration,
    /// Moves left in the current period (only with `moves/`).
    moves_left: Option<u32>,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            tc: *tc,
            remaining: if tc.infinite { Duration::ZERO } else { tc.base },
            moves_left: if tc.infinite { None } else { tc.moves },
        }
    }

    /// Time left now (zero for an infinite clock; check [`Clock::is_infinite`]).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    pub fn increment(&self) -> Duration {
        self.tc.increment
    }

    /// Moves left to the next time control, for `movestogo`; `None` in sudden death or without a clock.
    pub fn movestogo(&self) -> Option<u32> {
        self.moves_left
    }

    pub fn is_infinite(&self) -> bool {
        self.tc.infinite
    }

    /// Charges one move that took `elapsed`. If `elapsed > remaining + margin` the flag fell and the
    /// result is `Err(elapsed - remaining)`, the overrun past the time left (the margin is a grace the
    /// referee allows, not time the engine owns); the clock is then unchanged. Otherwise subtracts
    /// (never below zero), adds the increment, and refills the base at the end of a `moves/` period.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Duration> {
        if self.tc.infinite {
            return Ok(());
        }
        if elapsed > self.remaining.saturating_add(margin) {
            return Err(elapsed - self.remaining);
        }
        self.remaining = self
            .remaining
            .saturating_sub(elapsed)
            .saturating_add(self.tc.increment);
        if let (Some(left), Some(period)) = (self.moves_left, self.tc.moves) {
            if left <= 1 {
                self.remaining = self.remaining.saturating_add(self.tc.base);
                self.moves_left = Some(period);
            } else {
                self.moves_left = Some(left - 1);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_cutechess_forms() {
        let t = tc("40/60+0.6");
        assert_eq!(t.moves, Some(40));
        assert_eq!(t.base, ms(60_000));
        assert_eq!(t.increment, ms(600));
        assert!(!t.infinite);

        let t = tc("60+0.6");
        assert_eq!((t.moves, t.base, t.increment), (None, ms(60_000), ms(600)));
        // 1:30 = 1*60 + 30 = 90 s.
        let t = tc("1:30+1");
        assert_eq!((t.base, t.increment), (ms(90_000), ms(1000)));
        let t = tc("10");
        assert_eq!(
            (t.moves, t.base, t.increment),
            (None, ms(10_000), Duration::ZERO)
        );
        let t = tc("0.5+0.05");
        assert_eq!((t.base, t.increment), (ms(500), ms(50)));
        assert_eq!(tc("40/60").moves, Some(40));
        // 2:05.5 = 125.5 s.
        assert_eq!(tc("2:05.5").base, ms(125_500));
        assert_eq!(tc(".5").base, ms(500));
        assert!(tc("inf").infinite);
        assert!(tc("INF").infinite);
    }

    #[test]
    fn rejects_garbage_with_a_message() {
        for bad in [
            "",
            " ",
            "-1",
            "60+-1",
            "40/",
            "/60",
            "+1",
            "60+",
            "NaN",
            "nan",
            "inf+1",
            "abc",
            "0",
            "0+0.1",
            "0/60",
            "-5/60",
            "40/60/1",
            "1:",
            ":30",
            "1:60",
            "1:-5",
            "1e3",
            "60+0.1x",
            "1.2.3",
            "1.0000000001",
            "99999999999999999999999",
        ] {
            let err = bad.parse::<TimeControl>();
            assert!(err.is_err(), "'{bad}' should be rejected");
            assert!(err.unwrap_err().contains("invalid time control"));
        }
    }

    #[test]
    fn display_round_trips() {
        for (input, shown) in [
            ("40/60+0.6", "40/60+0.6"),
            ("60+0.6", "60+0.6"),
            ("1:30+1", "90+1"),
            ("10", "10"),
            ("0.5+0.05", "0.5+0.05"),
            ("10+0", "10"),
            ("inf", "inf"),
            ("0.123456789", "0.123456789"),
        ] {
            let t = tc(input);
            assert_eq!(t.to_string(), shown);
            assert_eq!(tc(shown), t, "round trip of {input}");
        }
    }

    #[test]
    fn sudden_death_with_increment() {
        // 1+0.1: 1000 ms; move of 300 ms -> 1000 - 300 + 100 = 800 ms.
        let mut c = Clock::new(&tc("1+0.1"));
        assert_eq!(c.remaining(), ms(1000));
        assert_eq!(c.movestogo(), None);
        assert_eq!(c.increment(), ms(100));
        assert_eq!(c.charge(ms(300), Duration::ZERO), Ok(()));
        assert_eq!(c.remaining(), ms(800));
        // Next move 850 ms > 800 with no margin: flag falls, overrun 50 ms, clock untouched.
        assert_eq!(c.charge(ms(850), Duration::ZERO), Err(ms(50)));
        assert_eq!(c.remaining(), ms(800));
        // With a 100 ms margin 850 is tolerated: 800 - 850 saturates to 0, + 100 increment = 100.
        assert_eq!(c.charge(ms(850), ms(100)), Ok(()));
        assert_eq!(c.remaining(), ms(100));
        // Exactly remaining + margin is still in time (flag falls only when strictly over).
        assert_eq!(c.charge(ms(150), ms(50)), Ok(()));
        assert_eq!(c.remaining(), ms(100));
        // Beyond the margin the overrun counts from the time left, not from the margin: 400 - 100.
        assert_eq!(c.charge(ms(400), ms(50)), Err(ms(300)));
    }

    #[test]
    fn moves_periods_refill_the_base() {
        // 3/10+1: 10 s for 3 moves, +1 s per move.
        let mut c = Clock::new(&tc("3/10+1"));
        assert_eq!(c.movestogo(), Some(3));
        c.charge(ms(2000), Duration::ZERO).unwrap(); // 10 - 2 + 1 = 9
        assert_eq!((c.remaining(), c.movestogo()), (ms(9000), Some(2)));
        c.charge(ms(4000), Duration::ZERO).unwrap(); // 9 - 4 + 1 = 6
        assert_eq!((c.remaining(), c.movestogo()), (ms(6000), Some(1)));
        // Third move ends the period: 6 - 5 + 1 = 2, then + 10 base = 12, counter back to 3.
        c.charge(ms(5000), Duration::ZERO).unwrap();
        assert_eq!((c.remaining(), c.movestogo()), (ms(12_000), Some(3)));
        c.charge(ms(1000), Duration::ZERO).unwrap(); // 12 - 1 + 1 = 12
        assert_eq!((c.remaining(), c.movestogo()), (ms(12_000), Some(2)));
    }

    #[test]
    fn one_move_periods_refill_every_move() {
        // 1/5: 5 s per move, unused time carries over. 5 - 2 + 5 = 8, then 8 - 7 + 5 = 6.
        let mut c = Clock::new(&tc("1/5"));
        c.charge(ms(2000), Duration::ZERO).unwrap();
        assert_eq!((c.remaining(), c.movestogo()), (ms(8000), Some(1)));
        c.charge(ms(7000), Duration::ZERO).unwrap();
        assert_eq!(c.remaining(), ms(6000));
        assert_eq!(c.charge(ms(6001), Duration::ZERO), Err(ms(1)));
    }

    #[test]
    fn infinite_clock_never_falls() {
        let mut c = Clock::new(&tc("inf"));
        assert!(c.is_infinite());
        assert_eq!(c.movestogo(), None);
        assert_eq!(
            c.charge(Duration::from_secs(1_000_000), Duration::ZERO),
            Ok(())
        );
        assert!(!Clock::new(&tc("1")).is_infinite());
    }
}
