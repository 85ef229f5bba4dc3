//! Static evaluation, from the side to move's point of view: connection distances of both
//! players (in spaces, in pieces, over one or two axes), near-connections, contact where dots
//! can be covered, the centre race of the standard game, pieces in hand and the move.
//!
//! Every term is a raw feature (a count, a difference or a phase-scaled count) times one weight
//! of `params!`, so that `evaluate`, the `eval` trace and the Texel tuner's linear form are the
//! same sum.

use crate::engine::search::params::Params;
use crate::engine::search::paths::{distance_within, two_axes_within};
use crate::rules::geometry::{central_cells, central_lines};
use crate::rules::piece::Kind;
use crate::rules::position::{Position, Variant, PIECES_PER_PLAYER};
use crate::CellSet;

/// Distances beyond this are all the same to the evaluation (and cost nothing more to find).
const DISTANCE_CAP: u32 = 40;
/// Below this own distance each space counts extra: short paths become threats.
const NEAR: i32 = 6;
/// One piece covers up to three spaces: a connection this close is one move away.
const ONE_PIECE: u32 = 3;

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position, params: &Params) -> i32 {
    terms(pos, params).iter().map(|(_, v)| v).sum()
}

/// The evaluation broken into named terms (side to move's point of view).
pub fn trace(pos: &Position, params: &Params) -> Vec<(&'static str, i32)> {
    terms(pos, params).to_vec()
}

/// The evaluation as a linear form in the evaluation weights: `evaluate(pos) ≈ Σ coef × weight`
/// over the returned `(index in params::specs(), coef)` pairs, up to integer rounding. Weights
/// that enter non-linearly (`OppCoverCost`, which shapes the distances) are held at their value
/// in `params` and never appear. This is what a Texel tuner fits without re-running the search.
pub fn features(pos: &Position, params: &Params) -> Vec<(usize, f32)> {
    let r = Raw::new(pos, params, true);
    let late = r.phase as f32 / 256.0;
    let coefs = [
        ("MobilityEarly", r.mobility as f32 * (1.0 - late)),
        ("MobilityLate", r.mobility as f32 * late),
        ("PathWeight", r.path as f32),
        ("PathNearWeight", r.near as f32),
        ("SecondPathWeight", r.second_path as f32),
        ("PiecesWeight", r.pieces as f32),
        ("ThreatOwn", r.threat_own as f32),
        ("ThreatOpp", r.threat_opp as f32),
        ("CoverWeight", r.cover as f32),
        ("CentreCoverLate", r.centre_cover as f32 * late),
        ("CentreReachLate", r.centre_reach as f32 * late),
        ("BridgingLate", r.bridging as f32 * late),
        ("CentreEarly", r.centre as f32 * (1.0 - late)),
        ("CentreLate", r.centre as f32 * late),
        ("HandWeight", r.hand as f32),
        ("Tempo", 1.0),
    ];
    coefs
        .iter()
        .filter(|(_, c)| *c != 0.0)
        .map(|(name, c)| (param_index(name), *c))
        .collect()
}

fn param_index(name: &str) -> usize {
    crate::engine::search::params::specs()
        .iter()
        .position(|s| s.name == name)
        .expect("a feature names a tunable")
}

/// The raw value of every term, side to move's minus the opponent's unless named otherwise.
struct Raw {
    /// Connection distance in spaces over the best axis, opponent's minus own.
    path: i32,
    /// How far each player's distance is below [`NEAR`], own minus opponent's.
    near: i32,
    /// The distance over the second-best axis, opponent's minus own (0 when not computed).
    second_path: i32,
    /// Pieces needed over the best axis (a third of the spaces, rounded up), opponent's
    /// minus own.
    pieces: i32,
    /// Axes (of the best two) within one piece of a connection: the side to move's, and the
    /// opponent's (0 when not computed).
    threat_own: i32,
    threat_opp: i32,
    /// Opponent's top dots next to own top dots (what own stacking moves could cover), minus
    /// the same for the opponent.
    cover: i32,
    /// The same within the central hexagon (standard game only).
    centre_cover: i32,
    bridging: i32,
    centre: i32,
    hand: i32,
    mobility: i32,
    /// Unblocked pieces outside the central hexagon on a straight line through it (the
    /// standard game's centre count can still gain them).
    centre_reach: i32,
    /// How near the last drop is, 0..=256.
    phase: i32,
}

impl Raw {
    /// `full`: compute every term, also those whose weight in `params` is 0 (for the tuner).
    fn new(pos: &Position, params: &Params, full: bool) -> Raw {
        let us = pos.side_to_move();
        // The second-best axis costs a second search of the board: only when it counts.
        let second = full
            || params.second_path_weight != 0
            || params.threat_own != 0
            || params.threat_opp != 0;
        let [[d_us, s_us], [d_them, s_them]] = paths(pos, params, second);
        let within = |d: u32, s: u32| (d <= ONE_PIECE) as i32 + (second && s <= ONE_PIECE) as i32;
        let pieces = |d: u32| d.div_ceil(ONE_PIECE) as i32;
        let (d_us_i, d_them_i) = (d_us as i32, d_them as i32);
        let [own, opp] = [pos.top_view(us), pos.top_view(!us)];
        let centre_cells = match pos.variant() {
            Variant::Standard => central_cells(),
            Variant::Basic => CellSet::EMPTY,
        };
        let (cover, centre_cover) =
            if full || params.cover_weight != 0 || params.centre_cover_late != 0 {
                let ours = opp & own.expand();
                let theirs = own & opp.expand();
                (
                    ours.len() as i32 - theirs.len() as i32,
                    (ours & centre_cells).len() as i32 - (theirs & centre_cells).len() as i32,
                )
            } else {
                (0, 0)
            };
        let [w, b] = pos.centre_count();
        let centre = if us == crate::Colour::White {
            w as i32 - b as i32
        } else {
            b as i32 - w as i32
        };
        let [br_us, br_them] = bridging_in_hand(pos);
        let [[m_us, m_them], [reach_us, reach_them]] = movable_and_reaching(pos);
        Raw {
            path: d_them_i - d_us_i,
            near: (NEAR - d_us_i).max(0) - (NEAR - d_them_i).max(0),
            second_path: if second {
                s_them as i32 - s_us as i32
            } else {
                0
            },
            pieces: pieces(d_them) - pieces(d_us),
            threat_own: within(d_us, s_us),
            threat_opp: within(d_them, s_them),
            cover,
            centre_cover,
            bridging: br_us - br_them,
            centre,
            hand: pos.hand_total(us) as i32 - pos.hand_total(!us) as i32,
            mobility: m_us - m_them,
            centre_reach: if pos.variant() == Variant::Standard {
                reach_us - reach_them
            } else {
                0
            },
            phase: centre_phase(pos),
        }
    }
}

/// Connection distance of each player: `[side to move, opponent]`.
pub fn distances(pos: &Position, params: &Params) -> [u32; 2] {
    paths(pos, params, false).map(|[best, _]| best)
}

/// Per player (`[side to move, opponent]`), the connection distances over its best axis and,
/// when `second` (else 0), over its second-best one; capped at [`DISTANCE_CAP`].
fn paths(pos: &Position, params: &Params, second: bool) -> [[u32; 2]; 2] {
    let us = pos.side_to_move();
    let empty = pos.empty_cells();
    [us, !us].map(|c| {
        let (own, opp) = (pos.top_view(c), pos.top_view(!c));
        let cost = params.opp_cover_cost;
        let d = if second {
            two_axes_within(own, empty, opp, cost, DISTANCE_CAP)
        } else {
            [distance_within(own, empty, opp, cost, DISTANCE_CAP), 0]
        };
        d.map(|d| d.min(DISTANCE_CAP))
    })
}

/// Pieces in hand that can bridge (every kind but the triangle): `[side to move, opponent]`.
fn bridging_in_hand(pos: &Position) -> [i32; 2] {
    let us = pos.side_to_move();
    [us, !us].map(|c| {
        (Kind::ALL.iter())
            .filter(|&&k| k != Kind::T)
            .map(|&k| pos.in_hand(c, k) as i32)
            .sum()
    })
}

/// How far the game is towards a last drop, 0..=256 (standard game only).
pub fn centre_phase(pos: &Position) -> i32 {
    if pos.variant() != Variant::Standard {
        return 0;
    }
    let fewest = pos
        .hand_total(crate::Colour::White)
        .min(pos.hand_total(crate::Colour::Black));
    let played = (PIECES_PER_PLAYER - fewest.max(1)) as i32; // 0..=17
    played * played * 256 / (17 * 17)
}

/// Unblocked pieces on the board: `[side to move, opponent]`.
pub fn movable(pos: &Position) -> [i32; 2] {
    movable_and_reaching(pos)[0]
}

/// Unblocked pieces on the board, and of those the ones outside the central hexagon whose
/// PÜNCT lies on a straight line through it (one move can take them in): each
/// `[side to move, opponent]`.
fn movable_and_reaching(pos: &Position) -> [[i32; 2]; 2] {
    let us = pos.side_to_move();
    let (centre, lines) = (central_cells(), central_lines());
    let mut n = [[0, 0]; 2];
    for (id, piece) in pos.pieces() {
        if !pos.is_blocked(id) {
            let side = (piece.colour != us) as usize;
            n[0][side] += 1;
            let cells = piece.placement.cells();
            let outside = !cells.iter().any(|&c| centre.contains(c));
            n[1][side] += (outside && lines.contains(piece.placement.punct())) as i32;
        }
    }
    n
}

fn terms(pos: &Position, params: &Params) -> [(&'static str, i32); 14] {
    let r = Raw::new(pos, params, false);
    let late = |weight: i32| weight * r.phase / 256;
    let between = |early: i32, late: i32| early + (late - early) * r.phase / 256;
    [
        ("path", params.path_weight * r.path),
        ("second_path", params.second_path_weight * r.second_path),
        ("pieces", params.pieces_weight * r.pieces),
        ("threat_own", params.threat_own * r.threat_own),
        ("threat_opp", params.threat_opp * r.threat_opp),
        ("cover", params.cover_weight * r.cover),
        (
            "centre_cover",
            late(params.centre_cover_late * r.centre_cover),
        ),
        (
            "centre_reach",
            late(params.centre_reach_late * r.centre_reach),
        ),
        ("bridging_in_hand", late(params.bridging_late * r.bridging)),
        (
            "mobility",
            r.mobility * between(params.mobility_early, params.mobility_late),
        ),
        ("near_path", params.path_near_weight * r.near),
        (
            "centre",
            r.centre * between(params.centre_early, params.centre_late),
        ),
        ("hand", r.hand * params.hand_weight),
        ("tempo", params.tempo),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_position;

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let p = Params::default();
        let pos = Position::new(Variant::Standard);
        assert_eq!(evaluate(&pos, &p), p.tempo);
        assert_eq!(
            trace(&pos, &p).iter().map(|t| t.1).sum::<i32>(),
            evaluate(&pos, &p)
        );
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        let p = Params::default();
        for text in [
            "- w 0",
            "Wc5c6c7 b 1",
            "Wc5c6c7/Bf5f6f7 w 2",
            "Wi9i10j10/Bj9k9k10 w 2",
        ] {
            let pos = parse_position(text, Variant::Standard).unwrap();
            let linear: f32 = features(&pos, &p)
                .iter()
                .map(|&(i, c)| {
                    c * p
                        .get(crate::engine::search::params::specs()[i].name)
                        .unwrap() as f32
                })
                .sum();
            assert!((linear - evaluate(&pos, &p) as f32).abs() <= 1.0, "{text}");
        }
    }

    #[test]
    fn features_reproduce_the_evaluation_up_to_the_last_drop() {
        // Every term non-zero, through whole random games: the late-phase terms only weigh
        // once the hands run low.
        use rand::{Rng, SeedableRng};
        let mut p = Params::default();
        for (name, v) in [
            ("SecondPathWeight", 7),
            ("BridgingLate", 11),
            ("PiecesWeight", 13),
            ("ThreatOwn", 17),
            ("ThreatOpp", -19),
            ("CoverWeight", -5),
            ("CentreCoverLate", 23),
            ("CentreReachLate", 29),
        ] {
            p.set(name, v).unwrap();
        }
        let specs = crate::engine::search::params::specs();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut late = 0;
        for _ in 0..6 {
            let mut pos = Position::new(Variant::Standard);
            while !pos.is_finished() {
                let linear: f32 = features(&pos, &p)
                    .iter()
                    .map(|&(i, c)| c * p.get(specs[i].name).unwrap() as f32)
                    .sum();
                // One unit of rounding per term that scales by the phase.
                let [m_us, m_them] = movable(&pos);
                let [w, b] = pos.centre_count();
                // Weights interpolated by the phase are rounded once, then multiplied.
                let slack = 5 + (m_us - m_them).abs() + (w as i32 - b as i32).abs();
                let diff = (linear - evaluate(&pos, &p) as f32).abs();
                assert!(diff <= slack as f32, "{diff} > {slack}");
                late += (centre_phase(&pos) > 128) as usize;
                let moves = pos.legal_moves();
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(late > 20, "{late}");
    }

    #[test]
    fn a_straight_piece_shortens_a_path_by_three() {
        let p = Params::default();
        let pos = parse_position("Wc5c6c7 b 1", Variant::Standard).unwrap();
        // Black to move: [black, white]. A column of 3 lies on a 17-space SW-NE path.
        assert_eq!(distances(&pos, &p), [17, 14]);
        // In pieces (a third of the spaces, rounded up): 6 for Black, 5 for White.
        let mut q = p.clone();
        q.set("PiecesWeight", 10).unwrap();
        assert_eq!(term(&pos, &q, "pieces"), -10);
        assert!(evaluate(&pos, &p) < 0);
    }

    /// Random positions of both variants, shifts and stacks included.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        for g in 0..games {
            let variant = [Variant::Standard, Variant::Basic][g % 2];
            let mut pos = Position::new(variant);
            while !pos.is_finished() {
                out.push(pos.clone());
                let moves = pos.legal_moves();
                pos.make(moves[rng.gen_range(0..moves.len())]);
            }
        }
        out
    }

    fn term(pos: &Position, p: &Params, name: &str) -> i32 {
        trace(pos, p).iter().find(|t| t.0 == name).unwrap().1
    }

    #[test]
    fn cover_counts_dots_next_to_the_other_colour_space_by_space() {
        use crate::rules::geometry::{Cell, Dir};
        let mut p = Params::default();
        p.set("CoverWeight", 1).unwrap();
        p.set("CentreCoverLate", 256).unwrap();
        let mut seen = 0;
        for pos in random_positions(21, 6) {
            let us = pos.side_to_move();
            // A top dot of `colour` with a top dot of the other colour beside it.
            let exposed = |colour, centre_only: bool| {
                (Cell::all().iter())
                    .filter(|&&c| pos.top_colour(c) == Some(colour))
                    .filter(|&&c| !centre_only || c.is_central())
                    .filter(|&&c| {
                        (Dir::ALL.iter().filter_map(|&d| c.neighbour(d)))
                            .any(|n| pos.top_colour(n) == Some(!colour))
                    })
                    .count() as i32
            };
            let want = exposed(!us, false) - exposed(us, false);
            assert_eq!(term(&pos, &p, "cover"), want);
            let central = match pos.variant() {
                Variant::Standard => exposed(!us, true) - exposed(us, true),
                Variant::Basic => 0,
            };
            assert_eq!(term(&pos, &p, "centre_cover"), central * centre_phase(&pos),);
            seen += (want != 0) as usize;
        }
        assert!(seen > 50, "{seen}");
    }

    #[test]
    fn a_drop_that_wins_is_counted_as_a_threat() {
        // A drop covers three empty spaces, so a player who can win by one is within one piece
        // of a connection; a player who cannot be within one piece has no winning drop.
        let mut p = Params::default();
        p.set("ThreatOwn", 1).unwrap();
        let mut wins = 0;
        for pos in random_positions(22, 40) {
            let own = term(&pos, &p, "threat_own");
            assert!((0..=2).contains(&own));
            let mut after = pos.clone();
            let winning_drop = pos.legal_moves().into_iter().find(|&mv| {
                matches!(mv, crate::Move::Drop(_)) && {
                    after.make(mv);
                    let won = after.has_connection(pos.side_to_move());
                    after.unmake();
                    won
                }
            });
            if winning_drop.is_some() {
                wins += 1;
                assert!(
                    own >= 1,
                    "{}",
                    crate::rules::notation::position_to_string(&pos)
                );
            }
        }
        assert!(wins > 5, "{wins}");
    }

    #[test]
    fn threats_count_both_players_from_the_movers_side() {
        // The same position with the other player to move swaps the two counts.
        let mut p = Params::default();
        p.set("ThreatOwn", 1).unwrap();
        p.set("ThreatOpp", 1000).unwrap();
        let mut near = 0;
        for pos in random_positions(23, 10) {
            let text = crate::rules::notation::position_to_string(&pos);
            let flipped = text
                .replace(" w ", " x ")
                .replace(" b ", " w ")
                .replace(" x ", " b ");
            let Ok(other) = parse_position(&flipped, pos.variant()) else {
                continue;
            };
            if other.is_finished() {
                continue;
            }
            let t = term(&pos, &p, "threat_own") + term(&pos, &p, "threat_opp");
            let u = term(&other, &p, "threat_own") + term(&other, &p, "threat_opp");
            assert_eq!((t % 1000, t / 1000), (u / 1000, u % 1000), "{text}");
            near += (t != 0) as usize;
        }
        assert!(near > 10, "{near}");
    }

    #[test]
    fn centre_reach_counts_free_pieces_a_straight_move_takes_into_the_centre() {
        use crate::rules::geometry::Dir;
        let mut p = Params::default();
        p.set("CentreReachLate", 256).unwrap();
        let mut seen = 0;
        for pos in random_positions(24, 6) {
            let us = pos.side_to_move();
            let mut want = 0;
            for (id, piece) in pos.pieces() {
                let cells = piece.placement.cells();
                let punct = piece.placement.punct();
                let reaches = Dir::ALL
                    .iter()
                    .any(|&d| punct.ray(d).iter().any(|c| c.is_central()));
                if !pos.is_blocked(id) && !cells.iter().any(|c| c.is_central()) && reaches {
                    want += if piece.colour == us { 1 } else { -1 };
                }
            }
            if pos.variant() == Variant::Basic {
                want = 0;
            }
            assert_eq!(term(&pos, &p, "centre_reach"), want * centre_phase(&pos));
            seen += (want != 0 && centre_phase(&pos) > 0) as usize;
        }
        assert!(seen > 50, "{seen}");
    }
}
