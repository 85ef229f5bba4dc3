//! The engine's one-move win and threat detection against the rules library alone: on
//! positions from seeded random games (biased towards shifts, so that stacks and bridges
//! occur), every winning move is found by playing all legal moves, and the engine's answers
//! must agree.

use crate::common;

use common::simple_rules::{self, Xy};
use common::winning_moves;
use punct::engine::search::paths::{
    distance, distance_within, near_paths, path_zone, MAX_DISTANCE,
};
use punct::engine::search::threats::{
    find_win, find_win_cached, root_tactics, threat, threat_cached, threat_is_decisive,
    threat_moves, threat_zone, RootTactics, TouchCache,
};
use punct::rules::position::EndReason;
use punct::{Cell, CellSet, Colour, Move, Position, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Reverse;

/// A random move, a shift 70% of the time when there is one: games then run long and reach
/// shift wins, stacks and bridges.
fn shift_biased_move(p: &Position, rng: &mut Xoshiro256PlusPlus) -> Move {
    let moves = p.legal_moves();
    let shifts: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| matches!(m, Move::Shift { .. }))
        .collect();
    if !shifts.is_empty() && rng.gen_bool(0.7) {
        *shifts.choose(rng).unwrap()
    } else {
        *moves.choose(rng).unwrap()
    }
}
use std::collections::{BTreeMap, BinaryHeap};

/// Every third game of a run is of the basic variant.
fn variant_of_game(game: u32) -> Variant {
    if game % 3 == 2 {
        Variant::Basic
    } else {
        Variant::Standard
    }
}

/// The spaces a move lands on or lifts a piece off.
fn touched(p: &Position, mv: Move) -> Vec<punct::Cell> {
    let mut cells: Vec<_> = mv
        .placement()
        .map(|pl| pl.cells().to_vec())
        .unwrap_or_default();
    if let Move::Shift { from, .. } = mv {
        let id = p.top_piece(from).expect("a shift moves a piece");
        cells.extend(p.piece(id).placement.cells());
    }
    cells
}

/// Checks one position; returns whether the side to move had a win, and one by a shift.
fn check(p: &mut Position) -> (bool, bool) {
    let wins = winning_moves(p);
    let found = find_win(p);
    assert_eq!(
        found.is_some(),
        !wins.is_empty(),
        "{p:?}: found {found:?}, wins {wins:?}"
    );
    if let Some(mv) = found {
        assert!(wins.contains(&mv), "{p:?}: {mv} does not win");
    }
    // The same position seen from the other side: its connecting moves are threats, and
    // every move that stops one must touch the zone, so each one's spaces lie in it.
    let zone = threat_zone(p);
    if !p.is_finished() {
        let decisive = threat_is_decisive(p, &mut TouchCache::default());
        p.make(Move::Pass);
        let them = p.side_to_move();
        let mut threats = Vec::new();
        let mut them_wins = false;
        for mv in p.legal_moves() {
            let cells = touched(p, mv);
            p.make(mv);
            let o = p.outcome();
            them_wins |= o.is_some_and(|o| o.winner == Some(them));
            if o.is_some_and(|o| o.winner == Some(them) && o.reason == EndReason::Connection) {
                threats.push((mv, cells));
            }
            p.unmake();
        }
        p.unmake();
        // Whether the opponent has a winning move at all, by any end of the game.
        assert_eq!(decisive, them_wins, "{p:?}: threat_is_decisive");
        if !threats.is_empty() {
            let zone = zone.unwrap_or_else(|| panic!("{p:?}: threats, no zone"));
            for (mv, cells) in threats {
                assert!(
                    cells.iter().all(|&c| zone.contains(c)),
                    "{p:?}: threat {mv} outside the zone"
                );
            }
        }
    }
    (
        !wins.is_empty(),
        wins.iter().any(|m| matches!(m, Move::Shift { .. })),
    )
}

#[test]
fn one_move_wins_and_threats_agree_with_the_rules() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let (mut positions, mut with_win, mut shift_win) = (0, 0, 0);
    for game in 0..50 {
        let mut p = Position::new(variant_of_game(game));
        while !p.is_finished() {
            positions += 1;
            let (win, by_shift) = check(&mut p);
            with_win += win as u32;
            shift_win += by_shift as u32;
            p.make(shift_biased_move(&p, &mut rng));
        }
    }
    // Enough positions, and enough of them with a win, for the comparison to mean something.
    assert!(
        positions > 1_500 && with_win > 50 && shift_win > 15,
        "{positions} {with_win} {shift_win}"
    );
}

/// What the opponent of the side to move could do with the move (found by passing and playing
/// every move): win by a connection, win by the centre count, or draw by it.
#[derive(Default, Debug)]
struct OpponentEnds {
    connection: bool,
    centre_win: bool,
    centre_draw: bool,
}

fn opponent_ends(p: &mut Position) -> OpponentEnds {
    let mut ends = OpponentEnds::default();
    p.make(Move::Pass);
    let them = p.side_to_move();
    for mv in p.legal_moves() {
        p.make(mv);
        if let Some(o) = p.outcome() {
            match o.reason {
                EndReason::Connection => ends.connection |= o.winner == Some(them),
                EndReason::CentreCount { .. } => {
                    ends.centre_win |= o.winner == Some(them);
                    ends.centre_draw |= o.winner.is_none();
                }
                _ => {}
            }
        }
        p.unmake();
    }
    p.unmake();
    ends
}

/// The standard game's last drop ends it by the centre count (drops never touch the centre, so
/// the count is the one before the drop): with one piece left in the opponent's hand, a count
/// it leads is a decisive threat and a tied count a drawing one; both put the whole centre in
/// the zone, since changing the count is the only defence. Checked against the rules on the
/// positions of seeded random games where the opponent has one piece left.
#[test]
fn last_drop_centre_count_threats_agree_with_the_rules() {
    let centre = punct::rules::geometry::central_cells();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let (mut ties, mut leads, mut behind) = (0, 0, 0);
    for _ in 0..40 {
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() {
            let them = !p.side_to_move();
            if p.hand_total(them) == 1 {
                let ends = opponent_ends(&mut p);
                let t = threat(&p);
                assert_eq!(
                    threat_is_decisive(&p, &mut TouchCache::default()),
                    ends.centre_win || ends.connection,
                    "{p:?}: {ends:?}"
                );
                if ends.centre_win || ends.centre_draw {
                    let t = t.unwrap_or_else(|| panic!("{p:?}: {ends:?}, no threat"));
                    assert!(
                        (centre - t.zone).is_empty(),
                        "{p:?}: centre outside the zone"
                    );
                    assert_eq!(
                        t.decisive,
                        ends.centre_win || ends.connection,
                        "{p:?}: {ends:?}"
                    );
                    ties += u32::from(ends.centre_draw);
                    leads += u32::from(ends.centre_win);
                } else {
                    behind += 1;
                    assert_eq!(t.is_some(), ends.connection, "{p:?}: {ends:?} {t:?}");
                }
            }
            p.make(shift_biased_move(&p, &mut rng));
        }
    }
    // Each case often enough to mean something.
    assert!(
        ties > 20 && leads > 20 && behind > 20,
        "{ties} {leads} {behind}"
    );
}

/// The cost of entering each space for the connection distances, worked out from their
/// definition in `engine::threats` (own dots 0, cheap spaces 1, dear spaces `dear_cost` held to
/// 1..=3, anything else impassable), with the simple model's coordinates and sides.
fn entry_costs(own: CellSet, cheap: CellSet, dear: CellSet, dear_cost: i32) -> BTreeMap<Xy, u32> {
    let mut costs = BTreeMap::new();
    for xy in simple_rules::all_cells() {
        let c = Cell::new(xy.0, xy.1).expect("a board cell");
        let cost = if own.contains(c) {
            0
        } else if cheap.contains(c) {
            1
        } else if dear.contains(c) {
            dear_cost.clamp(1, 3) as u32
        } else {
            continue;
        };
        costs.insert(xy, cost);
    }
    costs
}

/// Whether a space lies on a side.
type OnSide = fn(Xy) -> bool;

/// The two opposite sides of each axis (docs/rules.md 1).
const AXES: [(OnSide, OnSide); 3] = [
    (|c| c.0 == 0, |c| c.0 == 16),
    (|c| c.1 == 0, |c| c.1 == 16),
    (|c| c.0 - c.1 == 8, |c| c.1 - c.0 == 8),
];

/// The cheapest cost of a path from a space of `side` to each space, both ends counted
/// (Dijkstra on space costs).
fn costs_from(side: OnSide, costs: &BTreeMap<Xy, u32>) -> BTreeMap<Xy, u32> {
    let mut best: BTreeMap<Xy, u32> = BTreeMap::new();
    let mut queue = BinaryHeap::new();
    for (&c, &cost) in costs {
        if side(c) {
            queue.push(Reverse((cost, c)));
        }
    }
    while let Some(Reverse((d, c))) = queue.pop() {
        if best.contains_key(&c) {
            continue;
        }
        best.insert(c, d);
        for (dx, dy) in simple_rules::DIRS {
            let n = (c.0 + dx, c.1 + dy);
            if let Some(&cost) = costs.get(&n) {
                if !best.contains_key(&n) {
                    queue.push(Reverse((d + cost, n)));
                }
            }
        }
    }
    best
}

/// The shortest connection distance, and per budget the spaces on a connection of at most that
/// cost (a dear space counted as cost 1 there, as `path_zone` documents), by brute force.
struct Oracle {
    distance: Option<u32>,
    /// Per axis: costs from the first side, from the second, and of entering each space.
    axes: Vec<(BTreeMap<Xy, u32>, BTreeMap<Xy, u32>)>,
    costs: BTreeMap<Xy, u32>,
}

impl Oracle {
    fn new(own: CellSet, cheap: CellSet, dear: CellSet, dear_cost: i32) -> Oracle {
        let costs = entry_costs(own, cheap, dear, dear_cost);
        let axes: Vec<_> = AXES
            .iter()
            .map(|&(a, b)| (costs_from(a, &costs), costs_from(b, &costs)))
            .collect();
        let distance = axes
            .iter()
            .zip(AXES)
            .flat_map(|((from_a, _), (_, b))| {
                from_a.iter().filter(move |(&c, _)| b(c)).map(|(_, &d)| d)
            })
            .min();
        Oracle {
            distance,
            axes,
            costs,
        }
    }

    fn zone(&self, budget: u32) -> CellSet {
        let mut zone = CellSet::EMPTY;
        for (from_a, from_b) in &self.axes {
            for (&c, &cost) in &self.costs {
                let (Some(&i), Some(&j)) = (from_a.get(&c), from_b.get(&c)) else {
                    continue;
                };
                if i + j - cost.min(1) <= budget {
                    zone.insert(Cell::new(c.0, c.1).unwrap());
                }
            }
        }
        zone
    }
}

/// The terrains of a position for both colours (own dots, empty spaces, the opponent's dots), and
/// random ones with impassable holes, where own dots need not sit on the sides.
fn terrains(rng: &mut Xoshiro256PlusPlus) -> Vec<(CellSet, CellSet, CellSet)> {
    let mut out = Vec::new();
    let mut p = Position::new(Variant::Standard);
    while !p.is_finished() && p.ply() < 60 {
        if p.ply() % 6 == 5 {
            for colour in [Colour::White, Colour::Black] {
                out.push((p.top_view(colour), p.empty_cells(), p.top_view(!colour)));
            }
        }
        let moves = p.legal_moves();
        p.make(*moves.choose(rng).unwrap());
    }
    // Every other one confined to the columns a..h (x < 8), which meet neither the east, the
    // north-east nor the south-east side: no connection at all.
    for round in 0..16 {
        let mut sets = [CellSet::EMPTY; 3];
        let density = [rng.gen_range(0.1..0.5), rng.gen_range(0.2..0.6), 0.3];
        for &c in Cell::all() {
            if round % 2 == 1 && c.x() >= 8 {
                continue;
            }
            if let Some(k) = (0..3).find(|&k| rng.gen_bool(density[k])) {
                sets[k].insert(c);
            }
        }
        out.push((sets[0], sets[1], sets[2]));
    }
    out
}

/// `distance`, `distance_within`, `path_zone` and `near_paths` against a brute-force shortest
/// path search over space costs, for every dear cost (those outside 1..=3 are held to it).
#[test]
fn connection_distances_and_path_zones_agree_with_a_shortest_path_search() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let (mut connected, mut cut_off) = (0, 0);
    for (own, cheap, dear) in terrains(&mut rng) {
        for dear_cost in [0, 1, 2, 3, 5] {
            let oracle = Oracle::new(own, cheap, dear, dear_cost);
            let d = distance(own, cheap, dear, dear_cost);
            assert_eq!(
                d,
                oracle.distance.unwrap_or(MAX_DISTANCE + 1),
                "{own:?} {dear_cost}"
            );
            let Some(want) = oracle.distance else {
                cut_off += 1;
                assert_eq!(near_paths(own, cheap, dear, dear_cost, 30, 1), None);
                continue;
            };
            connected += 1;
            for limit in [want.saturating_sub(1), want, want + 1] {
                let got = distance_within(own, cheap, dear, dear_cost, limit);
                assert_eq!(got, if want <= limit { want } else { limit + 1 });
            }
            for budget in [want.saturating_sub(1), want, want + 2] {
                assert_eq!(
                    path_zone(own, cheap, dear, dear_cost, budget),
                    oracle.zone(budget),
                    "{own:?} {cheap:?} {dear:?} {dear_cost} {budget}"
                );
            }
            for (cap, slack) in [(want, 0), (want + 3, 2), (want.saturating_sub(1), 1)] {
                let got = near_paths(own, cheap, dear, dear_cost, cap, slack);
                let expected = (want <= cap).then(|| (want, oracle.zone(want + slack)));
                assert_eq!(got, expected, "{own:?} {dear_cost} {cap} {slack}");
            }
        }
    }
    assert!(connected > 100 && cut_off > 5, "{connected} {cut_off}");
}

/// The mover's own last drop in the standard game: with more central dots than the opponent
/// (drops never touch the centre, so the count after the drop is the count now), every drop
/// wins, and `find_win` must return one even where no connection is to be had. Checked against
/// playing every move on the positions of seeded random games where the mover has one piece
/// left.
#[test]
fn last_drop_centre_count_wins_are_found() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let (mut by_count, mut none) = (0, 0);
    for _ in 0..30 {
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() {
            let us = p.side_to_move();
            if p.hand_total(us) == 1 {
                let wins = winning_moves(&mut p);
                let found = find_win(&p);
                assert_eq!(
                    found.is_some(),
                    !wins.is_empty(),
                    "{p:?}: {found:?} {wins:?}"
                );
                if let Some(mv) = found {
                    assert!(wins.contains(&mv), "{p:?}: {mv} does not win");
                }
                let [w, b] = p.centre_count();
                let (mine, theirs) = if us == Colour::White { (w, b) } else { (b, w) };
                let drops: Vec<Move> = p
                    .legal_moves()
                    .into_iter()
                    .filter(|m| matches!(m, Move::Drop(_)))
                    .collect();
                if mine > theirs && !drops.is_empty() {
                    assert!(drops.iter().all(|m| wins.contains(m)), "{p:?}");
                    by_count += 1;
                } else if wins.is_empty() {
                    none += 1;
                }
            }
            p.make(shift_biased_move(&p, &mut rng));
        }
    }
    assert!(by_count > 20 && none > 20, "{by_count} {none}");
}

/// A `TouchCache` kept over whole games (as the search keeps one) gives the answers of a fresh
/// computation: a slot holding another top view is never taken for this one.
#[test]
fn cached_wins_and_threats_are_those_computed_afresh() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let (mut win_cache, mut threat_cache) = (TouchCache::default(), TouchCache::default());
    let (mut positions, mut wins, mut threats) = (0, 0, 0);
    for game in 0..30 {
        let mut p = Position::new(variant_of_game(game));
        while !p.is_finished() {
            positions += 1;
            let win = find_win(&p);
            assert_eq!(find_win_cached(&p, &mut win_cache), win, "{p:?}");
            let t = threat(&p);
            assert_eq!(threat_cached(&p, &mut threat_cache), t, "{p:?}");
            assert_eq!(
                threat_is_decisive(&p, &mut threat_cache),
                t.is_some_and(|t| t.decisive),
                "{p:?}"
            );
            wins += u32::from(win.is_some());
            threats += u32::from(t.is_some());
            let moves = p.legal_moves();
            p.make(*moves.choose(&mut rng).unwrap());
        }
    }
    assert!(
        positions > 1_000 && wins > 20 && threats > 20,
        "{positions} {wins} {threats}"
    );
}

/// White to move joins west and east by one drop (`p12q12q13` and others); Black to move faces
/// that threat.
const WEST_EAST: &str = "Wa5b5c5/Wd5e5f5/Be10e11e12/Wg5h5i5/Bg11g12g13/Bi13i14i15/Wj6k7l8/Bk14k13k15/Bm13m14m15/Wn10m9o11 w 10";

/// `root_tactics` over a restricted move list (`searchmoves`): a win among the allowed moves is
/// found by playing them even when `find_win` names another; with no move allowed, or once the
/// game is over, there is nothing to decide.
#[test]
fn root_tactics_on_restricted_and_empty_move_lists() {
    let mut p = punct::parse_position(WEST_EAST, Variant::Standard).unwrap();
    let wins = winning_moves(&mut p);
    assert!(wins.len() >= 2, "{wins:?}");
    let first = find_win(&p).expect("White has a win");
    for &w in wins.iter().filter(|&&w| w != first) {
        assert_eq!(root_tactics(&mut p, &[w]), RootTactics::Win(w));
    }
    assert_eq!(root_tactics(&mut p, &[]), RootTactics::Open);
    // Black to move against the threat, with nothing allowed.
    let mut q =
        punct::parse_position(&WEST_EAST.replace(" w 10", " b 11"), Variant::Standard).unwrap();
    assert!(threat(&q).is_some_and(|t| t.decisive));
    assert_eq!(root_tactics(&mut q, &[]), RootTactics::Open);
    // The game over: no move to play, whatever list is given.
    let legal = p.legal_moves();
    p.make(first);
    assert!(p.is_finished());
    assert_eq!(root_tactics(&mut p, &legal), RootTactics::Open);
}

/// Whether after `mv` the mover, were it to move again, could win with one move (found by
/// playing every move); a move that ends the game threatens nothing.
fn threatens(p: &mut Position, mv: Move) -> bool {
    p.make(mv);
    let mut threat = false;
    if p.outcome().is_none() {
        p.make(Move::Pass);
        threat = p.outcome().is_none() && !winning_moves(p).is_empty();
        p.unmake();
    }
    p.unmake();
    threat
}

#[test]
fn threatening_moves_agree_with_the_rules() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(77);
    let mut cache = TouchCache::default();
    let (mut positions, mut threats, mut checked) = (0, 0, 0);
    for game in 0..12 {
        let mut p = Position::new(variant_of_game(game));
        while !p.is_finished() {
            // Late positions, where threats occur, and a sample of the early ones.
            if rng.gen_bool(if p.ply() >= 20 { 0.12 } else { 0.02 }) {
                positions += 1;
                let moves = p.legal_moves();
                let mut found = Vec::new();
                assert!(threat_moves(
                    &mut p,
                    &moves,
                    &mut cache,
                    &mut found,
                    &mut || false
                ));
                for &mv in found.choose_multiple(&mut rng, 4) {
                    assert!(threatens(&mut p, mv), "{} {mv}", p);
                }
                threats += found.len();
                // Every other move is checked on a sample (each costs a full move list).
                for &mv in moves.choose_multiple(&mut rng, 6) {
                    if !found.contains(&mv) {
                        checked += 1;
                        assert!(!threatens(&mut p, mv), "missed {mv} in {}", p);
                    }
                }
            }
            p.make(shift_biased_move(&p, &mut rng));
        }
    }
    eprintln!("{positions} positions, {threats} threatening moves, {checked} others checked");
    assert!(
        positions > 150 && threats > 1_000 && checked > 800,
        "{positions} {threats} {checked}"
    );
}
