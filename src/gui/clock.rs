//! The clocks of the GUI's game: what each side has left, when the running turn started, and a
//! hold while play is paused. Browsing the move list never touches them: only moves, undo,
//! a new game and a pause do.

use std::time::{Duration, Instant};

/// How much time an engine gets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeSetting {
    /// A fixed time per move, in milliseconds.
    MoveTime(u64),
    /// A clock for each side: base and increment in milliseconds.
    Clock { base: u64, inc: u64 },
}

impl TimeSetting {
    pub fn text(self) -> String {
        match self {
            TimeSetting::MoveTime(ms) => format!("{:.3}s/move", ms as f64 / 1000.0),
            TimeSetting::Clock { base, inc } => {
                format!("{}+{}", base as f64 / 1000.0, inc as f64 / 1000.0)
            }
        }
    }
}

/// Both sides' remaining time and the running turn.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Remaining time per side in milliseconds, as it stood when the running turn started
    /// (with a clock; zeros with a time per move).
    remaining: [u64; 2],
    /// When the side to move started thinking.
    turn_started: Instant,
    /// Since when the running turn is held (play paused): that time is not charged.
    held_since: Option<Instant>,
}

impl Clocks {
    pub fn new(time: TimeSetting) -> Clocks {
        let mut c = Clocks {
            remaining: [0; 2],
            turn_started: Instant::now(),
            held_since: None,
        };
        c.reset(time);
        c
    }

    /// Both clocks to the base time; a new turn starts.
    pub fn reset(&mut self, time: TimeSetting) {
        self.remaining = Clocks::start_values(time);
        self.start_turn();
    }

    /// The clocks at the start of a game with this setting.
    pub fn start_values(time: TimeSetting) -> [u64; 2] {
        match time {
            TimeSetting::Clock { base, .. } => [base; 2],
            TimeSetting::MoveTime(_) => [0; 2],
        }
    }

    /// A new turn starts now (after a move, an undo...).
    pub fn start_turn(&mut self) {
        let now = Instant::now();
        self.turn_started = now;
        if self.held_since.is_some() {
            self.held_since = Some(now);
        }
    }

    /// Holds the running turn (pause) or lets it run again; held time is not charged.
    pub fn hold(&mut self, on: bool) {
        match (on, self.held_since) {
            (true, None) => self.held_since = Some(Instant::now()),
            (false, Some(t)) => {
                self.turn_started += t.elapsed();
                self.held_since = None;
            }
            _ => {}
        }
    }

    pub fn held(&self) -> bool {
        self.held_since.is_some()
    }

    /// Thinking time of the running turn so far (held time left out).
    pub fn turn_elapsed(&self) -> Duration {
        self.held_since
            .unwrap_or_else(Instant::now)
            .saturating_duration_since(self.turn_started)
    }

    /// The stored values (the running turn not counted).
    pub fn remaining(&self) -> [u64; 2] {
        self.remaining
    }

    /// Sets both values (undo gives back what a position had) and starts a new turn.
    pub fn restore(&mut self, values: [u64; 2]) {
        self.remaining = values;
        self.start_turn();
    }

    /// Ends the running turn of `side`: with a clock its time is taken off (`charged`: false
    /// before the clock starts) and the increment added. Returns the turn's thinking time.
    pub fn charge(&mut self, time: TimeSetting, side: usize, charged: bool) -> Duration {
        let used = self.turn_elapsed();
        if let TimeSetting::Clock { inc, .. } = time {
            let ms = if charged { used.as_millis() as u64 } else { 0 };
            let c = &mut self.remaining[side];
            *c = c.saturating_sub(ms) + inc;
        }
        self.start_turn();
        used
    }

    /// The clocks now, `running` counted down.
    pub fn now(&self, running: Option<usize>) -> [u64; 2] {
        let mut c = self.remaining;
        if let Some(side) = running {
            c[side] = c[side].saturating_sub(self.turn_elapsed().as_millis() as u64);
        }
        c
    }

    /// A side's clock fell: it shows 0 from now on.
    pub fn flag(&mut self, side: usize) {
        self.remaining[side] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_time_is_not_charged() {
        let time = TimeSetting::Clock {
            base: 60_000,
            inc: 1_000,
        };
        let mut c = Clocks::new(time);
        c.hold(true);
        std::thread::sleep(Duration::from_millis(100));
        // Only the moment before the hold counts.
        assert!(c.turn_elapsed() < Duration::from_millis(60));
        c.hold(false);
        std::thread::sleep(Duration::from_millis(30));
        let e = c.turn_elapsed();
        assert!(e >= Duration::from_millis(30), "{e:?}");
        let used = c.charge(time, 0, true);
        let r = c.remaining();
        assert_eq!(r[0], 61_000 - used.as_millis() as u64);
        assert_eq!(r[1], 60_000);
        // Before the clock starts nothing is taken, the increment is added.
        c.charge(time, 1, false);
        assert_eq!(c.remaining()[1], 61_000);
        c.restore([5, 6]);
        assert_eq!(c.now(None), [5, 6]);
        c.flag(1);
        assert_eq!(c.now(Some(0))[1], 0);
    }
}
