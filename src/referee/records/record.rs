//! A finished game as the referee records it: the JSONL `game` object and the source of the
//! PGN record, the statistics and the samples.

use serde::{Deserialize, Serialize};

use crate::referee::players::player::Score;

/// One move as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    #[serde(rename = "move")]
    pub mv: String,
    /// Think time measured by the referee, in milliseconds.
    pub ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Referee time from the previous `bestmove` to this `go`, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead_us: Option<f64>,
    /// The mover's clock after the move, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<f64>,
    /// The time the mover was allotted for this move, in milliseconds: its fixed time per
    /// move (`st`), else its clock before the move; none without a time limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_ms: Option<f64>,
}

/// A finished game (the JSONL `game` object and the source of the PGN record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub game: u64,
    pub round: u32,
    pub pair: u64,
    pub white: String,
    pub black: String,
    /// Indices of the players in the configuration.
    pub white_player: usize,
    pub black_player: usize,
    pub variant: String,
    pub opening_index: u64,
    pub opening: String,
    pub white_tc: String,
    pub black_tc: String,
    /// Each side's strength level, if its options set one (`UCI_Elo 1500`, `Skill Level 7`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_level: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_level: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Machine-readable reason: connection, centre_count, last_drop, double_pass, repetition,
    /// max_moves, adjudication_draw, adjudication_resign, time_forfeit, illegal_move,
    /// disconnect, stall.
    pub reason: String,
    /// cutechess-style text, e.g. "White wins by connection", "X loses on time".
    pub reason_text: String,
    /// PGN Termination: normal, adjudication, time forfeit, illegal move, abandoned,
    /// stalled connection.
    pub termination: String,
    /// The player (index) whose fault ended the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault_player: Option<usize>,
    pub moves: Vec<MoveRecord>,
    pub final_position: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead_median_us: Option<f64>,
    pub date: String,
}

impl GameRecord {
    /// Points of player `idx` in this game (None if not playing).
    pub fn points_of(&self, idx: usize) -> Option<f64> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if idx == self.white_player {
            Some(white)
        } else if idx == self.black_player {
            Some(1.0 - white)
        } else {
            None
        }
    }
}
