//! What the page can ask of the game: moves, browsing (the view only), undo, a new game, seats
//! and time, playing on from a move, pause, analysis, loading records, and ending a game by
//! resignation or abort. Each action changes [`App`] and pushes the new state.

use serde_json::Value;

use crate::gui::app::{seat_name, App};
use crate::gui::game::{read_position, Ending, Seat, TimeSetting};
use crate::gui::levels::LEVEL_NAMES;
use crate::gui::records;
use crate::referee::settings::EngineConfig;
use crate::rules::piece::Colour;
use crate::rules::position::{Position, Variant};

/// Why there is no draw offer: the rulebook has none (docs/rules.md section 5).
pub const NO_DRAW_BY_AGREEMENT: &str = "PÜNCT's rules have no draw by agreement: a game is \
     drawn only by an equal centre count (standard game), the last drop of the basic game, or \
     two passes in a row. Resign instead, or abort before the second move.";

impl App {
    pub fn act_move(&mut self, text: &str) -> Result<(), String> {
        let side = self.game.shown().side_to_move();
        if self.game.seats[side.index()] != Seat::Human && self.game.at_end() {
            return Err(format!("it is the engine's turn ({} to move)", side.name()));
        }
        match self.game.play_text(text, "Human") {
            Ok(_) => {
                self.message.clear();
                // A move of one's own resumes the game (the engine answers), unless analysing.
                if !self.analysis.on {
                    self.set_paused(false);
                }
                self.changed();
                Ok(())
            }
            Err(e) => {
                self.message = e.clone();
                self.changed_view();
                Err(e)
            }
        }
    }

    /// Shows the position after `ply` moves. The view only: the game, its clocks and the
    /// engine's search for its move go on (analysis follows the board shown).
    pub fn act_goto(&mut self, ply: usize) {
        self.game.go_to(ply);
        self.schedule();
        self.changed_view();
    }

    /// Takes back moves until a human is to move (at most two), or one in engine games. After
    /// a loss on time the clocks get back what they had at the position returned to; after a
    /// resignation or an abort it is refused.
    pub fn act_undo(&mut self) -> Result<(), String> {
        self.game.undo()?;
        let side = self.game.game_side();
        let humans = self.game.seats.contains(&Seat::Human);
        if humans && self.game.seats[side.index()] != Seat::Human {
            let _ = self.game.undo();
        }
        self.set_paused(self.paused || !humans);
        self.message.clear();
        self.changed();
        Ok(())
    }

    pub fn act_new(&mut self, req: &Value) -> Result<(), String> {
        let variant = match req.get("variant").and_then(Value::as_str) {
            Some(v) => Variant::from_name(v).ok_or_else(|| format!("unknown variant '{v}'"))?,
            None => self.game.variant(),
        };
        let seats = [
            self.parse_seat(req.get("white"))?
                .unwrap_or(self.game.seats[0]),
            self.parse_seat(req.get("black"))?
                .unwrap_or(self.game.seats[1]),
        ];
        let time = match req.get("time") {
            Some(t) => parse_time(t)?,
            None => self.next_time.unwrap_or(self.game.time),
        };
        let help = match req.get("help") {
            None | Some(Value::Null) => self.game.help,
            Some(h) => h.as_bool().ok_or("help is true or false")?,
        };
        let levels = parse_levels(req.get("levels"))?.unwrap_or(self.game.levels);
        let start = match req.get("start").and_then(Value::as_str) {
            Some(p) if !p.trim().is_empty() => read_position(p, variant)?,
            _ => Position::new(variant),
        };
        self.stop_search();
        self.game.seats = seats;
        self.game.levels = levels;
        self.start_seated_engines();
        self.game.time = time;
        self.game.help = help;
        self.next_time = None;
        self.seat_names();
        self.game.reset(start);
        self.game.from_record = false;
        self.set_paused(false);
        self.analysis.on = false;
        self.forget_other_games();
        self.message = format!(
            "new {} game: {} vs {}",
            variant.name(),
            self.game.names[0],
            self.game.names[1]
        );
        self.changed();
        Ok(())
    }

    /// A new game or a load: the review and the games of a loaded file are of another game.
    fn forget_other_games(&mut self) {
        if let Some(r) = self.review.take() {
            r.cancel.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        self.pgn_games.clear();
    }

    /// Why engine help (analysis, hint, review) is refused now, if it is: a clock game with a
    /// human player, going on (not a record replayed), without help chosen for it.
    pub fn help_refused(&self) -> Option<String> {
        // A record replayed is no game being played.
        let human = self.game.seats.contains(&Seat::Human) && !self.game.from_record;
        (human && self.game.rated_clock() && self.game.in_progress()).then(|| {
            "no engine help during a clock game: tick \"help\" before New game to allow \
             analysis, hints and takebacks that give the time back (the PGN records it)"
                .to_string()
        })
    }

    /// The names on the hands: who sits on each side.
    fn seat_names(&mut self) {
        let cfgs = self.engine_cfgs();
        self.game.names = [
            seat_name(&cfgs, self.game.seats[0]),
            seat_name(&cfgs, self.game.seats[1]),
        ];
    }

    /// Seats and time from the page, applied at once: an engine seated on the side to move
    /// starts thinking (play resumes, unless analysing).
    pub fn act_setup(&mut self, req: &Value) -> Result<(), String> {
        let seats = [
            self.parse_seat(req.get("white"))?
                .unwrap_or(self.game.seats[0]),
            self.parse_seat(req.get("black"))?
                .unwrap_or(self.game.seats[1]),
        ];
        let levels = parse_levels(req.get("levels"))?;
        let mut note = None;
        if let Some(t) = req.get("time") {
            let t = parse_time(t)?;
            let clock = |t: TimeSetting| matches!(t, TimeSetting::Clock { .. });
            if t == self.game.time {
                self.next_time = None;
            } else if (clock(t) || clock(self.game.time))
                && self.game.in_progress()
                && !self.game.from_record
            {
                // The running clocks stay: a change of the clock is for the next game (a record
                // replayed has no clocks to keep: playing on from it takes the new one).
                self.next_time = Some(t);
                note = Some(format!(
                    "the time {} is for the next game (New game); this game keeps {}",
                    t.text(),
                    self.game.time.text()
                ));
            } else {
                self.game.time = t;
                self.next_time = None;
                self.game.reset_clocks();
            }
        }
        if seats != self.game.seats {
            self.game.seats = seats;
            self.seat_names();
            let side = self.game.game_side();
            if matches!(seats[side.index()], Seat::Engine(_)) && !self.analysis.on {
                self.set_paused(false);
            }
            self.message = format!("{} vs {}", self.game.names[0], self.game.names[1]);
        }
        if let Some(levels) = levels.filter(|l| *l != self.game.levels) {
            // At once, from the engine's next search (a search under way starts again).
            self.game.levels = levels;
            let names: Vec<String> = Colour::ALL
                .iter()
                .filter(|&&c| matches!(self.game.seats[c.index()], Seat::Engine(_)))
                .map(|&c| format!("{} {}", c.name(), self.level_label(c)))
                .collect();
            if !names.is_empty() {
                self.message = format!("level: {}", names.join(", "));
            }
        }
        self.start_seated_engines();
        if let Some(n) = note {
            self.message = n;
        }
        if self.analysis.on && self.help_refused().is_some() {
            self.analysis.on = false;
            self.set_paused(self.paused_before_analysis);
        }
        self.changed();
        Ok(())
    }

    /// Plays on from the shown position (a loaded game, or any move of the list): the moves
    /// after it are dropped, seats and time as given (else as they are), play resumes.
    pub fn act_play_from(&mut self, req: &Value) -> Result<(), String> {
        if let Some(p) = req.get("ply").and_then(Value::as_u64) {
            self.game.go_to(p as usize);
        }
        let dropped = self.game.moves().len() - self.game.cursor();
        self.stop_search();
        self.game.truncate();
        // A new game from this position: its time applies at once.
        if let Some(t) = req.get("time") {
            self.game.time = parse_time(t)?;
            self.next_time = None;
        }
        self.game.reset_clocks();
        self.game.from_record = false;
        self.analysis.on = false;
        self.set_paused(false);
        self.act_setup(req)?;
        // A replayed record is a game of the seats now.
        self.seat_names();
        self.message = format!(
            "playing on from move {}{}: {} vs {}",
            self.game.cursor(),
            if dropped > 0 {
                format!(" ({dropped} later moves dropped)")
            } else {
                String::new()
            },
            self.game.names[0],
            self.game.names[1]
        );
        self.changed_view();
        Ok(())
    }

    /// Engines seated start at once, so that the page learns their levels before they play.
    fn start_seated_engines(&mut self) {
        for s in self.game.seats {
            if let Seat::Engine(i) = s {
                self.start_engine(i);
            }
        }
    }

    /// A side's level in words: `Club · Elo 1250`, `full strength`.
    pub(crate) fn level_label(&self, side: Colour) -> String {
        if let Some(l) = self.seat_level(side) {
            return l.label();
        }
        let known = match self.game.seats[side.index()] {
            Seat::Engine(i) => self.engines.get(i).is_some_and(|e| e.caps.known),
            Seat::Human => true,
        };
        match self.game.levels[side.index()] {
            // Its Elo is known once the engine has started.
            Some(step) if !known => LEVEL_NAMES[step as usize - 1].to_string(),
            _ => "full strength".into(),
        }
    }

    pub(crate) fn engine_cfgs(&self) -> Vec<EngineConfig> {
        self.engines.iter().map(|e| e.cfg.clone()).collect()
    }

    fn parse_seat(&self, v: Option<&Value>) -> Result<Option<Seat>, String> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s == "human" => Ok(Some(Seat::Human)),
            Some(v) => match v.as_u64() {
                Some(i) if (i as usize) < self.engines.len() => Ok(Some(Seat::Engine(i as usize))),
                _ => Err(format!("a side is \"human\" or an engine number, not {v}")),
            },
        }
    }

    pub fn act_analysis(&mut self, req: &Value) -> Result<(), String> {
        let on = req
            .get("on")
            .and_then(Value::as_bool)
            .ok_or("analysis needs \"on\": true or false")?;
        if let Some(e) = req.get("engine") {
            let e = e.as_u64().filter(|&e| (e as usize) < self.engines.len());
            self.analysis.engine = e.ok_or("no such engine")? as usize;
        }
        if let Some(m) = req.get("multipv") {
            self.analysis.multipv = m
                .as_u64()
                .filter(|m| (1..=64).contains(m))
                .ok_or("multipv is 1..64")? as u32;
        }
        if on && self.engines.is_empty() {
            return Err("no engine is configured".into());
        }
        if let Some(why) = self.help_refused().filter(|_| on) {
            return Err(why);
        }
        if on && !self.analysis.on {
            // Analysis takes the board: engines do not move meanwhile.
            self.paused_before_analysis = self.paused;
            self.set_paused(true);
        } else if !on && self.analysis.on {
            self.set_paused(self.paused_before_analysis);
        }
        self.analysis.on = on;
        // A new setting restarts the search.
        self.game_version += 1;
        self.schedule();
        self.changed_view();
        Ok(())
    }

    pub fn act_pause(&mut self, paused: bool) {
        self.set_paused(paused);
        if !paused {
            self.analysis.on = false;
            self.game.go_to(self.game.moves().len());
        }
        self.changed();
    }

    /// The side that resigns when the request does not say: the only human side, else the
    /// side to move.
    fn resigning_side(&self, req: &Value) -> Result<Colour, String> {
        match req.get("side").and_then(Value::as_str) {
            Some("white") => Ok(Colour::White),
            Some("black") => Ok(Colour::Black),
            Some(s) => Err(format!("side is \"white\" or \"black\", not '{s}'")),
            None => {
                let humans: Vec<Colour> = Colour::ALL
                    .into_iter()
                    .filter(|c| self.game.seats[c.index()] == Seat::Human)
                    .collect();
                Ok(match humans.as_slice() {
                    [one] => *one,
                    _ => self.game.game_side(),
                })
            }
        }
    }

    /// Ends the game: `side` (or see [`App::resigning_side`]) resigns and the other wins.
    pub fn act_resign(&mut self, req: &Value) -> Result<(), String> {
        let side = self.resigning_side(req)?;
        self.game.end(Ending::Resigned(side))?;
        self.stop_search();
        self.message = format!("{} resigns: {} wins", side.name(), (!side).name());
        self.changed();
        Ok(())
    }

    /// Ends a game with fewer than 2 moves with no result.
    pub fn act_abort(&mut self) -> Result<(), String> {
        self.game.end(Ending::Aborted)?;
        self.stop_search();
        self.message = "game aborted: no result".into();
        self.changed();
        Ok(())
    }

    /// Loads a game from text: PGN (game `index` of several, else the first), a position
    /// string, or a move list from the start. Errors quote a short excerpt of the text.
    pub fn act_load(&mut self, text: &str, index: Option<usize>) -> Result<(), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("nothing to load".into());
        }
        let variant = self.game.variant();
        if text.starts_with('[') || text.contains("{") {
            let games = crate::referee::records::pgn::read_games(text);
            if games.is_empty() {
                return Err(format!(
                    "no complete game in the PGN text {}",
                    excerpt(text)
                ));
            }
            let i = index.unwrap_or(0);
            let g = games.get(i).ok_or_else(|| {
                format!("the PGN text has {} games, not game {}", games.len(), i + 1)
            })?;
            self.load_pgn_game(g).map_err(|e| clip(&e, 200))?;
            if games.len() > 1 {
                self.pgn_games = records::game_summaries(&games);
                self.message = format!(
                    "this PGN holds {} games: game {} of {} loaded ({} vs {}, {}); choose another \
                     in the list under Load",
                    games.len(),
                    i + 1,
                    games.len(),
                    self.game.names[0],
                    self.game.names[1],
                    g.result.as_deref().unwrap_or("*")
                );
                self.pgn_index = i;
                self.changed_view();
            }
            return Ok(());
        }
        let result = match read_position(text, variant) {
            Ok(p) => self.game.load(p, &[], ["", ""]),
            Err(pos_err) => {
                let moves: Vec<String> = text
                    .split_whitespace()
                    .filter(|t| !t.ends_with('.'))
                    .map(str::to_string)
                    .collect();
                self.game
                    .load(Position::new(variant), &moves, ["", ""])
                    .map_err(|e| {
                        let pos_err = pos_err.replace(text, "the text");
                        format!(
                            "{} is neither a position ({}) nor a move list ({})",
                            excerpt(text),
                            clip(&pos_err, 120),
                            clip(&e, 160)
                        )
                    })
            }
        };
        result?;
        // Not a record: the hands name the seats (not the players of a record loaded before).
        self.seat_names();
        self.after_load("loaded");
        Ok(())
    }

    fn load_pgn_game(&mut self, g: &crate::referee::records::pgn::PgnGame) -> Result<(), String> {
        let variant = match g.tag("Variant") {
            Some(v) => Variant::from_name(v).ok_or_else(|| format!("unknown variant '{v}'"))?,
            None => self.game.variant(),
        };
        let start = match g.tag("FEN") {
            Some(f) => read_position(f, variant)?,
            None => Position::new(variant),
        };
        let names = [
            g.tag("White").unwrap_or("White").to_string(),
            g.tag("Black").unwrap_or("Black").to_string(),
        ];
        self.game.load(start, &g.moves, [&names[0], &names[1]])?;
        // Replaying: from the start, nobody moves by itself; the hands name the record's
        // players until play goes on from a move.
        self.game.names = names;
        self.game.seats = [Seat::Human, Seat::Human];
        self.game.go_to(0);
        let result = g.result.clone().unwrap_or_default();
        self.after_load(&format!(
            "loaded {} vs {} ({result}): step through with the arrows",
            self.game.names[0], self.game.names[1]
        ));
        Ok(())
    }

    fn after_load(&mut self, what: &str) {
        self.stop_search();
        self.analysis.on = false;
        self.set_paused(true);
        self.forget_other_games();
        self.next_time = None;
        self.game.from_record = true;
        self.message = what.to_string();
        self.changed();
    }

    pub fn act_load_result(&mut self, file: &str, index: usize) -> Result<(), String> {
        let games = records::read_result_file(&self.results_dir, file)?;
        let g = games
            .get(index)
            .ok_or_else(|| format!("{file} has no game {index}"))?;
        self.load_pgn_game(g)
    }
}

/// A short, printable excerpt of a text for a message: its first 40 characters (control
/// characters and undecodable bytes shown as `·`) and its length when cut.
pub fn excerpt(text: &str) -> String {
    let n = text.chars().count();
    let shown: String = text.chars().take(40).map(printable).collect();
    if n > 40 {
        format!("'{shown}…' ({n} characters)")
    } else {
        format!("'{shown}'")
    }
}

fn printable(c: char) -> char {
    if c.is_control() || c == '\u{FFFD}' {
        '·'
    } else {
        c
    }
}

/// A message cut to `max` characters, printable.
pub fn clip(text: &str, max: usize) -> String {
    let mut s: String = text.chars().take(max).map(printable).collect();
    if text.chars().count() > max {
        s.push('…');
    }
    s
}

/// The time setting of a request: `{"movetime": ms}` or `{"base": ms, "inc": ms}`. Errors
/// say in words which field is wrong (the page shows them as they are).
/// `"levels": [white, black]`, each a step 1..=8 of the level names or null (full strength).
fn parse_levels(v: Option<&Value>) -> Result<Option<[Option<u8>; 2]>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let bad = || {
        format!(
            "levels are [white, black], each null (full strength) or 1..{} ({}), not {v}",
            LEVEL_NAMES.len(),
            LEVEL_NAMES.join(", ")
        )
    };
    let a = v.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
    let one = |x: &Value| match x {
        Value::Null => Ok(None),
        x => match x.as_u64() {
            Some(n) if (1..=LEVEL_NAMES.len() as u64).contains(&n) => Ok(Some(n as u8)),
            _ => Err(bad()),
        },
    };
    Ok(Some([one(&a[0])?, one(&a[1])?]))
}

pub fn parse_time(t: &Value) -> Result<TimeSetting, String> {
    // Milliseconds: a whole number (a float is rounded); None for anything else.
    let ms = |v: &Value| {
        v.as_u64().or_else(|| {
            v.as_f64()
                .filter(|f| f.is_finite() && *f >= 0.0 && *f < 1e12)
                .map(|f| f.round() as u64)
        })
    };
    if let Some(m) = t.get("movetime") {
        let m = ms(m)
            .filter(|m| (10..=3_600_000).contains(m))
            .ok_or("the time per move is empty or out of range: give 0.01 s to 1 hour")?;
        return Ok(TimeSetting::MoveTime(m));
    }
    if let Some(b) = t.get("base") {
        let base = ms(b)
            .filter(|b| (100..=36_000_000).contains(b))
            .ok_or("the clock's base time is empty or out of range: give 0.1 s to 10 hours")?;
        let inc = match t.get("inc") {
            None | Some(Value::Null) => 0,
            Some(i) => ms(i)
                .ok_or("the increment is empty or not a number of seconds (0 to 600)")?
                .min(600_000),
        };
        return Ok(TimeSetting::Clock { base, inc });
    }
    Err("no time given: a time per move, or a clock's base time and increment".into())
}
