//! Rules-library speed figures (RULES issue 2, "Speed"): `cargo bench --bench rules`.
//! Prints one line per figure. `cargo bench --bench rules -- quick` skips perft 3 from the
//! start (~10 s).

use std::hint::black_box;
use std::time::{Duration, Instant};

use punct::rules::perft::perft;
use punct::{parse_position, Colour, Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Fixed positions over the game: the P1-P3 and midgames with stacks, bridges and
/// blocked pieces found by biased playouts (see tests/rules_perft.rs).
const FIXED: &[(&str, Variant)] = &[
    ("Ba4a3b5/Bb6a5c7/Bc3d3e3/Wd8d7e9/Wd9d10d11/Wd12e12f12/We5e4f5/Wf7e7f6/Wg5h5h4/Bh10h9i9/Wh13g13i13/Wi2i3i4/Bi6j7k8/Wi15h14h15/Bj8j9k9/Wl4m5m6/Bl16k15k16/Bm8m7m9/Bm11l10l9/Wm12l12n12/Bo8n8o9/Bo14p15q16/Bp10p9q11/Bp13o12n11/Bb6c7d7/Wf7f6e5/Wh14g13h13/Wl4m5m6/Bm11l11l12 b 53", Variant::Standard),
    ("Bb5a4c6/Bb6b7c7/Wc4b4a3/Wc9b9d9/Wd1d2d3/Wf4f5g4/Wf9f10g10/Wg7g6h7/Wh12g12i13/Bi12h11j13/Bi15h14g13/Bl5k5j4/Bm6n6n7/Bn8m7n9/Wn14o14o15/Wp14p15p16/Bb6b5a4/Wf10e9d9/Bh11g10f9/Bi12i13j13/Bk5l6m7/Bn7n8n9/Wn14o14p14/Bb5a4b6/Bj13i12i13/Bb6b5a4/Bi13i12j13 w 132", Variant::Standard),
    ("Wa8b9c9/Wb10c10d10/Wc8b7d9/Bd4c4b4/Be1e2f3/Be8e9e10/Bf2f1g2/Wh2i2j3/Wh4g3i4/Bh11g11i12/Bi10h9i9/Bi15i14i13/Wj6i5i6/Wj9i8h7/Wk15l15m15/Wl8k7l7/Bl10k9k10/Wl12k11m13/Bl17m17n17/Wo7n7o8/Bp10o10q10/Wc10d10e10/Bf2f3g2/Wh4g3i4/Bi13i12h11/Wj9i8i9/Bk10k9k11/Wm15m16n17/Wo7n7o8/Wi4h4g3 b 141", Variant::Basic),
    ("Wa3a2b3/Wb1c1d1/Wc4d5e6/Bc5b5a5/Wc8d9e10/Bd7c6e8/Bd10e11e12/Wf2g3g4/Bg5g6h5/Bg10f10e9/Wh10h11i12/Wh15h14h16/Bi4j5k5/Wk4l4l5/Wk7j6l8/Wk17j16i15/Bl13m14n14/Wo8n8o9/Wo10n9m9/Bp10p11q11/Bq13p12o11/Bb5a5c5/Be8f9g10/We10d9e11/Wh15h14i15/Bk5j5k4/Wo8p9p10/We10d9e11 w 60", Variant::Standard),
    ("Bd1d2e1/Wd3e3f3/Wd8d9c9/Bd12c11d11/We11f12g13/Bf7e7d7/Wf14f13e12/Wg6h6h7/Bg9g8h10/Wk5k4l6/Wk12j12j13/Bm8m9l9/Bo8n7m7/Bo10n10o11/Bo13o12p12/Bo16n15n16/Bp9o9n9/Wp11q11q12/Wp15o14p14/Wd3d2e3/We12f12g13/Bm8l8l9/Bo12o11p12/Bo16o15o14 w 80", Variant::Standard),
    ("We2f2f3/Be4d4e5/We10f10g10/Be11d11f11/Bg7g6h7/Wg13f13g12/Wh12i12j12/Bi10i9h8/Wj4i3h3/Bk12k11l12/Wk14j13j14/Bl7k7l8/Wl16m16n16/Wl17m17n17/Wm5l5m6/Wm11l10n12/Bm14l13n15/Wo10o9p10/Bp8o7n7/Wp11q12q13/Wp15p16o16/Be5d4e4/Be11f12f13/Bi9h8h7/Wj12i12k12/Bl8k7l7/Bl13l12m14/Wl16m17n17/Wn16m16n15/Bo7n6m5/Bh8h7i9 b 95", Variant::Basic),
];

/// The start positions, the fixed ones, and positions at plies 4, 12, 24 and 40 of two seeded
/// uniform random playouts (openings and early midgames).
fn positions() -> Vec<Position> {
    let mut out = vec![
        Position::new(Variant::Standard),
        Position::new(Variant::Basic),
    ];
    for &(text, variant) in FIXED {
        out.push(parse_position(text, variant).expect("bench position"));
    }
    for (seed, variant) in [(1u64, Variant::Standard), (2, Variant::Basic)] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new(variant);
        for ply in 1..=40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
            if [4, 12, 24, 40].contains(&ply) && !pos.is_finished() {
                out.push(parse_position(&pos.to_string(), variant).unwrap());
            }
        }
    }
    out
}

/// Runs `f` until at least `min` has passed; returns (calls, elapsed).
fn timed(min: Duration, mut f: impl FnMut()) -> (u64, Duration) {
    let start = Instant::now();
    let mut calls = 0;
    while start.elapsed() < min {
        for _ in 0..16 {
            f();
        }
        calls += 16;
    }
    (calls, start.elapsed())
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let positions = positions();
    let budget = Duration::from_millis(300);

    // Move generation into a reused list.
    let mut buf: Vec<Move> = Vec::with_capacity(8192);
    let (mut moves_total, mut time_total) = (0u64, Duration::ZERO);
    let mut largest = (0usize, Duration::ZERO);
    for pos in &positions {
        let (calls, t) = timed(budget, || {
            pos.legal_moves_into(&mut buf);
            black_box(&buf);
        });
        let per_call = t / calls as u32;
        if buf.len() > largest.0 {
            largest = (buf.len(), per_call);
        }
        moves_total += calls * buf.len() as u64;
        time_total += t;
    }
    println!(
        "movegen: {:.1} M moves/s over {} positions (largest list {} moves in {:.1} us)",
        moves_total as f64 / time_total.as_secs_f64() / 1e6,
        positions.len(),
        largest.0,
        largest.1.as_secs_f64() * 1e6
    );

    // Counting only (the bulk counting used at perft leaves).
    let (mut counted, mut time_total) = (0u64, Duration::ZERO);
    for pos in &positions {
        let mut n = 0;
        let (calls, t) = timed(budget, || n = black_box(pos.count_legal_moves()));
        counted += calls * n;
        time_total += t;
    }
    println!(
        "count_legal_moves: {:.1} M moves/s",
        counted as f64 / time_total.as_secs_f64() / 1e6
    );

    // Make + unmake of every legal move of every position.
    let (mut pairs, mut time_total) = (0u64, Duration::ZERO);
    for pos in &positions {
        let mut pos = pos.clone();
        let moves = pos.legal_moves();
        let (calls, t) = timed(budget, || {
            for &m in &moves {
                pos.make(m);
                pos.unmake();
            }
        });
        pairs += calls * moves.len() as u64;
        time_total += t;
    }
    println!(
        "make+unmake: {:.2} M pairs/s ({:.0} ns per pair, connection check included)",
        pairs as f64 / time_total.as_secs_f64() / 1e6,
        time_total.as_secs_f64() * 1e9 / pairs as f64
    );

    // The connection check after a move, alone.
    let (mut checks, mut time_total) = (0u64, Duration::ZERO);
    for pos in &positions {
        let (calls, t) = timed(budget, || {
            black_box(pos.has_connection(Colour::White));
            black_box(pos.has_connection(Colour::Black));
        });
        checks += 2 * calls;
        time_total += t;
    }
    println!(
        "has_connection: {:.0} ns per call",
        time_total.as_secs_f64() * 1e9 / checks as f64
    );

    // Perft 2 from every position (bulk counting at the last ply), single-threaded.
    let start = Instant::now();
    let mut leaves = 0;
    for pos in &positions {
        leaves += perft(&mut pos.clone(), 2);
    }
    let t = start.elapsed();
    println!(
        "perft 2 ({} positions): {leaves} leaves in {:.2} s, {:.1} M leaves/s",
        positions.len(),
        t.as_secs_f64(),
        leaves as f64 / t.as_secs_f64() / 1e6
    );

    // Perft from the start, single-threaded.
    let depths: &[u32] = if quick { &[2] } else { &[2, 3] };
    for &depth in depths {
        let mut pos = Position::new(Variant::Standard);
        let start = Instant::now();
        let leaves = perft(&mut pos, depth);
        let t = start.elapsed();
        println!(
            "perft {depth} (start, standard): {leaves} leaves in {:.2} s, {:.1} M leaves/s",
            t.as_secs_f64(),
            leaves as f64 / t.as_secs_f64() / 1e6
        );
    }
}
