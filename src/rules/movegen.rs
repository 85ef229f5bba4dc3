//! Legal move generation: drops by word-parallel shape masks, shifts by walking the six lines
//! from each unblocked piece with the piece lifted off.

use std::sync::LazyLock;

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Cell, Dir, GRID_LEN};
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
    /// All shifts of the piece on `from` (a `kind` piece) at once: for each orientation `o`,
    /// the PÜNCT cells in `puncts[o]`. Returning `false` (the default) asks for them one by
    /// one through [`MoveSink::shift`], in generation order, instead.
    #[inline]
    fn shift_sets(&mut self, _from: Cell, _kind: Kind, _puncts: &[CellSet]) -> bool {
        false
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

    #[inline]
    fn shift_sets(&mut self, _: Cell, _: Kind, puncts: &[CellSet]) -> bool {
        self.0 += puncts.iter().map(|p| p.len() as u64).sum::<u64>();
        true
    }
}

impl Position {
    /// The cells where the side to move may put dots of a dropped piece (docs/rules.md 4.1).
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

    /// The PÜNCT spaces of the legal drops of `kind` in orientation `o` of the side to move
    /// (the cells `generate` gives them for), without listing them.
    pub fn drop_puncts(&self, kind: Kind, o: u8) -> CellSet {
        if self.is_finished() || self.in_hand(self.side_to_move(), kind) == 0 {
            return CellSet::EMPTY;
        }
        let area = self.drop_area();
        let [a, b] = kind.minor_offsets(o);
        area & area.shifted_down(a) & area.shifted_down(b)
    }

    /// Feeds every legal move except a pass to `sink` (nothing once the game is over).
    pub fn generate<S: MoveSink>(&self, sink: &mut S) {
        if self.is_finished() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the CPU has the features `generate_x86` is compiled for (checked above).
            unsafe { self.generate_x86(sink) };
            return;
        }
        self.generate_any_cpu(sink);
    }

    /// [`Position::generate`] compiled with the hardware population count, trailing-zero
    /// count and 256-bit vectors, which the default x86-64 target leaves out (cell counts and
    /// cell set operations are most of the generator's work); the same code, so the same moves
    /// in the same order.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,avx2")]
    fn generate_x86<S: MoveSink>(&self, sink: &mut S) {
        self.generate_any_cpu(sink);
    }

    #[inline(always)]
    fn generate_any_cpu<S: MoveSink>(&self, sink: &mut S) {
        let empty = self.empty_cells();
        let shifted = shifted_by_drop_offsets(&empty);
        self.generate_drops(sink, empty, &shifted);
        self.generate_shifts(sink, empty, &shifted);
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

    #[inline(always)]
    fn generate_drops<S: MoveSink>(&self, sink: &mut S, empty: CellSet, shifted: &Shifted) {
        let side = self.side_to_move();
        // The drop area is the empty cells, less the central hexagon unless the basic game
        // allows it (see `drop_area_for`). `shifted[k]` holds p when p + offset k is empty; a
        // step off the board never wraps onto a board cell (see geometry), so grid shifts are
        // exact, and shifting the area is shifting the empty cells less the shifted centre.
        let first_white_drop =
            side == Colour::White && self.hand_total(Colour::White) == PIECES_PER_PLAYER;
        let no_centre = match self.variant() {
            Variant::Standard => true,
            Variant::Basic => first_white_drop,
        };
        let mut area_shifted = *shifted;
        let mut area = empty;
        if no_centre {
            area = area - central_cells();
            for (s, c) in area_shifted.iter_mut().zip(shifted_centres()) {
                *s = *s - *c;
            }
        }
        // Every shape's first minor dot is one step in the direction of its orientation
        // (`drop_offset(o)`): the PÜNCT and that dot are tested once per direction.
        let pairs: [CellSet; 6] = std::array::from_fn(|d| area & area_shifted[d]);
        for shape in drop_shapes() {
            if self.in_hand(side, shape.kind) == 0 {
                continue;
            }
            debug_assert_eq!(shape.a, shape.orientation as usize);
            let puncts = pairs[shape.a] & area_shifted[shape.b];
            if !puncts.is_empty() {
                sink.drops(shape.kind, shape.orientation, puncts);
            }
        }
    }

    /// Shifts of each own unblocked piece, with the piece lifted off. A placement at level 0
    /// has its three cells empty, found for all targets at once as for drops; one at a higher
    /// level has its PÜNCT on an own top dot, and those few targets are checked one by one.
    #[inline(always)]
    fn generate_shifts<S: MoveSink>(&self, sink: &mut S, empty: CellSet, shifted: &Shifted) {
        let side = self.side_to_move();
        let raw = self.raw();
        let table = placement_table();
        let stars = stars();
        let shapes = kind_shapes();
        let mut height = *raw.height;
        let mut own = self.top_view(side);
        for piece in raw.pieces.iter() {
            let Some(piece) = *piece else { continue };
            if piece.colour != side {
                continue;
            }
            let cells = piece.placement.cells();
            // Nothing lies above the piece exactly when each of its cells is no higher than it.
            let on_top = cells
                .iter()
                .all(|c| raw.height[c.index()] == piece.level + 1);
            if !on_top {
                continue;
            }
            let kind = piece.placement.kind();
            let from = piece.placement.punct();
            let mut star = stars[from.index()];
            if let Some(targets) = sink.shift_targets(from, kind) {
                star &= targets;
                if star.is_empty() {
                    continue;
                }
            }
            // Lift the piece: heights and top colours below it, and the cells it leaves empty.
            let mut freed = [0i32; 3];
            let mut num_freed = 0;
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
                    freed[num_freed] = i as i32;
                    num_freed += 1;
                }
            }
            let n = kind.orientations() as usize;
            let mut puncts = [CellSet::EMPTY; 6];
            // Level 0: all three cells empty once the piece is lifted.
            let mut free = empty & star;
            for &i in &freed[..num_freed] {
                free.insert_grid_index(i);
            }
            free &= star;
            if !free.is_empty() {
                for (o, shape) in shapes[kind.index()][..n].iter().enumerate() {
                    let (mut sa, mut sb) = (shifted[shape.a], shifted[shape.b]);
                    for &i in &freed[..num_freed] {
                        sa.insert_grid_index(i - shape.offset_a);
                        sb.insert_grid_index(i - shape.offset_b);
                    }
                    puncts[o] = free & sa & sb;
                }
            }
            // Level 1 and above: the PÜNCT on an own top dot.
            for t in own & star {
                let base = Placement::slot(kind, t, 0);
                for (o, set) in puncts[..n].iter_mut().enumerate() {
                    let Some([c0, c1, c2]) = table[base + o] else {
                        continue;
                    };
                    let (h0, h1, h2) = (height[c0.index()], height[c1.index()], height[c2.index()]);
                    let level = h0.max(h1).max(h2);
                    let stable = match kind {
                        Kind::T => h0 == level && h1 == level && h2 == level,
                        Kind::S | Kind::L | Kind::R => h0 == level && h2 == level,
                        Kind::C | Kind::A => h1 == level && h2 == level,
                    };
                    if stable {
                        set.insert(t);
                    }
                }
            }
            // The piece where it was is not a move.
            puncts[piece.placement.orientation() as usize].remove(from);
            if !sink.shift_sets(from, kind, &puncts[..n]) {
                // One by one in the generation order: the PÜNCT staying, then along each
                // direction nearest first, each target in orientation order.
                let any = puncts[..n].iter().fold(CellSet::EMPTY, |u, &p| u | p);
                if !any.is_empty() {
                    let mut emit = |t: Cell| {
                        let base = Placement::slot(kind, t, 0);
                        for (o, set) in puncts[..n].iter().enumerate() {
                            if set.contains(t) {
                                sink.shift(from, Placement::from_slot(base + o));
                            }
                        }
                    };
                    if any.contains(from) {
                        emit(from);
                    }
                    for d in Dir::ALL {
                        for &t in from.ray(d) {
                            if any.contains(t) {
                                emit(t);
                            }
                        }
                    }
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

/// A set shifted by each of the [`DROP_OFFSETS`] offsets, in `drop_offset` order.
type Shifted = [CellSet; DROP_OFFSETS];

fn drop_offset(k: usize) -> i32 {
    let d = Dir::new(k % 6);
    match k / 6 {
        0 => d.grid_offset(),
        1 => 2 * d.grid_offset(),
        _ => d.grid_offset() + d.rotate(1).grid_offset(),
    }
}

/// `set.shifted_down(drop_offset(k))` for every `k`, with the offsets as constants (the
/// grid offsets of N, NE, SE, S, SW, NW are 1, 18, 17, -1, -18, -17).
#[inline(always)]
fn shifted_by_drop_offsets(set: &CellSet) -> Shifted {
    [
        set.shifted_down_by::<1>(),
        set.shifted_down_by::<18>(),
        set.shifted_down_by::<17>(),
        set.shifted_down_by::<{ -1 }>(),
        set.shifted_down_by::<{ -18 }>(),
        set.shifted_down_by::<{ -17 }>(),
        set.shifted_down_by::<2>(),
        set.shifted_down_by::<36>(),
        set.shifted_down_by::<34>(),
        set.shifted_down_by::<{ -2 }>(),
        set.shifted_down_by::<{ -36 }>(),
        set.shifted_down_by::<{ -34 }>(),
        set.shifted_down_by::<19>(),
        set.shifted_down_by::<35>(),
        set.shifted_down_by::<16>(),
        set.shifted_down_by::<{ -19 }>(),
        set.shifted_down_by::<{ -35 }>(),
        set.shifted_down_by::<{ -16 }>(),
    ]
}

/// One (kind, orientation): the indices of its two minor offsets in `drop_offset` and the
/// offsets themselves.
struct Shape {
    kind: Kind,
    orientation: u8,
    a: usize,
    b: usize,
    offset_a: i32,
    offset_b: i32,
}

fn shape(kind: Kind, orientation: u8) -> Shape {
    let index = |off: i32| {
        (0..DROP_OFFSETS)
            .find(|&k| drop_offset(k) == off)
            .expect("every minor offset is a unit, double or diagonal step")
    };
    let [offset_a, offset_b] = kind.minor_offsets(orientation);
    Shape {
        kind,
        orientation,
        a: index(offset_a),
        b: index(offset_b),
        offset_a,
        offset_b,
    }
}

/// The central hexagon shifted by each `drop_offset`.
fn shifted_centres() -> &'static Shifted {
    static CENTRES: LazyLock<Shifted> =
        LazyLock::new(|| std::array::from_fn(|k| central_cells().shifted_down(drop_offset(k))));
    &CENTRES
}

/// Every (kind, orientation) in generation order.
fn drop_shapes() -> &'static [Shape] {
    static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
        let mut shapes = Vec::new();
        for kind in Kind::ALL {
            for o in 0..kind.orientations() {
                shapes.push(shape(kind, o));
            }
        }
        shapes
    });
    &SHAPES
}

/// The shapes of each kind by orientation (C's last three unused).
fn kind_shapes() -> &'static [[Shape; 6]; 6] {
    static SHAPES: LazyLock<[[Shape; 6]; 6]> = LazyLock::new(|| {
        Kind::ALL.map(|kind| std::array::from_fn(|o| shape(kind, (o as u8) % kind.orientations())))
    });
    &SHAPES
}

/// For each grid index of a board cell, the cell and every cell in line with it: where its
/// PÜNCT can go in one shift.
fn stars() -> &'static [CellSet] {
    static STARS: LazyLock<Vec<CellSet>> = LazyLock::new(|| {
        let mut stars = vec![CellSet::EMPTY; GRID_LEN];
        for &c in Cell::all() {
            let star = &mut stars[c.index()];
            star.insert(c);
            for d in Dir::ALL {
                for &t in c.ray(d) {
                    star.insert(t);
                }
            }
        }
        stars
    });
    &STARS
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

    /// The constant shifts are the shifts by `drop_offset`, on sets with cells near every
    /// edge of the grid words.
    #[test]
    fn constant_offset_shifts_match_the_runtime_shifts() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        for density in [1.0, 0.5, 0.1] {
            let set: CellSet = (Cell::all().iter().copied())
                .filter(|_| rand::Rng::gen_bool(&mut rng, density))
                .collect();
            let shifted = shifted_by_drop_offsets(&set);
            for (k, s) in shifted.iter().enumerate() {
                assert_eq!(*s, set.shifted_down(drop_offset(k)), "{k}");
            }
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
