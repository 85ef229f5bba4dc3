//! Connection distances and one-move wins, on cell sets.
//!
//! A distance counts the spaces a player still has to cover to join two opposite sides: own
//! top-visible dots cost 0, "cheap" spaces 1, "dear" spaces (opponent's dots, which only a
//! shift onto a stack can cover) a tunable cost. The search runs the three axes in lockstep,
//! one layer per unit of cost, growing through own dots one neighbourhood at a time.
//!
//! A move wins by connection only if the mover's top view after it, which is a subset of the
//! old one plus the three landing spaces (lifting an own piece never reveals new own dots),
//! connects. Every piece shape is connected, so the landing must meet, on one axis, both the
//! spaces joined to one side and those joined to the other (`Touch`): candidates are found
//! set-wise from that, and only they are checked (drops exactly on sets, shifts by playing).

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Axis, Side};
use crate::rules::geometry::{Dir, GRID_LEN};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::{Position, Variant, PIECES_PER_PLAYER};
use crate::Cell;
use std::sync::LazyLock;

/// Costs up to this are supported for dear spaces.
const MAX_COST: usize = 4;
/// Distances are capped here (no path can be longer on 211 spaces with costs below `MAX_COST`).
pub const MAX_DISTANCE: u32 = 2_500;

/// One breadth-first search from one side: `reach` holds the spaces within the current cost.
#[derive(Clone)]
struct Wave {
    reach: CellSet,
    pending: [CellSet; MAX_COST],
}

struct Terrain {
    own: CellSet,
    cheap: CellSet,
    dear: CellSet,
    dear_cost: usize,
}

impl Wave {
    fn new(start: CellSet, t: &Terrain) -> Wave {
        let mut w = Wave {
            reach: CellSet::EMPTY,
            pending: [CellSet::EMPTY; MAX_COST],
        };
        // Side spaces are entered at their own cost; own side dots are reached at once.
        w.schedule(start - t.own, 0, t);
        w.absorb(start & t.own, 0, t);
        w
    }

    /// One wave per axis, from its first side.
    #[inline]
    fn from_first_sides(sides: &[(Side, Side); 3], t: &Terrain) -> [Wave; 3] {
        // Built in place: an array `map` over waves shows up in profiles as copying.
        [
            Wave::new(sides[0].0.cells(), t),
            Wave::new(sides[1].0.cells(), t),
            Wave::new(sides[2].0.cells(), t),
        ]
    }

    /// Registers `front` (spaces adjacent to what is reached at `level`) to be reached later.
    #[inline]
    fn schedule(&mut self, front: CellSet, level: usize, t: &Terrain) {
        let cheap = front & t.cheap;
        if !cheap.is_empty() {
            self.pending[(level + 1) % MAX_COST] |= cheap;
        }
        let dear = front & t.dear;
        if !dear.is_empty() {
            self.pending[(level + t.dear_cost) % MAX_COST] |= dear;
        }
    }

    /// Reaches `new` at `level`, with the own dots joined to it (cost 0), and schedules the
    /// spaces around them. One neighbourhood per batch: cheaper than a flood to a fixpoint.
    /// The neighbourhoods are scheduled once, at the end, reached spaces and all: `schedule`
    /// keeps only cheap and dear ones, and `step` drops those reached by then.
    #[inline]
    fn absorb(&mut self, mut new: CellSet, level: usize, t: &Terrain) {
        self.reach |= new;
        let mut around = CellSet::EMPTY;
        while !new.is_empty() {
            let next = new.expand();
            around |= next;
            new = (next & t.own) - self.reach;
            self.reach |= new;
        }
        self.schedule(around, level, t);
    }

    /// Advances from `level - 1` to `level`.
    #[inline]
    fn step(&mut self, level: usize, t: &Terrain) {
        let slot = level % MAX_COST;
        let add = self.pending[slot] - self.reach;
        self.pending[slot] = CellSet::EMPTY;
        if !add.is_empty() {
            self.absorb(add, level, t);
        }
    }
}

fn terrain(own: CellSet, cheap: CellSet, dear: CellSet, dear_cost: i32) -> Terrain {
    Terrain {
        own,
        cheap: cheap - own,
        dear: dear - own - cheap,
        dear_cost: (dear_cost.max(1) as usize).min(MAX_COST - 1),
    }
}

/// The shortest connection distance over the three axes (`MAX_DISTANCE + 1` if none within it).
pub fn distance(own: CellSet, cheap: CellSet, dear: CellSet, dear_cost: i32) -> u32 {
    distance_within(own, cheap, dear, dear_cost, MAX_DISTANCE)
}

/// [`distance`], giving up (returning `limit + 1`) beyond `limit`.
pub fn distance_within(
    own: CellSet,
    cheap: CellSet,
    dear: CellSet,
    dear_cost: i32,
    limit: u32,
) -> u32 {
    let t = terrain(own, cheap, dear, dear_cost);
    let sides = Axis::ALL.map(|axis| axis.sides());
    let mut waves = Wave::from_first_sides(&sides, &t);
    for level in 0..=limit as usize {
        for (wave, (_, target)) in waves.iter_mut().zip(&sides) {
            if level > 0 {
                wave.step(level, &t);
            }
            if wave.reach.intersects(target.cells()) {
                return level as u32;
            }
        }
        if waves.iter().all(|w| w.pending.iter().all(|p| p.is_empty())) {
            break;
        }
    }
    limit + 1
}

/// The shortest connection distances over two different axes: the best (as
/// [`distance_within`]) and the best of the other two, each `limit + 1` when beyond `limit`.
/// The second says how much a block across the best path costs.
pub fn two_axes_within(
    own: CellSet,
    cheap: CellSet,
    dear: CellSet,
    dear_cost: i32,
    limit: u32,
) -> [u32; 2] {
    let t = terrain(own, cheap, dear, dear_cost);
    let sides = Axis::ALL.map(|axis| axis.sides());
    let mut waves = Wave::from_first_sides(&sides, &t);
    let mut out = [limit + 1; 2];
    let mut found = 0;
    let mut reached = [false; 3];
    for level in 0..=limit as usize {
        for (i, (wave, (_, target))) in waves.iter_mut().zip(&sides).enumerate() {
            if reached[i] {
                continue;
            }
            if level > 0 {
                wave.step(level, &t);
            }
            if wave.reach.intersects(target.cells()) {
                reached[i] = true;
                out[found] = level as u32;
                found += 1;
                if found == 2 {
                    return out;
                }
            }
        }
        let open =
            (waves.iter().zip(reached)).any(|(w, r)| !r && w.pending.iter().any(|p| !p.is_empty()));
        if !open {
            break;
        }
    }
    out
}

/// Layers `0..=depth` of a wave from `start`: `layers[k]` holds the spaces within cost `k`.
fn layers(start: CellSet, t: &Terrain, depth: usize, out: &mut Vec<CellSet>) {
    out.clear();
    let mut w = Wave::new(start, t);
    out.push(w.reach);
    for level in 1..=depth {
        w.step(level, t);
        out.push(w.reach);
    }
}

/// The spaces on some connection (any axis) of total cost at most `budget`: own dots and the
/// spaces that would have to be covered. Empty when there is no such connection.
pub fn path_zone(
    own: CellSet,
    cheap: CellSet,
    dear: CellSet,
    dear_cost: i32,
    budget: u32,
) -> CellSet {
    let t = terrain(own, cheap, dear, dear_cost);
    let budget = budget as usize;
    let mut zone = CellSet::EMPTY;
    let (mut la, mut lb) = (Vec::new(), Vec::new());
    for axis in Axis::ALL {
        let (a, b) = axis.sides();
        layers(a.cells(), &t, budget, &mut la);
        if !la[budget].intersects(b.cells()) {
            continue;
        }
        layers(b.cells(), &t, budget, &mut lb);
        zone |= zone_between(&la, &lb, t.own, budget);
    }
    zone
}

/// The spaces on paths of cost at most `budget` between two sides, from the cost layers reached
/// from each side. A space of cost c with cost-from-A i and cost-from-B j (both counting it) lies
/// on a path of cost i + j - c. Own spaces (c = 0) and cheap ones (c = 1) are exact; a dear space
/// is counted as if cheap, which only widens the zone.
fn zone_between(la: &[CellSet], lb: &[CellSet], own: CellSet, budget: usize) -> CellSet {
    let mut zone = CellSet::EMPTY;
    for k in 0..=budget {
        zone |= la[k] & lb[budget - k] & own;
        if k >= 1 {
            zone |= (la[k] & lb[budget + 1 - k]) - own;
        }
    }
    zone
}

/// The shortest connection distance over the three axes when it is at most `cap`, with the
/// spaces on connections of cost at most that distance plus `slack` (as [`path_zone`]).
/// One search from the first side of each axis serves both answers.
pub fn near_paths(
    own: CellSet,
    cheap: CellSet,
    dear: CellSet,
    dear_cost: i32,
    cap: u32,
    slack: u32,
) -> Option<(u32, CellSet)> {
    let t = terrain(own, cheap, dear, dear_cost);
    let sides = Axis::ALL.map(|axis| axis.sides());
    let mut waves = Wave::from_first_sides(&sides, &t);
    let mut from_a: [Vec<CellSet>; 3] = Default::default();
    let mut distance = None;
    for level in 0..=cap as usize {
        for (k, wave) in waves.iter_mut().enumerate() {
            if level > 0 {
                wave.step(level, &t);
            }
            from_a[k].push(wave.reach);
            if distance.is_none() && wave.reach.intersects(sides[k].1.cells()) {
                distance = Some(level);
            }
        }
        if distance.is_some() {
            break;
        }
        if waves.iter().all(|w| w.pending.iter().all(|p| p.is_empty())) {
            return None;
        }
    }
    let d = distance?;
    let budget = d + slack as usize;
    for (k, wave) in waves.iter_mut().enumerate() {
        for level in d + 1..=budget {
            wave.step(level, &t);
            from_a[k].push(wave.reach);
        }
    }
    let mut zone = CellSet::EMPTY;
    let mut lb = Vec::new();
    for (k, (_, b)) in sides.iter().enumerate() {
        let la = &from_a[k];
        if !la[budget].intersects(b.cells()) {
            continue;
        }
        layers(b.cells(), &t, budget, &mut lb);
        zone |= zone_between(la, &lb, t.own, budget);
    }
    Some((d as u32, zone))
}

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
struct Touch {
    axes: [(CellSet, CellSet); 3],
    /// Where the PÜNCT of a completing piece can be, per axis and in all.
    near: [CellSet; 3],
    any: CellSet,
    /// The own dots joined to a side.
    chains: CellSet,
}

impl Touch {
    fn new(own: CellSet) -> Touch {
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
        Touch {
            axes,
            near: puncts,
            any: puncts[0] | puncts[1] | puncts[2],
            chains,
        }
    }

    fn near(&self) -> bool {
        !self.any.is_empty()
    }

    /// Per orientation of `kind`, the PÜNCT spaces of `puncts` where a piece on the board
    /// would meet both sides of an axis (some dot on each); whether any.
    #[inline]
    fn landings(&self, kind: Kind, puncts: CellSet, out: &mut [CellSet; 6]) -> bool {
        let mut any = false;
        for o in 0..kind.orientations() {
            let [a, b] = kind.minor_offsets(o);
            let hits = |r: CellSet| r | r.shifted_down(a) | r.shifted_down(b);
            let fits = puncts & on_board_puncts(kind, o);
            let mut found = CellSet::EMPTY;
            if !fits.is_empty() {
                for ((to_a, to_b), near) in self.axes.iter().zip(&self.near) {
                    let here = fits & *near;
                    if !here.is_empty() {
                        found |= here & hits(*to_a) & hits(*to_b);
                    }
                }
            }
            out[o as usize] = found;
            any |= !found.is_empty();
        }
        any
    }
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

/// Per drop shape (`kind * 6 + orientation`), the PÜNCT spaces of placements on the board.
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

#[inline]
fn on_board_puncts(kind: Kind, o: u8) -> CellSet {
    ON_BOARD[kind.index() * 6 + o as usize]
}

/// The PÜNCT spaces of drops of `kind`/`o` with all three dots in `area` and one in `hit`.
#[inline]
fn drop_puncts(kind: Kind, o: u8, area: CellSet, hit: CellSet) -> CellSet {
    let [a, b] = kind.minor_offsets(o);
    let touch = hit | hit.shifted_down(a) | hit.shifted_down(b);
    area & area.shifted_down(a) & area.shifted_down(b) & touch
}

/// Any legal drop of the side to move.
pub fn any_drop(pos: &Position) -> Option<Move> {
    let side = pos.side_to_move();
    let area = pos.drop_area();
    for kind in Kind::ALL {
        if pos.in_hand(side, kind) == 0 {
            continue;
        }
        for o in 0..kind.orientations() {
            if let Some(p) = drop_puncts(kind, o, area, area).first() {
                return Some(Move::Drop(Placement::new_unchecked(kind, p, o)));
            }
        }
    }
    None
}

/// A drop of the side to move that connects (no move is made).
fn drop_win(pos: &Position, touch: &Touch) -> Option<Move> {
    CompletingDrops::new(pos, pos.side_to_move(), touch)
        .first()
        .map(Move::Drop)
}

/// Drop shapes indexed `kind * 6 + orientation`.
const SHAPES: usize = 36;

/// Every drop of `colour` that would connect, found set-wise: per shape of a kind in hand, the
/// PÜNCT spaces with all three dots in the drop area where the piece meets both sides of an
/// axis (see [`Touch::landings`]).
struct CompletingDrops {
    puncts: [CellSet; SHAPES],
    any: CellSet,
}

impl CompletingDrops {
    fn new(pos: &Position, colour: Colour, touch: &Touch) -> CompletingDrops {
        let mut out = CompletingDrops {
            puncts: [CellSet::EMPTY; SHAPES],
            any: CellSet::EMPTY,
        };
        let area = pos.drop_area_for(colour);
        let candidates = touch.any & area;
        if candidates.is_empty() {
            return out;
        }
        for kind in Kind::ALL {
            if pos.in_hand(colour, kind) == 0 {
                continue;
            }
            for o in 0..kind.orientations() {
                let [a, b] = kind.minor_offsets(o);
                let fits = candidates & area.shifted_down(a) & area.shifted_down(b);
                if fits.is_empty() {
                    continue;
                }
                let hits = |r: CellSet| r | r.shifted_down(a) | r.shifted_down(b);
                let mut found = CellSet::EMPTY;
                for ((to_a, to_b), near) in touch.axes.iter().zip(&touch.near) {
                    let here = fits & *near;
                    if !here.is_empty() {
                        found |= here & hits(*to_a) & hits(*to_b);
                    }
                }
                out.puncts[kind.index() * 6 + o as usize] = found;
                out.any |= found;
            }
        }
        out
    }

    /// The first in generation order: lowest PÜNCT space, then kind, then orientation.
    fn first(&self) -> Option<Placement> {
        let p = self.any.first()?;
        (0..SHAPES).find_map(|i| {
            self.puncts[i]
                .contains(p)
                .then(|| Placement::new_unchecked(Kind::ALL[i / 6], p, (i % 6) as u8))
        })
    }

    /// The spaces of all of them.
    fn cells(&self) -> CellSet {
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
/// `to`, by the rules of RULES.md 4.2 with the piece lifted.
fn shift_is_legal(pos: &Position, id: usize, to: Placement) -> bool {
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

/// A shift of the side to move that wins: landings that would complete a connection are
/// found set-wise per movable piece, then checked (see [`connecting_shifts`]).
fn shift_win(pos: &Position, touch: &Touch) -> Option<Move> {
    let us = pos.side_to_move();
    pos.pieces().find_map(|(id, piece)| {
        let from = piece.placement.punct();
        if piece.colour != us {
            return None;
        }
        connecting_shifts(pos, touch, id)
            .next()
            .map(|to| Move::Shift { from, to })
    })
}

/// Every shift of piece `id` (of the colour `touch` was made for) that would connect, PÜNCT
/// spaces ascending, then orientations. Lifting a piece of a chain joined to a side can cut
/// that chain, so for such a piece the sets are made again for the top view with it lifted;
/// then meeting both sides of an axis is exact, and no move needs playing. Landings are found
/// set-wise per orientation (as drops are); lifting only takes dots away, so when no landing
/// meets both sides before the lift none does after it, and the lifted sets are not needed.
fn connecting_shifts<'a>(pos: &'a Position, touch: &Touch, id: usize) -> ConnectingShifts<'a> {
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
    let line = LINES[from.index()] & touch.any;
    if line.is_empty() || pos.top_piece(from) != Some(id) || pos.is_blocked(id) {
        return out;
    }
    if !touch.landings(kind, line, &mut out.landings) {
        return out;
    }
    let cells = piece.placement.cells();
    if cells.iter().any(|&c| touch.chains.contains(c)) {
        let lifted = Touch::new(lifted_view(pos, piece.colour, id));
        if !lifted.landings(kind, line & lifted.any, &mut out.landings) {
            return out;
        }
    }
    out.todo = out.landings.iter().fold(CellSet::EMPTY, |u, &s| u | s);
    out
}

/// The iterator of [`connecting_shifts`]: the landings that complete, checked for legality.
struct ConnectingShifts<'a> {
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

/// The `Touch` of recent top views. Siblings reached by drops share the top view of the side
/// to move (a drop never covers a dot), so most leaves find theirs here.
pub struct TouchCache {
    slots: Vec<Option<(CellSet, Touch)>>,
}

const TOUCH_SLOTS: usize = 64;

/// A multiply-fold hash of a few words (a cache index, not for untrusted keys).
struct FoldHasher(u64);

impl std::hash::Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(b as u64));
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

impl Default for TouchCache {
    fn default() -> TouchCache {
        TouchCache {
            slots: vec![None; TOUCH_SLOTS],
        }
    }
}

impl TouchCache {
    fn touch(&mut self, own: CellSet) -> Touch {
        let mut h = FoldHasher(0);
        std::hash::Hash::hash(&own, &mut h);
        let slot = (std::hash::Hasher::finish(&h) >> 58) as usize % TOUCH_SLOTS;
        match self.slots[slot] {
            Some((set, touch)) if set == own => touch,
            _ => {
                let touch = Touch::new(own);
                self.slots[slot] = Some((own, touch));
                touch
            }
        }
    }
}

/// A move that wins at once for the side to move: a connection, or in the standard game a
/// last drop with more central dots. Cheap when no piece could join two sides.
pub fn find_win(pos: &Position) -> Option<Move> {
    find_win_cached(pos, &mut TouchCache::default())
}

/// [`find_win`] with a cache of the sets it derives from top views.
pub fn find_win_cached(pos: &Position, cache: &mut TouchCache) -> Option<Move> {
    if pos.is_finished() {
        return None;
    }
    let us = pos.side_to_move();
    if pos.variant() == Variant::Standard && pos.hand_total(us) == 1 {
        let [w, b] = pos.centre_count();
        let (mine, theirs) = if us == Colour::White { (w, b) } else { (b, w) };
        // Drops never touch the centre, so the count after the drop is the count now.
        if mine > theirs {
            if let Some(mv) = any_drop(pos) {
                return Some(mv);
            }
        }
    }
    let touch = cache.touch(pos.top_view(us));
    if !touch.near() {
        return None;
    }
    if pos.hand_total(us) > 0 {
        if let Some(mv) = drop_win(pos, &touch) {
            return Some(mv);
        }
    }
    if pos.hand_total(us) == PIECES_PER_PLAYER {
        return None;
    }
    shift_win(pos, &touch)
}

/// The moves among `moves` after which the mover threatens to win next move (a connection in
/// one, or a last drop ahead on the centre count), written to `out`: forcing moves, which the
/// opponent must answer with a stopper. A move that ends the game is not among them.
/// `stop` is asked every few moves; false when it said stop (`out` is then partial).
pub fn threat_moves(
    pos: &mut Position,
    moves: &[Move],
    cache: &mut TouchCache,
    out: &mut Vec<Move>,
    stop: &mut dyn FnMut() -> bool,
) -> bool {
    out.clear();
    for (i, &mv) in moves.iter().enumerate() {
        if i % THREAT_POLL == THREAT_POLL - 1 && stop() {
            return false;
        }
        pos.make(mv);
        if pos.outcome().is_none() {
            // The mover's wins as if it could move again.
            pos.make(Move::Pass);
            if pos.outcome().is_none() && find_win_cached(pos, cache).is_some() {
                out.push(mv);
            }
            pos.unmake();
        }
        pos.unmake();
    }
    true
}

/// Moves played by [`threat_moves`] between two looks at its stop signal.
const THREAT_POLL: usize = 16;

/// `colour`'s top view with piece `id` lifted off its spaces (revealing what lies below).
fn lifted_view(pos: &Position, colour: Colour, id: usize) -> CellSet {
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

/// Every space a move of the side to move may have to touch (by landing or lifting) to stop
/// the opponent's one-move wins, or `None` when the opponent has none: the spaces of each
/// winning drop or shift (with the shifted piece's own spaces), the opponent's dots joined to
/// the sides, and the centre when the opponent's last drop would win or draw the count.
pub fn threat_zone(pos: &Position) -> Option<CellSet> {
    threat(pos).map(|t| t.zone)
}

/// The opponent's one-move threats (see [`threat_zone`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Every move that stops the threats touches this zone.
    pub zone: CellSet,
    /// The opponent has a winning move (not only a drawing last drop): every move of the side
    /// to move that does not touch the zone loses at once.
    pub decisive: bool,
}

/// [`threat_zone`] with whether the threat is a win (see [`Threat`]).
pub fn threat(pos: &Position) -> Option<Threat> {
    threat_cached(pos, &mut TouchCache::default())
}

/// [`threat`] with a cache of the sets it derives from top views.
pub fn threat_cached(pos: &Position, cache: &mut TouchCache) -> Option<Threat> {
    let them = !pos.side_to_move();
    let mut decisive = false;
    let mut zone = CellSet::EMPTY;
    let mut threatened = false;
    let touch = cache.touch(pos.top_view(them));
    if touch.near() {
        let drops = CompletingDrops::new(pos, them, &touch);
        if !drops.any.is_empty() {
            threatened = true;
            zone |= drops.cells();
        }
        for (id, piece) in pos.pieces() {
            if piece.colour != them {
                continue;
            }
            for to in connecting_shifts(pos, &touch, id) {
                threatened = true;
                for c in to.cells().into_iter().chain(piece.placement.cells()) {
                    zone.insert(c);
                }
            }
        }
        if threatened {
            zone |= touch.chains;
            decisive = true;
        }
    }
    if pos.variant() == Variant::Standard && pos.hand_total(them) == 1 {
        let [w, b] = pos.centre_count();
        let (theirs, mine) = if them == Colour::White {
            (w, b)
        } else {
            (b, w)
        };
        if theirs >= mine {
            threatened = true;
            decisive |= theirs > mine;
            zone |= central_cells();
        }
    }
    threatened.then_some(Threat { zone, decisive })
}

/// What the rules decide at the root before any search (see [`root_tactics`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootTactics {
    /// This move wins at once.
    Win(Move),
    /// The opponent threatens to win next move: exactly these moves stop every threat (all
    /// others lose at once). Empty when none does: the position is lost.
    Stoppers(Vec<Move>),
    /// Neither: the search decides.
    Open,
}

/// The root's exact tactics over `moves` (the legal moves, or the `searchmoves` among them):
/// a winning move if one exists, else, against a winning threat, the moves after which the
/// opponent has no winning move, each checked by playing it. Stoppers are looked for only among
/// the moves that touch the threat zone (every stopper does, see [`threat`]) and own last drops
/// (which end the game).
pub fn root_tactics(pos: &mut Position, moves: &[Move]) -> RootTactics {
    if pos.is_finished() || moves.is_empty() {
        return RootTactics::Open;
    }
    let us = pos.side_to_move();
    let wins = |pos: &mut Position, mv: Move| {
        pos.make(mv);
        let won = pos.outcome().is_some_and(|o| o.winner == Some(us));
        pos.unmake();
        won
    };
    if let Some(win) = find_win(pos) {
        if moves.contains(&win) {
            return RootTactics::Win(win);
        }
        // Restricted by `searchmoves`: look for a win among the allowed moves.
        if let Some(&mv) = moves.iter().find(|&&mv| wins(pos, mv)) {
            return RootTactics::Win(mv);
        }
    }
    let Some(t) = threat(pos).filter(|t| t.decisive) else {
        return RootTactics::Open;
    };
    let last_drop = pos.hand_total(us) == 1;
    let stoppers = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let candidate =
                move_touches(pos, mv, t.zone) || (last_drop && matches!(mv, Move::Drop(_)));
            candidate && stops_threats(pos, mv)
        })
        .collect();
    RootTactics::Stoppers(stoppers)
}

/// Whether after `mv` the opponent neither has won nor can win with one move.
pub fn stops_threats(pos: &mut Position, mv: Move) -> bool {
    let them = !pos.side_to_move();
    pos.make(mv);
    let stops = match pos.outcome() {
        Some(o) => o.winner != Some(them),
        None => find_win(pos).is_none(),
    };
    pos.unmake();
    stops
}

/// Whether a move lands on or lifts a piece off a space of `zone`.
pub fn move_touches(pos: &Position, mv: Move, zone: CellSet) -> bool {
    let lands = mv
        .placement()
        .is_some_and(|pl| pl.cells().iter().any(|&c| zone.contains(c)));
    let lifts = match mv {
        Move::Shift { from, .. } => pos.top_piece(from).is_some_and(|id| {
            pos.piece(id)
                .placement
                .cells()
                .iter()
                .any(|&c| zone.contains(c))
        }),
        _ => false,
    };
    lands || lifts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_position;

    #[test]
    fn empty_board_distance_is_seventeen() {
        let all = crate::rules::geometry::board_cells();
        assert_eq!(distance(CellSet::EMPTY, all, CellSet::EMPTY, 1), 17);
    }

    #[test]
    fn second_axis_distance_is_the_best_of_the_other_two() {
        let all = crate::rules::geometry::board_cells();
        assert_eq!(
            two_axes_within(CellSet::EMPTY, all, CellSet::EMPTY, 1, 40),
            [17, 17]
        );
        // A cap of 3 leaves every axis out.
        let pos = parse_position("Wc5c6c7 b 1", Variant::Standard).unwrap();
        let own = pos.top_view(Colour::White);
        assert_eq!(
            two_axes_within(own, pos.empty_cells(), CellSet::EMPTY, 2, 3),
            [4, 4]
        );
        for text in [
            "Wc5c6c7 b 1",
            "Wc5c6c7/Bf5f6f7 w 2",
            "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We3e4d4/We10d9f10/Bf5f6g6/Bf11f12f13/Bg4g3g5/Bg7h8h9/Bg10g11h11/Wg13g12h14/Bg14h15i16/Wj17j16i15 b 17",
        ] {
            let pos = parse_position(text, Variant::Standard).unwrap();
            for c in [Colour::White, Colour::Black] {
                let (own, empty, opp) = (pos.top_view(c), pos.empty_cells(), pos.top_view(!c));
                // The second is the least of the axes other than the best, each alone.
                let mut per_axis: Vec<u32> = Axis::ALL
                    .iter()
                    .map(|&axis| axis_distance(own, empty, opp, 2, axis))
                    .collect();
                per_axis.sort_unstable();
                let [best, second] = two_axes_within(own, empty, opp, 2, 40);
                assert_eq!([best, second], [per_axis[0], per_axis[1]], "{text} {c:?}");
            }
        }
    }

    /// One axis's distance by a plain Dijkstra over the board (own dots free, empty 1, the
    /// opponent's `dear`), independent of the waves.
    fn axis_distance(own: CellSet, empty: CellSet, opp: CellSet, dear: u32, axis: Axis) -> u32 {
        let cost = |c: Cell| {
            if own.contains(c) {
                0
            } else if empty.contains(c) {
                1
            } else if opp.contains(c) {
                dear
            } else {
                1
            }
        };
        let (a, b) = axis.sides();
        let mut dist = vec![u32::MAX; GRID_LEN];
        let mut todo: Vec<(u32, Cell)> = a.cells().into_iter().map(|c| (cost(c), c)).collect();
        while let Some(i) = (0..todo.len()).min_by_key(|&i| todo[i].0) {
            let (d, c) = todo.swap_remove(i);
            if d >= dist[c.index()] {
                continue;
            }
            dist[c.index()] = d;
            for n in Dir::ALL.into_iter().filter_map(|dir| c.neighbour(dir)) {
                todo.push((d + cost(n), n));
            }
        }
        b.cells()
            .into_iter()
            .map(|c| dist[c.index()])
            .min()
            .unwrap()
    }

    #[test]
    fn dear_spaces_cost_more() {
        let all = crate::rules::geometry::board_cells();
        // A wall of dear spaces across the whole board on column x = 8.
        let wall: CellSet = Cell::all().iter().copied().filter(|c| c.x() == 8).collect();
        let d1 = distance_within(CellSet::EMPTY, all - wall, wall, 1, 100);
        let d3 = distance_within(CellSet::EMPTY, all - wall, wall, 3, 100);
        assert_eq!(d1, 17);
        // West-East must cross the wall; other axes cross it too (it spans the board).
        assert_eq!(d3, 19);
    }

    #[test]
    fn near_paths_is_distance_and_path_zone() {
        for text in [
            "Wc5c6d6/Bf5f6f7 w 2",
            "Wc3c4c5/Wc6c7c8/Wd2d1d3/Be1e2f2/We3e4d4/We10d9f10/Bf5f6g6/Bf11f12f13/Bg4g3g5/Bg7h8h9/Bg10g11h11/Wg13g12h14/Bg14h15i16/Wj17j16i15 b 17",
        ] {
            let pos = parse_position(text, Variant::Standard).unwrap();
            for colour in [Colour::White, Colour::Black] {
                let (own, empty, opp) = (pos.top_view(colour), pos.empty_cells(), pos.top_view(!colour));
                for (cost, cap, slack) in [(1, 24, 1), (2, 24, 1), (2, 24, 0), (3, 5, 2)] {
                    let d = distance_within(own, empty, opp, cost, cap);
                    let want = (d <= cap).then(|| (d, path_zone(own, empty, opp, cost, d + slack)));
                    assert_eq!(near_paths(own, empty, opp, cost, cap, slack), want, "{text} {colour:?} {cost}");
                }
            }
        }
    }

    #[test]
    fn own_dots_are_free() {
        let pos = parse_position("Wc5c6d6/Bf5f6f7 w 2", Variant::Standard).unwrap();
        let own = pos.top_view(Colour::White);
        let d = distance(own, pos.empty_cells(), CellSet::EMPTY, 1);
        assert!(d < 17, "{d}");
    }
}
