//! Games as the referee's PGN records: saving the GUI's game, listing and reading the
//! tournament results (`tournaments/results/*.pgn`) for replay.

use std::path::Path;

use serde_json::{json, Value};

use crate::gui::game::Game;
use crate::gui::outcome::game_over;
use crate::referee::records::pgn::{format_game, read_games, today, PgnGame};
use crate::referee::records::record::{GameRecord, MoveRecord};
use crate::rules::notation::position_to_string;
use crate::rules::piece::Colour;

/// Largest record file read (a results file is a few MB at most).
const MAX_FILE: u64 = 32 * 1024 * 1024;

/// The game as one PGN record in the referee's format.
pub fn game_pgn(game: &Game) -> String {
    let end = game.current();
    let over = game_over(game);
    let (result, reason, text, termination) = match &over {
        Some(o) => {
            let (reason, termination) = o.record_reason();
            (o.result, reason, o.text.clone(), termination)
        }
        None => (
            "*",
            "unterminated",
            "game not finished".to_string(),
            "unterminated",
        ),
    };
    let tc = game.time.text();
    let record = GameRecord {
        game: 1,
        round: 1,
        pair: 1,
        white: game.players(Colour::White, &game.names[0]),
        black: game.players(Colour::Black, &game.names[1]),
        white_player: 0,
        black_player: 1,
        variant: game.variant().name().to_string(),
        opening_index: 0,
        opening: position_to_string(game.start_position()),
        white_tc: tc.clone(),
        black_tc: tc,
        white_level: None,
        black_level: None,
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

/// What to say when the results folder holds no record: where games come from.
pub fn no_games_hint(dir: &Path) -> String {
    let missing = !dir.is_dir();
    format!(
        "no games yet: {} {}. Records are written by tournaments: run one from the repository \
         root with `target/release/punct-referee -config tournaments/smoke.toml` (its games go \
         to tournaments/results/smoke.pgn), or any match with `-pgnout {}/NAME.pgn`; or start \
         punct-gui with --results DIR to read another folder.",
        dir.display(),
        if missing {
            "does not exist"
        } else {
            "has no *.pgn file"
        },
        dir.display()
    )
}

/// The number of each game of a file: its `Round` tag (the referee's game number) when the
/// tags number the games one by one, else its place in the file (e.g. saved GUI games, which
/// all say 1).
fn game_numbers(games: &[PgnGame]) -> Vec<u64> {
    let tagged: Vec<Option<u64>> = games
        .iter()
        .map(|g| g.tag("Round").and_then(|r| r.trim().parse().ok()))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let distinct = tagged.iter().all(|t| t.is_some_and(|n| seen.insert(n)));
    if distinct {
        tagged.into_iter().map(|t| t.unwrap_or(0)).collect()
    } else {
        (1..=games.len() as u64).collect()
    }
}

/// Every `*.pgn` file of the results folder with a summary of each game; `hint` says where
/// games come from when there is none.
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
            let numbers = game_numbers(&games);
            let games: Vec<Value> = games
                .iter()
                .zip(numbers)
                .enumerate()
                .map(|(i, (g, number))| {
                    json!({"index": i, "number": number, "round": g.tag("Round"),
                           "white": g.tag("White"), "black": g.tag("Black"),
                           "result": g.result, "plies": g.moves.len(),
                           "termination": g.tag("Termination"), "date": g.tag("Date")})
                })
                .collect();
            Some(json!({"file": f, "games": games}))
        })
        .collect();
    let hint = list.is_empty().then(|| no_games_hint(dir));
    json!({"dir": dir.display().to_string(), "exists": dir.is_dir(), "files": list,
           "hint": hint})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Variant;

    #[test]
    fn saved_games_read_back_and_names_are_checked() {
        let mut g = Game::new(Variant::Standard);
        g.play_text("c5c6d6", "Human").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(15));
        g.play_text("f5f6f7", "punct").unwrap();
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
        assert_eq!(back[0].tag("White"), Some("Human"));
        assert_eq!(back[0].tag("Black"), Some("punct"));
        assert!(valid_name("smoke.pgn"));
        // Game numbers: the Round tags when they number the games, else the place in the file.
        let mut two = back.clone();
        two.extend(back.clone());
        assert_eq!(game_numbers(&two), vec![1, 2]);
        let mut numbered = two.clone();
        numbered[0].tags.retain(|(k, _)| k != "Round");
        numbered[0].tags.push(("Round".into(), "7".into()));
        assert_eq!(game_numbers(&numbered), vec![7, 1]);
        let missing = list_results(Path::new("no/such/results"));
        assert!(
            missing["hint"].as_str().unwrap().contains("does not exist"),
            "{missing}"
        );
        assert!(
            missing["hint"].as_str().unwrap().contains("punct-referee"),
            "{missing}"
        );
        for bad in ["../x.pgn", "a/b.pgn", ".hidden.pgn", "x.txt"] {
            assert!(!valid_name(bad), "{bad}");
            assert!(read_text(Path::new("."), bad).is_err());
        }
    }
}
