//! The state the page draws, as JSON: the board shown and its legal moves, the game (moves,
//! whose turn, clocks, how it ended, who played), engines, analysis, review. Browsing changes
//! only the fields of the board shown (`cursor`, `position`, `side`, `legal`, `svg`...); the
//! game's fields (`game_side`, `clock_running`, `clocks`, `game_over`) do not depend on it.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::gui::actions::NO_DRAW_BY_AGREEMENT;
use crate::gui::app::{App, Purpose};
use crate::gui::engines::EngineState;
use crate::gui::game::{read_position, Seat, TimeSetting};
use crate::gui::outcome::{colour_name, game_over, Over};
use crate::rules::moves::Move;
use crate::rules::notation::{parse_cell, position_to_string};
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::Position;
use crate::rules::svg::{board_svg, SvgOptions};

impl App {
    pub fn state_json(&self) -> Value {
        let shown = self.game.shown();
        let last = self.game.last_shown_move();
        let side = shown.side_to_move();
        let at_end = self.game.at_end();
        // Earlier positions can be played on by hand (a new line, after a confirmation).
        let human_turn = self.game.seats[side.index()] == Seat::Human || !at_end;
        let over = game_over(&self.game);
        let ended_here = at_end && over.is_some();
        let can_move = !shown.is_finished() && !ended_here && human_turn;
        let legal = if can_move {
            legal_json(&shown)
        } else {
            json!({"drops": {}, "shifts": {}, "pass": false, "movable": {}})
        };
        let svg = |flipped| {
            board_svg(
                &shown,
                &SvgOptions {
                    flipped,
                    last_move: last,
                    panel: false,
                },
            )
        };
        let game_over = over.as_ref().map(Over::json);
        // The shown board's end: the game's when it shows the end (a board before the end of
        // the list is never finished).
        let outcome = if at_end {
            game_over.clone().unwrap_or(Value::Null)
        } else {
            Value::Null
        };
        let finished = self.game.finished();
        let actions = json!({
            "resign": !finished,
            "abort": !finished && self.game.moves().len() < 2,
            "draw": false,
        });
        let players = [
            self.game.players(Colour::White, &self.game.names[0]),
            self.game.players(Colour::Black, &self.game.names[1]),
        ];
        let hands: BTreeMap<&str, BTreeMap<String, u8>> = Colour::ALL
            .iter()
            .map(|&c| {
                (
                    colour_name(c),
                    Kind::ALL
                        .iter()
                        .map(|&k| (k.letter().to_string(), shown.in_hand(c, k)))
                        .collect(),
                )
            })
            .collect();
        let seat = |s: Seat| match s {
            Seat::Human => json!("human"),
            Seat::Engine(i) => json!(i),
        };
        let time = time_json(self.game.time);
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|e| {
                let (state, detail) = match &e.state {
                    EngineState::Off => ("off", String::new()),
                    EngineState::Starting => ("starting", String::new()),
                    EngineState::Ready => ("ready", String::new()),
                    EngineState::Thinking => ("thinking", String::new()),
                    EngineState::Failed(d) => ("failed", d.clone()),
                };
                // Its levels once its options are known (`why`: why it has none).
                let st = &e.caps.strength;
                let levels: Vec<Value> = st
                    .ladder()
                    .iter()
                    .map(|l| {
                        json!({"step": l.step, "name": l.name, "elo": l.elo,
                        "skill": l.skill, "label": l.label(), "option": l.option_text()})
                    })
                    .collect();
                json!({"name": e.cfg.name, "state": state, "detail": detail,
                       "multipv_max": e.caps.multipv_max, "restarts": e.restarts,
                       "options_known": e.caps.known, "levels": levels,
                       "levels_why": if e.caps.known { st.why_none() } else { None }})
            })
            .collect();
        let [cw, cb] = shown.centre_count();
        let review = self.review.as_ref().map(|r| {
            // How many leading moves the game shares with the reviewed ones (their marks
            // still hold after playing on from a move, or undo).
            let same_start = r.start == position_to_string(self.game.start_position());
            let agree = if same_start {
                self.game
                    .moves()
                    .iter()
                    .zip(&r.moves)
                    .take_while(|(a, b)| a.to_string() == **b)
                    .count()
            } else {
                0
            };
            let same_game = same_start && agree == r.moves.len();
            let start = read_position(&r.start, self.game.variant())
                .unwrap_or_else(|_| self.game.start_position().clone());
            let verdicts = crate::referee::review::verdicts(&start, &r.moves, &r.evals);
            json!({
                "current": same_game,
                "moves": r.moves,
                "agree": agree,
                "engine": r.engine,
                "movetime": r.movetime_ms,
                "total": r.moves.len() + 1,
                "done": r.evals.len(),
                "running": r.running,
                "error": r.error,
                "evals": r.evals.iter().map(|e| json!({"cp": e.white_cp, "text": e.text,
                    "depth": e.depth, "best": e.best})).collect::<Vec<_>>(),
                "marks": verdicts.iter().map(|v| json!({"class": v.class.map(|c| c.name()),
                    "drop": v.drop, "better": v.better})).collect::<Vec<_>>(),
            })
        });
        let notes: Vec<Value> = self
            .game
            .notes()
            .iter()
            .map(|n| json!({"ms": n.ms.round(), "clocks": n.clocks}))
            .collect();
        let mut v = json!({
            "boot": self.boot,
            "version": self.version,
            "review": review,
            "hint": self.hint,
            "notes": notes,
            "variant": self.game.variant().name(),
            "start": position_to_string(self.game.start_position()),
            "moves": self.game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "cursor": self.game.cursor(),
            "at_end": at_end,
            "game_side": colour_name(self.game.game_side()),
            "clock_running": self.game.clock_running().map(colour_name),
            "game_over": game_over,
            "players": players,
            "actions": actions,
            "draw": {"allowed": false, "why": NO_DRAW_BY_AGREEMENT},
            "position": position_to_string(&shown),
            "side": colour_name(side),
            "ply": shown.ply(),
            "last": last.map(|m| m.to_string()),
            "hands": hands,
            "centre": [cw, cb],
            "outcome": outcome,
            "can_move": can_move,
            "legal": legal,
            "seats": [seat(self.game.seats[0]), seat(self.game.seats[1])],
            "names": self.game.names,
            "time": time,
            "clocks": self.game.clocks_now(),
            "engines": engines,
            "thinking": self.search.map(|s| json!({"engine": s.engine, "search": s.id, "ply": s.cursor,
                "purpose": if s.purpose == Purpose::Analysis { "analysis" } else { "move" }})),
            "analysis": {"on": self.analysis.on, "engine": self.analysis.engine, "multipv": self.analysis.multipv},
            "paused": self.paused,
            "message": self.message,
            "svg": svg(false),
            "svg_flipped": svg(true),
        });
        // Issue 46: the time for the next game, engine help, a loaded record, a PGN's games.
        v["next_time"] = json!(self.next_time.map(time_json));
        v["help"] = json!(self.game.help);
        v["help_refused"] = json!(self.help_refused());
        v["from_record"] = json!(self.game.from_record);
        v["pgn_games"] = json!(self.pgn_games);
        v["pgn_index"] = json!(self.pgn_index);
        // Issue 45: each side's level (a step, null for full strength), in words for an engine
        // seat (null for a person).
        v["levels"] = json!(self.game.levels);
        v["level_labels"] = json!(Colour::ALL.map(|c| match self.game.seats[c.index()] {
            Seat::Engine(_) => Some(self.level_label(c)),
            Seat::Human => None,
        }));
        v
    }
}

fn time_json(t: TimeSetting) -> Value {
    match t {
        TimeSetting::MoveTime(ms) => json!({"movetime": ms}),
        TimeSetting::Clock { base, inc } => json!({"base": base, "inc": inc}),
    }
}

/// The legal moves of a position for the page: drops by kind, shifts by the space they leave,
/// whether a pass is legal, and for each top dot of a movable piece the space of its PÜNCT.
pub fn legal_json(pos: &Position) -> Value {
    let mut drops: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut shifts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pass = false;
    for m in pos.legal_moves() {
        match m {
            Move::Drop(p) => drops
                .entry(p.kind().letter().to_string())
                .or_default()
                .push(p.to_string()),
            Move::Shift { from, to } => shifts
                .entry(from.to_string())
                .or_default()
                .push(to.to_string()),
            Move::Pass => pass = true,
        }
    }
    let mut movable = BTreeMap::new();
    for from in shifts.keys() {
        let Ok(c) = parse_cell(from) else { continue };
        if let Some(i) = pos.movable_piece_at(c) {
            for cell in pos.piece(i).placement.cells() {
                if pos.top_piece(cell) == Some(i) {
                    movable.insert(cell.to_string(), from.clone());
                }
            }
        }
    }
    json!({"drops": drops, "shifts": shifts, "pass": pass, "movable": movable})
}
