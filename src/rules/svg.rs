//! The board as an SVG picture: one renderer for `punct svg`, the GUI and the referee's
//! `-svgout`.
//!
//! Layout: columns vertical (x to the right, N up), flat-topped hexagons, so the board is a
//! hexagon with vertical West and East sides as in docs/rules.md section 1. Each piece is its three
//! dots joined by a bar, the PÜNCT marked with a red centre; higher levels are drawn a little
//! higher up, the height of a stack of 2 or more is written beside its top dot, the empty space
//! under the middle of a bridge is a dashed ring, and the visible dots of a blocked piece are
//! crossed out. Every space is a `<polygon class="cell" data-cell=".." data-cx=".." data-cy="..">`
//! so a page can find the spaces and their centres in the picture itself.

use std::collections::VecDeque;
use std::fmt::Write as _;

use crate::rules::geometry::{Axis, Cell, Dir};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::{EndReason, Position};

/// Circumradius of a space's hexagon, in picture units.
const R: f64 = 20.0;
/// How far up each level is drawn.
const LEVEL_LIFT: f64 = 3.5;
/// Margin around the board for the coordinates.
const MARGIN: f64 = 34.0;
/// Width of the side panel (hands, side to move, centre count, result).
const PANEL: f64 = 190.0;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// What to draw besides the position.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// Turned by 180 degrees (Black's view).
    pub flipped: bool,
    /// Highlighted as the last move.
    pub last_move: Option<Move>,
    /// Draw the side panel with hands, side to move, centre count and result.
    pub panel: bool,
}

/// Size of the board area (without the panel).
pub fn board_size() -> (f64, f64) {
    let w = 16.0 * 1.5 * R + 2.0 * R + 2.0 * MARGIN;
    let h = 16.0 * SQRT3 * R + 2.0 * MARGIN;
    (w, h)
}

/// The centre of a space in the picture.
pub fn cell_centre(c: Cell, flipped: bool) -> (f64, f64) {
    let (w, h) = board_size();
    let (cx, cy) = (w / 2.0, h / 2.0);
    // i9 = (8, 8) is the middle; y - x/2 runs up the columns.
    let px = (c.x() - 8) as f64 * 1.5 * R;
    let py = -((c.y() as f64 - c.x() as f64 / 2.0) - 4.0) * SQRT3 * R;
    if flipped {
        (cx - px, cy - py)
    } else {
        (cx + px, cy + py)
    }
}

fn hexagon(x: f64, y: f64, r: f64) -> String {
    let mut s = String::new();
    for k in 0..6 {
        let a = std::f64::consts::PI / 3.0 * k as f64;
        let _ = write!(s, "{:.1},{:.1} ", x + r * a.cos(), y + r * a.sin());
    }
    s.trim_end().to_string()
}

/// A shortest chain of `colour`'s top-visible dots joining two opposite sides, if there is one.
pub fn connection_path(pos: &Position, colour: Colour) -> Option<Vec<Cell>> {
    let dots = pos.top_view(colour);
    let mut best: Option<Vec<Cell>> = None;
    for axis in Axis::ALL {
        let (a, b) = axis.sides();
        let mut prev: Vec<Option<Cell>> = vec![None; crate::rules::geometry::GRID_LEN];
        let mut seen = vec![false; crate::rules::geometry::GRID_LEN];
        let mut queue = VecDeque::new();
        for c in (a.cells() & dots).iter() {
            seen[c.index()] = true;
            queue.push_back(c);
        }
        let goal = b.cells();
        while let Some(c) = queue.pop_front() {
            if goal.contains(c) {
                let mut path = vec![c];
                let mut cur = c;
                while let Some(p) = prev[cur.index()] {
                    path.push(p);
                    cur = p;
                }
                path.reverse();
                if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                    best = Some(path);
                }
                break;
            }
            for d in Dir::ALL {
                if let Some(n) = c.neighbour(d) {
                    if dots.contains(n) && !seen[n.index()] {
                        seen[n.index()] = true;
                        prev[n.index()] = Some(c);
                        queue.push_back(n);
                    }
                }
            }
        }
    }
    best
}

/// The cells a move highlights: the placement, and for a shift the space it left.
fn move_cells(mv: Move) -> (Vec<Cell>, Option<Cell>) {
    match mv {
        Move::Drop(p) => (p.cells().to_vec(), None),
        Move::Shift { from, to } => (to.cells().to_vec(), Some(from)),
        Move::Pass => (Vec::new(), None),
    }
}

fn colours(c: Colour) -> (&'static str, &'static str) {
    match c {
        Colour::White => ("#f7f3e8", "#3a3a3a"),
        Colour::Black => ("#2b2b2b", "#000000"),
    }
}

/// The position as a complete SVG document.
pub fn board_svg(pos: &Position, opts: &SvgOptions) -> String {
    let (bw, bh) = board_size();
    let width = if opts.panel { bw + PANEL } else { bw };
    let f = opts.flipped;
    let mut s = String::with_capacity(64 * 1024);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"punct-board\" viewBox=\"0 0 {width:.0} {bh:.0}\" \
         width=\"{width:.0}\" height=\"{bh:.0}\" font-family=\"sans-serif\" data-flipped=\"{f}\" \
         data-pieces=\"{}\">",
        pos.num_pieces()
    );
    let _ = writeln!(
        s,
        "<rect width=\"{width:.0}\" height=\"{bh:.0}\" fill=\"#d9c8a0\"/>"
    );
    draw_spaces(&mut s, f);
    draw_coordinates(&mut s, f);
    if let Some(mv) = opts.last_move {
        let (cells, from) = move_cells(mv);
        for c in cells {
            let (x, y) = cell_centre(c, f);
            let _ = writeln!(
                s,
                "<polygon class=\"last-move\" points=\"{}\" fill=\"#f5d76e\" stroke=\"#c9a227\" stroke-width=\"2\"/>",
                hexagon(x, y, R - 1.0)
            );
        }
        if let Some(c) = from {
            let (x, y) = cell_centre(c, f);
            let _ = writeln!(
                s,
                "<polygon class=\"last-from\" points=\"{}\" fill=\"none\" stroke=\"#c9a227\" stroke-width=\"2.5\" stroke-dasharray=\"4 3\"/>",
                hexagon(x, y, R - 2.0)
            );
        }
    }
    draw_pieces(&mut s, pos, f);
    if let Some(out) = pos.outcome() {
        if let (Some(w), EndReason::Connection) = (out.winner, out.reason) {
            if let Some(path) = connection_path(pos, w) {
                let pts: Vec<String> = path
                    .iter()
                    .map(|&c| {
                        let (x, y) = cell_centre(c, f);
                        format!("{x:.1},{y:.1}")
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    "<polyline class=\"win-path\" data-cells=\"{}\" points=\"{}\" fill=\"none\" stroke=\"#2ecc40\" \
                     stroke-width=\"7\" stroke-opacity=\"0.75\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                    path.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "),
                    pts.join(" ")
                );
            }
        }
    }
    if opts.panel {
        draw_panel(&mut s, pos, bw, opts.last_move);
    }
    s.push_str("</svg>\n");
    s
}

fn draw_spaces(s: &mut String, f: bool) {
    s.push_str("<g class=\"spaces\">\n");
    for &c in Cell::all() {
        let (x, y) = cell_centre(c, f);
        let rim = Dir::ALL.iter().any(|&d| c.neighbour(d).is_none());
        let fill = if c.is_central() {
            "#b9a677"
        } else if rim {
            "#eadcb8"
        } else {
            "#f1e6c8"
        };
        let _ = writeln!(
            s,
            "<polygon class=\"cell{}\" data-cell=\"{c}\" data-cx=\"{x:.1}\" data-cy=\"{y:.1}\" points=\"{}\" fill=\"{fill}\" stroke=\"#8c7a52\" stroke-width=\"1\"/>",
            if c.is_central() { " centre" } else { "" },
            hexagon(x, y, R - 0.5)
        );
        // The empty space: a small hole, as on the physical board.
        let _ = writeln!(
            s,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.2\" fill=\"#8c7a52\" pointer-events=\"none\"/>"
        );
    }
    s.push_str("</g>\n");
}

fn draw_coordinates(s: &mut String, f: bool) {
    s.push_str("<g class=\"coords\" font-size=\"11\" fill=\"#5a4a2a\" text-anchor=\"middle\" pointer-events=\"none\">\n");
    // Column letters under the lowest space of each column (above it when flipped).
    for x in 0..17 {
        let low = (0..17)
            .find_map(|y| Cell::new(x, y))
            .expect("every column has spaces");
        let (cx, cy) = cell_centre(low, f);
        let dy = if f { -R - 6.0 } else { R + 14.0 };
        let _ = writeln!(
            s,
            "<text x=\"{cx:.1}\" y=\"{:.1}\">{}</text>",
            cy + dy,
            low.file_char()
        );
    }
    // Row numbers left of the first space of each row (right of it when flipped).
    for y in 0..17 {
        let first = (0..17)
            .find_map(|x| Cell::new(x, y))
            .expect("every row has spaces");
        let (ax, ay) = cell_centre(first, f);
        let dx = if f { 1.5 * R } else { -1.5 * R };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            ax + dx,
            ay + 4.0,
            y + 1
        );
    }
    s.push_str("</g>\n");
}

fn draw_pieces(s: &mut String, pos: &Position, f: bool) {
    let mut pieces: Vec<_> = pos.pieces().collect();
    pieces.sort_by_key(|(_, p)| (p.level, p.placement.punct()));
    s.push_str("<g class=\"pieces\" pointer-events=\"none\">\n");
    for (id, p) in pieces {
        let lift = p.level as f64 * LEVEL_LIFT;
        let cells = p.placement.cells();
        let at = |c: Cell| {
            let (x, y) = cell_centre(c, f);
            (x, y - lift)
        };
        // The empty space under a bridge: the cell's highest dot below this piece is lower
        // than the level just under it (or missing).
        if p.level > 0 {
            for &c in &cells {
                let below = pos
                    .stack(c)
                    .iter()
                    .map(|&i| pos.piece(i as usize))
                    .filter(|q| q.level < p.level)
                    .map(|q| q.level + 1)
                    .max()
                    .unwrap_or(0);
                if below < p.level {
                    let (x, y) = at(c);
                    let _ = writeln!(
                        s,
                        "<circle class=\"bridge-gap\" data-cell=\"{c}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"#d9c8a0\" stroke=\"#5a4a2a\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>",
                        R * 0.78
                    );
                }
            }
        }
        let (fill, stroke) = colours(p.colour);
        let colour = p.colour.name().to_lowercase();
        let blocked = pos.is_blocked(id);
        let _ = writeln!(
            s,
            "<g class=\"piece {colour}{}\" data-placement=\"{}\" data-kind=\"{}\" data-level=\"{}\">",
            if blocked { " blocked" } else { "" },
            p.placement,
            p.placement.kind().letter(),
            p.level
        );
        let pts: Vec<(f64, f64)> = match p.placement.kind() {
            // The bar follows the piece: through the middle dot, or round the triangle.
            Kind::T => vec![at(cells[0]), at(cells[1]), at(cells[2]), at(cells[0])],
            Kind::C | Kind::A => vec![at(cells[1]), at(cells[0]), at(cells[2])],
            _ => vec![at(cells[0]), at(cells[1]), at(cells[2])],
        };
        let line: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{:.1}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
            line.join(" "),
            R * 0.62
        );
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{:.1}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
            line.join(" "),
            R * 0.42
        );
        for (k, &c) in cells.iter().enumerate() {
            let (x, y) = at(c);
            let _ = writeln!(
                s,
                "<circle class=\"dot\" data-cell=\"{c}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"/>",
                R * 0.56
            );
            if k == 0 {
                let _ = writeln!(
                    s,
                    "<circle class=\"punct-mark\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" fill=\"#c0392b\"/>",
                    R * 0.22
                );
            }
        }
        s.push_str("</g>\n");
    }
    // Stack heights and blocked marks go over everything, on the top dots only.
    for &c in Cell::all() {
        let h = pos.height(c);
        let Some(top) = pos.top_piece(c) else {
            continue;
        };
        let p = pos.piece(top);
        let (x, y) = cell_centre(c, f);
        let y = y - p.level as f64 * LEVEL_LIFT;
        if pos.is_blocked(top) {
            let d = R * 0.36;
            let _ = writeln!(
                s,
                "<path class=\"blocked-mark\" data-cell=\"{c}\" d=\"M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-opacity=\"0.8\"/>",
                x - d, y - d, x + d, y + d, x - d, y + d, x + d, y - d
            );
        }
        if h >= 2 {
            let _ = writeln!(
                s,
                "<g class=\"height\" data-cell=\"{c}\"><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"7\" fill=\"#1f5fa8\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\">{h}</text></g>",
                x + R * 0.55,
                y - R * 0.5,
                x + R * 0.55,
                y - R * 0.5 + 3.5
            );
        }
    }
    s.push_str("</g>\n");
}

/// One line of a player's hand: `T6 S4 C2 A2 L2 R2`.
pub fn hand_text(pos: &Position, c: Colour) -> String {
    Kind::ALL
        .iter()
        .map(|&k| format!("{}{}", k.letter(), pos.in_hand(c, k)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn draw_panel(s: &mut String, pos: &Position, x0: f64, last: Option<Move>) {
    let x = x0 + 10.0;
    let mut y = 40.0;
    let mut text = |s: &mut String, t: &str, size: u32, bold: bool| {
        let _ = writeln!(
            s,
            "<text x=\"{x:.0}\" y=\"{y:.0}\" font-size=\"{size}\"{}>{}</text>",
            if bold { " font-weight=\"bold\"" } else { "" },
            escape(t)
        );
        y += size as f64 + 8.0;
    };
    s.push_str("<g class=\"panel\" fill=\"#2a2010\">\n");
    text(s, "PÜNCT", 20, true);
    text(
        s,
        &format!("{} game, ply {}", pos.variant().name(), pos.ply()),
        12,
        false,
    );
    for c in Colour::ALL {
        text(
            s,
            &format!("{} in hand: {}", c.name(), pos.hand_total(c)),
            13,
            true,
        );
        text(s, &hand_text(pos, c), 13, false);
    }
    let [w, b] = pos.centre_count();
    text(s, &format!("Centre: White {w}, Black {b}"), 13, false);
    if let Some(mv) = last {
        text(s, &format!("Last move: {mv}"), 12, false);
    }
    match pos.outcome() {
        Some(o) => text(s, &o.to_string(), 13, true),
        None => text(
            s,
            &format!("{} to move", pos.side_to_move().name()),
            13,
            true,
        ),
    }
    s.push_str("</g>\n");
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{parse_move, parse_position};
    use crate::rules::position::Variant;

    #[test]
    fn neighbours_are_one_space_apart_and_flipping_turns_the_picture() {
        let (w, h) = board_size();
        for &c in Cell::all() {
            let (x, y) = cell_centre(c, false);
            assert!(x > R && x < w - R && y > R && y < h - R, "{c} inside");
            let (fx, fy) = cell_centre(c, true);
            assert!((x + fx - w).abs() < 1e-9 && (y + fy - h).abs() < 1e-9);
            for d in Dir::ALL {
                if let Some(n) = c.neighbour(d) {
                    let (nx, ny) = cell_centre(n, false);
                    let dist = ((nx - x).powi(2) + (ny - y).powi(2)).sqrt();
                    assert!((dist - SQRT3 * R).abs() < 1e-9, "{c}-{n}: {dist}");
                }
            }
        }
        // North is up, i9 in the middle.
        let i9 = Cell::new(8, 8).unwrap();
        assert_eq!(cell_centre(i9, false), (w / 2.0, h / 2.0));
        assert!(cell_centre(Cell::new(8, 9).unwrap(), false).1 < h / 2.0);
    }

    #[test]
    fn every_space_and_piece_is_in_the_picture() {
        let pos = parse_position("Wc5c6d6/Bf5f6f7 w 2", Variant::Standard).unwrap();
        let svg = board_svg(
            &pos,
            &SvgOptions {
                last_move: Some(parse_move("f5f6f7").unwrap()),
                panel: true,
                ..Default::default()
            },
        );
        assert_eq!(svg.matches("class=\"cell").count(), 211);
        assert_eq!(svg.matches("class=\"cell centre\"").count(), 19);
        assert_eq!(svg.matches("class=\"dot\"").count(), 6);
        assert_eq!(svg.matches("class=\"punct-mark\"").count(), 2);
        assert!(svg.contains("class=\"piece white\" data-placement=\"c5c6d6\""));
        assert!(svg.contains("class=\"piece black\" data-placement=\"f5f6f7\""));
        assert_eq!(svg.matches("class=\"last-move\"").count(), 3);
        assert!(svg.contains("White to move"));
        assert!(svg.contains("T5 S4 C2 A2 L2 R2") || svg.contains("T6 S4 C2 A2 L2 R1"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn stacks_bridges_and_blocked_pieces_are_marked() {
        // Look for a position with a bridge gap and a blocked piece through legal moves.
        let found = find_bridge_and_block(&mut Position::new(Variant::Standard));
        let svg = board_svg(&found, &SvgOptions::default());
        assert!(svg.contains("class=\"bridge-gap\""), "{found:?}");
        assert!(svg.contains("class=\"height\""));
        assert!(svg.contains(" blocked\""));
        assert!(svg.contains("class=\"blocked-mark\""));
    }

    /// Plays seeded legal moves until a position shows a bridge over an empty space and a
    /// blocked piece.
    fn find_bridge_and_block(pos: &mut Position) -> Position {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..200 {
            let mut p = pos.clone();
            for _ in 0..60 {
                if p.is_finished() {
                    break;
                }
                let moves = p.legal_moves();
                // Prefer moves onto other pieces, to build stacks.
                let shifts: Vec<_> = moves
                    .iter()
                    .filter(|m| matches!(m, Move::Shift { to, .. } if p.landing_level(*to) > 0))
                    .collect();
                let mv = if !shifts.is_empty() && rng.gen_bool(0.7) {
                    *shifts[rng.gen_range(0..shifts.len())]
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                p.make(mv);
                let gap = p.pieces().any(|(_, q)| {
                    q.level > 0 && q.placement.cells().iter().any(|&c| p.stack(c).len() == 1)
                });
                let blocked = p.pieces().any(|(i, _)| p.is_blocked(i));
                if gap && blocked {
                    return p;
                }
            }
        }
        panic!("no bridge with a gap found");
    }

    #[test]
    fn a_connection_is_drawn_as_a_path_of_adjacent_top_dots() {
        // Random games until one ends by a connection.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut done = None;
        'games: for _ in 0..400 {
            let mut p = Position::new(Variant::Basic);
            while !p.is_finished() {
                let moves = p.legal_moves();
                p.make(moves[rng.gen_range(0..moves.len())]);
            }
            if let Some(o) = p.outcome() {
                if o.reason == EndReason::Connection {
                    done = Some(p);
                    break 'games;
                }
            }
        }
        let p = done.expect("a random game ending in a connection");
        let w = p.outcome().unwrap().winner.unwrap();
        let path = connection_path(&p, w).unwrap();
        for pair in path.windows(2) {
            assert_eq!(pair[0].distance(pair[1]), 1);
        }
        assert!(path.iter().all(|&c| p.top_colour(c) == Some(w)));
        let (first, last) = (path[0], *path.last().unwrap());
        let sides = |c: Cell| {
            crate::rules::geometry::Side::ALL
                .iter()
                .filter(|s| s.cells().contains(c))
                .copied()
                .collect::<Vec<_>>()
        };
        assert!(sides(first)
            .iter()
            .any(|s| sides(last).contains(&s.opposite())));
        assert!(board_svg(&p, &SvgOptions::default()).contains("class=\"win-path\""));
        assert!(connection_path(&p, !w).is_none() || p.has_connection(!w));
    }
}
