//! Static evaluation, from the side to move's point of view: connection distances of both
//! players, the centre race of the standard game, pieces in hand and the move.

use crate::engine::params::Params;
use crate::engine::threats::{distance_within, two_axes_within};
use crate::piece::Kind;
use crate::position::{Position, Variant, PIECES_PER_PLAYER};

/// Distances beyond this are all the same to the evaluation (and cost nothing more to find).
const DISTANCE_CAP: u32 = 40;
/// Below this own distance each space counts extra: short paths become threats.
const NEAR: i32 = 6;

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
    let us = pos.side_to_move();
    let [[d_us, s_us], [d_them, s_them]] = paths(pos, params, true).map(|p| p.map(|d| d as i32));
    let [w, b] = pos.centre_count();
    let centre_diff = if us == crate::Colour::White {
        w as i32 - b as i32
    } else {
        b as i32 - w as i32
    } as f32;
    let [br_us, br_them] = bridging_in_hand(pos);
    let late = centre_phase(pos) as f32 / 256.0;
    let hand = pos.hand_total(us) as i32 - pos.hand_total(!us) as i32;
    let near = (NEAR - d_us).max(0) - (NEAR - d_them).max(0);
    let [m_us, m_them] = movable(pos);
    let mobility = (m_us - m_them) as f32;
    let coefs = [
        ("MobilityEarly", mobility * (1.0 - late)),
        ("MobilityLate", mobility * late),
        ("PathWeight", (d_them - d_us) as f32),
        ("PathNearWeight", near as f32),
        ("SecondPathWeight", (s_them - s_us) as f32),
        ("BridgingLate", (br_us - br_them) as f32 * late),
        ("CentreEarly", centre_diff * (1.0 - late)),
        ("CentreLate", centre_diff * late),
        ("HandWeight", hand as f32),
        ("Tempo", 1.0),
    ];
    coefs
        .iter()
        .filter(|(_, c)| *c != 0.0)
        .map(|(name, c)| (param_index(name), *c))
        .collect()
}

fn param_index(name: &str) -> usize {
    crate::engine::params::specs()
        .iter()
        .position(|s| s.name == name)
        .expect("a feature names a tunable")
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
    let us = pos.side_to_move();
    let mut n = [0, 0];
    for (id, piece) in pos.pieces() {
        if !pos.is_blocked(id) {
            n[(piece.colour != us) as usize] += 1;
        }
    }
    n
}

fn terms(pos: &Position, params: &Params) -> [(&'static str, i32); 8] {
    let us = pos.side_to_move();
    // The second-best axis costs a second search of the board: only when it counts.
    let second = params.second_path_weight != 0;
    let [[d_us, s_us], [d_them, s_them]] = paths(pos, params, second).map(|p| p.map(|d| d as i32));
    let path = params.path_weight * (d_them - d_us);
    let second_path = params.second_path_weight * (s_them - s_us);
    let near = params.path_near_weight * ((NEAR - d_us).max(0) - (NEAR - d_them).max(0));
    let [w, b] = pos.centre_count();
    let centre_diff = if us == crate::Colour::White {
        w as i32 - b as i32
    } else {
        b as i32 - w as i32
    };
    let phase = centre_phase(pos);
    let centre_weight =
        params.centre_early + (params.centre_late - params.centre_early) * phase / 256;
    let hand = pos.hand_total(us) as i32 - pos.hand_total(!us) as i32;
    let [m_us, m_them] = movable(pos);
    let mobility_weight =
        params.mobility_early + (params.mobility_late - params.mobility_early) * phase / 256;
    let [br_us, br_them] = bridging_in_hand(pos);
    let bridging = params.bridging_late * (br_us - br_them) * phase / 256;
    [
        ("path", path),
        ("second_path", second_path),
        ("bridging_in_hand", bridging),
        ("mobility", (m_us - m_them) * mobility_weight),
        ("near_path", near),
        ("centre", centre_diff * centre_weight),
        ("hand", hand * params.hand_weight),
        ("tempo", params.tempo),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

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
                .map(|&(i, c)| c * p.get(crate::engine::params::specs()[i].name).unwrap() as f32)
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
        for (name, v) in [("SecondPathWeight", 7), ("BridgingLate", 11)] {
            p.set(name, v).unwrap();
        }
        let specs = crate::engine::params::specs();
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
                let slack = 3 + (m_us - m_them).abs() + (w as i32 - b as i32).abs();
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
        assert!(evaluate(&pos, &p) < 0);
    }
}
