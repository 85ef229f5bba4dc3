//! The learned move-ordering model: its features on hand-checked positions, its file format,
//! the fit recovering a planted model, and the picker's hook taking the model's best moves.

use punct::engine::search::movepick::MovePicker;
use punct::engine::search::order_model::{
    self, Context, Model, GROUPS, GROUP_SIZES, NUM_WEIGHTS, OFFSETS,
};
use punct::engine::search::params::Params;
use punct::engine::search::threats::{move_touches, threat};
use punct::rules::moves::Move;
use punct::rules::notation::{parse_move, parse_position};
use punct::rules::piece::PLACEMENT_SLOTS;
use punct::rules::position::{Position, Variant};
use punct::tune::order_fit::{fit_labels, nll};
use punct::tune::order_label::{parse_label_line, Labelled};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn mv(s: &str) -> Move {
    parse_move(s).unwrap()
}

#[test]
fn feature_groups_cover_every_weight_once() {
    assert_eq!(GROUP_SIZES.iter().sum::<usize>(), NUM_WEIGHTS);
    assert_eq!(OFFSETS[GROUPS], NUM_WEIGHTS);
    // Every feature value of every legal move of a few positions stays in its group.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let params = Params::default();
    for _ in 0..20 {
        let mut pos = Position::new(Variant::Standard);
        for _ in 0..rng.gen_range(0..30) {
            let moves = pos.legal_moves();
            if pos.is_finished() || moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        let ctx = Context::new(&pos, &[], &params);
        for m in pos.legal_moves() {
            if let Some(f) = ctx.features(&pos, m) {
                for g in 0..GROUPS {
                    assert!(
                        (f[g] as usize) < GROUP_SIZES[g],
                        "{m}: group {g} = {}",
                        f[g]
                    );
                }
            }
        }
    }
}

#[test]
fn packed_features_equal_the_set_by_set_reference() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let params = Params::default();
    let mut checked = 0;
    for game in 0..12 {
        let mut pos = Position::new(Variant::Standard);
        for _ in 0..rng.gen_range(4..60) {
            let moves = pos.legal_moves();
            if pos.is_finished() || moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        // Half the positions with their history (the recent-move rings), half without.
        let pos = if game % 2 == 0 {
            pos
        } else {
            parse_position(&pos.to_string(), Variant::Standard).unwrap()
        };
        let ctx = Context::new(&pos, &[], &params);
        for m in pos.legal_moves() {
            assert_eq!(
                ctx.features(&pos, m),
                ctx.features_by_sets(&pos, m),
                "{pos} {m}"
            );
            checked += 1;
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// A model of random weights (any sign in any group, so that no weight can hide a wrong
/// value) and a position after fewer than `max_plies` random plies; every fourth game is of
/// the basic variant.
fn random_case(
    rng: &mut Xoshiro256PlusPlus,
    game: usize,
    max_plies: usize,
) -> (Model, Variant, Position) {
    let model = Model {
        weights: (0..NUM_WEIGHTS).map(|_| rng.gen_range(-500..500)).collect(),
    };
    let variant = if game % 4 == 3 {
        Variant::Basic
    } else {
        Variant::Standard
    };
    let mut pos = Position::new(variant);
    for _ in 0..rng.gen_range(0..max_plies) {
        let moves = pos.legal_moves();
        if pos.is_finished() || moves.is_empty() {
            break;
        }
        pos.make(moves[rng.gen_range(0..moves.len())]);
    }
    (model, variant, pos)
}

#[test]
fn cold_drops_score_as_their_full_features() {
    // The picker's shortcut for drops away from everything must give the model's own logit,
    // with random weights (so that no group's weight can hide a wrong value), in both variants.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let params = Params::default();
    let (mut cold, mut warm) = (0, 0);
    for game in 0..16 {
        let (model, variant, pos) = random_case(&mut rng, game, 40);
        // Odd games: the position without its history, and a recent move given instead.
        let recent = [mv("e6e7e8")];
        let (pos, recent): (Position, &[Move]) = if game % 2 == 0 {
            (pos, &[])
        } else {
            (parse_position(&pos.to_string(), variant).unwrap(), &recent)
        };
        let ctx = Context::new(&pos, recent, &params);
        let base = ctx.cold_base(&model);
        for m in pos.legal_moves() {
            let Move::Drop(pl) = m else { continue };
            match ctx.cold_drop_logit(&model, base, pl) {
                Some(logit) => {
                    assert_eq!(
                        logit,
                        model.score(&ctx.features(&pos, m).unwrap()),
                        "{pos} {m}"
                    );
                    cold += 1;
                }
                None => warm += 1,
            }
        }
    }
    assert!(cold > 500 && warm > 2000, "{cold} cold, {warm} warm drops");
}

#[test]
fn logit_bounds_hold_for_every_move_off_the_threat_zone() {
    // The picker skips a move whose bound cannot reach its list: the bound must never be below
    // the model's logit, for random weights (any sign in any group), drops and shifts, both
    // variants, with and without a threat.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let params = Params::default();
    let (mut checked, mut shifts, mut tight, mut with_threat) = (0, 0, 0, 0);
    for game in 0..24 {
        let (model, _, mut pos) = random_case(&mut rng, game, 60);
        // Odd games play on to a position with a threat to meet, when one comes.
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if game % 2 == 0 || threat(&pos).is_some() || pos.is_finished() || moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make(m);
            if pos.is_finished() {
                pos.unmake();
                break;
            }
        }
        let ctx = Context::new(&pos, &[], &params);
        let bound = ctx.logit_bound(&model);
        let zone = threat(&pos).map(|t| t.zone);
        with_threat += zone.is_some() as usize;
        for m in pos.legal_moves() {
            let Some(pl) = m.placement() else { continue };
            if zone.is_some_and(|z| move_touches(&pos, m, z)) {
                continue;
            }
            let lift = match m {
                Move::Shift { from, .. } => {
                    shifts += 1;
                    let old = pos.piece(pos.top_piece(from).unwrap()).placement;
                    Some(ctx.lift_of(&pos, old).0)
                }
                _ => None,
            };
            let logit = model.score(&ctx.features(&pos, m).unwrap());
            let ub = bound.of(&ctx, pl, lift);
            assert!(ub >= logit, "{pos} {m}: bound {ub} < logit {logit}");
            // What the bit-sliced sums add bounds the bound.
            assert!(bound.of_cells(pl, lift) >= ub, "{pos} {m}");
            // The sums hold the PÜNCT's middle-distance excess; the shape's base the rest.
            let (kind, o) = (pl.kind(), pl.orientation());
            let base = match lift {
                None => bound.drop_fixed_base(kind, o),
                Some(l) => bound.shift_fixed_base(kind, o, l),
            };
            let excess = (bound.punct_excess())
                .filter(|(set, _)| set.contains(pl.punct()))
                .map(|(_, x)| x)
                .sum::<i32>();
            assert_eq!(base + excess, bound.fixed(pl, lift), "{pos} {m}");
            tight += (ub == logit) as usize;
            checked += 1;
        }
    }
    // Cold drops are bounded exactly; a bound that is always loose would filter nothing.
    assert!(
        checked > 20_000 && shifts > 2000,
        "{checked} moves, {shifts} shifts"
    );
    assert!(tight > checked / 50, "{tight} of {checked} bounds exact");
    assert!(with_threat >= 3, "{with_threat} positions with a threat");
}

#[test]
fn features_of_moves_on_a_small_position() {
    // White's straight piece on c5c6c7 (column c), Black's on f5f6f7; White to move, ply 2.
    let pos = parse_position("Wc5c6c7/Bf5f6f7 w 2", Variant::Standard).unwrap();
    let params = Params::default();
    // Without recent moves the ring groups say "none" (6).
    let ctx = Context::new(&pos, &[], &params);
    let f = ctx.features(&pos, mv("i9i10i11")).unwrap();
    assert_eq!(f[4], 6);
    assert_eq!(f[5], 6);
    // With Black's f5f6f7 as the last move: a drop on it covers it (ring 0, three opposing
    // dots covered, landing level 1).
    let ctx = Context::new(&pos, &[mv("f5f6f7")], &params);
    let cover = ctx.features(&pos, mv("f5f6f7")).unwrap();
    assert_eq!(cover[4], 0, "ring of the last move");
    assert_eq!(cover[5], 6, "no own move before");
    assert_eq!(cover[8], 3 * 4, "three opposing dots covered, none own");
    assert_eq!(cover[7] / 2, 1, "lands on level 1");
    assert_eq!(cover[9], 0, "a drop");
    // i9i10i11 is three spaces of the central hexagon (distance <= 2 from i9); its ring from
    // f5f6f7: the hex distance from f7 (x 5, y 6) to i9 (x 8, y 8) is 3.
    let centre = ctx.features(&pos, mv("i9i10i11")).unwrap();
    assert_eq!(centre[6] / 3, 3, "three central dots");
    assert_eq!(centre[6] % 3, 0, "early phase");
    assert_eq!(centre[4], 3, "ring 3 around the last move");
    assert_eq!(centre[12], 0, "PÜNCT on the middle space");
    assert_eq!(centre[8], 0);
    // 17 pieces in hand: the largest bucket, a drop.
    assert_eq!(centre[11], 3 * 2);
    // A shift of the own piece: the shift bit of the shape and of the hand group.
    let shift = mv("c5-d5d6d7");
    assert!(pos.legal_moves().contains(&shift));
    let fs = ctx.features(&pos, shift).unwrap();
    assert_eq!(fs[0] % 2, 1);
    assert_eq!(fs[11], 3 * 2 + 1);
    assert!(fs[9] >= 1, "a shift");
    // Contact: d5d6d7 lies next to the own c-column dots on all three dots (the piece itself
    // still stands there while the features are read), next to no Black dot.
    assert_eq!(fs[3], 3 * 4);
}

#[test]
fn model_files_round_trip_and_wrong_versions_are_refused() {
    let mut m = Model::zero();
    for (i, w) in m.weights.iter_mut().enumerate() {
        *w = (i as i32 * 37) % 401 - 200;
    }
    let text = m.to_text();
    assert_eq!(Model::parse(&text).unwrap().weights, m.weights);
    let wrong = text.replacen("punct-order-model 1", "punct-order-model 99", 1);
    assert!(Model::parse(&wrong).is_err());
    let short: String = text.lines().take(10).collect::<Vec<_>>().join("\n");
    assert!(Model::parse(&short).is_err());
    // The embedded model is a valid file.
    assert_eq!(order_model::model().weights.len(), NUM_WEIGHTS);
}

#[test]
fn label_lines_parse_with_and_without_recent_moves() {
    // (i9i10i11 is not legal here: no drop in the centre this early.)
    assert!(parse_label_line("Wc5c6c7/Bf5f6f7 w 2\ti9i10i11", Variant::Standard).is_err());
    let l = parse_label_line(
        "Wc5c6c7/Bf5f6f7 w 2\tk5k6k7\tf5f6f7 c5c6c7",
        Variant::Standard,
    )
    .unwrap()
    .unwrap();
    assert_eq!(l.best, mv("k5k6k7"));
    assert_eq!(l.recent, vec![mv("f5f6f7"), mv("c5c6c7")]);
    let l = parse_label_line("Wc5c6c7/Bf5f6f7 w 2\tk5k6k7", Variant::Standard)
        .unwrap()
        .unwrap();
    assert!(l.recent.is_empty());
    assert!(parse_label_line("# comment", Variant::Standard)
        .unwrap()
        .is_none());
    // An illegal best move is refused (c5 is taken).
    assert!(parse_label_line("Wc5c6c7/Bf5f6f7 w 2\tc5c6d6", Variant::Standard).is_err());
}

/// Random positions, each labelled with a move drawn from a planted model's softmax.
fn planted_labels(planted: &Model, n: usize, seed: u64) -> Vec<Labelled> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let params = Params::default();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::new(Variant::Standard);
        let plies = rng.gen_range(2..24);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if pos.is_finished() || moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
        if pos.is_finished() {
            continue;
        }
        let recent: Vec<Move> = pos
            .moves_played()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .take(2)
            .collect();
        let fresh = parse_position(&pos.to_string(), Variant::Standard).unwrap();
        let ctx = Context::new(&fresh, &recent, &params);
        let moves: Vec<Move> = fresh
            .legal_moves()
            .into_iter()
            .filter(|&m| m != Move::Pass)
            .collect();
        let logits: Vec<f64> = moves
            .iter()
            .map(|&m| planted.score(&ctx.features(&fresh, m).unwrap()) as f64 / 100.0)
            .collect();
        let max = logits.iter().copied().fold(f64::MIN, f64::max);
        let z: f64 = logits.iter().map(|l| (l - max).exp()).sum();
        let mut u = rng.gen::<f64>() * z;
        let mut best = moves[moves.len() - 1];
        for (i, l) in logits.iter().enumerate() {
            u -= (l - max).exp();
            if u <= 0.0 {
                best = moves[i];
                break;
            }
        }
        out.push(Labelled {
            position: fresh,
            best,
            recent,
        });
    }
    out
}

#[test]
fn the_fit_recovers_a_planted_model() {
    // Planted: weights on the own-path, contact, last-move ring and centre groups.
    let mut planted = Model::zero();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for g in [1usize, 3, 4, 6, 8] {
        for i in OFFSETS[g]..OFFSETS[g + 1] {
            planted.weights[i] = rng.gen_range(-250..=250);
        }
    }
    let train = planted_labels(&planted, 1000, 1);
    let held = planted_labels(&planted, 300, 2);
    let fitted = fit_labels(&train, 0.1, 0.001, 120, 0.05);
    let (zero, truth, fit) = (
        nll(&Model::zero(), &held),
        nll(&planted, &held),
        nll(&fitted, &held),
    );
    println!("held-out NLL: zero {zero:.3}, planted {truth:.3}, fitted {fit:.3}");
    // The fit explains the held-out labels nearly as well as the truth, far better than
    // nothing (from 1,000 labels for 203 weights, most of them noise to fit).
    assert!(fit < truth + 0.15 * (zero - truth), "{zero} {truth} {fit}");
    // The planted contact group (the one all moves exercise) is recovered up to its mean.
    let g = 3;
    let range = OFFSETS[g]..OFFSETS[g + 1];
    let mean =
        |m: &Model| m.weights[range.clone()].iter().sum::<i32>() as f64 / GROUP_SIZES[g] as f64;
    let (mp, mf) = (mean(&planted), mean(&fitted));
    // Values 0 (no contact), 1 and 4 (one dot next to own / opposing dots) are common.
    for v in [0usize, 1, 4] {
        let (p, f) = (
            planted.weights[OFFSETS[g] + v] as f64 - mp,
            fitted.weights[OFFSETS[g] + v] as f64 - mf,
        );
        let (p0, f0) = (
            planted.weights[OFFSETS[g]] as f64 - mp,
            fitted.weights[OFFSETS[g]] as f64 - mf,
        );
        assert!(
            ((p - p0) - (f - f0)).abs() < 60.0,
            "value {v}: planted {p}, fitted {f}"
        );
    }
}

#[test]
fn the_picker_takes_the_models_best_moves_when_on() {
    // A model that loves straight pieces (kind index 1) dropped in orientation 0.
    let mut m = Model::zero();
    for o in 0..6 {
        let drop = (6 + o) * 2;
        m.weights[OFFSETS[0] + drop] = if o == 0 { 5000 } else { -5000 };
    }
    assert!(order_model::install(m));
    let pos = parse_position("Wc5c6c7/Bf5f6f7 w 2", Variant::Standard).unwrap();
    let history = vec![0i32; 2 * PLACEMENT_SLOTS];
    let mut picker = MovePicker::new(2);
    let mut params = Params {
        order_model: 0,
        ..Params::default()
    };
    let straight0 = |m: Move| match m {
        Move::Drop(pl) => pl.kind().index() == 1 && pl.orientation() == 0,
        _ => false,
    };
    let list = |picker: &mut MovePicker, params: &Params| {
        picker.start(&history);
        let mut touches = punct::engine::search::threats::TouchCache::default();
        picker.pick(
            &pos,
            0,
            10,
            64,
            None,
            [None; 2],
            params,
            &history,
            &mut touches,
            true,
        );
        (0..picker.len(0))
            .map(|i| picker.get(0, i).0)
            .collect::<Vec<_>>()
    };
    let off = list(&mut picker, &params);
    assert_eq!(off.len(), 10);
    assert!(!off.iter().all(|&m| straight0(m)), "{off:?}");
    params.order_model = 64;
    let on = list(&mut picker, &params);
    assert_eq!(on.len(), 10);
    assert!(on.iter().all(|&m| straight0(m)), "{on:?}");
    // The root order puts them first too.
    let moves = pos.legal_moves();
    let order = picker.order_root(&pos, &moves, &params, &history);
    assert!(order[..10].iter().all(|&m| straight0(m)));
}
