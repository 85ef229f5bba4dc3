//! The game on the GUI's board: a start position, the moves played, who plays each side, the
//! clocks and how the game ended; and, apart from all that, the ply the board shows (the
//! cursor). Play always happens at the end of the move list: browsing only moves the cursor
//! and changes nothing of the game (clocks, whose turn it is). Pure state: no engines, no HTTP.

use std::time::Duration;

use crate::gui::clock::Clocks;
pub use crate::gui::clock::TimeSetting;
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

/// What is known about how a move was made, for the PGN record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// Thinking time in milliseconds (0 when unknown, e.g. a loaded game).
    pub ms: f64,
    /// The engine's last score (its own point of view) and depth.
    pub score: Option<crate::referee::players::player::Score>,
    pub depth: Option<u32>,
    /// Who played it ("Human", an engine's name, or a loaded record's player).
    pub by: String,
    /// Both clocks right after the move (with a clock), so that undo can give them back.
    pub clocks: Option<[u64; 2]>,
    /// The strength level the engine played it at (`UCI_Elo 1500`), None at full strength.
    pub level: Option<String>,
}

/// A game ended by something other than the rules (which know nothing about clocks and
/// players).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This side's clock fell.
    Time(Colour),
    /// This side resigned.
    Resigned(Colour),
    /// Stopped before both sides had moved: no result.
    Aborted,
}

pub struct Game {
    variant: Variant,
    start: Position,
    moves: Vec<Move>,
    /// One note per move.
    notes: Vec<MoveNote>,
    /// The ply shown: the board is the position after `moves[..cursor]`. A view only.
    cursor: usize,
    pub seats: [Seat; 2],
    /// Each side's strength level for an engine seated there: a step of
    /// [`LEVEL_NAMES`](crate::gui::levels::LEVEL_NAMES), None for full strength. Kept from game
    /// to game.
    pub levels: [Option<u8>; 2],
    pub time: TimeSetting,
    clocks: Clocks,
    /// The clocks at the start position.
    start_clocks: [u64; 2],
    pub ended: Option<Ending>,
    /// Who sits on each side now, as the hands show it (a loaded record: its players).
    pub names: [String; 2],
    /// Engine help in a clock game (analysis, hint, takebacks that give the time back): a
    /// choice made for the game and written into its PGN. Without it a clock game is played
    /// as rated games are: the clocks run on through takebacks and no engine helps.
    pub help: bool,
    /// The game was loaded from a record and nobody has played a move since (leaving it loses
    /// nothing).
    pub from_record: bool,
}

impl Game {
    pub fn new(variant: Variant) -> Game {
        let time = TimeSetting::MoveTime(1000);
        Game {
            variant,
            start: Position::new(variant),
            moves: Vec::new(),
            notes: Vec::new(),
            cursor: 0,
            seats: [Seat::Human, Seat::Engine(0)],
            levels: [None, None],
            time,
            clocks: Clocks::new(time),
            start_clocks: Clocks::start_values(time),
            ended: None,
            names: ["White".into(), "Black".into()],
            help: false,
            from_record: false,
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
        self.ended = None;
        self.reset_clocks();
    }

    /// Both clocks to the base time from the current position on (a new time setting, or
    /// playing on from a position).
    pub fn reset_clocks(&mut self) {
        self.clocks.reset(self.time);
        self.start_clocks = self.clocks.remaining();
        let now = self.start_clocks;
        for n in &mut self.notes {
            n.clocks = matches!(self.time, TimeSetting::Clock { .. }).then_some(now);
        }
    }

    /// Holds the clock (play paused) or lets it run again.
    pub fn hold_clock(&mut self, on: bool) {
        self.clocks.hold(on);
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

    /// Sets the engine's score and depth of the last move, and the level it played at.
    pub fn note_last(
        &mut self,
        score: Option<crate::referee::players::player::Score>,
        depth: Option<u32>,
        level: Option<String>,
    ) {
        if let Some(n) = self.notes.last_mut() {
            n.score = score;
            n.depth = depth;
            n.level = level;
        }
    }

    /// A side's level for the record: the one every move of the side was played at, or, before
    /// the side has moved, `seated` (the level of who sits there now). A side whose moves were
    /// played at several levels, or some by a person, has none: no Elo is claimed for it.
    pub fn side_level(&self, side: Colour, seated: Option<String>) -> Option<String> {
        let mut levels = (0..self.notes.len())
            .filter(|&i| self.mover_of(i) == side)
            .map(|i| &self.notes[i].level);
        let Some(first) = levels.next() else {
            return seated;
        };
        levels.all(|l| l == first).then(|| first.clone()).flatten()
    }

    /// Whether a clock game is played as rated games are: no engine help, and the clocks run
    /// on through takebacks.
    pub fn rated_clock(&self) -> bool {
        matches!(self.time, TimeSetting::Clock { .. }) && !self.help
    }

    /// Whether the game is going on: a move played and not over.
    pub fn in_progress(&self) -> bool {
        !self.moves.is_empty() && !self.finished()
    }

    /// Drops the moves after the cursor (playing on from the shown position). The clocks get
    /// back what they had there, except in a rated clock game, where they run on.
    pub fn truncate(&mut self) {
        let now = self.clocks_now();
        self.moves.truncate(self.cursor);
        self.notes.truncate(self.cursor);
        self.ended = None;
        match now {
            Some(c) if self.rated_clock() => self.clocks.restore(c),
            _ => self.clocks.restore(self.clocks_at(self.cursor)),
        }
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

    /// The position of the game (after every move), where play happens.
    pub fn current(&self) -> Position {
        self.position_after(self.moves.len())
    }

    /// The side to move in the game (not on the board shown).
    pub fn game_side(&self) -> Colour {
        self.current().side_to_move()
    }

    /// Which side played move `i` (0-based).
    pub fn mover_of(&self, i: usize) -> Colour {
        let first = self.start.side_to_move();
        if i.is_multiple_of(2) {
            first
        } else {
            !first
        }
    }

    /// The move that led to the shown position.
    pub fn last_shown_move(&self) -> Option<Move> {
        self.cursor.checked_sub(1).map(|i| self.moves[i])
    }

    /// Whether the game has ended (by the rules, on time, by resignation or abort).
    pub fn finished(&self) -> bool {
        self.ended.is_some() || self.current().is_finished()
    }

    /// The side lost on time, if one did.
    pub fn time_loss(&self) -> Option<Colour> {
        match self.ended {
            Some(Ending::Time(c)) => Some(c),
            _ => None,
        }
    }

    /// Plays `mv` by `by` on the board shown: at the end of the list the move of the game
    /// (its clock charged), on an earlier position a new line (the later moves are dropped and
    /// the clocks are as they were at that position). The board then shows the new move.
    pub fn play(&mut self, mv: Move, by: &str) -> Result<(), String> {
        if self.at_end() {
            return self.play_at_end(mv, by);
        }
        let mut pos = self.shown();
        pos.play(mv).map_err(|e| e.to_string())?;
        self.truncate();
        self.push(mv, by, 0.0);
        self.cursor = self.moves.len();
        Ok(())
    }

    /// Plays `mv` by `by` at the end of the list, whatever the board shows; the board follows
    /// the game only when it showed the end.
    pub fn play_at_end(&mut self, mv: Move, by: &str) -> Result<(), String> {
        if let Some(e) = self.ended {
            return Err(format!("the game is over: {}", ending_text(e)));
        }
        let mut pos = self.current();
        let mover = pos.side_to_move();
        pos.play(mv).map_err(|e| e.to_string())?;
        let follow = self.at_end();
        let used = self
            .clocks
            .charge(self.time, mover.index(), self.clock_started());
        self.push(mv, by, used.as_secs_f64() * 1000.0);
        if follow {
            self.cursor = self.moves.len();
        }
        Ok(())
    }

    fn push(&mut self, mv: Move, by: &str, ms: f64) {
        self.moves.push(mv);
        self.from_record = false;
        let clocks =
            matches!(self.time, TimeSetting::Clock { .. }).then_some(self.clocks.remaining());
        self.notes.push(MoveNote {
            ms,
            by: by.to_string(),
            clocks,
            ..MoveNote::default()
        });
    }

    /// Plays a move given as text, with the parser's or the rules library's reason on error.
    pub fn play_text(&mut self, text: &str, by: &str) -> Result<Move, String> {
        let mv = parse_move(text.trim()).map_err(|e| format!("'{}': {e}", text.trim()))?;
        self.play(mv, by)?;
        Ok(mv)
    }

    /// Whether the clock runs: not before the first move of the game (as on lichess).
    fn clock_started(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whose clock runs now, whatever the board shows: none before the first move, after
    /// the end, with a time per move, or while play is paused.
    pub fn clock_running(&self) -> Option<Colour> {
        let clock = matches!(self.time, TimeSetting::Clock { .. });
        (clock && self.clock_started() && !self.finished() && !self.clocks.held())
            .then(|| self.game_side())
    }

    /// The clocks at the position after `n` moves (as they were when it was reached).
    pub fn clocks_at(&self, n: usize) -> [u64; 2] {
        n.checked_sub(1)
            .and_then(|i| self.notes.get(i))
            .and_then(|note| note.clocks)
            .unwrap_or(self.start_clocks)
    }

    /// Clocks as they stand now, in milliseconds: the side to move's counted down by the time
    /// its turn has run (held time left out, so that a paused clock shows what it will charge).
    pub fn clocks_now(&self) -> Option<[u64; 2]> {
        let TimeSetting::Clock { .. } = self.time else {
            return None;
        };
        let counting = self.clock_started() && !self.finished();
        Some(self.clocks.now(counting.then(|| self.game_side().index())))
    }

    /// Checks the running clock; returns true when a side has just lost on time.
    pub fn check_flag(&mut self) -> bool {
        let Some(side) = self.clock_running() else {
            return false;
        };
        if self.clocks_now().is_some_and(|c| c[side.index()] == 0) {
            self.ended = Some(Ending::Time(side));
            self.clocks.flag(side.index());
            return true;
        }
        false
    }

    /// Ends the game by resignation or abort (refused when it is over already).
    pub fn end(&mut self, e: Ending) -> Result<(), String> {
        if let Some(old) = self.ended {
            return Err(format!("the game is over: {}", ending_text(old)));
        }
        if let Some(o) = self.current().outcome() {
            return Err(format!("the game is over: {o}"));
        }
        if e == Ending::Aborted && self.moves.len() >= 2 {
            return Err(format!(
                "only a game with fewer than 2 moves can be aborted ({} played): resign instead",
                self.moves.len()
            ));
        }
        // The running turn's time is charged.
        if let Some(left) = self.clocks_now() {
            self.clocks.restore(left);
        }
        self.ended = Some(e);
        Ok(())
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
                let side = self.game_side().index();
                Duration::from_millis(self.clocks_now().unwrap_or([0; 2])[side])
            }
        }
    }

    /// Moves the cursor (clamped to the list): the view only, the game is not touched.
    pub fn go_to(&mut self, n: usize) {
        self.cursor = n.min(self.moves.len());
    }

    /// Takes back the last move (the list is cut at the end). The clocks get back what they
    /// had at the position returned to (a loss on time is taken back with it), except in a
    /// rated clock game, where they run on (and a loss on time stands). A resignation or an
    /// abort is not taken back (start a new game or play on from a move).
    pub fn undo(&mut self) -> Result<(), String> {
        if let Some(e @ (Ending::Resigned(_) | Ending::Aborted)) = self.ended {
            return Err(format!(
                "the game is over ({}): start a new game or play on from a move",
                ending_text(e)
            ));
        }
        if let Some(e @ Ending::Time(_)) = self.ended.filter(|_| self.rated_clock()) {
            return Err(format!(
                "the game is over ({}): a takeback gives no time back in a clock game without \
                 engine help (tick \"help\" for the next game to allow it)",
                ending_text(e)
            ));
        }
        if self.moves.is_empty() {
            return Err("no move to take back".into());
        }
        let now = self.clocks_now();
        self.moves.pop();
        self.notes.pop();
        self.cursor = self.moves.len();
        self.ended = None;
        match now {
            Some(c) if self.rated_clock() => self.clocks.restore(c),
            _ => self.clocks.restore(self.clocks_at(self.moves.len())),
        }
        Ok(())
    }

    /// The `position ...` command for the position after `n` moves.
    pub fn position_command(&self, n: usize) -> String {
        let start = position_to_string(&self.start);
        let mut s = if start == "- w 0" {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        let n = n.min(self.moves.len());
        if n > 0 {
            s.push_str(" moves");
            for m in &self.moves[..n] {
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

    /// Replaces the game by a start position and moves, checking each move; `by` names who
    /// played White's and Black's moves.
    pub fn load(&mut self, start: Position, moves: &[String], by: [&str; 2]) -> Result<(), String> {
        let mut pos = start.clone();
        let mut parsed = Vec::with_capacity(moves.len());
        for (i, t) in moves.iter().enumerate() {
            let mv = parse_move(t).map_err(|e| {
                // A long token is quoted short: the message is read on the page.
                let short: String = t.chars().take(24).collect();
                let cut = if short.len() < t.len() { "…" } else { "" };
                let e = e.to_string().replace(t.as_str(), "it");
                format!("move {} '{short}{cut}': {e}", i + 1)
            })?;
            pos.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
            parsed.push(mv);
        }
        self.reset(start);
        self.moves = parsed;
        self.notes = (0..self.moves.len())
            .map(|i| MoveNote {
                by: by[self.mover_of(i).index()].to_string(),
                clocks: matches!(self.time, TimeSetting::Clock { .. }).then_some(self.start_clocks),
                ..MoveNote::default()
            })
            .collect();
        self.cursor = self.moves.len();
        Ok(())
    }

    /// Who played a side's moves, for the PGN tags: each player once, in order ("Human /
    /// punct" when the human took over from the engine); `seat` (who sits there now) when the
    /// side has not moved.
    pub fn players(&self, side: Colour, seat: &str) -> String {
        let mut names: Vec<&str> = Vec::new();
        for (i, n) in self.notes.iter().enumerate() {
            if self.mover_of(i) == side && !n.by.is_empty() && !names.contains(&n.by.as_str()) {
                names.push(&n.by);
            }
        }
        if names.is_empty() {
            seat.to_string()
        } else {
            names.join(" / ")
        }
    }
}

/// A sentence for an ending.
pub fn ending_text(e: Ending) -> String {
    match e {
        Ending::Time(c) => format!("{} lost on time", c.name()),
        Ending::Resigned(c) => format!("{} resigned", c.name()),
        Ending::Aborted => "aborted".into(),
    }
}

/// Reads a start position in the project's notation (also `startpos`).
pub fn read_position(text: &str, variant: Variant) -> Result<Position, String> {
    parse_position(text.trim(), variant).map_err(|e| format!("bad position '{}': {e}", text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new game on a clock of `base` ms a side, no increment.
    fn clock_game(base: u64, help: bool) -> Game {
        let mut g = Game::new(Variant::Standard);
        g.time = TimeSetting::Clock { base, inc: 0 };
        g.help = help;
        g.reset(Position::new(Variant::Standard));
        g
    }

    #[test]
    fn play_browse_branch_and_undo() {
        let mut g = Game::new(Variant::Standard);
        g.play_text("c5c6d6", "Human").unwrap();
        g.play_text("f5f6f7", "Human").unwrap();
        assert_eq!(
            g.position_command(2),
            "position startpos moves c5c6d6 f5f6f7"
        );
        g.go_to(1);
        assert!(!g.at_end());
        assert_eq!(g.position_command(1), "position startpos moves c5c6d6");
        assert_eq!(g.game_side(), Colour::White);
        // A move of the game while browsing: the view stays.
        g.play_at_end("m5m6n6".parse().unwrap(), "punct").unwrap();
        assert_eq!(g.cursor(), 1);
        assert_eq!(g.moves().len(), 3);
        // Playing on the board shown starts a new line.
        g.play_text("m5m6n6", "Human").unwrap();
        assert_eq!(g.move_list_text(), "c5c6d6 m5m6n6");
        assert!(g.undo().is_ok());
        assert_eq!(g.move_list_text(), "c5c6d6");
        // The rules library's reason comes back.
        let e = g.play_text("i9i10j10", "Human").unwrap_err();
        assert!(e.contains("central hexagon"), "{e}");
        let e = g.play_text("zz", "Human").unwrap_err();
        assert!(e.contains("'zz'"), "{e}");
    }

    #[test]
    fn clocks_count_down_and_flag() {
        // With help: a takeback after the flag gives the clocks back.
        let mut g = clock_game(30, true);
        assert!(!g.check_flag());
        // The clock does not run before the first move.
        std::thread::sleep(Duration::from_millis(40));
        assert!(!g.check_flag());
        g.play_text("c5c6d6", "Human").unwrap();
        assert!(!g.check_flag());
        // Browsing does not stop it.
        g.go_to(0);
        std::thread::sleep(Duration::from_millis(40));
        assert!(g.check_flag());
        assert_eq!(g.ended, Some(Ending::Time(Colour::Black)));
        assert!(g.finished());
        // The loser's clock shows 0.
        assert_eq!(g.clocks_now(), Some([30, 0]));
        g.go_to(1);
        assert!(g.play_text("f5f6f7", "Human").is_err());
        // Undo gives back the clocks of the position returned to.
        g.undo().unwrap();
        assert_eq!(g.ended, None);
        assert_eq!(g.clocks_now(), Some([30, 30]));
    }

    /// Issue 46, bug 2: a paused clock shows the time its turn has used (it used to jump back to
    /// the start of the turn); issue 46, item 2: without help, a takeback in a clock game gives
    /// no time back and a loss on time stands.
    #[test]
    fn a_paused_clock_shows_its_time_and_rated_takebacks_give_none_back() {
        let mut g = clock_game(60_000, false);
        g.play_text("c5c6d6", "Human").unwrap();
        std::thread::sleep(Duration::from_millis(120));
        g.hold_clock(true);
        let paused = g.clocks_now().unwrap()[1];
        assert!(paused <= 60_000 - 120, "{paused}");
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(g.clocks_now().unwrap()[1], paused, "a held clock moved");
        g.hold_clock(false);
        g.play_text("f5f6f7", "Human").unwrap();
        assert!(g.clocks_now().unwrap()[1] <= paused);
        std::thread::sleep(Duration::from_millis(60));
        let before = g.clocks_now().unwrap();
        g.undo().unwrap();
        let after = g.clocks_now().unwrap();
        assert!(
            after[1] <= before[1],
            "Black got time back: {before:?} {after:?}"
        );
        assert!(
            after[0] <= before[0],
            "White got time back: {before:?} {after:?}"
        );
        assert!(before[0] < 60_000);
        // With help the takeback gives back what the position had.
        g.help = true;
        g.undo().unwrap();
        assert_eq!(g.clocks_now(), Some([60_000, 60_000]));
        // Without help a loss on time stands.
        let mut h = clock_game(30, false);
        h.play_text("c5c6d6", "Human").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(h.check_flag());
        assert!(h.undo().unwrap_err().contains("no time back"));
    }

    #[test]
    fn browsing_keeps_the_turn_running() {
        let mut g = clock_game(60_000, false);
        g.play_text("c5c6d6", "Human").unwrap();
        std::thread::sleep(Duration::from_millis(30));
        g.go_to(0);
        std::thread::sleep(Duration::from_millis(30));
        g.go_to(1);
        assert_eq!(g.clock_running(), Some(Colour::Black));
        g.play_text("f5f6f7", "Human").unwrap();
        assert!(g.notes()[1].ms >= 60.0, "{:?}", g.notes()[1]);
        assert!(g.clocks_now().unwrap()[1] <= 60_000 - 60);
        // A pause holds the clock.
        g.hold_clock(true);
        assert_eq!(g.clock_running(), None);
        g.hold_clock(false);
        assert_eq!(g.clock_running(), Some(Colour::White));
    }

    #[test]
    fn resign_abort_and_who_played() {
        let mut g = Game::new(Variant::Standard);
        g.play_text("c5c6d6", "Human").unwrap();
        assert!(g.end(Ending::Aborted).is_ok());
        assert!(g.end(Ending::Resigned(Colour::White)).is_err());
        assert!(g.undo().is_err());
        g.reset(Position::new(Variant::Standard));
        g.play_text("c5c6d6", "Human").unwrap();
        g.play_at_end("f5f6f7".parse().unwrap(), "punct").unwrap();
        assert!(g.end(Ending::Aborted).unwrap_err().contains("fewer than 2"));
        g.play_at_end("m5m6n6".parse().unwrap(), "punct").unwrap();
        assert_eq!(g.players(Colour::White, "x"), "Human / punct");
        assert_eq!(g.players(Colour::Black, "x"), "punct");
        g.end(Ending::Resigned(Colour::Black)).unwrap();
        assert!(g.finished());
        assert!(g.play_at_end("f8g8g9".parse().unwrap(), "punct").is_err());
        let mut h = Game::new(Variant::Standard);
        assert_eq!(h.players(Colour::Black, "punct"), "punct");
        let start = read_position("startpos", Variant::Standard).unwrap();
        h.load(start, &["c5c6d6".into(), "f5f6f7".into()], ["a", "b"])
            .unwrap();
        assert_eq!(h.players(Colour::White, "Human"), "a");
        assert_eq!(h.players(Colour::Black, "Human"), "b");
    }

    #[test]
    fn load_checks_every_move() {
        let mut g = Game::new(Variant::Standard);
        let start = read_position("startpos", Variant::Standard).unwrap();
        let e = g
            .load(start.clone(), &["c5c6d6".into(), "c5c6d6".into()], ["", ""])
            .unwrap_err();
        assert!(e.starts_with("move 2:"), "{e}");
        g.load(start, &["c5c6d6".into()], ["", ""]).unwrap();
        assert_eq!(g.cursor(), 1);
    }
}
