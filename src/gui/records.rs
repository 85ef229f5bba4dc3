//! Games as the referee's PGN records: saving the GUI's game, listing and reading the
//! tournament results (`tournaments/results/*.pgn`) for replay.

use std::path::Path;

use serde_json::{json, Value};

use crate::gui::game::Game;
use crate::referee::records::pgn::{format_game, read_games, today, PgnGame};
use crate::referee::records::record::{GameRecord, MoveRecord};
use crate::rules::notation::position_to_string;
use crate::rules::position::EndReason;

/// Largest record file read (a results file is a few MB at most).
const MAX_FILE: u64 = 32 * 1024 * 1024;

/// The game as one PGN record in the referee's format.
pub fn game_pgn(game: &Game) -> String {
    let end = game.position_after(game.moves().len());
    let (result, reason, text, termination) = if let Some(t) = game.time_loss {
        let r = if t.0 == crate::rules::piece::Colour::White {
            "0-1"
        } else {
            "1-0"
        };
        (
            r,
            "time_forfeit",
            format!("{} loses on time", t.0.name()),
            "time forfeit",
        )
    } else if let Some(o) = end.outcome() {
        let r = match o.winner {
            Some(crate::rules::piece::Colour::White) => "1-0",
            Some(crate::rules::piece::Colour::Black) => "0-1",
            None => "1/2-1/2",
        };
        let reason = match o.reason {
            EndReason::Connection => "connection",
            EndReason::CentreCount { .. } => "centre_count",
            EndReason::LastDrop => "last_drop",
            EndReason::DoublePass => "double_pass",
        };
        (r, reason, o.to_string(), "normal")
    } else {
        (
            "*",
            "unterminated",
            "game not finished".to_string(),
            "unterminated",
        )
    };
    let tc = game.time.text();
    let record = GameRecord {
        game: 1,
        round: 1,
        pair: 1,
        white: game.names[0].clone(),
        black: game.names[1].clone(),
        white_player: 0,
        black_player: 1,
        variant: game.variant().name().to_string(),
        opening_index: 0,
        opening: position_to_string(game.start_position()),
        white_tc: tc.clone(),
        black_tc: tc,
        result: result.to_string(),
        reason: reason.to_string(),
        reason_text: text,
        termination: termination.to_string(),
        fault_player: None,
        moves: game
            .moves()
            .iter()
            .zip(game.notes())
            .map(|(m, n)| MoveRecord {
                mv: m.to_string(),
                ms: n.ms,
                score: n.score,
                depth: n.depth,
                nodes: None,
                overhead_us: None,
                clock_ms: None,
                budget_ms: None,
            })
            .collect(),
        final_position: position_to_string(&end),
        overhead_median_us: None,
        date: today(),
    };
    format_game(&record, "punct-gui")
}

/// A results file name as listed: a plain `*.pgn` name, no path.
fn valid_name(file: &str) -> bool {
    file.ends_with(".pgn")
        && !file.starts_with('.')
        && !file.contains(['/', '\\'])
        && file.len() <= 200
}

fn read_text(dir: &Path, file: &str) -> Result<String, String> {
    if !valid_name(file) {
        return Err(format!("'{file}' is not a results file name"));
    }
    let path = dir.join(file);
    let meta = std::fs::metadata(&path).map_err(|e| format!("{file}: {e}"))?;
    if meta.len() > MAX_FILE {
        return Err(format!("{file} is larger than {} MB", MAX_FILE >> 20));
    }
    std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))
}

/// The games of one results file.
pub fn read_result_file(dir: &Path, file: &str) -> Result<Vec<PgnGame>, String> {
    Ok(read_games(&read_text(dir, file)?))
}

/// Every `*.pgn` file of the results folder with a summary of each game.
pub fn list_results(dir: &Path) -> Value {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| valid_name(n))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let list: Vec<Value> = files
        .iter()
        .filter_map(|f| {
            let games = read_result_file(dir, f).ok()?;
            let games: Vec<Value> = games
                .iter()
                .enumerate()
                .map(|(i, g)| {
                    json!({"index": i, "round": g.tag("Round"), "white": g.tag("White"),
                           "black": g.tag("Black"), "result": g.result, "plies": g.moves.len()})
                })
                .collect();
            Some(json!({"file": f, "games": games}))
        })
        .collect();
    json!({"dir": dir.display().to_string(), "files": list})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Variant;

    #[test]
    fn saved_games_read_back_and_names_are_checked() {
        let mut g = Game::new(Variant::Standard);
        g.play_text("c5c6d6").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(15));
        g.play_text("f5f6f7").unwrap();
        g.note_last(
            Some(crate::referee::players::player::Score::Cp(-25)),
            Some(7),
        );
        let text = game_pgn(&g);
        // Each move's own time, and the engine's score and depth when known.
        assert!(!text.contains("f5f6f7 {0.000s}"), "{text}");
        assert!(text.contains("f5f6f7 {-0.25/7 0.0"), "{text}");
        let back = read_games(&text);
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].moves, vec!["c5c6d6", "f5f6f7"]);
        assert_eq!(back[0].tag("FEN"), Some("- w 0"));
        assert_eq!(back[0].result.as_deref(), Some("*"));
        assert!(valid_name("smoke.pgn"));
        for bad in ["../x.pgn", "a/b.pgn", ".hidden.pgn", "x.txt"] {
            assert!(!valid_name(bad), "{bad}");
            assert!(read_text(Path::new("."), bad).is_err());
        }
    }
}
