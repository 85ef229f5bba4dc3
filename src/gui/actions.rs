//! What the page can ask of the game: moves, browsing (the view only), undo, a new game, seats
//! and time, playing on from a move, pause, analysis, loading records, and ending a game by
//! resignation or abort. Each action changes [`App`] and pushes the new state.

use serde_json::Value;

use crate::gui::app::{seat_name, App};
use crate::gui::game::{read_position, Ending, Seat, TimeSetting};
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
            None => self.game.time,
        };
        let start = match req.get("start").and_then(Value::as_str) {
            Some(p) if !p.trim().is_empty() => read_position(p, variant)?,
            _ => Position::new(variant),
        };
        self.stop_search();
        self.game.seats = seats;
        self.game.time = time;
        self.seat_names();
        self.game.reset(start);
        self.set_paused(false);
        self.analysis.on = false;
        self.message = format!(
            "new {} game: {} vs {}",
            variant.name(),
            self.game.names[0],
            self.game.names[1]
        );
        self.changed();
        Ok(())
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
        if let Some(t) = req.get("time") {
            let t = parse_time(t)?;
            if t != self.game.time {
                self.game.time = t;
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
        self.game.reset_clocks();
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

    /// Loads a game from text: PGN, a position string, or a move list from the start.
    pub fn act_load(&mut self, text: &str) -> Result<(), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("nothing to load".into());
        }
        let variant = self.game.variant();
        if text.starts_with('[') || text.contains("{") {
            let games = crate::referee::records::pgn::read_games(text);
            let g = games.first().ok_or("no complete game in the PGN text")?;
            return self.load_pgn_game(g);
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
                    .map_err(|e| format!("neither a position ({pos_err}) nor a move list ({e})"))
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

/// The time setting of a request: `{"movetime": ms}` or `{"base": ms, "inc": ms}`. Errors
/// say in words which field is wrong (the page shows them as they are).
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
