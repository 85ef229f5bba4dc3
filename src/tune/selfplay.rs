//! One self-play game in this process, for `punct-tune gen`: the engine's search library
//! directly (no engine process, no protocol), one thread, a fixed node count per move, a
//! seeded random opening, and the labels of the sampled positions (the search's score, depth
//! and best move; the game's result once it is over).
//!
//! Everything about game `g` follows from the settings and `g` alone (the opening, which plies
//! are sampled, and the search, which is deterministic with one thread and fresh tables), so a
//! game replays identically on any thread, machine or run.

use crate::engine::search::params::Params;
use crate::engine::search::Searcher;
use crate::engine::types::{self, Limits, SearchControl};
use crate::referee::openings::{mix, random_opening};
use crate::referee::players::player::Score;
use crate::referee::records::sample::{drawn, has_one_move_threat, Sample};
use crate::rules::moves::Move;
use crate::rules::notation::parse_position;
use crate::rules::piece::Colour;
use crate::rules::position::{EndReason, Variant};

/// The settings of a generation run (what makes its games what they are).
#[derive(Clone, Debug, PartialEq)]
pub struct GenSettings {
    pub variant: Variant,
    /// Nodes per move in a sampled position.
    pub nodes: u64,
    /// Nodes per move elsewhere.
    pub play_nodes: u64,
    /// Random plies of the openings.
    pub plies: u32,
    /// Share of the positions sampled, from ply `skip_plies` on.
    pub freq: f64,
    pub skip_plies: u32,
    /// Leave out positions where either side has a one-move win.
    pub quiet: bool,
    pub srand: u64,
    /// A draw after this many full moves (from the empty board).
    pub max_moves: u32,
    /// A draw at the third occurrence of a position (as the referee adjudicates).
    pub repetition: bool,
    pub hash_mb: usize,
    pub params: Params,
}

/// A finished game and its samples.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOut {
    pub game: u64,
    pub opening: String,
    pub moves: Vec<Move>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended: `connection`, `centre`, `last_drop`, `double_pass`, `repetition`,
    /// `max_moves`.
    pub reason: &'static str,
    pub samples: Vec<Sample>,
    /// Nodes searched in the game.
    pub nodes: u64,
}

/// The opening of game `game` (the referee's random openings, keyed by the game number).
pub fn opening_of(s: &GenSettings, game: u64) -> String {
    random_opening(s.variant, s.plies, mix(s.srand ^ mix(game)))
}

fn referee_score(s: types::Score) -> Score {
    match s {
        types::Score::Cp(v) => Score::Cp(v),
        types::Score::Mate(v) => Score::Mate(v),
    }
}

/// Plays game `game` with `searcher` (whose parameters and hash size the caller has set);
/// `Ok(None)` if `stop()` turned true before the end. An error is a bug of the engine (no move,
/// or an illegal one).
pub fn play_game(
    searcher: &mut Searcher,
    s: &GenSettings,
    game: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameOut>, String> {
    let opening = opening_of(s, game);
    let mut pos = parse_position(&opening, s.variant)
        .map_err(|e| format!("game {game}: opening '{opening}': {e}"))?;
    searcher.clear();
    let ctl = SearchControl::default();
    let mut moves = Vec::new();
    let mut samples = Vec::new();
    let mut nodes = 0;
    let (winner, reason) = loop {
        if let Some(o) = pos.outcome() {
            let reason = match o.reason {
                EndReason::Connection => "connection",
                EndReason::CentreCount { .. } => "centre",
                EndReason::LastDrop => "last_drop",
                EndReason::DoublePass => "double_pass",
            };
            break (o.winner, reason);
        }
        if s.repetition && pos.repetitions() >= 3 {
            break (None, "repetition");
        }
        if pos.ply() >= 2 * s.max_moves {
            break (None, "max_moves");
        }
        if stop() {
            return Ok(None);
        }
        let ply = pos.ply();
        let sampled = ply >= s.skip_plies
            && drawn(s.srand, game, ply, s.freq)
            && !(s.quiet && has_one_move_threat(&pos));
        let limits = Limits {
            nodes: Some(if sampled { s.nodes } else { s.play_nodes }),
            multipv: 1,
            ..Limits::default()
        };
        let r = searcher.search(&pos, &limits, &ctl, &mut |_| {});
        nodes += r.nodes;
        let Some(mv) = r.best else {
            return Err(format!("game {game}: the search gave no move in {pos}"));
        };
        // A search that completed no iteration (too few nodes) has no score: no label.
        if sampled && r.depth > 0 {
            samples.push(Sample {
                position: pos.to_string(),
                side: pos.side_to_move(),
                ply,
                score: Some(referee_score(r.score)),
                depth: Some(r.depth),
                result: String::new(),
                game,
                best: Some(mv),
            });
        }
        if let Err(e) = pos.play(mv) {
            return Err(format!("game {game}: the search's move {mv} in {pos}: {e}"));
        }
        moves.push(mv);
    };
    let result = match winner {
        Some(Colour::White) => "1-0",
        Some(Colour::Black) => "0-1",
        None => "1/2-1/2",
    };
    for x in &mut samples {
        x.result = result.to_string();
    }
    Ok(Some(GameOut {
        game,
        opening,
        moves,
        result: result.to_string(),
        reason,
        samples,
        nodes,
    }))
}
