//! Connection distances on cell sets.
//!
//! A distance counts the spaces a player still has to cover to join two opposite sides: own
//! top-visible dots cost 0, "cheap" spaces 1, "dear" spaces (opponent's dots, which only a
//! shift onto a stack can cover) a tunable cost. The search runs the three axes in lockstep,
//! one layer per unit of cost, growing through own dots one neighbourhood at a time.

use std::cell::RefCell;

use crate::rules::cellset::CellSet;
use crate::rules::geometry::{Axis, Side};

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
        // Nothing pending: no side can be reached any more. (Looked at every few levels
        // only: the extra levels change nothing, and most searches end on a side first.)
        if level % MAX_COST == MAX_COST - 1
            && waves.iter().all(|w| w.pending.iter().all(|p| p.is_empty()))
        {
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
    // The layers of four waves, kept per thread: this runs at every node of the search, which
    // must not allocate.
    thread_local! {
        static LAYERS: RefCell<[Vec<CellSet>; 4]> = RefCell::default();
    }
    let t = terrain(own, cheap, dear, dear_cost);
    LAYERS.with_borrow_mut(|[a0, a1, a2, lb]| near_paths_in([a0, a1, a2], lb, &t, cap, slack))
}

/// [`near_paths`] with buffers for the layers from each axis's first side and from a second.
fn near_paths_in(
    mut from_a: [&mut Vec<CellSet>; 3],
    lb: &mut Vec<CellSet>,
    t: &Terrain,
    cap: u32,
    slack: u32,
) -> Option<(u32, CellSet)> {
    let sides = Axis::ALL.map(|axis| axis.sides());
    let mut waves = Wave::from_first_sides(&sides, t);
    from_a.iter_mut().for_each(|v| v.clear());
    let mut distance = None;
    for level in 0..=cap as usize {
        for (k, wave) in waves.iter_mut().enumerate() {
            if level > 0 {
                wave.step(level, t);
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
            wave.step(level, t);
            from_a[k].push(wave.reach);
        }
    }
    let mut zone = CellSet::EMPTY;
    for (k, (_, b)) in sides.iter().enumerate() {
        let la = &from_a[k];
        if !la[budget].intersects(b.cells()) {
            continue;
        }
        layers(b.cells(), t, budget, lb);
        zone |= zone_between(la, lb, t.own, budget);
    }
    Some((d as u32, zone))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Dir, GRID_LEN};
    use crate::rules::notation::parse_position;
    use crate::rules::piece::Colour;
    use crate::rules::position::Variant;
    use crate::Cell;

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
        // Spaces in none of the three sets cannot be crossed.
        let cost = |c: Cell| {
            if own.contains(c) {
                Some(0)
            } else if empty.contains(c) {
                Some(1)
            } else if opp.contains(c) {
                Some(dear)
            } else {
                None
            }
        };
        let (a, b) = axis.sides();
        let mut dist = vec![u32::MAX; GRID_LEN];
        let mut todo: Vec<(u32, Cell)> = (a.cells().into_iter())
            .filter_map(|c| Some((cost(c)?, c)))
            .collect();
        while let Some(i) = (0..todo.len()).min_by_key(|&i| todo[i].0) {
            let (d, c) = todo.swap_remove(i);
            if d >= dist[c.index()] {
                continue;
            }
            dist[c.index()] = d;
            for n in Dir::ALL.into_iter().filter_map(|dir| c.neighbour(dir)) {
                if let Some(k) = cost(n) {
                    todo.push((d + k, n));
                }
            }
        }
        b.cells()
            .into_iter()
            .map(|c| dist[c.index()])
            .min()
            .unwrap()
            .min(MAX_DISTANCE + 1)
    }

    /// On random terrains, connected or walled off, the lockstep waves give the least of the
    /// three axes' Dijkstra distances, or `limit + 1` when it lies beyond `limit`.
    #[test]
    fn distances_match_dijkstra_on_random_terrains() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let all = crate::rules::geometry::board_cells();
        let (mut walled, mut capped) = (0, 0);
        for round in 0..400 {
            let (mut own, mut empty, mut opp) = (CellSet::EMPTY, CellSet::EMPTY, CellSet::EMPTY);
            // Some rounds have no dear spaces and few cheap ones: often no connection at all
            // (spaces in none of the sets are walls).
            let (p_own, p_opp) = if round % 3 == 0 {
                (0.1, 0.0)
            } else {
                (0.15, 0.3)
            };
            let p_empty = if round % 3 == 0 { 0.45 } else { 0.5 };
            for c in all {
                let x: f64 = rng.gen();
                if x < p_own {
                    own.insert(c);
                } else if x < p_own + p_opp {
                    opp.insert(c);
                } else if x < p_own + p_opp + p_empty {
                    empty.insert(c);
                }
            }
            let dear = rng.gen_range(1..=3);
            let limit = rng.gen_range(0..30);
            let want = (Axis::ALL.iter())
                .map(|&axis| axis_distance(own, empty, opp, dear, axis))
                .min()
                .unwrap();
            let got = distance_within(own, empty, opp, dear as i32, limit);
            assert_eq!(
                got,
                if want <= limit { want } else { limit + 1 },
                "round {round}"
            );
            walled += (got == limit + 1) as usize;
            capped += (got <= limit) as usize;
        }
        assert!(walled > 20 && capped > 20, "{walled} {capped}");
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
