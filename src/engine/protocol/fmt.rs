//! Output formatting: `info` and `bestmove` lines, the board drawing of `d`, game results.

use std::fmt::Write;

use crate::engine::types::{Bound, Level, MoveVisits, Score, SearchInfo};
use crate::rules::geometry::Cell;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::{Outcome, Position};

/// Text with every control character but the newline written as an escape (`\u{7}`), so a
/// line of output stays one line and no terminal control reaches a GUI or a log.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut s = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    std::borrow::Cow::Owned(s)
}

/// `score cp X` / `score mate N`, with `lowerbound`/`upperbound` when the score is a bound.
pub fn score(score: Score, bound: Bound) -> String {
    let mut s = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    s
}

/// `SearchMode puct`'s root statistics as one `info string visits` line (an `info string`, so
/// that no parser meets an unknown token): per move its visits, mean value for the side to
/// move (-1..1) and prior. `None` for alpha-beta (no statistics).
pub fn visits_line(visits: &[MoveVisits]) -> Option<String> {
    if visits.is_empty() {
        return None;
    }
    let mut s = String::from("info string visits");
    for (i, v) in visits.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let q = if v.q.is_nan() {
            "-".to_string()
        } else {
            format!("{:.3}", v.q)
        };
        let _ = write!(s, "{sep} {} {} q {q} p {:.3}", v.mv, v.visits, v.prior);
    }
    Some(s)
}

/// One `info depth ... pv ...` line.
pub fn info_line(info: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        score(info.score, info.bound),
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull,
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for mv in &info.pv {
            let _ = write!(s, " {mv}");
        }
    }
    s
}

/// `bestmove <m> [ponder <m>]`, or `bestmove (none)`.
/// The `info string` naming the strength level a search plays at (sent with each `go`), so
/// that a client sees that its setting reached the engine.
pub fn level_line(level: Level, by_elo: bool) -> String {
    let elo = crate::engine::search::skill::claimed_elo(level);
    if by_elo {
        format!(
            "info string level UCI_Elo {elo} (Skill Level {:.2}; full strength: UCI_LimitStrength false)",
            level.skill
        )
    } else {
        format!(
            "info string level Skill Level {} (UCI_Elo {elo}; full strength: Skill Level 20)",
            level.skill
        )
    }
}

pub fn bestmove_line(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

/// The game state in words: `in progress` or the outcome.
pub fn game_state(pos: &Position) -> String {
    match pos.outcome() {
        None => "in progress".to_string(),
        Some(o) => format!("over: {o}"),
    }
}

/// The UGI result word: `p1win`, `p2win`, `draw` or `none` (White is p1).
pub fn ugi_result(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome {
            winner: Some(Colour::White),
            ..
        }) => "p1win",
        Some(Outcome {
            winner: Some(Colour::Black),
            ..
        }) => "p2win",
        Some(Outcome { winner: None, .. }) => "draw",
    }
}

/// Characters per column in the drawing.
const COL_WIDTH: usize = 4;

/// The three characters drawn for one space: colour of the top dot (upper case on a PÜNCT),
/// the height, and a mark: `*` the top piece is blocked, `^` a gap under the top dot (bridge).
fn cell_text(pos: &Position, c: Cell) -> String {
    let Some(id) = pos.top_piece(c) else {
        return if c.is_central() { " : " } else { " . " }.to_string();
    };
    let piece = pos.piece(id);
    let letter = match piece.colour {
        Colour::White => 'w',
        Colour::Black => 'b',
    };
    let letter = if piece.placement.punct() == c {
        letter.to_ascii_uppercase()
    } else {
        letter
    };
    let height = pos.height(c);
    let below = pos
        .stack(c)
        .iter()
        .rev()
        .nth(1)
        .map(|&i| pos.piece(i as usize).level + 1);
    let gap = piece.level > below.unwrap_or(0);
    let mark = if pos.is_blocked(id) {
        '*'
    } else if gap {
        '^'
    } else {
        ' '
    };
    let h = if height < 10 {
        char::from(b'0' + height)
    } else {
        '+'
    };
    format!("{letter}{h}{mark}")
}

/// Whether piece `id` spans a gap: nothing lies right under its middle dot.
fn is_bridge(pos: &Position, id: usize) -> bool {
    let p = pos.piece(id);
    let Some(m) = p.placement.middle() else {
        return false;
    };
    let stack = pos.stack(p.placement.cells()[m]);
    let Some(at) = stack.iter().position(|&i| i as usize == id) else {
        return false;
    };
    let under = at
        .checked_sub(1)
        .map(|b| pos.piece(stack[b] as usize).level + 1);
    p.level > under.unwrap_or(0)
}

/// The `d` drawing: the top view with columns vertical (x to the right, north up), then the
/// stacks, pieces in hand, side to move, position string, hash and game state.
pub fn board_drawing(pos: &Position) -> String {
    // A space (x, y) is drawn on half-row 2y - x, which runs from -8 to 24.
    let mut grid = vec![vec![b' '; 17 * COL_WIDTH + 4]; 33];
    for &c in Cell::all() {
        let line = (24 - (2 * c.y() - c.x())) as usize;
        let col = 3 + c.x() as usize * COL_WIDTH;
        grid[line][col..col + 3].copy_from_slice(cell_text(pos, c).as_bytes());
    }
    let mut s = String::new();
    // The top half-row holds only a removed corner.
    for row in &grid[1..] {
        let text = String::from_utf8_lossy(row).trim_end().to_string();
        let _ = writeln!(s, "{text}");
    }
    let mut letters = String::from("   ");
    for x in 0..17u8 {
        let _ = write!(letters, " {}  ", char::from(b'a' + x));
    }
    let _ = writeln!(s, "{}", letters.trim_end());
    let _ = writeln!(
        s,
        "Legend: W/B top dot a PUNCT, w/b a minor dot, digit = height, * blocked piece, \
         ^ bridge gap below, : empty centre"
    );
    let _ = writeln!(
        s,
        "Columns a..q left to right; in a column the row number grows upwards (a2 below a3)"
    );

    let mut stacks = Vec::new();
    for &c in Cell::all() {
        if pos.stack(c).len() > 1 {
            let layers: Vec<String> = pos
                .stack(c)
                .iter()
                .map(|&i| {
                    let p = pos.piece(i as usize);
                    format!("{}{}", p.colour.letter(), p.level)
                })
                .collect();
            stacks.push(format!("{c}={}", layers.join(",")));
        }
    }
    let _ = writeln!(
        s,
        "Stacks (bottom to top, colour+level): {}",
        if stacks.is_empty() {
            "none".to_string()
        } else {
            stacks.join(" ")
        }
    );
    let mut blocked = Vec::new();
    let mut bridges = Vec::new();
    for (id, p) in pos.pieces() {
        let name = format!("{}{}", p.colour.letter(), p.placement);
        if pos.is_blocked(id) {
            blocked.push(name.clone());
        }
        if is_bridge(pos, id) {
            bridges.push(name);
        }
    }
    let list = |v: &[String]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(" ")
        }
    };
    let _ = writeln!(s, "Blocked: {}", list(&blocked));
    let _ = writeln!(s, "Bridges: {}", list(&bridges));
    for colour in Colour::ALL {
        let kinds: Vec<String> = Kind::ALL
            .iter()
            .map(|&k| format!("{}{}", k.letter(), pos.in_hand(colour, k)))
            .collect();
        let _ = writeln!(
            s,
            "In hand {}: {} (total {})",
            colour.name(),
            kinds.join(" "),
            pos.hand_total(colour)
        );
    }
    let [w, b] = pos.centre_count();
    let _ = writeln!(s, "Centre: White {w} Black {b}");
    let side = pos.side_to_move();
    let p = if side == Colour::White { "p1" } else { "p2" };
    let _ = writeln!(s, "Side to move: {} ({p})", side.name());
    let _ = writeln!(s, "Variant: {}", pos.variant().name());
    let _ = writeln!(s, "Fen: {pos}");
    let _ = writeln!(s, "Key: {:016x}", pos.hash());
    let _ = write!(s, "Game: {}", game_state(pos));
    s
}

/// The summary of `bench`; the last line is `<nodes> nodes <nps> nps` (as OpenBench reads it).
pub fn bench_lines(report: &crate::engine::search::bench::BenchReport, depth: u32) -> Vec<String> {
    vec![
        format!("Positions       : {}", report.positions),
        format!("Depth           : {depth}"),
        format!("Total time (ms) : {}", report.time.as_millis()),
        format!("Nodes searched  : {}", report.nodes),
        format!("Nodes/second    : {}", report.nps()),
        format!("{} nodes {} nps", report.nodes, report.nps()),
    ]
}
