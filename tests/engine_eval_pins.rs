//! The evaluation pinned term by term on hand-built positions whose values are worked out by
//! hand below (which pieces, which counts, which weights), not by the evaluation's own helpers:
//! a change to any term's count, to the game phase or to how the phase mixes the early and
//! late weights changes one of these numbers.
//!
//! Coordinates: a space `(x, y)` is named by the column letter `a`.. for `x = 0..` and the row
//! `y + 1` (docs/rules.md section 1); the central hexagon is the 19 spaces within distance 2 of
//! `i9 = (8, 8)`. A space lies on a straight line through the central hexagon when it shares
//! `x` (N-S lines), `y` (SE-NW lines) or `x - y` (NE-SW lines) with a central space:
//! `x` in 6..=10, `y` in 6..=10 or `x - y` in -2..=2.
//!
//! The default weights used (src/engine/search/params.rs): PathWeight 47, PathNearWeight 1,
//! CoverWeight -18, CentreReachLate 36, CentreEarly 6, CentreLate 143, HandWeight -75,
//! Tempo 134, MobilityEarly 93, MobilityLate 80; every other evaluation weight 0. The phase is
//! `played² × 256 / 17²` (integer division) with `played = 18 - max(1, fewest pieces in
//! hand)`; a weight `W` mixed by the phase is `early + (late - early) × phase / 256`, a late
//! term is `weight × count × phase / 256`, both with Rust's division (towards zero).

use punct::engine::search::evaluate::{centre_phase, evaluate, trace};
use punct::engine::search::params::Params;
use punct::{parse_position, Position, Variant};

fn pos(text: &str, variant: Variant) -> Position {
    parse_position(text, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Every term of the trace, by name, with `0` for the terms not listed.
fn assert_terms(p: &Position, params: &Params, want: &[(&str, i32)], total: i32) {
    let got = trace(p, params);
    for (name, value) in &got {
        let expected = want.iter().find(|(n, _)| n == name).map_or(0, |(_, v)| *v);
        assert_eq!(*value, expected, "term {name} of {p}: {got:?}");
    }
    for (name, _) in want {
        assert!(got.iter().any(|(n, _)| n == name), "no term {name}");
    }
    assert_eq!(evaluate(p, params), total, "{p}");
    assert_eq!(got.iter().map(|(_, v)| v).sum::<i32>(), total);
}

/// Four White S pieces along a 17-space path from the south-west side to the north-east side,
/// one Black triangle on the east side.
///
/// The path: c1 (2,0) north to c7 (2,6), then north-east d8 (3,7), e9, f10, g11, h12, i13,
/// j14, k15, l16 to m17 (12,16): 7 + 10 = 17 spaces, 16 steps, the least between two opposite
/// sides. White covers c1 c2 c3, c4 c5 c6, d8 e9 f10, g11 h12 i13: 12 of them, so 5 empty
/// spaces are left (c7, j14, k15, l16, m17). No path does better: every connecting path has at
/// least 17 spaces and this one holds all 12 White dots. White's distance is 5.
///
/// Black's triangle q13 (16,12), q12 (16,11), p12 (15,11) touches the east side. A west-east
/// path of 17 spaces steps west once per space; from q12 north-west to p12, then 13 steps
/// south-west/north-west to c7 (2,6) (the gap of White's wall), b7 and a7 on the west side:
/// 17 spaces with 2 Black dots, 15 empty. It cannot hold all three Black dots (q13 and q12
/// share x = 16), and no other side pair does better. Black's distance is 15.
const PATH: &str = "Wc1c2c3/Wc4c5c6/Wd8e9f10/Wg11h12i13/Bq13p12q12 w 5";

#[test]
fn path_near_mobility_hand_and_reach_of_a_wall_against_one_triangle() {
    let p = pos(PATH, Variant::Standard);
    // Hands: White 18 - 4 = 14, Black 18 - 1 = 17. played = 18 - 14 = 4,
    // phase = 16 × 256 / 289 = 4096 / 289 = 14.
    assert_eq!(p.hand_total(punct::Colour::White), 14);
    assert_eq!(centre_phase(&p), 14);
    // path: (15 - 5) × 47 = 470.
    // near_path: NEAR is 6: (6 - 5) - max(0, 6 - 15) = 1, × 1 = 1.
    // mobility: nothing is stacked: White 4 free pieces, Black 1: 3 × (93 + (80 - 93) × 14 /
    //   256) = 3 × (93 + (-182 / 256 = 0)) = 279.
    // hand: (14 - 17) × -75 = 225.
    // centre_reach: White's PÜNCTs c1 (2,0) x-y = 2, c4 (2,3) x-y = -1, d8 (3,7) y = 7,
    //   g11 (6,10) x = 6: all four on a line through the centre and outside it; Black's q13
    //   (16,12): x-y = 4, none. (4 - 0) × 36 × 14 / 256 = 2016 / 256 = 7.
    // cover: no White dot is next to a Black one: 0. centre: no dot in the centre: 0.
    // total: 470 + 1 + 279 + 225 + 7 + 134 = 1116.
    let d = Params::default();
    assert_terms(
        &p,
        &d,
        &[
            ("path", 470),
            ("near_path", 1),
            ("mobility", 279),
            ("hand", 225),
            ("centre_reach", 7),
            ("tempo", 134),
        ],
        1116,
    );
    // The same position with Black to move: every difference changes sign, tempo stays:
    // -470 - 1 - 279 - 225 - 7 + 134 = -848.
    let b = pos(&PATH.replace(" w ", " b "), Variant::Standard);
    assert_terms(
        &b,
        &d,
        &[
            ("path", -470),
            ("near_path", -1),
            ("mobility", -279),
            ("hand", -225),
            ("centre_reach", -7),
            ("tempo", 134),
        ],
        -848,
    );
}

#[test]
fn pieces_and_bridging_in_hand_when_weighted() {
    let p = pos(PATH, Variant::Standard);
    let mut params = Params::default();
    params.set("PiecesWeight", 10).unwrap();
    params.set("BridgingLate", 64).unwrap();
    let terms = trace(&p, &params);
    let term = |name: &str| terms.iter().find(|t| t.0 == name).unwrap().1;
    // Pieces over the best axis, a third of the spaces rounded up: Black 15 -> 5, White
    // 5 -> 2: (5 - 2) × 10 = 30.
    assert_eq!(term("pieces"), 30);
    // Bridging pieces in hand (all but triangles): White has played its 4 S, keeps C 2, A 2,
    // L 2, R 2 = 8; Black played a triangle, keeps S 4 + 8 = 12. (8 - 12) × 64 × 14 / 256 =
    // -3584 / 256 = -14.
    assert_eq!(term("bridging_in_hand"), -14);
}

/// A White S on c5 c6 c7 and a Black triangle c8 d8 d9 touching it at c7.
///
/// c7 (2,6) has two Black neighbours: c8 (2,7) (north) and d8 (3,7) (north-east); c5, c6 have
/// none. d9 (3,8) touches no White dot. So one White dot is next to Black ones, and two Black
/// dots are next to a White one.
const COVER: &str = "Wc5c6c7/Bc8d8d9 w 2";

#[test]
fn cover_counts_each_dot_next_to_the_other_colour_once() {
    let p = pos(COVER, Variant::Standard);
    // cover (White to move): Black dots White could cover (2) minus White dots Black could
    // cover (1) = 1, × -18 = -18.
    // path: White's c5 c6 c7 lie on the 17-space path c1..c7 then d8..m17 (as in PATH): 14.
    //   Black's best 17-space path holds two of its dots (c8 and d8 share y = 7 and x - y of c8
    //   and d9 is -5 for both, d8 and d9 share x = 3, so no axis takes all three): 15.
    //   (15 - 14) × 47 = 47.
    // mobility: 1 - 1 = 0; hand 17 - 17 = 0; phase: played 1, 256 / 289 = 0.
    // total: 47 - 18 + 134 = 163.
    assert_eq!(centre_phase(&p), 0);
    let d = Params::default();
    assert_terms(&p, &d, &[("path", 47), ("cover", -18), ("tempo", 134)], 163);
    let b = pos(&COVER.replace(" w ", " b "), Variant::Standard);
    assert_terms(&b, &d, &[("path", -47), ("cover", 18), ("tempo", 134)], 105);
}

/// Six pieces a side, far apart, no White dot next to a Black one:
/// - White triangle i9 i10 j10: all three in the central hexagon (i10, j10 at distance 1).
/// - White S c5 c6 c7 twice, the second on top of the first (level 1): the lower one is
///   blocked; the upper one's PÜNCT c5 (2,4) has x - y = -2, on a line through the centre.
/// - White triangles d1 d2 e2 (PÜNCT (3,0)), l4 l5 m5 ((11,3)), a4 a5 b5 ((0,3)): x, y and
///   x - y all off the central ranges (3,0,3; 11,3,8; 0,3,-3).
/// - Black triangles i3 i4 j4 (PÜNCT (8,2): x = 8, on a line) and o9 o10 p10 ((14,8): y = 8, on
///   a line); n17 n16 o17 ((13,16): -3), e13 d12 e12 ((4,12): -8), q13 p12 q12 ((16,12): 4),
///   m17 l16 m16 ((12,16): -4): off the lines.
const MIDGAME: &str = "Wi9i10j10/Wc5c6c7/Wc5c6c7/Wd1d2e2/Wl4l5m5/Wa4a5b5/\
    Bi3i4j4/Bo9o10p10/Bn17n16o17/Be13d12e12/Bq13p12q12/Bm17l16m16 w 12";

/// The default weights without the connection-distance terms.
fn no_paths() -> Params {
    let mut p = Params::default();
    p.set("PathWeight", 0).unwrap();
    p.set("PathNearWeight", 0).unwrap();
    p
}

#[test]
fn phase_centre_mobility_and_reach_in_the_middle_game() {
    let p = pos(MIDGAME, Variant::Standard);
    // Hands 12 and 12: played = 6, phase = 36 × 256 / 289 = 9216 / 289 = 31.
    assert_eq!(centre_phase(&p), 31);
    // Weights at phase 31: mobility 93 + (-13 × 31 = -403) / 256 = 93 - 1 = 92;
    // centre 6 + (137 × 31 = 4247) / 256 = 6 + 16 = 22.
    // mobility: White's free pieces 5 (the lower c5 S is blocked), Black's 6: -1 × 92 = -92.
    // centre: top dots in the central hexagon, White 3 (i9 i10 j10), Black 0: 3 × 22 = 66.
    // centre_reach: free pieces outside the centre on a line through it: White 1 (the upper
    //   c5 S; the lower one is blocked, the i9 triangle is inside), Black 2 (i3, o9):
    //   -1 × 36 × 31 / 256 = -1116 / 256 = -4.
    // hand: 12 - 12 = 0. cover: no contact, 0. The connection distances are left out
    // (PathWeight and PathNearWeight 0): the other tests pin them.
    // total: -92 + 66 - 4 + 134 = 104.
    let d = no_paths();
    assert_terms(
        &p,
        &d,
        &[
            ("mobility", -92),
            ("centre", 66),
            ("centre_reach", -4),
            ("tempo", 134),
        ],
        104,
    );
    // Black to move: mobility +92, centre -66, centre_reach 36 × 31 / 256 = 4:
    // 92 - 66 + 4 + 134 = 164.
    let b = pos(&MIDGAME.replace(" w ", " b "), Variant::Standard);
    assert_terms(
        &b,
        &d,
        &[
            ("mobility", 92),
            ("centre", -66),
            ("centre_reach", 4),
            ("tempo", 134),
        ],
        164,
    );
}

#[test]
fn the_basic_game_has_no_phase_and_no_reach() {
    // The same pieces in the basic game: no centre race, phase 0, so the mixed weights are
    // the early ones: mobility -1 × 93, centre 3 × 6 = 18; centre_reach 0.
    // total: -93 + 18 + 134 = 59.
    let p = pos(MIDGAME, Variant::Basic);
    assert_eq!(centre_phase(&p), 0);
    assert_terms(
        &p,
        &no_paths(),
        &[("mobility", -93), ("centre", 18), ("tempo", 134)],
        59,
    );
}

#[test]
fn the_phase_grows_with_the_square_of_the_pieces_played() {
    // played = 18 - max(1, fewest in hand); phase = played² × 256 / 289.
    // Start: played 0 -> 0. One White piece: fewest 17, played 1 -> 256 / 289 = 0.
    // Two each: played 2 -> 1024 / 289 = 3. Three White, two Black: the fewer in hand is
    // White's 15, played 3 -> 2304 / 289 = 7 (the side further on counts). Three each: 7.
    for (text, phase) in [
        ("- w 0", 0),
        ("Wa4a5b5 b 1", 0),
        ("Wa4a5b5/Wd1d2e2/Bq13p12q12/Bm17l16m16 w 4", 3),
        ("Wa4a5b5/Wd1d2e2/Wl4l5m5/Bq13p12q12/Bm17l16m16 b 5", 7),
        (
            "Wa4a5b5/Wd1d2e2/Wl4l5m5/Bq13p12q12/Bm17l16m16/Bn17n16o17 w 6",
            7,
        ),
    ] {
        assert_eq!(centre_phase(&pos(text, Variant::Standard)), phase, "{text}");
    }
}

#[test]
fn centre_cover_counts_contacts_in_the_centre_late() {
    // MIDGAME and a Black S k11 k10 k9 in the central hexagon (all three at distance 2 of i9),
    // White to move at ply 13.
    let p = pos(
        &MIDGAME.replace(" w 12", "/Bk11k10k9 w 13"),
        Variant::Standard,
    );
    // Hands: White 12, Black 11: played 7, phase 49 × 256 / 289 = 12544 / 289 = 43.
    assert_eq!(centre_phase(&p), 43);
    // Contacts: White's j10 (9,9) has the Black neighbours k11 (10,10) and k10 (10,9); i9 and
    // i10 have none. Black's k11 and k10 touch j10; k9 (10,8) touches no White dot.
    // cover: 2 - 1 = 1, × -18 = -18. All of them central: centre_cover 1, with
    //   CentreCoverLate 100: 100 × 43 / 256 = 16.
    // mobility: White 5 free pieces, Black 7: -2 × (93 + (-13 × 43 = -559) / 256 = 91) = -182.
    // centre: White 3 top dots in the centre, Black 3: 0.
    // centre_reach: the S's PÜNCT k11 is inside the centre: still White 1, Black 2:
    //   -36 × 43 / 256 = -1548 / 256 = -6.
    // hand: (12 - 11) × -75 = -75.
    // total: -18 + 16 - 182 - 6 - 75 + 134 = -131.
    let mut params = no_paths();
    params.set("CentreCoverLate", 100).unwrap();
    assert_terms(
        &p,
        &params,
        &[
            ("cover", -18),
            ("centre_cover", 16),
            ("mobility", -182),
            ("centre_reach", -6),
            ("hand", -75),
            ("tempo", 134),
        ],
        -131,
    );
}

#[test]
fn threats_count_the_axes_within_one_piece() {
    // PATH with a White C k15 (PÜNCT) l16 j14 on the path, Black to move: White's best path
    // has 2 empty spaces left (c7, m17): within one piece (3). White's other axes are far:
    // a west-east path needs a space in each column, and columns a, b (x = 0, 1) and m..q
    // (x = 12..16) hold no White dot: at least 7; a north-west to south-east path needs a
    // space for each x - y from -8 to 8, and White's dots only have x - y in -4..=2: at least
    // 10. Black's best is 15 (as in PATH), its other axes no shorter.
    // threat_own (Black) 0 axes, threat_opp (White) 1 axis.
    let p = pos(
        "Wc1c2c3/Wc4c5c6/Wd8e9f10/Wg11h12i13/Wk15l16j14/Bq13p12q12 b 6",
        Variant::Standard,
    );
    let mut params = Params::default();
    params.set("ThreatOwn", 1000).unwrap();
    params.set("ThreatOpp", 7).unwrap();
    let terms = trace(&p, &params);
    let term = |name: &str| terms.iter().find(|t| t.0 == name).unwrap().1;
    assert_eq!(term("threat_own"), 0);
    assert_eq!(term("threat_opp"), 7);
    // The path terms of the same count: (2 - 15) × 47 = -611; near: 0 - (6 - 2) = -4.
    assert_eq!(term("path"), -611);
    assert_eq!(term("near_path"), -4);
    // White to move: its own axis counts.
    let w = pos(
        "Wc1c2c3/Wc4c5c6/Wd8e9f10/Wg11h12i13/Wk15l16j14/Bq13p12q12 w 6",
        Variant::Standard,
    );
    let terms = trace(&w, &params);
    let term = |name: &str| terms.iter().find(|t| t.0 == name).unwrap().1;
    assert_eq!(term("threat_own"), 1000);
    assert_eq!(term("threat_opp"), 0);
}
