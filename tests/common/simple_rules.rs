//! A deliberately simple second implementation of docs/rules.md sections 1 to 5 and 7, written from
//! the text alone to cross-check the fast generator. It shares no code with the library: its own
//! coordinates, its own reader of move and position text, its own shape classification, its own
//! heights, stability, PÜNCT and connection logic. Speed does not matter here; clarity does.

use std::collections::{BTreeSet, VecDeque};
use std::sync::OnceLock;

/// A space as `(x, y)`.
pub type Xy = (i32, i32);

/// The six directions of docs/rules.md section 1, clockwise from N.
pub const DIRS: [Xy; 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

const CORNERS: [Xy; 6] = [(0, 0), (0, 8), (8, 0), (8, 16), (16, 8), (16, 16)];

pub fn on_board((x, y): Xy) -> bool {
    (0..=16).contains(&x)
        && (0..=16).contains(&y)
        && (x - y).abs() <= 8
        && !CORNERS.contains(&(x, y))
}

pub fn all_cells() -> Vec<Xy> {
    let mut v = Vec::new();
    for x in 0..17 {
        for y in 0..17 {
            if on_board((x, y)) {
                v.push((x, y));
            }
        }
    }
    v
}

/// Hex distance as docs/rules.md defines it.
pub fn distance(a: Xy, b: Xy) -> i32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx.signum() * dy.signum() >= 0 {
        dx.abs().max(dy.abs())
    } else {
        dx.abs() + dy.abs()
    }
}

pub fn is_central(c: Xy) -> bool {
    distance(c, (8, 8)) <= 2
}

pub fn adjacent(a: Xy, b: Xy) -> bool {
    DIRS.contains(&(b.0 - a.0, b.1 - a.1))
}

pub fn cell_name(c: Xy) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1 + 1)
}

/// Reads one cell name (lowercase letter, row number without padding).
pub fn read_cell(s: &str) -> Option<Xy> {
    let mut chars = s.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.starts_with('0') || !digits.chars().all(|d| d.is_ascii_digit()) {
        return None;
    }
    let row: i32 = digits.parse().ok()?;
    let c = (letter as i32 - 'a' as i32, row - 1);
    on_board(c).then_some(c)
}

/// Splits `c5f5f6` into cells.
fn read_cells(s: &str) -> Option<Vec<Xy>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        if !rest.is_char_boundary(1) {
            return None;
        }
        let len = 1 + rest[1..].chars().take_while(|c| c.is_ascii_digit()).count();
        if !rest.is_char_boundary(len) {
            return None;
        }
        out.push(read_cell(&rest[..len])?);
        rest = &rest[len..];
    }
    Some(out)
}

/// The six piece kinds of docs/rules.md section 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Shape {
    T,
    S,
    C,
    A,
    L,
    R,
}

impl Shape {
    pub const ALL: [Shape; 6] = [Shape::T, Shape::S, Shape::C, Shape::A, Shape::L, Shape::R];

    /// Pieces of this kind in each player's set.
    pub fn count(self) -> usize {
        match self {
            Shape::T => 6,
            Shape::S => 4,
            _ => 2,
        }
    }
}

fn dir_of(v: Xy) -> Option<usize> {
    DIRS.iter().position(|&d| d == v)
}

/// The kind of piece whose PÜNCT is on `p` and minor dots on `m1`, `m2`, or `None`.
pub fn classify(p: Xy, m1: Xy, m2: Xy) -> Option<Shape> {
    let a = (m1.0 - p.0, m1.1 - p.1);
    let b = (m2.0 - p.0, m2.1 - p.1);
    // One minor dot adjacent to the PÜNCT in direction i, the other `far`.
    let one_adjacent = |i: usize, far: Xy| {
        let d = DIRS[i];
        let next = DIRS[(i + 1) % 6];
        let prev = DIRS[(i + 5) % 6];
        if far == (2 * d.0, 2 * d.1) {
            Some(Shape::S)
        } else if far == (d.0 + next.0, d.1 + next.1) {
            Some(Shape::L)
        } else if far == (d.0 + prev.0, d.1 + prev.1) {
            Some(Shape::R)
        } else {
            None
        }
    };
    match (dir_of(a), dir_of(b)) {
        (Some(i), Some(j)) => match (j + 6 - i) % 6 {
            1 | 5 => Some(Shape::T),
            2 | 4 => Some(Shape::A),
            3 => Some(Shape::C),
            _ => None,
        },
        (Some(i), None) => one_adjacent(i, b),
        (None, Some(j)) => one_adjacent(j, a),
        (None, None) => None,
    }
}

/// A piece on the board; minor dots sorted so that equal placements compare equal.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub level: u8,
    pub white: bool,
    pub p: Xy,
    pub minors: [Xy; 2],
    pub shape: Shape,
}

fn sorted(a: Xy, b: Xy) -> [Xy; 2] {
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

/// The cells that must lie at the landing level: all for T, else the two ends.
pub fn ends(shape: Shape, p: Xy, minors: [Xy; 2]) -> Vec<Xy> {
    match shape {
        Shape::T => vec![p, minors[0], minors[1]],
        Shape::C | Shape::A => minors.to_vec(),
        // S, L, R: the PÜNCT and the minor dot not adjacent to it.
        _ => {
            let far = if adjacent(p, minors[0]) {
                minors[1]
            } else {
                minors[0]
            };
            vec![p, far]
        }
    }
}

/// The middle dot of a piece with ends (`None` for T).
pub fn middle(shape: Shape, p: Xy, minors: [Xy; 2]) -> Option<Xy> {
    match shape {
        Shape::T => None,
        Shape::C | Shape::A => Some(p),
        _ => Some(if adjacent(p, minors[0]) {
            minors[0]
        } else {
            minors[1]
        }),
    }
}

impl Piece {
    pub fn cells(&self) -> [Xy; 3] {
        [self.p, self.minors[0], self.minors[1]]
    }
}

/// Every placement on the board: (kind, PÜNCT, sorted minor dots), found by classifying every
/// pair of spaces near every space (no orientation table).
pub fn all_placements() -> &'static [(Shape, Xy, [Xy; 2])] {
    static TABLE: OnceLock<Vec<(Shape, Xy, [Xy; 2])>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let cells = all_cells();
        let mut out = Vec::new();
        for &p in &cells {
            let near: Vec<Xy> = cells
                .iter()
                .copied()
                .filter(|&c| c != p && distance(p, c) <= 2)
                .collect();
            for i in 0..near.len() {
                for j in i + 1..near.len() {
                    if let Some(shape) = classify(p, near[i], near[j]) {
                        out.push((shape, p, sorted(near[i], near[j])));
                    }
                }
            }
        }
        out
    })
}

/// A move as the simple checker sees it: cells only (the kind follows from the shape).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Key {
    Pass,
    Drop { p: Xy, minors: [Xy; 2] },
    Shift { from: Xy, p: Xy, minors: [Xy; 2] },
}

/// Reads move text (`pass`, `c5c6d6`, `c5-f5f6g6`) into a key; `None` when unreadable.
pub fn read_key(text: &str) -> Option<Key> {
    if text == "pass" {
        return Some(Key::Pass);
    }
    let (from, to) = match text.split_once('-') {
        Some((f, t)) => (Some(read_cell(f)?), t),
        None => (None, text),
    };
    let cells = read_cells(to)?;
    if cells.len() != 3 {
        return None;
    }
    let minors = sorted(cells[1], cells[2]);
    Some(match from {
        Some(from) => Key::Shift {
            from,
            p: cells[0],
            minors,
        },
        None => Key::Drop {
            p: cells[0],
            minors,
        },
    })
}

/// How a game ended: the winner (`Some(true)` = White) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ending {
    pub winner: Option<bool>,
    pub why: Why,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Why {
    Connection,
    CentreCount(usize, usize),
    LastDrop,
    DoublePass,
}

/// Heights and top colours of every space for a set of pieces.
pub struct View {
    height: [[u8; 17]; 17],
    top_white: [[Option<bool>; 17]; 17],
}

impl View {
    pub fn of<'a>(pieces: impl Iterator<Item = &'a Piece>) -> View {
        let mut v = View {
            height: [[0; 17]; 17],
            top_white: [[None; 17]; 17],
        };
        for pc in pieces {
            for (x, y) in pc.cells() {
                let (x, y) = (x as usize, y as usize);
                if pc.level + 1 > v.height[x][y] {
                    v.height[x][y] = pc.level + 1;
                    v.top_white[x][y] = Some(pc.white);
                }
            }
        }
        v
    }

    pub fn height(&self, c: Xy) -> u8 {
        self.height[c.0 as usize][c.1 as usize]
    }

    /// The colour of the highest dot on a space (`Some(true)` = White).
    pub fn top(&self, c: Xy) -> Option<bool> {
        self.top_white[c.0 as usize][c.1 as usize]
    }

    /// Whether `white` may rest a piece of `shape` at these cells, and at which level (4.2).
    pub fn landing(&self, white: bool, shape: Shape, p: Xy, minors: [Xy; 2]) -> Option<u8> {
        let level = [p, minors[0], minors[1]]
            .iter()
            .map(|&c| self.height(c))
            .max()
            .unwrap_or(0);
        if ends(shape, p, minors)
            .iter()
            .any(|&e| self.height(e) != level)
        {
            return None;
        }
        if level >= 1 && self.top(p) != Some(white) {
            return None;
        }
        Some(level)
    }
}

/// Whether the cells join two opposite sides through adjacent cells (own breadth-first search).
pub fn connects(cells: &BTreeSet<Xy>) -> bool {
    type Side = fn(Xy) -> bool;
    let axes: [(Side, Side); 3] = [
        (|c| c.0 == 0, |c| c.0 == 16),
        (|c| c.1 == 0, |c| c.1 == 16),
        (|c| c.0 - c.1 == 8, |c| c.1 - c.0 == 8),
    ];
    axes.iter().any(|&(from, to)| {
        let mut seen: BTreeSet<Xy> = cells.iter().copied().filter(|&c| from(c)).collect();
        let mut queue: VecDeque<Xy> = seen.iter().copied().collect();
        while let Some(c) = queue.pop_front() {
            if to(c) {
                return true;
            }
            for d in DIRS {
                let n = (c.0 + d.0, c.1 + d.1);
                if cells.contains(&n) && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        false
    })
}

/// A position in the simple model.
#[derive(Clone, Debug)]
pub struct Board {
    pub pieces: Vec<Piece>,
    pub white_to_move: bool,
    pub ply: u32,
    pub basic: bool,
    pub last_was_pass: bool,
    pub ending: Option<Ending>,
}

impl Board {
    pub fn start(basic: bool) -> Board {
        Board {
            pieces: Vec::new(),
            white_to_move: true,
            ply: 0,
            basic,
            last_was_pass: false,
            ending: None,
        }
    }

    /// Reads a position string (docs/rules.md section 7), checking stability and piece counts.
    pub fn read(text: &str, basic: bool) -> Result<Board, String> {
        let mut board = Board::start(basic);
        if text.trim() == "startpos" {
            return Ok(board);
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 3 {
            return Err(format!("{text}: not 3 fields"));
        }
        if fields[0] != "-" {
            for item in fields[0].split('/') {
                let white = match item.chars().next() {
                    Some('W') => true,
                    Some('B') => false,
                    _ => return Err(format!("{item}: bad colour")),
                };
                let cells = read_cells(&item[1..]).ok_or(format!("{item}: bad cells"))?;
                if cells.len() != 3 {
                    return Err(format!("{item}: not 3 cells"));
                }
                let shape =
                    classify(cells[0], cells[1], cells[2]).ok_or(format!("{item}: no shape"))?;
                if board.in_hand(white, shape) == 0 {
                    return Err(format!("{item}: too many"));
                }
                let minors = sorted(cells[1], cells[2]);
                let level = View::of(board.pieces.iter())
                    .landing(white, shape, cells[0], minors)
                    .ok_or(format!("{item}: not stable"))?;
                board.pieces.push(Piece {
                    level,
                    white,
                    p: cells[0],
                    minors,
                    shape,
                });
            }
        }
        board.white_to_move = match fields[1] {
            "w" => true,
            "b" => false,
            s => return Err(format!("{s}: bad side")),
        };
        board.ply = fields[2]
            .parse()
            .map_err(|_| format!("{}: bad ply", fields[2]))?;
        let (w, b) = (board.connected(true), board.connected(false));
        board.ending = if w || b {
            Some(Ending {
                winner: Some(if w && b { !board.white_to_move } else { w }),
                why: Why::Connection,
            })
        } else if board.hand_total(true) == 0 || board.hand_total(false) == 0 {
            Some(board.last_drop_ending())
        } else {
            None
        };
        Ok(board)
    }

    pub fn in_hand(&self, white: bool, shape: Shape) -> usize {
        let on_board = self
            .pieces
            .iter()
            .filter(|p| p.white == white && p.shape == shape)
            .count();
        shape.count() - on_board
    }

    pub fn hand_total(&self, white: bool) -> usize {
        18 - self.pieces.iter().filter(|p| p.white == white).count()
    }

    /// Whether anything lies above any dot of piece `i` (docs/rules.md 3).
    pub fn blocked(&self, i: usize) -> bool {
        let pc = &self.pieces[i];
        self.pieces
            .iter()
            .any(|q| q.level > pc.level && q.cells().iter().any(|c| pc.cells().contains(c)))
    }

    /// Whether piece `i` is a bridge: its middle dot has no dot right below it.
    pub fn is_bridge(&self, i: usize) -> bool {
        let pc = &self.pieces[i];
        let Some(mid) = middle(pc.shape, pc.p, pc.minors) else {
            return false;
        };
        pc.level >= 1
            && !self
                .pieces
                .iter()
                .any(|q| q.level + 1 == pc.level && q.cells().contains(&mid))
    }

    pub fn top_cells(&self, white: bool) -> BTreeSet<Xy> {
        let view = View::of(self.pieces.iter());
        all_cells()
            .into_iter()
            .filter(|&c| view.top(c) == Some(white))
            .collect()
    }

    pub fn connected(&self, white: bool) -> bool {
        connects(&self.top_cells(white))
    }

    fn last_drop_ending(&self) -> Ending {
        if self.basic {
            return Ending {
                winner: None,
                why: Why::LastDrop,
            };
        }
        let count = |white| {
            self.top_cells(white)
                .into_iter()
                .filter(|&c| is_central(c))
                .count()
        };
        let (w, b) = (count(true), count(false));
        Ending {
            winner: if w == b { None } else { Some(w > b) },
            why: Why::CentreCount(w, b),
        }
    }

    /// Drops of docs/rules.md 4.1 allowed on these cells (ignoring the hand).
    fn drop_allowed(&self, view: &View, cells: [Xy; 3]) -> bool {
        let white_first_drop = self.white_to_move && !self.pieces.iter().any(|p| p.white);
        let centre_banned = !self.basic || white_first_drop;
        cells
            .iter()
            .all(|&c| view.height(c) == 0 && !(centre_banned && is_central(c)))
    }

    /// The own unblocked piece with its PÜNCT on `from`.
    fn movable_at(&self, from: Xy) -> Option<usize> {
        (0..self.pieces.len()).find(|&i| {
            let pc = &self.pieces[i];
            pc.p == from && pc.white == self.white_to_move && !self.blocked(i)
        })
    }

    /// Whether `to` is in a straight line from `from` (or the same space).
    fn in_line(from: Xy, to: Xy) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        dx == 0 || dy == 0 || dx == dy
    }

    /// The landing level of piece `i` moved to the cells, if that move is legal; `lifted` is the
    /// view without piece `i`.
    fn shift_landing(&self, lifted: &View, i: usize, p: Xy, minors: [Xy; 2]) -> Option<u8> {
        let pc = &self.pieces[i];
        let shape = classify(p, minors[0], minors[1])?;
        if shape != pc.shape || !Board::in_line(pc.p, p) || (p, minors) == (pc.p, pc.minors) {
            return None;
        }
        lifted.landing(pc.white, shape, p, minors)
    }

    fn view_without(&self, i: usize) -> View {
        View::of(
            self.pieces
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, p)| p),
        )
    }

    /// Every legal move except pass (docs/rules.md 4.1 and 4.2), nothing once the game is over.
    fn non_pass_moves(&self) -> BTreeSet<Key> {
        let mut out = BTreeSet::new();
        if self.ending.is_some() {
            return out;
        }
        let white = self.white_to_move;
        let view = View::of(self.pieces.iter());
        for &(shape, p, minors) in all_placements() {
            if self.in_hand(white, shape) > 0 && self.drop_allowed(&view, [p, minors[0], minors[1]])
            {
                out.insert(Key::Drop { p, minors });
            }
        }
        for i in 0..self.pieces.len() {
            let pc = self.pieces[i];
            if pc.white != white || self.blocked(i) {
                continue;
            }
            let lifted = self.view_without(i);
            for &(shape, p, minors) in all_placements() {
                if shape == pc.shape && self.shift_landing(&lifted, i, p, minors).is_some() {
                    out.insert(Key::Shift {
                        from: pc.p,
                        p,
                        minors,
                    });
                }
            }
        }
        out
    }

    /// Every legal move: a pass only when nothing else is legal.
    pub fn legal_moves(&self) -> BTreeSet<Key> {
        let mut moves = self.non_pass_moves();
        if moves.is_empty() && self.ending.is_none() {
            moves.insert(Key::Pass);
        }
        moves
    }

    /// Whether one move is legal, checked on its own.
    pub fn is_legal(&self, key: Key) -> bool {
        if self.ending.is_some() {
            return false;
        }
        let white = self.white_to_move;
        match key {
            Key::Pass => self.non_pass_moves().is_empty(),
            Key::Drop { p, minors } => match classify(p, minors[0], minors[1]) {
                Some(shape) => {
                    self.in_hand(white, shape) > 0
                        && self
                            .drop_allowed(&View::of(self.pieces.iter()), [p, minors[0], minors[1]])
                }
                None => false,
            },
            Key::Shift { from, p, minors } => match self.movable_at(from) {
                Some(i) => self
                    .shift_landing(&self.view_without(i), i, p, minors)
                    .is_some(),
                None => false,
            },
        }
    }

    /// Plays a move assumed legal and works out the end of the game (docs/rules.md 5).
    pub fn apply(&mut self, key: Key) {
        let white = self.white_to_move;
        let pass_before = self.last_was_pass;
        match key {
            Key::Pass => {}
            Key::Drop { p, minors } => {
                let shape = classify(p, minors[0], minors[1]).expect("a piece shape");
                self.pieces.push(Piece {
                    level: 0,
                    white,
                    p,
                    minors,
                    shape,
                });
            }
            Key::Shift { from, p, minors } => {
                let i = self.movable_at(from).expect("a movable piece");
                let level = self
                    .shift_landing(&self.view_without(i), i, p, minors)
                    .expect("a legal landing");
                let mut pc = self.pieces.remove(i);
                pc.p = p;
                pc.minors = minors;
                pc.level = level;
                self.pieces.push(pc);
            }
        }
        self.white_to_move = !white;
        self.ply += 1;
        self.last_was_pass = key == Key::Pass;
        self.ending = if key == Key::Pass {
            pass_before.then_some(Ending {
                winner: None,
                why: Why::DoublePass,
            })
        } else if self.connected(white) {
            Some(Ending {
                winner: Some(white),
                why: Why::Connection,
            })
        } else if self.connected(!white) {
            Some(Ending {
                winner: Some(!white),
                why: Why::Connection,
            })
        } else if matches!(key, Key::Drop { .. }) && self.hand_total(white) == 0 {
            Some(self.last_drop_ending())
        } else {
            None
        };
    }

    /// The pieces as a sorted list, to compare two boards.
    pub fn sorted_pieces(&self) -> Vec<Piece> {
        let mut v = self.pieces.clone();
        v.sort();
        v
    }
}

/// Perft with the simple checker only: leaves at exactly `depth` plies.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|key| {
            let mut next = board.clone();
            next.apply(key);
            perft(&next, depth - 1)
        })
        .sum()
}
