//! Perft regression values. The table of issue 2 comes from a separate implementation written
//! from docs/rules.md; the other positions were found by biased random playouts (see
//! `find_positions_with_stacks`) and their values computed with the simple checker of
//! `common/simple_rules.rs` alone (`simple_rules::perft`). The fast generator must match both.

use crate::common;

use common::simple_rules::{self, Board};
use common::{biased_choice, board_of};
use punct::rules::perft::{divide, perft};
use punct::{parse_position, Position, Variant};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn fast_perft(text: &str, variant: Variant, depth: u32) -> u64 {
    let mut pos = parse_position(text, variant).unwrap();
    let n = perft(&mut pos, depth);
    assert_eq!(
        pos.to_string(),
        parse_position(text, variant).unwrap().to_string()
    );
    n
}

const P1: &str = "Ba4a3b5/Bb6a5c7/Bc3d3e3/Wd8d7e9/Wd9d10d11/Wd12e12f12/We5e4f5/Wf7e7f6/Wg5h5h4/Bh10h9i9/Wh13g13i13/Wi2i3i4/Bi6j7k8/Wi15h14h15/Bj8j9k9/Wl4m5m6/Bl16k15k16/Bm8m7m9/Bm11l10l9/Wm12l12n12/Bo8n8o9/Bo14p15q16/Bp10p9q11/Bp13o12n11/Bb6c7d7/Wf7f6e5/Wh14g13h13/Wl4m5m6/Bm11l11l12 b 53";
const P2: &str = "Bb5a4c6/Bb6b7c7/Wc4b4a3/Wc9b9d9/Wd1d2d3/Wf4f5g4/Wf9f10g10/Wg7g6h7/Wh12g12i13/Bi12h11j13/Bi15h14g13/Bl5k5j4/Bm6n6n7/Bn8m7n9/Wn14o14o15/Wp14p15p16/Bb6b5a4/Wf10e9d9/Bh11g10f9/Bi12i13j13/Bk5l6m7/Bn7n8n9/Wn14o14p14/Bb5a4b6/Bj13i12i13/Bb6b5a4/Bi13i12j13 w 132";
const P3: &str = "Wa8b9c9/Wb10c10d10/Wc8b7d9/Bd4c4b4/Be1e2f3/Be8e9e10/Bf2f1g2/Wh2i2j3/Wh4g3i4/Bh11g11i12/Bi10h9i9/Bi15i14i13/Wj6i5i6/Wj9i8h7/Wk15l15m15/Wl8k7l7/Bl10k9k10/Wl12k11m13/Bl17m17n17/Wo7n7o8/Bp10o10q10/Wc10d10e10/Bf2f3g2/Wh4g3i4/Bi13i12h11/Wj9i8i9/Bk10k9k11/Wm15m16n17/Wo7n7o8/Wi4h4g3 b 141";

/// The issue's table: (position, variant, perft 1, perft 2), from a separate implementation.
const ISSUE_TABLE: [(&str, Variant, u64, u64); 5] = [
    ("- w 0", Variant::Standard, 4986, 23_841_810),
    ("- w 0", Variant::Basic, 4986, 28_499_958),
    (P1, Variant::Standard, 1292, 1_338_871),
    (P2, Variant::Standard, 2606, 3_647_288),
    (P3, Variant::Basic, 1218, 1_394_794),
];

#[test]
fn issue_table_fast_generator() {
    for (text, variant, p1, p2) in ISSUE_TABLE {
        assert_eq!(fast_perft(text, variant, 1), p1, "{text} {variant:?}");
        assert_eq!(fast_perft(text, variant, 2), p2, "{text} {variant:?}");
    }
}

#[test]
fn issue_table_simple_checker_depth_one() {
    for (text, variant, p1, _) in ISSUE_TABLE {
        let board = Board::read(text, variant == Variant::Basic).unwrap();
        assert_eq!(simple_rules::perft(&board, 1), p1, "{text} {variant:?}");
    }
}

#[test]
fn p1_black_connects_and_the_finished_game_adds_nothing() {
    let mut pos = parse_position(P1, Variant::Standard).unwrap();
    let split = divide(&mut pos, 2);
    let (_, after_connection) = split
        .iter()
        .find(|(mv, _)| mv.to_string() == "a4-f9e8g9")
        .expect("a4-f9e8g9 is legal in P1");
    assert_eq!(*after_connection, 0, "Black's connection ends the game");
    pos.play("a4-f9e8g9".parse().unwrap()).unwrap();
    assert_eq!(pos.outcome().unwrap().winner, Some(punct::Colour::Black));
}

/// How the extra positions were found: biased playouts, printing positions rich in stacks,
/// bridges and blocked pieces. Run with `--ignored --nocapture` to see the candidates.
#[test]
#[ignore]
fn find_positions_with_stacks() {
    for (variant, seed) in [(Variant::Standard, 11u64), (Variant::Basic, 12)] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..30 {
            let mut pos = Position::new(variant);
            while !pos.is_finished() && pos.ply() < 120 {
                let moves = pos.legal_moves();
                let mv = biased_choice(&pos, &moves, &mut rng);
                pos.make(mv);
                let board = board_of(&pos);
                if pos.is_finished() || !pos.ply().is_multiple_of(5) {
                    continue;
                }
                let n = board.pieces.len();
                let stacked = board.pieces.iter().filter(|p| p.level >= 1).count();
                let bridges = (0..n).filter(|&i| board.is_bridge(i)).count();
                let blocked = (0..n).filter(|&i| board.blocked(i)).count();
                if stacked >= 4 && bridges >= 2 && blocked >= 3 {
                    println!(
                        "{variant:?} stacked {stacked} bridges {bridges} blocked {blocked} moves {}: {pos}",
                        pos.count_legal_moves()
                    );
                }
            }
        }
    }
}

/// Positions with stacks, bridges and blocked pieces, found by `find_positions_with_stacks`
/// (seeds 11 and 12), with perft 1 and 2 computed by `simple_rules::perft` alone (the output
/// of `print_simple_perft`); the fast generator agreed with them the first time it was run.
const STACKED: [(&str, Variant, u64, u64); 7] = [
    ("Wa3a2b3/Wb1c1d1/Wc4d5e6/Bc5b5a5/Wc8d9e10/Bd7c6e8/Bd10e11e12/Wf2g3g4/Bg5g6h5/Bg10f10e9/Wh10h11i12/Wh15h14h16/Bi4j5k5/Wk4l4l5/Wk7j6l8/Wk17j16i15/Bl13m14n14/Wo8n8o9/Wo10n9m9/Bp10p11q11/Bq13p12o11/Bb5a5c5/Be8f9g10/We10d9e11/Wh15h14i15/Bk5j5k4/Wo8p9p10/We10d9e11 w 60", Variant::Standard, 1181, 1333617),
    ("Wb4a4b5/Bc2b2a2/Wc9d9e9/Wd3c3d2/Wd10c10e10/Wf3f2e1/Wf11g11g12/Bh2g1i3/Wh4g3i4/Wi14i13i12/Wi16i15j16/Wj13j14j15/Bk5j5i5/Bk9j9i9/Bk14l14l15/Bm10m11n12/Bm14m15n15/Wn9o9o8/Bo14n14p15/Wo17n16o16/Wq14p14q15/Ba2a3a4/Wd10c9d9/Wh4g3f2/Wi4h3h2/Wi13h13g12/Bk14j13j14/Bm11m10n12/Bm15l14n16/Bp15o14n14 w 80", Variant::Standard, 837, 828900),
    ("Wb4a4b5/Bc2b2a2/Wc9d9e9/Wd3c3d2/Wd10c10e10/Wf3f2e1/Wf11g11g12/Bh2g1i3/Wh4g3i4/Bh10h9h11/Wi14i13i12/Wi16i15j16/Bk5j5i5/Bk9j9i9/Bk14l14l15/Bm10m11n12/Bm14m15n15/Wn9o9o8/Bo14n14p15/Wo17n16o16/Wq14p13p14/Ba2a3a4/Wd10c9d9/Wh4g3f2/Wi4h3h2/Wi13h13g12/Bm11m10n12/Bp15o14n14 b 75", Variant::Standard, 1367, 1558131),
    ("Bd1d2e1/Wd3e3f3/Wd8d9c9/Bd12c11d11/We11f12g13/Bf7e7d7/Wf14f13e12/Wg6h6h7/Bg9g8h10/Wk5k4l6/Wk12j12j13/Bm8m9l9/Bo8n7m7/Bo10n10o11/Bo13o12p12/Bo16n15n16/Bp9o9n9/Wp11q11q12/Wp15o14p14/Wd3d2e3/We12f12g13/Bm8l8l9/Bo12o11p12/Bo16o15o14 w 80", Variant::Standard, 2164, 3395158),
    ("Wa3a2a4/Bd8e8e9/We2f2f3/Be4d4e5/We10f10g10/Be11d11f11/Bg7g6h7/Wg13f13g12/Wh12i12j12/Bi10i9h8/Wj4i3h3/Bk12k11l12/Wl16m16n16/Wl17m17n17/Wm5l5m6/Bm14l13n15/Wo10o9p10/Bp8o7n7/Wp11q12q13/Wp15p16o16/Be5d4e4/Be11f12f13/Bi9h8h7/Bl13l12m14/Wl16m17n17/Wn16m16n15/Bo7n6m5/Bh8h7i9 w 90", Variant::Basic, 1614, 2269074),
    ("We2f2f3/Be4d4e5/We10f10g10/Be11d11f11/Bg7g6h7/Wg13f13g12/Wh12i12j12/Bi10i9h8/Wj4i3h3/Bk12k11l12/Wk14j13j14/Bl7k7l8/Wl16m16n16/Wl17m17n17/Wm5l5m6/Wm11l10n12/Bm14l13n15/Wo10o9p10/Bp8o7n7/Wp11q12q13/Wp15p16o16/Be5d4e4/Be11f12f13/Bi9h8h7/Wj12i12k12/Bl8k7l7/Bl13l12m14/Wl16m17n17/Wn16m16n15/Bo7n6m5/Bh8h7i9 b 95", Variant::Basic, 839, 1046119),
    ("Wb1c2d2/Bb4a4a5/Wc7d7d6/Bd5c5d4/Bd9c9d10/Wf6f7f8/Bg4f4e4/Bg9f9g10/Bh4i5j6/Bh6h7i7/Wh9g8i9/Bh14g13g12/Bi4j4j3/Bi13i12i14/Bj11i10j10/Wl13m13m14/Bm12l12k11/Bn14o15p16/Bp10o10p11/Bp13o13q14/Wc2b1d2/Wc7b6a5/Bf4e4d4/Wg8g9h9/Bk11j10l12/Wh9i9j10 b 55", Variant::Basic, 1316, 1590478),
];

/// Prints the simple checker's perft 1 and 2 of the positions above (the values in the table).
#[test]
#[ignore]
fn print_simple_perft() {
    for (text, variant, _, _) in STACKED {
        let board = Board::read(text, variant == Variant::Basic).unwrap();
        let start = std::time::Instant::now();
        let p1 = simple_rules::perft(&board, 1);
        let p2 = simple_rules::perft(&board, 2);
        println!("{p1}, {p2} ({:?}) {text}", start.elapsed());
    }
}

#[test]
fn stacked_positions_have_stacks_bridges_and_blocked_pieces() {
    for (text, variant, _, _) in STACKED {
        let board = Board::read(text, variant == Variant::Basic).unwrap();
        let n = board.pieces.len();
        assert!(
            board.pieces.iter().filter(|p| p.level >= 1).count() >= 4,
            "{text}"
        );
        assert!(
            (0..n).filter(|&i| board.is_bridge(i)).count() >= 2,
            "{text}"
        );
        assert!((0..n).filter(|&i| board.blocked(i)).count() >= 3, "{text}");
        let pos = parse_position(text, variant).unwrap();
        assert_eq!(board_of(&pos).sorted_pieces(), board.sorted_pieces());
        assert!(!pos.is_finished());
    }
}

#[test]
fn stacked_positions_fast_generator() {
    for (text, variant, p1, p2) in STACKED {
        assert_eq!(fast_perft(text, variant, 1), p1, "{text}");
        assert_eq!(fast_perft(text, variant, 2), p2, "{text}");
    }
}

/// The simple checker reproduces its own recorded values (about 4 s in release).
#[test]
fn stacked_positions_simple_checker() {
    for (text, variant, p1, p2) in STACKED {
        let board = Board::read(text, variant == Variant::Basic).unwrap();
        assert_eq!(simple_rules::perft(&board, 1), p1, "{text}");
        assert_eq!(simple_rules::perft(&board, 2), p2, "{text}");
    }
}

/// The simple checker reproduces the issue's perft 2 values too: P1, P2, P3 (about 3 s in
/// release).
#[test]
fn issue_table_simple_checker_depth_two() {
    for (text, variant, _, p2) in &ISSUE_TABLE[2..] {
        let board = Board::read(text, *variant == Variant::Basic).unwrap();
        assert_eq!(simple_rules::perft(&board, 2), *p2, "{text} {variant:?}");
    }
}

/// And from the start, both variants (4.5 s of CPU for both in release; a test each, so that
/// they run beside the others).
#[test]
fn start_standard_simple_checker_depth_two() {
    let (text, variant, _, p2) = ISSUE_TABLE[0];
    assert_eq!((text, variant), ("- w 0", Variant::Standard));
    let board = Board::read(text, false).unwrap();
    assert_eq!(simple_rules::perft(&board, 2), p2);
}

#[test]
fn start_basic_simple_checker_depth_two() {
    let (text, variant, _, p2) = ISSUE_TABLE[1];
    assert_eq!((text, variant), ("- w 0", Variant::Basic));
    let board = Board::read(text, true).unwrap();
    assert_eq!(simple_rules::perft(&board, 2), p2);
}
