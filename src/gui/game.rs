//! The game on the GUI's board: a start position, the moves played, a cursor for browsing, who
//! plays each side and the clocks. Pure state: no engines, no HTTP.

use std::time::{Duration, Instant};

use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position, position_to_string};
use crate::rules::piece::Colour;
use crate::rules::position::{Position, Variant};

/// Who moves for a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// An engine by its index in the configured list.
    Engine(usize),
}

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

/// What is known about how a move was made, for the PGN record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// Thinking time in milliseconds (0 when unknown, e.g. a loaded game).
    pub ms: f64,
    /// The engine's last score (its own point of view) and depth.
    pub score: Option<crate::referee::players::player::Score>,
    pub depth: Option<u32>,
}

/// A game lost on the clock (the rules know nothing about clocks).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLoss(pub Colour);

pub struct Game {
    variant: Variant,
    start: Position,
    moves: Vec<Move>,
    /// One note per move.
    notes: Vec<MoveNote>,
    /// Moves shown: the board is the position after `moves[..cursor]`.
    cursor: usize,
    pub seats: [Seat; 2],
    pub time: TimeSetting,
    /// Remaining clock per side, in milliseconds (with a clock).
    clocks: [u64; 2],
    /// When the side to move started thinking (at the end of the move list only).
    turn_started: Instant,
    pub time_loss: Option<TimeLoss>,
    /// Names for the PGN tags.
    pub names: [String; 2],
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        Game {
            variant,
            start: Position::new(variant),
            moves: Vec::new(),
            notes: Vec::new(),
            cursor: 0,
            seats: [Seat::Human, Seat::Engine(0)],
            time: TimeSetting::MoveTime(1000),
            clocks: [0; 2],
            turn_started: Instant::now(),
            time_loss: None,
            names: ["White".into(), "Black".into()],
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Starts again from `start` (same seats and time).
    pub fn reset(&mut self, start: Position) {
        self.variant = start.variant();
        self.start = start;
        self.moves.clear();
        self.notes.clear();
        self.cursor = 0;
        self.time_loss = None;
        self.reset_clocks();
    }

    pub fn reset_clocks(&mut self) {
        if let TimeSetting::Clock { base, .. } = self.time {
            self.clocks = [base; 2];
        }
        self.turn_started = Instant::now();
    }

    pub fn start_position(&self) -> &Position {
        &self.start
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn notes(&self) -> &[MoveNote] {
        &self.notes
    }

    /// Sets the engine's score and depth of the last move.
    pub fn note_last(
        &mut self,
        score: Option<crate::referee::players::player::Score>,
        depth: Option<u32>,
    ) {
        if let Some(n) = self.notes.last_mut() {
            n.score = score;
            n.depth = depth;
        }
    }

    /// Drops the moves after the cursor (playing on from the shown position).
    pub fn truncate(&mut self) {
        self.moves.truncate(self.cursor);
        self.notes.truncate(self.cursor);
        self.time_loss = None;
        self.turn_started = Instant::now();
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Whether the board shows the latest position (where play happens).
    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The position after the first `n` moves.
    pub fn position_after(&self, n: usize) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves[..n.min(self.moves.len())] {
            p.make(m);
        }
        p
    }

    /// The position on the board (at the cursor).
    pub fn shown(&self) -> Position {
        self.position_after(self.cursor)
    }

    /// The move that led to the shown position.
    pub fn last_shown_move(&self) -> Option<Move> {
        self.cursor.checked_sub(1).map(|i| self.moves[i])
    }

    /// Whether the game has ended (by the rules or on time) at the end of the list.
    pub fn finished(&self) -> bool {
        self.time_loss.is_some() || self.position_after(self.moves.len()).is_finished()
    }

    /// Plays `mv` at the cursor; moves after the cursor are dropped (a new line). Clocks run
    /// only when playing at the end.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        if self.time_loss.is_some() && self.at_end() {
            return Err("the game is over: a side lost on time".into());
        }
        let mut pos = self.shown();
        let mover = pos.side_to_move();
        pos.play(mv).map_err(|e| e.to_string())?;
        let ms = self.turn_started.elapsed().as_secs_f64() * 1000.0;
        if self.at_end() {
            self.charge_clock(mover);
        } else {
            self.time_loss = None;
        }
        self.moves.truncate(self.cursor);
        self.notes.truncate(self.cursor);
        self.moves.push(mv);
        self.notes.push(MoveNote {
            ms,
            ..MoveNote::default()
        });
        self.cursor = self.moves.len();
        self.turn_started = Instant::now();
        Ok(())
    }

    /// Plays a move given as text, with the parser's or the rules library's reason on error.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let mv = parse_move(text.trim()).map_err(|e| format!("'{}': {e}", text.trim()))?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Whether the clock runs: not before the first move of the game (as on lichess).
    fn clock_started(&self) -> bool {
        !self.moves.is_empty()
    }

    fn charge_clock(&mut self, mover: Colour) {
        if let TimeSetting::Clock { inc, .. } = self.time {
            let used = if self.clock_started() {
                self.turn_started.elapsed().as_millis() as u64
            } else {
                0
            };
            let c = &mut self.clocks[mover.index()];
            *c = c.saturating_sub(used) + inc;
        }
    }

    /// Clocks as they stand now (the running one counted down), in milliseconds.
    pub fn clocks_now(&self) -> Option<[u64; 2]> {
        let TimeSetting::Clock { .. } = self.time else {
            return None;
        };
        let mut c = self.clocks;
        if let Some(TimeLoss(loser)) = self.time_loss {
            c[loser.index()] = 0;
        } else if self.at_end() && !self.finished() && self.clock_started() {
            let side = self.shown().side_to_move().index();
            c[side] = c[side].saturating_sub(self.turn_started.elapsed().as_millis() as u64);
        }
        Some(c)
    }

    /// Checks the running clock; returns true when a side has just lost on time.
    pub fn check_flag(&mut self) -> bool {
        if self.time_loss.is_some() || !self.at_end() || self.finished() {
            return false;
        }
        if let Some(c) = self.clocks_now() {
            let side = self.shown().side_to_move();
            if c[side.index()] == 0 && self.clock_started() {
                self.time_loss = Some(TimeLoss(side));
                self.clocks[side.index()] = 0;
                return true;
            }
        }
        false
    }

    /// The `go` command for an engine to move now.
    pub fn go_command(&self) -> String {
        match self.time {
            TimeSetting::MoveTime(ms) => format!("go movetime {ms}"),
            TimeSetting::Clock { inc, .. } => {
                let c = self.clocks_now().unwrap_or([0; 2]);
                format!("go wtime {} btime {} winc {inc} binc {inc}", c[0], c[1])
            }
        }
    }

    /// How long an engine may take for the move it is asked for now (before it counts as hung).
    pub fn think_limit(&self) -> Duration {
        match self.time {
            TimeSetting::MoveTime(ms) => Duration::from_millis(ms),
            TimeSetting::Clock { .. } => {
                let side = self.shown().side_to_move().index();
                Duration::from_millis(self.clocks_now().unwrap_or([0; 2])[side])
            }
        }
    }

    /// Moves the cursor (clamped to the list).
    pub fn go_to(&mut self, n: usize) {
        self.cursor = n.min(self.moves.len());
        if self.at_end() {
            self.turn_started = Instant::now();
        }
    }

    /// Takes back the last move (the list is cut at the end).
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.notes.pop();
        self.cursor = self.moves.len();
        self.time_loss = None;
        self.turn_started = Instant::now();
        true
    }

    /// The `position ...` command for the shown position: the start and the moves to the cursor.
    pub fn position_command(&self) -> String {
        let start = position_to_string(&self.start);
        let mut s = if start == "- w 0" {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        if self.cursor > 0 {
            s.push_str(" moves");
            for m in &self.moves[..self.cursor] {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }

    /// The moves as text, separated by spaces.
    pub fn move_list_text(&self) -> String {
        self.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Replaces the game by a start position and moves, checking each move.
    pub fn load(&mut self, start: Position, moves: &[String]) -> Result<(), String> {
        let mut pos = start.clone();
        let mut parsed = Vec::with_capacity(moves.len());
        for (i, t) in moves.iter().enumerate() {
            let mv = parse_move(t).map_err(|e| format!("move {} '{t}': {e}", i + 1))?;
            pos.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            parsed.push(mv);
        }
        self.reset(start);
        self.notes = vec![MoveNote::default(); parsed.len()];
        self.moves = parsed;
        self.cursor = self.moves.len();
        Ok(())
    }
}

/// Reads a start position in the project's notation (also `startpos`).
pub fn read_position(text: &str, variant: Variant) -> Result<Position, String> {
    parse_position(text.trim(), variant).map_err(|e| format!("bad position '{}': {e}", text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_browse_branch_and_undo() {
        let mut g = Game::new(Variant::Standard);
        g.play_text("c5c6d6").unwrap();
        g.play_text("f5f6f7").unwrap();
        assert_eq!(
            g.position_command(),
            "position startpos moves c5c6d6 f5f6f7"
        );
        g.go_to(1);
        assert!(!g.at_end());
        assert_eq!(g.position_command(), "position startpos moves c5c6d6");
        // Playing while browsing starts a new line.
        g.play_text("m5m6n6").unwrap();
        assert_eq!(g.move_list_text(), "c5c6d6 m5m6n6");
        assert!(g.undo());
        assert_eq!(g.move_list_text(), "c5c6d6");
        // The rules library's reason comes back.
        let e = g.play_text("i9i10j10").unwrap_err();
        assert!(e.contains("central hexagon"), "{e}");
        let e = g.play_text("zz").unwrap_err();
        assert!(e.contains("'zz'"), "{e}");
    }

    #[test]
    fn clocks_count_down_and_flag() {
        let mut g = Game::new(Variant::Standard);
        g.time = TimeSetting::Clock { base: 30, inc: 0 };
        g.reset(Position::new(Variant::Standard));
        assert!(!g.check_flag());
        // The clock does not run before the first move.
        std::thread::sleep(Duration::from_millis(40));
        assert!(!g.check_flag());
        g.play_text("c5c6d6").unwrap();
        assert!(!g.check_flag());
        std::thread::sleep(Duration::from_millis(40));
        assert!(g.check_flag());
        assert_eq!(g.time_loss, Some(TimeLoss(Colour::Black)));
        assert!(g.finished());
        // The loser's clock shows 0.
        assert_eq!(g.clocks_now(), Some([30, 0]));
        assert!(g.play_text("f5f6f7").is_err());
    }

    #[test]
    fn load_checks_every_move() {
        let mut g = Game::new(Variant::Standard);
        let start = read_position("startpos", Variant::Standard).unwrap();
        let e = g
            .load(start.clone(), &["c5c6d6".into(), "c5c6d6".into()])
            .unwrap_err();
        assert!(e.starts_with("move 2:"), "{e}");
        g.load(start, &["c5c6d6".into()]).unwrap();
        assert_eq!(g.cursor(), 1);
    }
}
