//! PGN-like game records: tag pairs, then the moves with a cutechess-style comment per move
//! (`{+0.31/7 0.120s}`: score in hundredths from the mover's view, `+M3`/`-M3` for mates,
//! depth, think time), the reason as a final comment and the result. Written and flushed game
//! by game; [`read_games`] reads them back (resume, replay, checking).
//!
//! ```text
//! [Event "punct-referee"]
//! [Site "local"]
//! [Date "2026.11.26"]
//! [Round "3"]
//! [White "punct"]
//! [Black "random"]
//! [Result "1-0"]
//! [Termination "normal"]
//! [Variant "standard"]
//! [TimeControl "10+0.1"]
//! [FEN "Wc5c6d6/Bf5f6f7 w 2"]
//! [SetUp "1"]
//! [PlyCount "41"]
//!
//! 2. g5g6h7 {+0.12/5 0.101s} f8g8g9 {0.000s} ... {White wins by connection} 1-0
//! ```
//! `Round` is the game number; `FEN` is the opening position (docs/rules.md section 7 notation).

use std::fmt::Write as _;

use crate::referee::players::player::Score;
use crate::referee::records::record::GameRecord;

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("{:+.2}", f64::from(c) / 100.0),
        Score::Mate(m) if m >= 0 => format!("+M{m}"),
        Score::Mate(m) => format!("-M{}", -m),
    }
}

/// A tag value: quotes and backslashes escaped, control characters (which would break the
/// one-line tag) shown as `?`.
fn escape(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The record of one game, ending with a blank line.
pub fn format_game(g: &GameRecord, event: &str) -> String {
    let mut s = String::new();
    let tc = if g.white_tc == g.black_tc {
        g.white_tc.clone()
    } else {
        format!("{} / {}", g.white_tc, g.black_tc)
    };
    let tags = [
        ("Event", event.to_string()),
        ("Site", "local".to_string()),
        ("Date", g.date.clone()),
        ("Round", g.game.to_string()),
        ("White", g.white.clone()),
        ("Black", g.black.clone()),
        ("Result", g.result.clone()),
        ("Termination", g.termination.clone()),
        ("Variant", g.variant.clone()),
        ("TimeControl", tc),
        ("FEN", g.opening.clone()),
        ("SetUp", "1".to_string()),
        ("PlyCount", g.moves.len().to_string()),
    ];
    for (k, v) in tags {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(&v));
    }
    // A level's claimed Elo and the level itself (the options that set it).
    for (side, level) in [("White", &g.white_level), ("Black", &g.black_level)] {
        let Some(level) = level else { continue };
        if let Some(elo) = level.strip_prefix("UCI_Elo ") {
            let _ = writeln!(s, "[{side}Elo \"{}\"]", escape(elo));
        }
        let _ = writeln!(s, "[{side}Level \"{}\"]", escape(level));
    }
    s.push('\n');
    let start_ply: u32 = g
        .opening
        .split_whitespace()
        .nth(2)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let mut line = String::new();
    let mut push = |tok: &str, s: &mut String| {
        if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(tok);
    };
    for (i, m) in g.moves.iter().enumerate() {
        let ply = start_ply + i as u32;
        let number = ply / 2 + 1;
        // The move number stays on the line of its move.
        if ply.is_multiple_of(2) {
            push(&format!("{number}. {}", m.mv), &mut s);
        } else if i == 0 {
            push(&format!("{number}... {}", m.mv), &mut s);
        } else {
            push(&m.mv, &mut s);
        }
        let mut c = String::from("{");
        if let Some(sc) = m.score {
            let _ = write!(c, "{}/{} ", score_text(sc), m.depth.unwrap_or(0));
        }
        let _ = write!(c, "{:.3}s}}", m.ms / 1000.0);
        push(&c, &mut s);
    }
    push(&format!("{{{}}}", g.reason_text.replace('}', ")")), &mut s);
    push(&g.result, &mut s);
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game read back from a record file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The result token at the end of the move text.
    pub result: Option<String>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// Reads every complete game of a record file; an unfinished last game (no result token, as
/// after a crash mid-write) is left out.
pub fn read_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut cur = PgnGame::default();
    let mut in_moves = false;
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if !in_comment && t.starts_with('[') {
            if in_moves {
                // A new game starts before the old one had a result: drop the old one.
                cur = PgnGame::default();
                in_moves = false;
            }
            if let Some(tag) = parse_tag(t) {
                cur.tags.push(tag);
            }
            continue;
        }
        if t.is_empty() {
            continue;
        }
        in_moves = true;
        let mut rest = t;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(i) => {
                        in_comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix('{') {
                in_comment = true;
                rest = r;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let tok = &rest[..end];
            rest = &rest[end..];
            if tok.is_empty() {
                continue;
            }
            if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
                cur.result = Some(tok.to_string());
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            } else if !tok.ends_with('.') {
                cur.moves.push(tok.to_string());
            }
        }
    }
    games
}

/// Lines that look like tags (start with `[`) but are not well-formed one-line tags, e.g. a tag
/// split over two lines by a newline in its value, each as "line N: ...".
pub fn broken_tags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_comment = false;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if !in_comment && t.starts_with('[') {
            let ok = parse_tag(t).is_some_and(|(name, value)| {
                !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !value.chars().any(char::is_control)
            });
            if !ok {
                let shown: String = t.chars().take(60).flat_map(char::escape_default).collect();
                out.push(format!("line {}: broken tag {shown}", n + 1));
            }
            continue;
        }
        // Comments may span lines; a `[` inside one is not a tag.
        for c in t.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ => {}
            }
        }
    }
    out
}

/// Byte length of the complete games at the start of `text` (to cut a torn last record).
pub fn complete_prefix_len(text: &str) -> usize {
    // The last result token that ends a line closes the last complete game.
    let mut end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        let t = line.trim_end();
        let closes = ["1-0", "0-1", "1/2-1/2", "*"]
            .iter()
            .any(|r| t.ends_with(&format!(" {r}")) || t == *r);
        if closes && line.ends_with('\n') && !t.starts_with('[') {
            end = offset;
        }
    }
    // Keep the blank line after the game.
    if text[end..].starts_with('\n') {
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every day from 1900 to mid-2298 against a plain day-by-day calendar (leap years by the
    /// Gregorian rule): the PGN date of any run is right, 29 February and centuries included.
    #[test]
    fn civil_dates_agree_with_counting_days() {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let month_len = |y: i64, m: u32| match m {
            2 if leap(y) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        // 1900-01-01 is 25,567 days before 1970-01-01.
        let (mut y, mut m, mut d) = (1900i64, 1u32, 1u32);
        for z in -25_567i64..120_000 {
            assert_eq!(civil_from_days(z), (y, m, d), "day {z}");
            d += 1;
            if d > month_len(y, m) {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(12_477), (2004, 2, 29));
    }
    use crate::referee::records::record::MoveRecord;

    fn record() -> GameRecord {
        let mv = |m: &str, score| MoveRecord {
            mv: m.into(),
            ms: 120.0,
            score,
            depth: score.map(|_| 7),
            nodes: None,
            overhead_us: None,
            clock_ms: None,
            budget_ms: None,
        };
        GameRecord {
            game: 3,
            round: 1,
            pair: 2,
            white: "A \"quoted\"".into(),
            black: "B".into(),
            white_player: 0,
            black_player: 1,
            variant: "standard".into(),
            opening_index: 1,
            opening: "Wc5c6d6 b 1".into(),
            white_tc: "10+0.1".into(),
            black_tc: "10+0.1".into(),
            white_level: Some("UCI_Elo 1500".into()),
            black_level: None,
            result: "0-1".into(),
            reason: "illegal_move".into(),
            reason_text: "A makes an illegal move: x {y}".into(),
            termination: "illegal move".into(),
            fault_player: Some(0),
            moves: vec![
                mv("f5f6f7", Some(Score::Cp(31))),
                mv("g5g6h7", None),
                mv("i5i6i7", Some(Score::Mate(-2))),
            ],
            final_position: "-".into(),
            overhead_median_us: None,
            date: "2026.11.26".into(),
        }
    }

    #[test]
    fn writes_tags_and_comments_like_cutechess() {
        let text = format_game(&record(), "ev");
        assert!(text.contains("[White \"A \\\"quoted\\\"\"]"));
        assert!(text.contains("[FEN \"Wc5c6d6 b 1\"]"));
        assert!(text.contains("[PlyCount \"3\"]"));
        // White plays at a level: its claimed Elo and the level; Black at full strength.
        assert!(text.contains("[WhiteElo \"1500\"]\n[WhiteLevel \"UCI_Elo 1500\"]"));
        assert!(!text.contains("BlackElo") && !text.contains("BlackLevel"));
        assert!(
            text.contains("1... f5f6f7 {+0.31/7 0.120s} 2. g5g6h7 {0.120s} i5i6i7 {-M2/7 0.120s}")
        );
        assert!(text.trim_end().ends_with("0-1"));
    }

    #[test]
    fn reads_back_what_it_writes_and_skips_a_torn_game() {
        let g = record();
        let mut text = format_game(&g, "ev");
        text.push_str(&format_game(&g, "ev"));
        let whole = text.len();
        text.push_str("[Event \"ev\"]\n[Round \"4\"]\n\n1. c5c6d6 {0.1");
        let games = read_games(&text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec!["f5f6f7", "g5g6h7", "i5i6i7"]);
        assert_eq!(games[0].tag("White"), Some("A \"quoted\""));
        assert_eq!(games[0].tag("Round"), Some("3"));
        assert_eq!(games[0].result.as_deref(), Some("0-1"));
        assert_eq!(complete_prefix_len(&text), whole);
    }

    #[test]
    fn control_characters_never_break_a_tag_and_broken_tags_are_found() {
        let mut g = record();
        g.white = "two\nlines".into();
        g.black = "bell\u{7}".into();
        let text = format_game(&g, "ev\r");
        assert!(text.contains("[White \"two?lines\"]"), "{text}");
        assert!(text.contains("[Black \"bell?\"]"));
        assert!(text.contains("[Event \"ev?\"]"));
        assert!(broken_tags(&text).is_empty(), "{:?}", broken_tags(&text));
        assert_eq!(read_games(&text).len(), 1);
        // What the old writer produced: a tag split over two lines.
        let split = text.replace("two?lines", "two\nlines");
        let problems = broken_tags(&split);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("line 5:"), "{problems:?}");
        // Comments with brackets are not tags.
        assert!(broken_tags("1. c5c6d6 {a\n[not a tag} 1-0\n").is_empty());
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_418), (2025, 11, 26));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
