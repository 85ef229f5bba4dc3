//! The static score `builtin:greedy` maximises over its moves: a connection distance for both
//! players (cells still to cover between two opposite sides) and the central hexagon.
//!
//! Distances are shortest paths where a cell costs its player 0 when the player's dot is on
//! top, 1 when empty and 2 when the opponent's dot is on top (it can be stacked on, but that
//! takes more). The score of a move is computed from the top view after it without playing it:
//! a drop or a shift only changes the top colour of the cells it lands on and, for a shift, of
//! the cells it leaves (they show the dot below).

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{central_cells, Axis, Cell, Dir, GRID_LEN};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Placement};
use crate::rules::position::{Position, Variant};

/// Unreachable (no cell is that far: a path crosses at most 33 cells at cost 2).
const FAR: u8 = u8::MAX;

/// Score points per cell of connection distance on a player's best axis.
const CELL: i32 = 100;
/// Points per cell of the second-best axis (a plan that survives one block).
const SECOND_AXIS: i32 = 20;
/// Points per central dot: from `CENTRE_EARLY` with full hands to `CENTRE_LATE` with empty
/// ones (standard game: the count decides the game at the 18th drop).
const CENTRE_EARLY: i32 = 10;
const CENTRE_LATE: i32 = 150;
/// Points per central dot in the basic game (the count decides nothing there).
const CENTRE_BASIC: i32 = 10;

/// The top colours as one player sees them.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct View {
    pub own: CellSet,
    pub opp: CellSet,
}

impl View {
    /// The top colours as `colour` sees them.
    fn of(pos: &Position, colour: Colour) -> View {
        View {
            own: pos.top_view(colour),
            opp: pos.top_view(!colour),
        }
    }

    fn cost(&self, c: Cell) -> u8 {
        if self.own.contains(c) {
            0
        } else if self.opp.contains(c) {
            2
        } else {
            1
        }
    }

    /// The view after the player covers `cells` with a piece.
    fn covered(&self, cells: CellSet) -> View {
        View {
            own: self.own | cells,
            opp: self.opp - cells,
        }
    }

    fn swapped(&self) -> View {
        View {
            own: self.opp,
            opp: self.own,
        }
    }
}

/// Shortest path cost from the cells of `from` to every cell (the cost of every cell on the
/// path counted, the end cell included): Dial's algorithm with three buckets (costs 0..2).
/// With `stop_at`, returns as soon as the first cell of it is settled (its cost is then the
/// distance to the set; other entries may be unfinished).
fn dial(view: &View, from: CellSet, stop_at: Option<CellSet>) -> ([u8; GRID_LEN], u8) {
    let mut dist = [FAR; GRID_LEN];
    let mut buckets: [Vec<Cell>; 3] = Default::default();
    let mut pending = 0usize;
    for c in from {
        let d = view.cost(c);
        dist[c.index()] = d;
        buckets[d as usize].push(c);
        pending += 1;
    }
    let mut k = 0u8;
    while pending > 0 {
        let b = (k % 3) as usize;
        while let Some(c) = buckets[b].pop() {
            pending -= 1;
            if dist[c.index()] != k {
                continue;
            }
            if stop_at.is_some_and(|s| s.contains(c)) {
                return (dist, k);
            }
            for d in Dir::ALL {
                if let Some(n) = c.neighbour(d) {
                    let nd = k + view.cost(n);
                    if nd < dist[n.index()] {
                        dist[n.index()] = nd;
                        buckets[(nd % 3) as usize].push(n);
                        pending += 1;
                    }
                }
            }
        }
        k += 1;
    }
    (dist, FAR)
}

fn field(view: &View, from: CellSet) -> [u8; GRID_LEN] {
    dial(view, from, None).0
}

/// Cells of one shortest path from `a` to `b` (given the field `fa` from `a` and the cells
/// `on` lying on some shortest path), passing through as few cells of `avoid` as it can: a
/// 0-1 search over the steps that keep the path shortest.
fn one_shortest_path(
    view: &View,
    fa: &[u8; GRID_LEN],
    dist: u8,
    (a, b): (CellSet, CellSet),
    on: CellSet,
    avoid: CellSet,
) -> CellSet {
    let mut best = [u16::MAX; GRID_LEN];
    let mut prev: [Option<Cell>; GRID_LEN] = [None; GRID_LEN];
    let mut queue = std::collections::VecDeque::new();
    let penalty = |c: Cell| u16::from(avoid.contains(c));
    for c in a & on {
        if fa[c.index()] == view.cost(c) {
            best[c.index()] = penalty(c);
            queue.push_back(c);
        }
    }
    while let Some(c) = queue.pop_front() {
        for d in Dir::ALL {
            let Some(n) = c.neighbour(d) else { continue };
            if !on.contains(n) || fa[n.index()] != fa[c.index()] + view.cost(n) {
                continue;
            }
            let w = best[c.index()] + penalty(n);
            if w < best[n.index()] {
                best[n.index()] = w;
                prev[n.index()] = Some(c);
                if penalty(n) == 0 {
                    queue.push_front(n);
                } else {
                    queue.push_back(n);
                }
            }
        }
    }
    let end = (b & on)
        .iter()
        .filter(|c| fa[c.index()] == dist)
        .min_by_key(|c| best[c.index()]);
    let mut path = CellSet::EMPTY;
    let mut cur = end;
    while let Some(c) = cur {
        path.insert(c);
        cur = prev[c.index()];
    }
    path
}

fn min_over(dist: &[u8; GRID_LEN], cells: CellSet) -> u8 {
    cells.iter().map(|c| dist[c.index()]).min().unwrap_or(FAR)
}

/// One player's connection distance on one axis.
fn axis_distance(view: &View, axis: Axis) -> u8 {
    let (a, b) = axis.sides();
    dial(view, a.cells(), Some(b.cells())).1
}

/// Shortest paths kept per axis: a move that misses one of them leaves the distance unchanged.
const PATHS: usize = 3;

/// What a player's distances look like before a move: per axis the distance, the cost to reach
/// each cell from either side without paying for the cell itself, and a few shortest paths
/// sharing as few cells as they can.
struct Distances {
    dist: [u8; 3],
    /// `reach[axis][side][cell]`: cheapest path from that side to a neighbour of the cell (0 for
    /// a cell on the side).
    reach: Box<[[[u8; GRID_LEN]; 2]; 3]>,
    paths: [[CellSet; PATHS]; 3],
}

impl Distances {
    fn new(view: &View) -> Distances {
        let mut dist = [FAR; 3];
        let mut reach = Box::new([[[FAR; GRID_LEN]; 2]; 3]);
        let mut paths = [[CellSet::EMPTY; PATHS]; 3];
        for (i, axis) in Axis::ALL.iter().enumerate() {
            let (a, b) = axis.sides();
            let fa = field(view, a.cells());
            let fb = field(view, b.cells());
            dist[i] = min_over(&fa, b.cells());
            let mut on_path = CellSet::EMPTY;
            for &c in Cell::all() {
                let cost = view.cost(c);
                let (da, db) = (fa[c.index()], fb[c.index()]);
                if da != FAR && db != FAR && da + db - cost == dist[i] {
                    on_path.insert(c);
                }
                reach[i][0][c.index()] = da.saturating_sub(cost);
                reach[i][1][c.index()] = db.saturating_sub(cost);
            }
            let mut used = CellSet::EMPTY;
            for path in &mut paths[i] {
                *path =
                    one_shortest_path(view, &fa, dist[i], (a.cells(), b.cells()), on_path, used);
                used |= *path;
            }
        }
        Distances { dist, reach, paths }
    }

    /// The distances after the player covers `cells` (connected, as a piece's are): a shortest
    /// path either avoids them or enters them once from each side, so this is exact.
    fn after_covering(&self, cells: &[Cell; 3]) -> [u8; 3] {
        let mut out = self.dist;
        for (i, d) in out.iter_mut().enumerate() {
            let via = |s: usize| cells.iter().map(|c| self.reach[i][s][c.index()]).min();
            if let (Some(a), Some(b)) = (via(0), via(1)) {
                *d = (*d).min(a.saturating_add(b));
            }
        }
        out
    }

    /// The distances after the *other* player covers `cells` (costs only rise): unchanged on an
    /// axis where one of the kept shortest paths avoids them, else computed afresh.
    fn after_blocked(&self, view_after: &View, cells: CellSet) -> [u8; 3] {
        let mut out = self.dist;
        for (i, axis) in Axis::ALL.iter().enumerate() {
            if self.paths[i].iter().all(|p| cells.intersects(*p)) {
                out[i] = axis_distance(view_after, *axis);
            }
        }
        out
    }
}

/// Best axis counts fully, the second best a little.
fn connection_points(d: [u8; 3]) -> i32 {
    let mut d = d.map(|x| x as i32);
    d.sort_unstable();
    CELL * d[0] + SECOND_AXIS * d[1]
}

fn centre_weight(pos: &Position) -> i32 {
    match pos.variant() {
        Variant::Basic => CENTRE_BASIC,
        Variant::Standard => {
            let left = (pos.hand_total(Colour::White) + pos.hand_total(Colour::Black)) as i32;
            CENTRE_LATE - (CENTRE_LATE - CENTRE_EARLY) * left / 36
        }
    }
}

/// Scores the moves of the side to move (higher is better for it), from the top views alone.
pub struct Scorer<'a> {
    pos: &'a Position,
    base: View,
    own: Distances,
    opp: Distances,
    centre_weight: i32,
    /// Per piece index: the view and both players' distances with that piece lifted.
    lifted: Vec<Option<(View, Distances, Distances)>>,
}

impl<'a> Scorer<'a> {
    pub fn new(pos: &'a Position) -> Scorer<'a> {
        let base = View::of(pos, pos.side_to_move());
        Scorer {
            pos,
            base,
            own: Distances::new(&base),
            opp: Distances::new(&base.swapped()),
            centre_weight: centre_weight(pos),
            lifted: Vec::new(),
        }
    }

    /// The view with the piece `id` taken off: its cells show the dot below, if any.
    fn lifted_view(&self, id: usize) -> View {
        let me = self.pos.side_to_move();
        let mut v = self.base;
        for c in self.pos.piece(id).placement.cells() {
            v.own.remove(c);
            let stack = self.pos.stack(c);
            if stack.len() >= 2 {
                let below = self.pos.piece(stack[stack.len() - 2] as usize);
                if below.colour == me {
                    v.own.insert(c);
                } else {
                    v.opp.insert(c);
                }
            }
        }
        v
    }

    fn score_view(&self, own_d: [u8; 3], opp_d: [u8; 3], after: &View) -> i32 {
        let centre = central_cells();
        let centre_diff = (after.own & centre).len() as i32 - (after.opp & centre).len() as i32;
        connection_points(opp_d) - connection_points(own_d) + self.centre_weight * centre_diff
    }

    /// The score of the position after `mv` for the side to move now.
    pub fn score(&mut self, mv: Move) -> i32 {
        let to = match mv {
            Move::Pass => return self.score_view(self.own.dist, self.opp.dist, &self.base),
            Move::Drop(p) | Move::Shift { to: p, .. } => p,
        };
        let cells = to.cells();
        let set = cell_set(to);
        match mv {
            Move::Shift { from, .. } => {
                let id = self.pos.top_piece(from).expect("a shift starts on a piece");
                if self.lifted.len() <= id {
                    self.lifted.resize_with(id + 1, || None);
                }
                if self.lifted[id].is_none() {
                    let v = self.lifted_view(id);
                    let (own, opp) = (Distances::new(&v), Distances::new(&v.swapped()));
                    self.lifted[id] = Some((v, own, opp));
                }
                let (v, own, opp) = self.lifted[id].as_ref().expect("just filled");
                self.score_covering(v, own, opp, &cells, set)
            }
            _ => self.score_covering(&self.base, &self.own, &self.opp, &cells, set),
        }
    }

    fn score_covering(
        &self,
        v: &View,
        own: &Distances,
        opp: &Distances,
        cells: &[Cell; 3],
        set: CellSet,
    ) -> i32 {
        let after = v.covered(set);
        let own_d = own.after_covering(cells);
        let opp_d = opp.after_blocked(&after.swapped(), set);
        self.score_view(own_d, opp_d, &after)
    }
}

/// The connection distances of both players on each axis, computed from scratch (for tests).
pub fn distances(pos: &Position, colour: Colour) -> [u8; 3] {
    let v = View::of(pos, colour);
    Axis::ALL.map(|a| axis_distance(&v, a))
}

/// The placement's cells as a set.
pub fn cell_set(p: Placement) -> CellSet {
    p.cells().iter().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The incremental distances agree with distances computed on the position after the move.
    #[test]
    fn scored_distances_match_a_fresh_computation() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut checked = 0;
        for game in 0..6 {
            let mut pos = Position::new(if game % 2 == 0 {
                Variant::Standard
            } else {
                Variant::Basic
            });
            for _ in 0..30 {
                let moves = pos.legal_moves();
                if pos.is_finished() || moves[0] == Move::Pass {
                    break;
                }
                let me = pos.side_to_move();
                let frozen = pos.clone();
                let scorer = Scorer::new(&frozen);
                for _ in 0..15 {
                    let mv = moves[rng.gen_range(0..moves.len())];
                    let p = mv.placement().unwrap();
                    let (v, own, opp) = match mv {
                        Move::Shift { from, .. } => {
                            let id = pos.top_piece(from).unwrap();
                            let v = scorer.lifted_view(id);
                            (v, Distances::new(&v), Distances::new(&v.swapped()))
                        }
                        _ => {
                            let v = scorer.base;
                            (v, Distances::new(&v), Distances::new(&v.swapped()))
                        }
                    };
                    let set = cell_set(p);
                    let after = v.covered(set);
                    pos.make(mv);
                    assert_eq!(after.own, pos.top_view(me), "{mv}");
                    assert_eq!(after.opp, pos.top_view(!me), "{mv}");
                    assert_eq!(own.after_covering(&p.cells()), distances(&pos, me), "{mv}");
                    assert_eq!(
                        opp.after_blocked(&after.swapped(), set),
                        distances(&pos, !me),
                        "{mv}"
                    );
                    pos.unmake();
                    checked += 1;
                }
                let mv = moves[rng.gen_range(0..moves.len())];
                pos.make(mv);
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn distance_counts_cells_to_cover() {
        let pos = Position::new(Variant::Standard);
        // Empty board: 17 cells between opposite sides on every axis.
        let d = distances(&pos, Colour::White);
        assert_eq!(d, [17; 3]);
        let mut pos = crate::parse_position("Wa5a6b6 b 1", Variant::Standard).unwrap();
        let after = distances(&pos, Colour::White);
        assert_eq!(after[0], d[0] - 2, "{after:?} vs {d:?}");
        pos.make(crate::parse_move("b9b10c10").unwrap());
        assert!(distances(&pos, Colour::White)[0] >= after[0]);
    }
}
