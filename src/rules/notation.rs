//! Text notation (docs/rules.md sections 6 and 7): cells, moves and positions, parsed and printed.
//!
//! Parsing a move is syntax only (cells and shape); whether it is legal in a position is a
//! separate step, [`Position::check_move`](crate::Position::check_move), with its own error type.
//! Input is case-insensitive and `0000` is accepted for `pass`.

use std::fmt;

use crate::rules::geometry::Cell;
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::{Position, Variant, MAX_PIECES};

/// Longest move text accepted (`a10-b10c10d10` is 13 characters).
const MAX_MOVE_LEN: usize = 16;

/// What is wrong with a cell or move text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SyntaxError {
    Empty,
    TooLong,
    /// A cell name that is malformed or off the board.
    BadCell(String),
    /// Not 3 cells (drop) or 1 + 3 cells (move).
    CellCount(usize),
    NotAShape,
    UnexpectedChar(char),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::Empty => f.write_str("empty"),
            SyntaxError::TooLong => f.write_str("too long to be a move"),
            SyntaxError::BadCell(c) => write!(f, "'{c}' is not a space of the board"),
            SyntaxError::CellCount(n) => write!(
                f,
                "a drop names 3 spaces and a move 1, '-', then 3 ({n} found)"
            ),
            SyntaxError::NotAShape => f.write_str("the three spaces are not a piece shape"),
            SyntaxError::UnexpectedChar(c) => write!(f, "unexpected character '{c}'"),
        }
    }
}

/// A cell or move string that cannot be read, with the text it came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub text: String,
    pub error: SyntaxError,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.text, self.error)
    }
}

impl std::error::Error for ParseError {}

/// Text for an error message: trimmed, and cut to 40 characters with `…` when longer.
fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    let text = text.trim();
    match text.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

fn parse_error(text: &str, error: SyntaxError) -> ParseError {
    ParseError {
        text: shorten(text),
        error,
    }
}

/// Reads a cell name such as `i9` (case-insensitive).
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let bad = || parse_error(text, SyntaxError::BadCell(shorten(text)));
    let mut chars = text.chars();
    let letter = chars
        .next()
        .ok_or_else(|| parse_error(text, SyntaxError::Empty))?;
    let digits = chars.as_str();
    if !letter.is_ascii_alphabetic()
        || digits.is_empty()
        || digits.len() > 2
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || digits.starts_with('0')
    {
        return Err(bad());
    }
    let x = letter.to_ascii_lowercase() as i32 - 'a' as i32;
    let y: i32 = digits.parse().map_err(|_| bad())?;
    Cell::new(x, y - 1).ok_or_else(bad)
}

/// Splits `a10b9c9` into cell names; errors on any other character.
fn split_cells(text: &str) -> Result<Vec<Cell>, ParseError> {
    let bytes = text.as_bytes();
    let mut cells = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            let c = text[i..].chars().next().unwrap_or('?');
            return Err(parse_error(text, SyntaxError::UnexpectedChar(c)));
        }
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let name = &text[i..j];
        let cell = parse_cell(name)
            .map_err(|_| parse_error(text, SyntaxError::BadCell(name.to_string())))?;
        cells.push(cell);
        i = j;
    }
    Ok(cells)
}

/// Reads a placement: the PÜNCT then the two minor dots in either order.
pub fn parse_placement(text: &str) -> Result<Placement, ParseError> {
    let cells = split_cells(text)?;
    if cells.len() != 3 {
        return Err(parse_error(text, SyntaxError::CellCount(cells.len())));
    }
    Placement::from_cells(cells[0], cells[1], cells[2])
        .ok_or_else(|| parse_error(text, SyntaxError::NotAShape))
}

/// Reads a move (`c5c6d6`, `c5-f5f6g6`, `pass`). Checks syntax and shape only.
pub fn parse_move(text: &str) -> Result<Move, ParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(parse_error(text, SyntaxError::Empty));
    }
    if t.len() > MAX_MOVE_LEN {
        return Err(parse_error(text, SyntaxError::TooLong));
    }
    if t.eq_ignore_ascii_case("pass") || t == "0000" {
        return Ok(Move::Pass);
    }
    match t.split_once('-') {
        None => parse_placement(t)
            .map(Move::Drop)
            .map_err(|e| parse_error(t, e.error)),
        Some((from, to)) => {
            let from = split_cells(from).map_err(|e| parse_error(t, e.error))?;
            let to_cells = split_cells(to).map_err(|e| parse_error(t, e.error))?;
            if from.len() != 1 || to_cells.len() != 3 {
                return Err(parse_error(
                    t,
                    SyntaxError::CellCount(from.len() + to_cells.len()),
                ));
            }
            let to = Placement::from_cells(to_cells[0], to_cells[1], to_cells[2])
                .ok_or_else(|| parse_error(t, SyntaxError::NotAShape))?;
            Ok(Move::Shift { from: from[0], to })
        }
    }
}

/// What is wrong with a position string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Not three space-separated fields: the text (shortened) and the number of fields found.
    FieldCount(String, usize),
    /// Piece `index` (1-based) cannot be read or placed.
    Piece {
        index: usize,
        text: String,
        problem: PieceProblem,
    },
    Side(String),
    Ply(String),
    /// The ply is smaller than the number of pieces on the board.
    PlyTooSmall {
        ply: u32,
        pieces: usize,
    },
}

/// Why one piece of a position string is rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PieceProblem {
    Colour,
    Syntax(SyntaxError),
    NotStable,
    PunctNotOwn,
    TooMany(Kind),
    TooManyPieces,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FieldCount(text, n) => write!(
                f,
                "'{text}': a position has 3 fields 'PIECES SIDE PLY' separated by spaces ({n} found)"
            ),
            PositionError::Piece {
                index,
                text,
                problem,
            } => {
                write!(f, "piece {index} of the position ({text}) ")?;
                match problem {
                    PieceProblem::Colour => f.write_str("does not start with W or B"),
                    PieceProblem::Syntax(e) => write!(f, "cannot be read: {e}"),
                    PieceProblem::NotStable => f.write_str("is not stable"),
                    PieceProblem::PunctNotOwn => {
                        f.write_str("has its PÜNCT on nothing or on an opponent's dot")
                    }
                    PieceProblem::TooMany(k) => write!(
                        f,
                        "is one {} piece more than the set holds ({})",
                        k.name(),
                        k.count()
                    ),
                    PieceProblem::TooManyPieces => f.write_str("is one piece too many"),
                }
            }
            PositionError::Side(s) => write!(f, "side to move '{s}' is not 'w' or 'b'"),
            PositionError::Ply(s) => {
                write!(f, "ply '{s}' is not a decimal number without leading zeros")
            }
            PositionError::PlyTooSmall { ply, pieces } => {
                write!(f, "ply {ply} is less than the {pieces} pieces on the board")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Reads a position string (`PIECES SIDE PLY`, or `startpos`).
pub fn parse_position(text: &str, variant: Variant) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() == 1 && fields[0].eq_ignore_ascii_case("startpos") {
        return Ok(Position::new(variant));
    }
    if fields.len() != 3 {
        return Err(PositionError::FieldCount(shorten(text), fields.len()));
    }
    let mut pos = Position::new(variant);
    if fields[0] != "-" {
        for (i, piece) in fields[0].split('/').enumerate() {
            let err = |problem| PositionError::Piece {
                index: i + 1,
                text: piece.chars().take(20).collect(),
                problem,
            };
            if i >= MAX_PIECES {
                return Err(err(PieceProblem::TooManyPieces));
            }
            let colour = match piece.chars().next() {
                Some('W' | 'w') => Colour::White,
                Some('B' | 'b') => Colour::Black,
                _ => return Err(err(PieceProblem::Colour)),
            };
            let placement =
                parse_placement(&piece[1..]).map_err(|e| err(PieceProblem::Syntax(e.error)))?;
            let kind = placement.kind();
            if pos.in_hand(colour, kind) == 0 {
                return Err(err(PieceProblem::TooMany(kind)));
            }
            if !pos.is_stable_for(colour, placement) {
                let level = pos.landing_level(placement);
                let cells = placement.cells();
                let ends_ok = placement
                    .end_cells()
                    .iter()
                    .all(|&e| pos.height(cells[e]) == level);
                return Err(err(if ends_ok {
                    PieceProblem::PunctNotOwn
                } else {
                    PieceProblem::NotStable
                }));
            }
            pos.put_piece(colour, placement);
        }
    }
    let side = match fields[1] {
        "w" | "W" => Colour::White,
        "b" | "B" => Colour::Black,
        s => return Err(PositionError::Side(s.chars().take(20).collect())),
    };
    let ply_text = fields[2];
    let ply: u32 = if ply_text.bytes().all(|b| b.is_ascii_digit())
        && !ply_text.is_empty()
        && (ply_text == "0" || !ply_text.starts_with('0'))
    {
        ply_text
            .parse()
            .map_err(|_| PositionError::Ply(ply_text.chars().take(20).collect()))?
    } else {
        return Err(PositionError::Ply(ply_text.chars().take(20).collect()));
    };
    if (ply as usize) < pos.num_pieces() {
        return Err(PositionError::PlyTooSmall {
            ply,
            pieces: pos.num_pieces(),
        });
    }
    pos.finish_setup(side, ply);
    Ok(pos)
}

/// The canonical position string: pieces by level, then PÜNCT in `(x, y)` order.
pub fn position_to_string(pos: &Position) -> String {
    let mut pieces: Vec<_> = pos.pieces().map(|(_, p)| p).collect();
    pieces.sort_by_key(|p| (p.level, p.placement.punct()));
    let mut s = String::with_capacity(12 * pieces.len() + 8);
    if pieces.is_empty() {
        s.push('-');
    }
    for (i, p) in pieces.iter().enumerate() {
        if i > 0 {
            s.push('/');
        }
        s.push(p.colour.letter());
        s.push_str(&p.placement.to_string());
    }
    let side = match pos.side_to_move() {
        Colour::White => 'w',
        Colour::Black => 'b',
    };
    format!("{s} {side} {}", pos.ply())
}

impl std::str::FromStr for Move {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Move, ParseError> {
        parse_move(s)
    }
}

impl std::str::FromStr for Cell {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Cell, ParseError> {
        parse_cell(s)
    }
}

impl fmt::Display for Position {
    /// The canonical position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&position_to_string(self))
    }
}

/// A position prints as its notation (the same text as [`position_to_string`]).
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&position_to_string(self))
    }
}
