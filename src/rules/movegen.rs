//! Legal move generation: drops by word-parallel shape masks, shifts by walking the six lines
//! from each unblocked piece with the piece lifted off.

use std::sync::LazyLock;

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Cell, Dir};
use crate::rules::moves::Move;
use crate::rules::piece::{placement_table, Colour, Kind, Placement};
use crate::rules::position::{Position, Variant, PIECES_PER_PLAYER};

/// Receives generated moves; lets perft count drops without listing them.
pub trait MoveSink {
    /// Drops of `kind` in orientation `orientation` with the PÜNCT on each cell of `puncts`.
    fn drops(&mut self, kind: Kind, orientation: u8, puncts: CellSet);
    /// A shift of the piece whose PÜNCT is on `from`.
    fn shift(&mut self, from: Cell, to: Placement);
    /// The PÜNCT spaces the sink wants shifts of the piece on `from` to (`None`: all). Others
    /// are skipped unchecked; a sink that would discard them anyway saves their generation.
    #[inline]
    fn shift_targets(&mut self, _from: Cell, _kind: Kind) -> Option<CellSet> {
        None
    }
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn drops(&mut self, kind: Kind, orientation: u8, puncts: CellSet) {
        for p in puncts {
            self.push(Move::Drop(Placement::new_unchecked(kind, p, orientation)));
        }
    }

    #[inline]
    fn shift(&mut self, from: Cell, to: Placement) {
        self.push(Move::Shift { from, to });
    }
}

/// Counts moves without storing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline]
    fn drops(&mut self, _: Kind, _: u8, puncts: CellSet) {
        self.0 += puncts.len() as u64;
    }

    #[inline]
    fn shift(&mut self, _: Cell, _: Placement) {
        self.0 += 1;
    }
}

impl Position {
    /// The cells where the side to move may put dots of a dropped piece (RULES.md 4.1).
    pub fn drop_area(&self) -> CellSet {
        self.drop_area_for(self.side_to_move())
    }

    /// The cells where `colour` could put dots of a dropped piece if it were to move (the
    /// engine asks this for the opponent's threats).
    pub fn drop_area_for(&self, colour: Colour) -> CellSet {
        let empty = self.empty_cells();
        let first_white_drop =
            colour == Colour::White && self.hand_total(Colour::White) == PIECES_PER_PLAYER;
        match self.variant() {
            Variant::Standard => empty - central_cells(),
            Variant::Basic if first_white_drop => empty - central_cells(),
            Variant::Basic => empty,
        }
    }

    /// Feeds every legal move except a pass to `sink` (nothing once the game is over).
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        if self.is_finished() {
            return;
        }
        self.generate_drops(sink);
        self.generate_shifts(sink);
    }

    /// Every legal move: a pass only when nothing else is legal, nothing when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(1024);
        self.legal_moves_into(&mut moves);
        moves
    }

    /// [`Position::legal_moves`] into a reused buffer (cleared first).
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate(moves);
        if moves.is_empty() && !self.is_finished() {
            moves.push(Move::Pass);
        }
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter::default();
        self.generate(&mut counter);
        if counter.0 == 0 && !self.is_finished() {
            1
        } else {
            counter.0
        }
    }

    fn generate_drops<S: MoveSink>(&self, sink: &mut S) {
        let side = self.side_to_move();
        let area = self.drop_area();
        if area.is_empty() {
            return;
        }
        // `shifted[k]` holds p when p + DROP_OFFSETS[k] is in the area; a step off the board never
        // wraps onto a board cell (see geometry), so grid shifts are exact. The 33 shapes use
        // only 18 distinct offsets, each shifted once.
        let mut shifted = [CellSet::EMPTY; DROP_OFFSETS];
        let mut done = [false; DROP_OFFSETS];
        for &(kind, o, a, b) in drop_shapes() {
            if self.in_hand(side, kind) == 0 {
                continue;
            }
            for k in [a, b] {
                if !done[k] {
                    shifted[k] = area.shifted_down(drop_offset(k));
                    done[k] = true;
                }
            }
            let puncts = area & shifted[a] & shifted[b];
            if !puncts.is_empty() {
                sink.drops(kind, o, puncts);
            }
        }
    }

    fn generate_shifts<S: MoveSink>(&self, sink: &mut S) {
        let side = self.side_to_move();
        let raw = self.raw();
        let table = placement_table();
        let mut height = *raw.height;
        let mut own = self.top_view(side);
        for (id, piece) in raw.pieces.iter().enumerate() {
            let Some(piece) = *piece else { continue };
            if piece.colour != side {
                continue;
            }
            let cells = piece.placement.cells();
            let on_top = cells.iter().all(|c| {
                let i = c.index();
                raw.stacks[i][raw.stack_len[i] as usize - 1] as usize == id
            });
            if !on_top {
                continue;
            }
            let kind = piece.placement.kind();
            let from = piece.placement.punct();
            let targets = sink.shift_targets(from, kind);
            if targets.is_some_and(|t| t.is_empty()) {
                continue;
            }
            // Lift the piece: heights and top colours below it.
            for c in cells {
                let i = c.index();
                let len = raw.stack_len[i] as usize;
                if len >= 2 {
                    let below =
                        raw.pieces[raw.stacks[i][len - 2] as usize].expect("stacked piece exists");
                    height[i] = below.level + 1;
                    own.set(c, below.colour == side);
                } else {
                    height[i] = 0;
                    own.remove(c);
                }
            }
            let old_orientation = piece.placement.orientation();
            let mut try_target = |t: Cell| {
                if targets.is_some_and(|set| !set.contains(t)) {
                    return;
                }
                let base = Placement::slot(kind, t, 0);
                for o in 0..kind.orientations() {
                    let Some([c0, c1, c2]) = table[base + o as usize] else {
                        continue;
                    };
                    let (h0, h1, h2) = (height[c0.index()], height[c1.index()], height[c2.index()]);
                    let level = h0.max(h1).max(h2);
                    let stable = match kind {
                        Kind::T => h0 == level && h1 == level && h2 == level,
                        Kind::S | Kind::L | Kind::R => h0 == level && h2 == level,
                        Kind::C | Kind::A => h1 == level && h2 == level,
                    };
                    if stable
                        && (level == 0 || (h0 > 0 && own.contains(c0)))
                        && (t != from || o != old_orientation)
                    {
                        sink.shift(from, Placement::from_slot(base + o as usize));
                    }
                }
            };
            try_target(from);
            for d in Dir::ALL {
                for &t in from.ray(d) {
                    try_target(t);
                }
            }
            // Put it back.
            for c in cells {
                height[c.index()] = piece.level + 1;
                own.insert(c);
            }
        }
    }
}

/// Distinct minor-dot offsets over all shapes: D[i], 2D[i] and D[i] + D[i+1] for each i.
const DROP_OFFSETS: usize = 18;

fn drop_offset(k: usize) -> i32 {
    let d = Dir::new(k % 6);
    match k / 6 {
        0 => d.grid_offset(),
        1 => 2 * d.grid_offset(),
        _ => d.grid_offset() + d.rotate(1).grid_offset(),
    }
}

/// Every (kind, orientation) with the indices of its two minor offsets in `drop_offset`.
fn drop_shapes() -> &'static [(Kind, u8, usize, usize)] {
    static SHAPES: LazyLock<Vec<(Kind, u8, usize, usize)>> = LazyLock::new(|| {
        let index = |off: i32| {
            (0..DROP_OFFSETS)
                .find(|&k| drop_offset(k) == off)
                .expect("every minor offset is a unit, double or diagonal step")
        };
        let mut shapes = Vec::new();
        for kind in Kind::ALL {
            for o in 0..kind.orientations() {
                let [a, b] = kind.minor_offsets(o);
                shapes.push((kind, o, index(a), index(b)));
            }
        }
        shapes
    });
    &SHAPES
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Keeps only the shifts whose PÜNCT lands in a set, asking the generator for no others.
    struct Targeted {
        targets: CellSet,
        shifts: Vec<Move>,
    }

    impl MoveSink for Targeted {
        fn drops(&mut self, _: Kind, _: u8, _: CellSet) {}
        fn shift(&mut self, from: Cell, to: Placement) {
            self.shifts.push(Move::Shift { from, to });
        }
        fn shift_targets(&mut self, _: Cell, _: Kind) -> Option<CellSet> {
            Some(self.targets)
        }
    }

    #[test]
    fn shift_targets_restrict_shifts_to_exactly_those_spaces() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut pos = Position::new(Variant::Standard);
        let mut compared = 0;
        for _ in 0..60 {
            let moves = pos.legal_moves();
            // Every third space, shifted by the ply: each target set differs.
            let targets = (Cell::all().iter().copied())
                .filter(|c| (c.index() + pos.ply() as usize).is_multiple_of(3))
                .collect::<CellSet>();
            let mut sink = Targeted {
                targets,
                shifts: Vec::new(),
            };
            pos.generate(&mut sink);
            let expected: Vec<Move> = (moves.iter().copied())
                .filter(|m| match m {
                    Move::Shift { to, .. } => targets.contains(to.punct()),
                    _ => false,
                })
                .collect();
            assert_eq!(sink.shifts, expected);
            compared += expected.len();
            let mv = *moves.choose(&mut rng).unwrap();
            pos.make(mv);
            if pos.is_finished() {
                break;
            }
        }
        assert!(compared > 100, "{compared}");
    }
}
