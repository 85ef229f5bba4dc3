//! Geometry and piece-shape facts of docs/rules.md sections 1, 2 and 6, counted with the test's own
//! coordinate code (`common/simple_rules.rs`) and compared with the library.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use common::simple_rules::{
    self, adjacent, all_cells, cell_name, classify, distance, Shape, Xy, DIRS,
};
use punct::rules::geometry::{central_cells, Dir};
use punct::{parse_cell, Axis, Cell, Kind, Placement, Side};

fn xy(c: Cell) -> Xy {
    (c.x(), c.y())
}

fn cell(name: &str) -> Cell {
    parse_cell(name).unwrap()
}

fn own_neighbours(c: Xy) -> usize {
    DIRS.iter()
        .filter(|d| simple_rules::on_board((c.0 + d.0, c.1 + d.1)))
        .count()
}

#[test]
fn board_has_211_cells_in_the_documented_columns() {
    let lib: Vec<Xy> = Cell::all().iter().map(|&c| xy(c)).collect();
    assert_eq!(lib.len(), 211);
    assert_eq!(lib, all_cells());
    let mut columns = [0; 17];
    for (x, _) in all_cells() {
        columns[x as usize] += 1;
    }
    assert_eq!(
        columns,
        [7, 10, 11, 12, 13, 14, 15, 16, 15, 16, 15, 14, 13, 12, 11, 10, 7]
    );
    for corner in [(0, 0), (0, 8), (8, 0), (8, 16), (16, 8), (16, 16)] {
        assert!(
            Cell::new(corner.0, corner.1).is_none(),
            "{corner:?} removed"
        );
    }
}

#[test]
fn neighbour_counts() {
    // By hand: the side-9 hexagon has 48 rim spaces with 4 neighbours (3 at its corners) and 169
    // inner ones with 6. Removing the 6 corners takes one neighbour from each of the 12 rim
    // spaces and the 6 inner spaces next to a corner: 12 x 3, 30 x 4, 6 x 5, 163 x 6.
    let mut own: BTreeMap<usize, usize> = BTreeMap::new();
    for c in all_cells() {
        *own.entry(own_neighbours(c)).or_default() += 1;
    }
    assert_eq!(own, BTreeMap::from([(3, 12), (4, 30), (5, 6), (6, 163)]));
    for &c in Cell::all() {
        let lib = Dir::ALL
            .iter()
            .filter(|&&d| c.neighbour(d).is_some())
            .count();
        assert_eq!(lib, own_neighbours(xy(c)), "{c}");
    }
}

#[test]
fn directions_match_the_table() {
    let names = ["N", "NE", "SE", "S", "SW", "NW"];
    for (i, d) in Dir::ALL.iter().enumerate() {
        assert_eq!(d.vector(), DIRS[i]);
        assert_eq!(d.name(), names[i]);
        for &c in Cell::all() {
            let expected = (c.x() + DIRS[i].0, c.y() + DIRS[i].1);
            assert_eq!(
                c.neighbour(*d).map(xy),
                simple_rules::on_board(expected).then_some(expected)
            );
            // The ray: every space in that direction until the board ends.
            let mut k = 1;
            let mut own = Vec::new();
            while simple_rules::on_board((c.x() + k * DIRS[i].0, c.y() + k * DIRS[i].1)) {
                own.push((c.x() + k * DIRS[i].0, c.y() + k * DIRS[i].1));
                k += 1;
            }
            assert_eq!(c.ray(*d).iter().map(|&r| xy(r)).collect::<Vec<_>>(), own);
        }
    }
}

#[test]
fn rim_has_42_cells_in_six_sides_of_seven() {
    let rim: BTreeSet<Xy> = all_cells()
        .into_iter()
        .filter(|&c| {
            own_neighbours(c) < 6
                && (c.0 == 0 || c.0 == 16 || c.1 == 0 || c.1 == 16 || (c.0 - c.1).abs() == 8)
        })
        .collect();
    assert_eq!(rim.len(), 42);
    let named: [(Side, &str, &str); 6] = [
        (Side::West, "a2", "a8"),
        (Side::SouthWest, "b1", "h1"),
        (Side::SouthEast, "j2", "p8"),
        (Side::East, "q10", "q16"),
        (Side::NorthEast, "j17", "p17"),
        (Side::NorthWest, "b10", "h16"),
    ];
    let mut seen = BTreeMap::new();
    for (side, first, last) in named {
        let cells: Vec<Xy> = side.cells().iter().map(xy).collect();
        assert_eq!(cells.len(), 7, "{side:?}");
        // The seven spaces run in a straight line from `first` to `last`.
        let (a, b) = (xy(cell(first)), xy(cell(last)));
        let step = ((b.0 - a.0) / 6, (b.1 - a.1) / 6);
        let expected: Vec<Xy> = (0..7)
            .map(|k| (a.0 + k * step.0, a.1 + k * step.1))
            .collect();
        assert_eq!(cells, expected, "{side:?}");
        for c in cells {
            assert!(rim.contains(&c), "{c:?} on the rim");
            assert!(seen.insert(c, side).is_none(), "{c:?} on two sides");
        }
    }
    assert_eq!(seen.len(), 42);
    assert_eq!(Side::West.opposite(), Side::East);
    assert_eq!(Side::SouthWest.opposite(), Side::NorthEast);
    assert_eq!(Side::SouthEast.opposite(), Side::NorthWest);
    for side in Side::ALL {
        assert_eq!(side.opposite().opposite(), side);
    }
    let axes: Vec<_> = Axis::ALL.iter().map(|a| a.sides()).collect();
    assert_eq!(
        axes,
        [
            (Side::West, Side::East),
            (Side::SouthWest, Side::NorthEast),
            (Side::SouthEast, Side::NorthWest)
        ]
    );
}

#[test]
fn central_hexagon_is_the_19_named_cells() {
    let names = [
        "g7", "g8", "g9", "h7", "h8", "h9", "h10", "i7", "i8", "i9", "i10", "i11", "j8", "j9",
        "j10", "j11", "k9", "k10", "k11",
    ];
    let named: BTreeSet<Xy> = names.iter().map(|n| xy(cell(n))).collect();
    assert_eq!(named.len(), 19);
    let lib: BTreeSet<Xy> = central_cells().iter().map(xy).collect();
    assert_eq!(lib, named);
    let own: BTreeSet<Xy> = all_cells()
        .into_iter()
        .filter(|&c| simple_rules::is_central(c))
        .collect();
    assert_eq!(own, named);
    for &c in Cell::all() {
        assert_eq!(c.is_central(), named.contains(&xy(c)));
    }
}

#[test]
fn cell_names_round_trip() {
    assert_eq!(xy(cell("a2")), (0, 1));
    assert_eq!(xy(cell("i9")), (8, 8));
    assert_eq!(xy(cell("q16")), (16, 15));
    for &c in Cell::all() {
        let name = c.to_string();
        assert_eq!(name, cell_name(xy(c)));
        assert_eq!(parse_cell(&name), Ok(c));
        assert_eq!(simple_rules::read_cell(&name), Some(xy(c)));
    }
    for off_board in ["a1", "a9", "i1", "i17", "q9", "q17", "r5", "a0", "b18"] {
        assert!(parse_cell(off_board).is_err(), "{off_board}");
    }
}

#[test]
fn hex_distance_matches_formula_and_shortest_paths() {
    let cells = all_cells();
    // Distances by breadth-first search over adjacent board spaces.
    for &start in &cells {
        let mut dist: BTreeMap<Xy, i32> = BTreeMap::from([(start, 0)]);
        let mut queue = VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for d in DIRS {
                let n = (c.0 + d.0, c.1 + d.1);
                if simple_rules::on_board(n) && !dist.contains_key(&n) {
                    dist.insert(n, dist[&c] + 1);
                    queue.push_back(n);
                }
            }
        }
        let a = Cell::new(start.0, start.1).unwrap();
        for &end in &cells {
            let b = Cell::new(end.0, end.1).unwrap();
            assert_eq!(distance(start, end), dist[&end], "{start:?} {end:?}");
            assert_eq!(a.distance(b), dist[&end], "{a} {b}");
        }
    }
    assert_eq!(cell("a2").distance(cell("q16")), 16);
    assert_eq!(cell("b1").distance(cell("a2")), 2);
}

fn shape_of(kind: Kind) -> Shape {
    match kind {
        Kind::T => Shape::T,
        Kind::S => Shape::S,
        Kind::C => Shape::C,
        Kind::A => Shape::A,
        Kind::L => Shape::L,
        Kind::R => Shape::R,
    }
}

#[test]
fn placements_match_the_shapes_classified_independently() {
    // The library's placements, as (kind, PÜNCT, sorted minors)...
    let mut lib = BTreeSet::new();
    for kind in Kind::ALL {
        for &p in Cell::all() {
            for o in 0..6 {
                let Some(pl) = Placement::new(kind, p, o) else {
                    continue;
                };
                assert!(o < kind.orientations());
                let [q, a, b] = pl.cells().map(xy);
                assert_eq!(q, xy(p));
                assert_eq!(classify(q, a, b), Some(shape_of(kind)), "{pl:?}");
                assert_eq!(
                    Placement::from_cells(pl.cells()[0], pl.cells()[2], pl.cells()[1]),
                    Some(pl)
                );
                let minors = if a <= b { [a, b] } else { [b, a] };
                assert!(lib.insert((shape_of(kind), q, minors)), "{pl:?} twice");
            }
        }
    }
    // ...are exactly the placements found by classifying every pair of spaces.
    let own: BTreeSet<_> = simple_rules::all_placements().iter().copied().collect();
    assert_eq!(lib, own);
    // On an unbounded board a space has 6 T, 6 S, 3 C, 6 A, 6 L, 6 R placements.
    assert_eq!(Kind::ALL.map(|k| k.orientations()), [6, 6, 3, 6, 6, 6]);
    assert_eq!(Kind::ALL.map(|k| k.count()), [6, 4, 2, 2, 2, 2]);
    let at_centre = own.iter().filter(|(_, p, _)| *p == (8, 8)).count();
    assert_eq!(at_centre, 33);
}

#[test]
fn canonical_minor_order() {
    let show = |kind, p: &str, o| Placement::new(kind, cell(p), o).unwrap().to_string();
    // S, L, R: the path order (middle dot, then far dot), whatever the coordinates.
    assert_eq!(show(Kind::S, "e5", 3), "e5e4e3");
    assert_eq!(show(Kind::L, "e5", 3), "e5e4d3");
    assert_eq!(show(Kind::R, "e5", 3), "e5e4f4");
    // T, C, A: increasing (x, y).
    assert_eq!(show(Kind::C, "e5", 0), "e5e4e6");
    assert_eq!(show(Kind::T, "e5", 3), "e5d4e4");
    assert_eq!(show(Kind::A, "e5", 3), "e5d5e4");
}

/// `{:?}` of a cell is its name (docs/rules.md 6), as `Display`: assertion messages show cells so.
#[test]
fn debug_of_a_cell_is_its_name() {
    assert_eq!(format!("{:?}", cell("i9")), "i9");
    assert_eq!(format!("{:?}", [cell("a2"), cell("q16")]), "[a2, q16]");
    for &c in Cell::all() {
        assert_eq!(format!("{c:?}"), cell_name(xy(c)));
    }
}

/// `rotate(k)` turns a direction `k` steps clockwise (negative: anticlockwise): its vector
/// turned by 60 degrees clockwise `k mod 6` times, which on these axes is `(x, y) -> (y, y - x)`
/// (N `(0, 1)` -> NE `(1, 1)` -> SE `(1, 0)` -> S `(0, -1)`, docs/rules.md 1).
#[test]
fn rotating_a_direction_turns_its_vector_clockwise() {
    for d in Dir::ALL {
        for k in -13i32..=13 {
            let mut v = d.vector();
            for _ in 0..k.rem_euclid(6) {
                v = (v.1, v.1 - v.0);
            }
            assert_eq!(d.rotate(k).vector(), v, "{d:?} rotated by {k}");
        }
        assert_eq!(d.opposite().vector(), (-d.vector().0, -d.vector().1));
    }
    assert_eq!(Dir::N.rotate(1), Dir::NE);
    assert_eq!(Dir::N.rotate(-1), Dir::NW);
    assert_eq!(Dir::SW.rotate(2), Dir::N);
}

/// `punct_in_middle` holds exactly for the kinds whose PÜNCT is the middle dot (C and A,
/// docs/rules.md 2): on every placement the PÜNCT is then adjacent to both minor dots, which are not adjacent
/// to each other.
#[test]
fn the_punct_is_the_middle_dot_of_c_and_a_only() {
    for kind in Kind::ALL {
        assert_eq!(
            kind.punct_in_middle(),
            matches!(kind, Kind::C | Kind::A),
            "{kind:?}"
        );
        for &p in Cell::all() {
            for o in 0..kind.orientations() {
                let Some(pl) = Placement::new(kind, p, o) else {
                    continue;
                };
                let [q, a, b] = pl.cells().map(xy);
                let middle = adjacent(q, a) && adjacent(q, b) && !adjacent(a, b);
                assert_eq!(kind.punct_in_middle(), middle, "{pl:?}");
            }
        }
    }
}

/// `Placement::middle` is the index in `cells()` of the dot adjacent to both others (the middle
/// dot of S, C, A, L, R, docs/rules.md 2); a triangle, its three dots all adjacent, has none.
#[test]
fn the_middle_dot_is_the_one_adjacent_to_both_others() {
    for kind in Kind::ALL {
        for &p in Cell::all() {
            for o in 0..kind.orientations() {
                let Some(pl) = Placement::new(kind, p, o) else {
                    continue;
                };
                let c = pl.cells().map(xy);
                let touching: Vec<usize> = (0..3)
                    .filter(|&i| (0..3).all(|j| j == i || adjacent(c[i], c[j])))
                    .collect();
                let want = match touching[..] {
                    [_, _, _] => None,
                    [i] => Some(i),
                    _ => panic!("{pl:?}: no dot adjacent to both others"),
                };
                assert_eq!(pl.middle(), want, "{pl:?}");
            }
        }
    }
}

/// `{:?}` of a placement is its kind's letter (docs/rules.md 2) and its notation, as in assertion
/// messages: `T:e5d4e4`.
#[test]
fn debug_of_a_placement_names_its_kind_and_cells() {
    let debug = |kind, p: &str, o| format!("{:?}", Placement::new(kind, cell(p), o).unwrap());
    assert_eq!(debug(Kind::T, "e5", 3), "T:e5d4e4");
    assert_eq!(debug(Kind::S, "e5", 3), "S:e5e4e3");
    assert_eq!(debug(Kind::C, "e5", 0), "C:e5e4e6");
    assert_eq!(debug(Kind::A, "e5", 3), "A:e5d5e4");
    assert_eq!(debug(Kind::L, "e5", 3), "L:e5e4d3");
    assert_eq!(debug(Kind::R, "e5", 3), "R:e5e4f4");
}
