//! The position: pieces on the board with their levels, per-cell stacks, top view, pieces in
//! hand, side to move, ply, hash, game outcome, and the history needed for unmake and repetitions.

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Axis, Cell, GRID_LEN};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::zobrist::{keys, piece_key};

/// Pieces per player.
pub const PIECES_PER_PLAYER: u8 = 18;
/// Pieces on the board at most.
pub const MAX_PIECES: usize = 36;

/// Which rules are in force (docs/rules.md 4.1 and 5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    #[default]
    Standard,
    Basic,
}

impl Variant {
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Basic => "basic",
        }
    }

    pub fn from_name(s: &str) -> Option<Variant> {
        match s.to_ascii_lowercase().as_str() {
            "standard" => Some(Variant::Standard),
            "basic" => Some(Variant::Basic),
            _ => None,
        }
    }
}

/// A piece on the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PlacedPiece {
    pub colour: Colour,
    pub placement: Placement,
    pub level: u8,
}

/// How a finished game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// A chain of top-visible dots joins two opposite sides.
    Connection,
    /// Standard game, 18th drop: the central hexagon's top-visible dots were counted.
    CentreCount { white: u8, black: u8 },
    /// Basic game, 18th drop: the game ends undecided.
    LastDrop,
    /// Two passes in a row.
    DoublePass,
}

/// The result of a finished game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Colour>,
    pub reason: EndReason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.winner, self.reason) {
            (Some(c), EndReason::Connection) => write!(f, "{} wins by connection", c.name()),
            (Some(c), EndReason::CentreCount { white, black }) => {
                write!(f, "{} wins on the centre count {white}-{black}", c.name())
            }
            (None, EndReason::CentreCount { white, black }) => {
                write!(f, "draw on the centre count {white}-{black}")
            }
            (None, EndReason::LastDrop) => write!(f, "draw: last piece dropped (basic game)"),
            (None, EndReason::DoublePass) => write!(f, "draw by two passes"),
            (w, r) => write!(f, "{w:?} {r:?}"),
        }
    }
}

#[derive(Copy, Clone, Debug)]
struct Undo {
    mv: Move,
    /// For a shift: the moved piece's index, placement and level before the move.
    piece: u8,
    old: Option<(Placement, u8)>,
    hash: u64,
    outcome: Option<Outcome>,
    last_was_pass: bool,
}

/// A PÜNCT position with make/unmake.
#[derive(Clone)]
pub struct Position {
    variant: Variant,
    side: Colour,
    ply: u32,
    pieces: [Option<PlacedPiece>; MAX_PIECES],
    num_pieces: u8,
    in_hand: [[u8; 6]; 2],
    hand_total: [u8; 2],
    /// Piece indices per cell, bottom to top.
    stacks: Box<[[u8; MAX_PIECES]; GRID_LEN]>,
    stack_len: [u8; GRID_LEN],
    height: [u8; GRID_LEN],
    top: [CellSet; 2],
    hash: u64,
    last_was_pass: bool,
    outcome: Option<Outcome>,
    undo: Vec<Undo>,
}

impl Position {
    /// The start position: empty board, White to move.
    pub fn new(variant: Variant) -> Position {
        let mut in_hand = [[0; 6]; 2];
        for hand in &mut in_hand {
            for k in Kind::ALL {
                hand[k.index()] = k.count();
            }
        }
        let mut pos = Position {
            variant,
            side: Colour::White,
            ply: 0,
            pieces: [None; MAX_PIECES],
            num_pieces: 0,
            in_hand,
            hand_total: [PIECES_PER_PLAYER; 2],
            stacks: Box::new([[0; MAX_PIECES]; GRID_LEN]),
            stack_len: [0; GRID_LEN],
            height: [0; GRID_LEN],
            top: [CellSet::EMPTY; 2],
            hash: 0,
            last_was_pass: false,
            outcome: None,
            undo: Vec::with_capacity(256),
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// A copy without the undo history, for trying a change that is never taken back: the
    /// cost does not grow with the length of the game (a checked `position ... moves` line
    /// stays linear).
    pub(crate) fn clone_without_history(&self) -> Position {
        Position {
            variant: self.variant,
            side: self.side,
            ply: self.ply,
            pieces: self.pieces,
            num_pieces: self.num_pieces,
            in_hand: self.in_hand,
            hand_total: self.hand_total,
            stacks: self.stacks.clone(),
            stack_len: self.stack_len,
            height: self.height,
            top: self.top,
            hash: self.hash,
            last_was_pass: self.last_was_pass,
            outcome: self.outcome,
            undo: Vec::new(),
        }
    }

    // ----- queries -----

    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The result, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    pub fn is_finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// Height of a cell: 1 + the highest level of a dot on it, or 0.
    #[inline]
    pub fn height(&self, c: Cell) -> u8 {
        self.height[c.index()]
    }

    /// Colour of the top-visible dot of a cell.
    #[inline]
    pub fn top_colour(&self, c: Cell) -> Option<Colour> {
        if self.top[0].contains(c) {
            Some(Colour::White)
        } else if self.top[1].contains(c) {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// The cells whose top-visible dot is `colour`'s.
    #[inline]
    pub fn top_view(&self, colour: Colour) -> CellSet {
        self.top[colour.index()]
    }

    /// Cells with no dot at all.
    #[inline]
    pub fn empty_cells(&self) -> CellSet {
        !(self.top[0] | self.top[1])
    }

    /// Pieces of `kind` that `colour` still has in hand.
    #[inline]
    pub fn in_hand(&self, colour: Colour, kind: Kind) -> u8 {
        self.in_hand[colour.index()][kind.index()]
    }

    /// Pieces of any kind that `colour` still has in hand.
    #[inline]
    pub fn hand_total(&self, colour: Colour) -> u8 {
        self.hand_total[colour.index()]
    }

    /// Whether the previous move was a pass (a second pass would end the game).
    #[inline]
    pub fn last_was_pass(&self) -> bool {
        self.last_was_pass
    }

    /// The pieces on the board with their indices (stable while no move is made).
    pub fn pieces(&self) -> impl Iterator<Item = (usize, PlacedPiece)> + '_ {
        self.pieces[..self.num_pieces as usize]
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (i, p)))
    }

    #[inline]
    pub fn piece(&self, index: usize) -> PlacedPiece {
        self.pieces[index].expect("piece index in range")
    }

    #[inline]
    pub fn num_pieces(&self) -> usize {
        self.num_pieces as usize
    }

    /// The piece indices on a cell, bottom to top.
    #[inline]
    pub fn stack(&self, c: Cell) -> &[u8] {
        &self.stacks[c.index()][..self.stack_len[c.index()] as usize]
    }

    /// The index of the piece whose top dot is on `c`.
    #[inline]
    pub fn top_piece(&self, c: Cell) -> Option<usize> {
        self.stack(c).last().map(|&i| i as usize)
    }

    /// Whether anything lies above any dot of the piece (docs/rules.md 3).
    pub fn is_blocked(&self, index: usize) -> bool {
        let p = self.piece(index);
        p.placement
            .cells()
            .iter()
            .any(|&c| self.height[c.index()] > p.level + 1)
    }

    /// The own unblocked piece whose PÜNCT is on `c`, if any.
    pub fn movable_piece_at(&self, c: Cell) -> Option<usize> {
        let i = self.top_piece(c)?;
        let p = self.piece(i);
        (p.colour == self.side && p.placement.punct() == c && !self.is_blocked(i)).then_some(i)
    }

    /// Whether `colour`'s top-visible dots join two opposite sides.
    pub fn has_connection(&self, colour: Colour) -> bool {
        connects(self.top[colour.index()])
    }

    /// Top-visible dots of each colour in the central hexagon: `[white, black]`.
    pub fn centre_count(&self) -> [u8; 2] {
        let centre = central_cells();
        [
            (self.top[0] & centre).len() as u8,
            (self.top[1] & centre).len() as u8,
        ]
    }

    /// How many times the current position has occurred in this game (1 = first time), counting
    /// positions reached by the moves made on this `Position` (not before it was set up).
    pub fn repetitions(&self) -> usize {
        let mut count = 1;
        // Only positions with the same side to move can match; drops are irreversible.
        let mut i = self.undo.len();
        while i >= 2 {
            let (a, b) = (&self.undo[i - 1], &self.undo[i - 2]);
            if matches!(a.mv, Move::Drop(_)) || matches!(b.mv, Move::Drop(_)) {
                break;
            }
            if b.hash == self.hash {
                count += 1;
            }
            i -= 2;
        }
        count
    }

    /// The moves made on this `Position`, oldest first.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    /// Recomputes the hash from scratch (to check the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let k = keys();
        let mut h = 0;
        for (_, p) in self.pieces() {
            h ^= piece_key(p.colour, p.placement, p.level);
        }
        if self.side == Colour::Black {
            h ^= k.side;
        }
        if self.last_was_pass {
            h ^= k.pass;
        }
        if self.variant == Variant::Basic {
            h ^= k.basic;
        }
        h
    }

    // ----- setup (used by the position parser) -----

    /// The level a piece would land at on these cells: the largest height among them.
    #[inline]
    pub fn landing_level(&self, placement: Placement) -> u8 {
        let [a, b, c] = placement.cells();
        self.height[a.index()]
            .max(self.height[b.index()])
            .max(self.height[c.index()])
    }

    /// Whether `colour` could rest a piece at `placement` on the current heights: the ends at the
    /// landing level, and at level >= 1 the highest dot under the PÜNCT the mover's
    /// (docs/rules.md 4.2).
    pub fn is_stable_for(&self, colour: Colour, placement: Placement) -> bool {
        let level = self.landing_level(placement);
        let cells = placement.cells();
        if placement
            .end_cells()
            .iter()
            .any(|&e| self.height[cells[e].index()] != level)
        {
            return false;
        }
        level == 0
            || (self.height[cells[0].index()] > 0 && self.top_colour(cells[0]) == Some(colour))
    }

    /// Puts a piece on the board at its landing level, taking it from `colour`'s hand, without
    /// checking anything but capacity. Used when reading positions, after validation.
    pub(crate) fn put_piece(&mut self, colour: Colour, placement: Placement) {
        let level = self.landing_level(placement);
        let id = self.num_pieces as usize;
        self.pieces[id] = Some(PlacedPiece {
            colour,
            placement,
            level,
        });
        self.num_pieces += 1;
        self.in_hand[colour.index()][placement.kind().index()] -= 1;
        self.hand_total[colour.index()] -= 1;
        self.push_piece(id);
        self.hash ^= piece_key(colour, placement, level);
    }

    /// Sets side to move and ply and derives the outcome of a position read from a string
    /// (docs/rules.md 7).
    pub(crate) fn finish_setup(&mut self, side: Colour, ply: u32) {
        if self.side != side {
            self.hash ^= keys().side;
        }
        self.side = side;
        self.ply = ply;
        let (w, b) = (
            self.has_connection(Colour::White),
            self.has_connection(Colour::Black),
        );
        self.outcome = if w || b {
            let winner = if w && b {
                !side
            } else if w {
                Colour::White
            } else {
                Colour::Black
            };
            Some(Outcome {
                winner: Some(winner),
                reason: EndReason::Connection,
            })
        } else if self.hand_total.contains(&0) {
            Some(self.last_drop_outcome())
        } else {
            None
        };
    }

    // ----- make / unmake -----

    /// Plays a move known to be legal (from the generator or checked by
    /// [`check_move`](crate::rules::legality)). Use [`Position::play`] for untrusted moves.
    pub fn make(&mut self, mv: Move) {
        debug_assert!(self.outcome.is_none(), "no move after the game ended");
        let mover = self.side;
        let mut undo = Undo {
            mv,
            piece: 0,
            old: None,
            hash: self.hash,
            outcome: self.outcome,
            last_was_pass: self.last_was_pass,
        };
        match mv {
            Move::Drop(pl) => {
                self.put_piece(mover, pl);
            }
            Move::Shift { from, to } => {
                let id = self.top_piece(from).expect("a piece on the from cell");
                let old = self.piece(id);
                undo.piece = id as u8;
                undo.old = Some((old.placement, old.level));
                self.pop_piece(id);
                self.hash ^= piece_key(mover, old.placement, old.level);
                let level = self.landing_level(to);
                self.pieces[id] = Some(PlacedPiece {
                    colour: mover,
                    placement: to,
                    level,
                });
                self.push_piece(id);
                self.hash ^= piece_key(mover, to, level);
            }
            Move::Pass => {}
        }
        let pass = mv == Move::Pass;
        if pass != self.last_was_pass {
            self.hash ^= keys().pass;
        }
        self.last_was_pass = pass;
        self.side = !mover;
        self.hash ^= keys().side;
        self.ply += 1;
        self.outcome = self.outcome_after(mover, mv, undo.last_was_pass);
        self.undo.push(undo);
    }

    /// Takes back the last move made with [`Position::make`].
    pub fn unmake(&mut self) {
        let undo = self.undo.pop().expect("a move to take back");
        self.side = !self.side;
        self.ply -= 1;
        match undo.mv {
            Move::Drop(pl) => {
                let id = self.num_pieces as usize - 1;
                self.pop_piece(id);
                self.pieces[id] = None;
                self.num_pieces -= 1;
                self.in_hand[self.side.index()][pl.kind().index()] += 1;
                self.hand_total[self.side.index()] += 1;
            }
            Move::Shift { .. } => {
                let id = undo.piece as usize;
                self.pop_piece(id);
                let (placement, level) = undo.old.expect("shift undo has the old placement");
                self.pieces[id] = Some(PlacedPiece {
                    colour: self.side,
                    placement,
                    level,
                });
                self.push_piece(id);
            }
            Move::Pass => {}
        }
        self.hash = undo.hash;
        self.outcome = undo.outcome;
        self.last_was_pass = undo.last_was_pass;
    }

    /// Number of moves that [`Position::unmake`] can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    fn outcome_after(&self, mover: Colour, mv: Move, pass_before: bool) -> Option<Outcome> {
        if mv == Move::Pass {
            return pass_before.then_some(Outcome {
                winner: None,
                reason: EndReason::DoublePass,
            });
        }
        if self.has_connection(mover) {
            return Some(Outcome {
                winner: Some(mover),
                reason: EndReason::Connection,
            });
        }
        // Only lifting a piece can reveal the opponent's dots.
        if matches!(mv, Move::Shift { .. }) && self.has_connection(!mover) {
            return Some(Outcome {
                winner: Some(!mover),
                reason: EndReason::Connection,
            });
        }
        if matches!(mv, Move::Drop(_)) && self.hand_total[mover.index()] == 0 {
            return Some(self.last_drop_outcome());
        }
        None
    }

    fn last_drop_outcome(&self) -> Outcome {
        match self.variant {
            Variant::Basic => Outcome {
                winner: None,
                reason: EndReason::LastDrop,
            },
            Variant::Standard => {
                let [white, black] = self.centre_count();
                let winner = match white.cmp(&black) {
                    std::cmp::Ordering::Greater => Some(Colour::White),
                    std::cmp::Ordering::Less => Some(Colour::Black),
                    std::cmp::Ordering::Equal => None,
                };
                Outcome {
                    winner,
                    reason: EndReason::CentreCount { white, black },
                }
            }
        }
    }

    /// Puts piece `id` on top of its three cells (it must lie at or above their heights).
    fn push_piece(&mut self, id: usize) {
        let p = self.piece(id);
        let ci = p.colour.index();
        for c in p.placement.cells() {
            let i = c.index();
            let len = self.stack_len[i] as usize;
            self.stacks[i][len] = id as u8;
            self.stack_len[i] += 1;
            self.height[i] = p.level + 1;
            self.top[ci].insert(c);
            self.top[1 - ci].remove(c);
        }
    }

    /// Lifts piece `id` off its three cells (it must be on top of each).
    pub(crate) fn pop_piece(&mut self, id: usize) {
        let p = self.piece(id);
        for c in p.placement.cells() {
            let i = c.index();
            debug_assert_eq!(self.top_piece(c), Some(id));
            self.stack_len[i] -= 1;
            self.top[p.colour.index()].remove(c);
            match self.top_piece(c) {
                Some(below) => {
                    let b = self.piece(below);
                    self.height[i] = b.level + 1;
                    self.top[b.colour.index()].insert(c);
                }
                None => self.height[i] = 0,
            }
        }
    }

    /// Internal arrays for the move generator.
    #[inline]
    pub(crate) fn raw(&self) -> RawBoard<'_> {
        RawBoard {
            pieces: &self.pieces[..self.num_pieces as usize],
            stacks: &self.stacks,
            stack_len: &self.stack_len,
            height: &self.height,
        }
    }
}

/// Borrowed internals for move generation.
pub(crate) struct RawBoard<'a> {
    pub pieces: &'a [Option<PlacedPiece>],
    pub stacks: &'a [[u8; MAX_PIECES]; GRID_LEN],
    pub stack_len: &'a [u8; GRID_LEN],
    pub height: &'a [u8; GRID_LEN],
}

/// Whether a set of cells joins two opposite sides through adjacent cells.
pub fn connects(dots: CellSet) -> bool {
    Axis::ALL.iter().any(|&axis| {
        let (a, b) = axis.sides();
        let (sa, sb) = (a.cells() & dots, b.cells() & dots);
        !sa.is_empty() && !sb.is_empty() && sa.flood_meets(dots, sb)
    })
}

impl PartialEq for Position {
    /// Positions are equal when everything that defines the game state is (not the history).
    fn eq(&self, other: &Position) -> bool {
        let mut a: Vec<_> = self.pieces().map(|(_, p)| p).collect();
        let mut b: Vec<_> = other.pieces().map(|(_, p)| p).collect();
        let key = |p: &PlacedPiece| (p.level, p.placement, p.colour);
        a.sort_by_key(key);
        b.sort_by_key(key);
        a == b
            && self.variant == other.variant
            && self.side == other.side
            && self.ply == other.ply
            && self.last_was_pass == other.last_was_pass
            && self.outcome == other.outcome
            && self.hash == other.hash
    }
}
