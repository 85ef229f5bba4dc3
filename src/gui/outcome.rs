//! How the GUI's game ended, in full: by the rules (connection with its path, the centre count
//! with the counts, the basic game's last drop, two passes) or not (time, resignation, abort),
//! for the page's game-over summary and the PGN record.

use serde_json::{json, Value};

use crate::gui::game::{Ending, Game};
use crate::rules::geometry::central_cells;
use crate::rules::piece::Colour;
use crate::rules::position::EndReason;
use crate::rules::svg::connection_path;

/// The end of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Over {
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` (aborted).
    pub result: &'static str,
    pub winner: Option<Colour>,
    /// `connection`, `centre_count`, `last_drop`, `double_pass`, `time`, `resignation`,
    /// `aborted`.
    pub reason: &'static str,
    /// A short sentence ("Black wins by connection").
    pub text: String,
    /// Everything about it, for the summary box.
    pub summary: String,
    /// The winning chain (connection only).
    pub path: Vec<String>,
    /// The counts of the central hexagon (centre count only).
    pub centre: Option<[u8; 2]>,
    /// The spaces counted, White's and Black's (centre count only), for the board to mark.
    pub counted: [Vec<String>; 2],
    /// Who lost on time or resigned.
    pub loser: Option<Colour>,
    /// The mover's own move (a lift) uncovered the opponent's connection.
    pub self_uncovered: bool,
    /// Moves played.
    pub ply: usize,
}

impl Over {
    /// The reason as the referee's records name it, and the PGN `Termination`.
    pub fn record_reason(&self) -> (&'static str, &'static str) {
        match self.reason {
            "time" => ("time_forfeit", "time forfeit"),
            "aborted" => ("aborted", "abandoned"),
            r => (r, "normal"),
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "result": self.result,
            "winner": self.winner.map(colour_name),
            "reason": self.reason,
            "text": self.text,
            "summary": self.summary,
            "path": self.path,
            "centre": self.centre.map(|[w, b]| json!({"white": w, "black": b})),
            "counted": self.centre.map(|_| json!({"white": self.counted[0], "black": self.counted[1]})),
            "loser": self.loser.map(colour_name),
            "self_uncovered": self.self_uncovered,
            "ply": self.ply,
        })
    }
}

pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

fn result_of(winner: Option<Colour>) -> &'static str {
    match winner {
        Some(Colour::White) => "1-0",
        Some(Colour::Black) => "0-1",
        None => "1/2-1/2",
    }
}

fn moves_text(n: usize) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// How the game ended (whatever the board shows), or None while it goes on.
pub fn game_over(game: &Game) -> Option<Over> {
    let n = game.moves().len();
    let base = |winner: Option<Colour>, reason, text: String, summary: String| Over {
        result: result_of(winner),
        winner,
        reason,
        text,
        summary,
        path: Vec::new(),
        centre: None,
        counted: [Vec::new(), Vec::new()],
        loser: None,
        self_uncovered: false,
        ply: n,
    };
    if let Some(e) = game.ended {
        return Some(match e {
            Ending::Time(c) => Over {
                loser: Some(c),
                ..base(
                    Some(!c),
                    "time",
                    format!("{} loses on time", c.name()),
                    format!(
                        "{} wins on time: {}'s clock ran out after {}.",
                        (!c).name(),
                        c.name(),
                        moves_text(n)
                    ),
                )
            },
            Ending::Resigned(c) => Over {
                loser: Some(c),
                ..base(
                    Some(!c),
                    "resignation",
                    format!("{} resigns", c.name()),
                    format!(
                        "{} wins: {} resigned after {}.",
                        (!c).name(),
                        c.name(),
                        moves_text(n)
                    ),
                )
            },
            Ending::Aborted => Over {
                result: "*",
                ..base(
                    None,
                    "aborted",
                    "game aborted".into(),
                    format!("Game aborted after {}: no result.", moves_text(n)),
                )
            },
        });
    }
    let end = game.current();
    let o = end.outcome()?;
    let mover = n.checked_sub(1).map(|i| game.mover_of(i));
    let who = |c: Option<Colour>| c.map_or("?", Colour::name);
    Some(match (o.winner, o.reason) {
        (Some(w), EndReason::Connection) => {
            let path: Vec<String> = connection_path(&end, w)
                .unwrap_or_default()
                .iter()
                .map(|c| c.to_string())
                .collect();
            let self_uncovered = mover.is_some_and(|m| m != w);
            let mut summary = format!(
                "{} wins by connection after {}: {}'s top dots join two opposite sides ({}).",
                w.name(),
                moves_text(n),
                w.name(),
                path.join(" ")
            );
            if self_uncovered {
                summary.push_str(&format!(
                    " {}'s own move uncovered it: lifting a piece showed {}'s dots.",
                    (!w).name(),
                    w.name()
                ));
            }
            Over {
                path,
                self_uncovered,
                ..base(Some(w), "connection", o.to_string(), summary)
            }
        }
        (winner, EndReason::CentreCount { white, black }) => {
            let verdict = match winner {
                Some(w) => format!("{} wins", w.name()),
                None => "Draw".into(),
            };
            let counted = Colour::ALL.map(|c| {
                (end.top_view(c) & central_cells())
                    .iter()
                    .map(|cell| cell.to_string())
                    .collect()
            });
            Over {
                centre: Some([white, black]),
                counted,
                ..base(
                    winner,
                    "centre_count",
                    o.to_string(),
                    format!(
                        "{verdict} on the centre count, {white} to {black}: {} dropped the last \
                         piece and the central hexagon shows {white} White and {black} Black \
                         dots on top.",
                        who(mover)
                    ),
                )
            }
        }
        (winner, EndReason::LastDrop) => base(
            winner,
            "last_drop",
            o.to_string(),
            format!(
                "Draw: {} dropped the last piece with no connection (the basic game has no \
                 centre count).",
                who(mover)
            ),
        ),
        (winner, EndReason::DoublePass) => base(
            winner,
            "double_pass",
            o.to_string(),
            "Draw: neither side could move, two passes in a row.".into(),
        ),
        (winner, _) => base(winner, "connection", o.to_string(), o.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Position, Variant};

    /// White's bridge on e5 cuts Black's chain; lifting it uncovers the chain (the position of
    /// tests/rules_game_end.rs).
    const REVEAL: &str = "Wa8b8c8/Wd8c7d7/Wi8h8j9/Wk10l11m12/Wn13n14o14/Wp15q15q16/We3d2c1/\
                          Ba5b5c5/Bd5e5f5/Bg5h5i5/Bj6k7l8/Bn10m9o11/Bp12q12q13/We3e4e5 w 14";

    #[test]
    fn a_self_uncovered_connection_and_a_centre_count_are_described() {
        let mut g = Game::new(Variant::Standard);
        let start = crate::gui::game::read_position(REVEAL, Variant::Standard).unwrap();
        g.load(start, &["e3-e10e11e12".into()], ["", ""]).unwrap();
        let o = game_over(&g).unwrap();
        assert_eq!(
            (o.reason, o.winner, o.result),
            ("connection", Some(Colour::Black), "0-1")
        );
        assert!(o.self_uncovered);
        assert!(o.path.contains(&"e5".to_string()), "{:?}", o.path);
        assert!(
            o.summary.contains("White's own move uncovered it"),
            "{}",
            o.summary
        );
        // A random game to its centre count.
        let mut h: u64 = 0x2545_F491_4F6C_DD1D;
        let counted = (0..500).find_map(|_| {
            let mut g = Game::new(Variant::Standard);
            while !g.finished() {
                let legal = g.current().legal_moves();
                h ^= h << 13;
                h ^= h >> 7;
                h ^= h << 17;
                g.play_at_end(legal[(h % legal.len() as u64) as usize], "x")
                    .unwrap();
            }
            game_over(&g).filter(|o| o.reason == "centre_count")
        });
        let c = counted.expect("a centre count in 500 random games");
        let [w, b] = c.centre.unwrap();
        // The spaces counted are the centre's, as many as counted, each of its colour.
        assert_eq!(c.counted[0].len(), w as usize);
        assert_eq!(c.counted[1].len(), b as usize);
        assert!(!c.self_uncovered);
        assert!(c.summary.contains(&format!("{w} to {b}")), "{}", c.summary);
    }

    #[test]
    fn endings_not_by_the_rules() {
        let mut g = Game::new(Variant::Standard);
        assert_eq!(game_over(&g), None);
        g.end(Ending::Aborted).unwrap();
        let o = game_over(&g).unwrap();
        assert_eq!((o.result, o.reason, o.winner), ("*", "aborted", None));
        g.reset(Position::new(Variant::Standard));
        g.play_text("c5c6d6", "Human").unwrap();
        g.end(Ending::Resigned(Colour::Black)).unwrap();
        let o = game_over(&g).unwrap();
        assert_eq!(o.result, "1-0");
        assert_eq!(o.loser, Some(Colour::Black));
        assert!(
            o.summary.contains("Black resigned after 1 move"),
            "{}",
            o.summary
        );
        assert_eq!(o.json()["centre"], Value::Null);
        assert_eq!(o.record_reason(), ("resignation", "normal"));
    }
}
