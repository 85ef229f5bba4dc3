//! Which placements complete a connection, on cell sets.
//!
//! A move wins by connection only if the mover's top view after it, which is a subset of the
//! old one plus the three landing spaces (lifting an own piece never reveals new own dots),
//! connects. Every piece shape is connected, so the landing must meet, on one axis, both the
//! spaces joined to one side and those joined to the other ([`Touch`]). From that, the PÜNCT
//! spaces of completing placements are found set-wise per shape, once per top view (cached:
//! siblings share the top view of the side to move), and only those are checked.

use std::sync::LazyLock;

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{Axis, Dir, GRID_LEN};
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::Position;
use crate::Cell;

/// Shapes indexed `kind * 6 + orientation`.
pub(super) const SHAPES: usize = 36;

/// `seed` grown through `own` (adjacent own dots), one neighbourhood per round.
fn flood_own(seed: CellSet, own: CellSet) -> CellSet {
    let mut reach = seed;
    let mut new = seed;
    while !new.is_empty() {
        new = (new.expand() & own) - reach;
        reach |= new;
    }
    reach
}

/// Per axis, the spaces that join a set of dots to each side: a side's spaces and the
/// neighbours of the own dots already joined to it. A connected set of new dots (every piece
/// shape is connected) completes a connection exactly when it meets both of an axis. Every
/// dot of a piece is within 2 steps of its PÜNCT, so the PÜNCT lies within 2 of both.
#[derive(Copy, Clone)]
pub(super) struct Touch {
    axes: [(CellSet, CellSet); 3],
    /// Where the PÜNCT of a completing piece can be, per axis and in all.
    near: [CellSet; 3],
    any: CellSet,
    /// The own dots joined to a side.
    chains: CellSet,
    /// Per shape, the PÜNCT spaces where a piece on the board meets both sides of an axis
    /// (some dot on each); made per kind on first use (bit `kind` of `made`).
    shapes: [CellSet; SHAPES],
    made: u8,
}

impl Touch {
    /// Makes this the `Touch` of `own` in place: a cache slot is refilled without building
    /// (and copying) a whole new one, and the shapes are left to `made`.
    fn refill(&mut self, own: CellSet) {
        let mut chains = CellSet::EMPTY;
        let axes = Axis::ALL.map(|axis| {
            let (a, b) = axis.sides();
            let (fa, fb) = (
                flood_own(a.cells() & own, own),
                flood_own(b.cells() & own, own),
            );
            chains |= fa | fb;
            (fa.expand() | a.cells(), fb.expand() | b.cells())
        });
        let puncts = axes.map(|(a, b)| {
            let around_a = a.expand().expand();
            // Some piece must hold a dot of each: two dots of a piece are at most 2 apart.
            if around_a.intersects(b) {
                around_a & b.expand().expand()
            } else {
                CellSet::EMPTY
            }
        });
        self.axes = axes;
        self.near = puncts;
        self.any = puncts[0] | puncts[1] | puncts[2];
        self.chains = chains;
        self.made = 0;
    }

    /// Where the PÜNCT of a completing piece can be.
    #[inline]
    pub(super) fn any(&self) -> CellSet {
        self.any
    }

    /// Whether some piece could complete a connection at all.
    #[inline]
    pub(super) fn near(&self) -> bool {
        !self.any.is_empty()
    }

    /// The own dots joined to a side (a stopper may have to cover one).
    #[inline]
    pub(super) fn chains(&self) -> CellSet {
        self.chains
    }

    /// Per orientation of `kind`, the PÜNCT spaces where a piece would complete a connection.
    #[inline]
    pub(super) fn completing(&mut self, kind: Kind) -> &[CellSet] {
        let k = kind.index();
        if self.made & (1 << k) == 0 {
            self.made |= 1 << k;
            for o in 0..kind.orientations() {
                self.shapes[k * 6 + o as usize] = self.complete_shape(kind, o);
            }
        }
        &self.shapes[k * 6..k * 6 + 6]
    }

    fn complete_shape(&self, kind: Kind, o: u8) -> CellSet {
        let [a, b] = kind.minor_offsets(o);
        let hits = |r: CellSet| r | r.shifted_down(a) | r.shifted_down(b);
        let fits = self.any & ON_BOARD[kind.index() * 6 + o as usize];
        let mut found = CellSet::EMPTY;
        if !fits.is_empty() {
            for ((to_a, to_b), near) in self.axes.iter().zip(&self.near) {
                let here = fits & *near;
                if !here.is_empty() {
                    found |= here & hits(*to_a) & hits(*to_b);
                }
            }
        }
        found
    }
}

/// Whether a piece whose PÜNCT is on `from` could land where it completes a connection of the
/// top view whose [`Touch::any`] is `any`: the first test of [`connecting_shifts`], cheap
/// enough to run for every piece before asking the cache.
#[inline]
pub(super) fn may_connect(from: Cell, any: CellSet) -> bool {
    LINES[from.index()].intersects(any)
}

/// Every cell on a line from each cell (itself included): where a shifted PÜNCT can go.
static LINES: LazyLock<Vec<CellSet>> = LazyLock::new(|| {
    let mut lines = vec![CellSet::EMPTY; GRID_LEN];
    for &c in Cell::all() {
        let l = &mut lines[c.index()];
        l.insert(c);
        for d in Dir::ALL {
            for &t in c.ray(d) {
                l.insert(t);
            }
        }
    }
    lines
});

/// Per shape, the PÜNCT spaces of placements on the board.
static ON_BOARD: LazyLock<[CellSet; SHAPES]> = LazyLock::new(|| {
    let mut sets = [CellSet::EMPTY; SHAPES];
    for kind in Kind::ALL {
        for o in 0..kind.orientations() {
            let set = &mut sets[kind.index() * 6 + o as usize];
            for &p in Cell::all() {
                if Placement::new(kind, p, o).is_some() {
                    set.insert(p);
                }
            }
        }
    }
    sets
});

/// Every drop of `colour` that would connect, found set-wise: per shape of a kind in hand, the
/// completing PÜNCT spaces (see [`Touch::completing`]) with all three dots in the drop area.
pub(super) struct CompletingDrops {
    puncts: [CellSet; SHAPES],
    pub(super) any: CellSet,
}

impl CompletingDrops {
    pub(super) fn new(pos: &Position, colour: Colour, touch: &mut Touch) -> CompletingDrops {
        let mut out = CompletingDrops {
            puncts: [CellSet::EMPTY; SHAPES],
            any: CellSet::EMPTY,
        };
        let area = pos.drop_area_for(colour);
        if !touch.any.intersects(area) {
            return out;
        }
        for kind in Kind::ALL {
            if pos.in_hand(colour, kind) == 0 {
                continue;
            }
            for (o, &complete) in touch.completing(kind).iter().enumerate() {
                let here = complete & area;
                if here.is_empty() {
                    continue;
                }
                let [a, b] = kind.minor_offsets(o as u8);
                let found = here & area.shifted_down(a) & area.shifted_down(b);
                out.puncts[kind.index() * 6 + o] = found;
                out.any |= found;
            }
        }
        out
    }

    /// The first in generation order: lowest PÜNCT space, then kind, then orientation.
    pub(super) fn first(&self) -> Option<Placement> {
        let p = self.any.first()?;
        (0..SHAPES).find_map(|i| {
            self.puncts[i]
                .contains(p)
                .then(|| Placement::new_unchecked(Kind::ALL[i / 6], p, (i % 6) as u8))
        })
    }

    /// The spaces of all of them.
    pub(super) fn cells(&self) -> CellSet {
        let mut cells = self.any;
        for (i, &puncts) in self.puncts.iter().enumerate() {
            if !puncts.is_empty() {
                let [a, b] = Kind::ALL[i / 6].minor_offsets((i % 6) as u8);
                cells |= puncts.shifted_down(-a) | puncts.shifted_down(-b);
            }
        }
        cells
    }
}

/// Whether the side to move may shift piece `id` (on top of its stacks, unblocked, own) to
/// `to`, by the rules of docs/rules.md 4.2 with the piece lifted.
pub(super) fn shift_is_legal(pos: &Position, id: usize, to: Placement) -> bool {
    let piece = pos.piece(id);
    if to == piece.placement || to.kind() != piece.placement.kind() {
        return false;
    }
    let lifted = piece.placement.cells();
    let below = |c: Cell| -> (u8, Option<Colour>) {
        if !lifted.contains(&c) {
            return (pos.height(c), pos.top_colour(c));
        }
        let stack = pos.stack(c);
        match stack.len() {
            0 | 1 => (0, None),
            n => {
                let p = pos.piece(stack[n - 2] as usize);
                (p.level + 1, Some(p.colour))
            }
        }
    };
    let cells = to.cells();
    let h = cells.map(below);
    let level = h.iter().map(|x| x.0).max().unwrap_or(0);
    to.end_cells().iter().all(|&e| h[e].0 == level)
        && (level == 0 || (h[0].0 > 0 && h[0].1 == Some(piece.colour)))
}

/// Every shift of piece `id` (of the colour whose top view is `own`) that would connect,
/// PÜNCT spaces ascending, then orientations. Lifting a piece of a chain joined to a side can
/// cut that chain, so for such a piece the sets of the top view with it lifted count; then
/// meeting both sides of an axis is exact, and no move needs playing. Lifting only takes dots
/// away (the lifted sets lie within the others), so when no landing completes before the lift
/// none does after it, and the lifted view is not looked at.
pub(super) fn connecting_shifts<'a>(
    pos: &'a Position,
    cache: &mut TouchCache,
    own: CellSet,
    id: usize,
) -> ConnectingShifts<'a> {
    let piece = pos.piece(id);
    let from = piece.placement.punct();
    let kind = piece.placement.kind();
    let mut out = ConnectingShifts {
        pos,
        id,
        kind,
        landings: [CellSet::EMPTY; 6],
        todo: CellSet::EMPTY,
        punct: None,
        next_o: 0,
    };
    let touch = cache.get(own);
    let line = LINES[from.index()] & touch.any;
    if line.is_empty() || pos.top_piece(from) != Some(id) || pos.is_blocked(id) {
        return out;
    }
    let mut any = CellSet::EMPTY;
    for (l, &c) in out.landings.iter_mut().zip(touch.completing(kind)) {
        *l = c & line;
        any |= *l;
    }
    if any.is_empty() {
        return out;
    }
    if piece
        .placement
        .cells()
        .iter()
        .any(|&c| touch.chains.contains(c))
    {
        let lifted = cache.get(lifted_view(pos, piece.colour, id));
        any = CellSet::EMPTY;
        for (l, &c) in out.landings.iter_mut().zip(lifted.completing(kind)) {
            *l &= c;
            any |= *l;
        }
    }
    out.todo = any;
    out
}

/// The iterator of [`connecting_shifts`]: the landings that complete, checked for legality.
pub(super) struct ConnectingShifts<'a> {
    pos: &'a Position,
    id: usize,
    kind: Kind,
    /// Per orientation, the PÜNCT spaces where the piece would complete a connection.
    landings: [CellSet; 6],
    /// PÜNCT spaces not yet visited, and the one being visited with its next orientation.
    todo: CellSet,
    punct: Option<Cell>,
    next_o: u8,
}

impl Iterator for ConnectingShifts<'_> {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        loop {
            if let Some(p) = self.punct {
                while self.next_o < self.kind.orientations() {
                    let o = self.next_o;
                    self.next_o += 1;
                    if self.landings[o as usize].contains(p) {
                        let to = Placement::new_unchecked(self.kind, p, o);
                        if shift_is_legal(self.pos, self.id, to) {
                            return Some(to);
                        }
                    }
                }
            }
            let p = self.todo.first()?;
            self.todo.remove(p);
            self.punct = Some(p);
            self.next_o = 0;
        }
    }
}

/// The [`Touch`] of recent top views (with the completing shapes found so far). Siblings
/// reached by drops share the top view of the side to move (a drop never covers a dot), and
/// so do the lifted views of its pieces, so most nodes find theirs here.
pub struct TouchCache {
    /// Each slot's top view and its `Touch` (valid when the flag is set).
    slots: Vec<(bool, CellSet, Touch)>,
    bits: u32,
}

/// An empty slot's contents, overwritten before use.
const BLANK: Touch = Touch {
    axes: [(CellSet::EMPTY, CellSet::EMPTY); 3],
    near: [CellSet::EMPTY; 3],
    any: CellSet::EMPTY,
    chains: CellSet::EMPTY,
    shapes: [CellSet::EMPTY; SHAPES],
    made: 0,
};

/// Slots of the search's caches (2^10, about 2 MB), and of one-off ones.
const SEARCH_BITS: u32 = 10;
const SMALL_BITS: u32 = 2;

impl Default for TouchCache {
    /// A small cache, for a few lookups.
    fn default() -> TouchCache {
        TouchCache::with_bits(SMALL_BITS)
    }
}

impl TouchCache {
    /// The cache a search keeps for all its nodes.
    pub fn for_search() -> TouchCache {
        TouchCache::with_bits(SEARCH_BITS)
    }

    fn with_bits(bits: u32) -> TouchCache {
        TouchCache {
            slots: vec![(false, CellSet::EMPTY, BLANK); 1 << bits],
            bits,
        }
    }

    /// The `Touch` of the top view `own`, made when not cached.
    #[inline]
    pub(super) fn get(&mut self, own: CellSet) -> &mut Touch {
        let slot = (own.mix() >> (64 - self.bits)) as usize;
        let (valid, set, touch) = &mut self.slots[slot];
        if !*valid || *set != own {
            touch.refill(own);
            (*valid, *set) = (true, own);
        }
        touch
    }
}

/// `colour`'s top view with piece `id` lifted off its spaces (revealing what lies below).
pub(super) fn lifted_view(pos: &Position, colour: Colour, id: usize) -> CellSet {
    let mut own = pos.top_view(colour);
    for c in pos.piece(id).placement.cells() {
        let stack = pos.stack(c);
        let below = stack
            .len()
            .checked_sub(2)
            .map(|i| pos.piece(stack[i] as usize).colour);
        own.set(c, below == Some(colour));
    }
    own
}
