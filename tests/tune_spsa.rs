//! SPSA on a synthetic noisy objective with a known optimum converges toward it, and a run
//! interrupted and resumed from its log takes exactly the steps of an uninterrupted one.

use punct::tune::spsa::{run, Probe, Spsa, SpsaLog, SpsaParam, SpsaSettings};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const OPTIMUM: [f64; 3] = [50.0, 30.0, 0.0];

fn params() -> Vec<SpsaParam> {
    [
        ("A", 20.0, 0.0, 100.0),
        ("B", 80.0, 0.0, 100.0),
        ("C", -25.0, -50.0, 50.0),
    ]
    .iter()
    .map(|&(n, v, lo, hi)| SpsaParam {
        name: n.into(),
        start: v,
        min: lo,
        max: hi,
        c_end: 3.0,
        r_end: 0.005,
    })
    .collect()
}

/// Strength in logistic units: a paraboloid around the optimum.
fn strength(v: &[i64]) -> f64 {
    -v.iter()
        .zip(OPTIMUM)
        .map(|(&x, o)| (x as f64 - o).powi(2))
        .sum::<f64>()
        / 200.0
}

/// A game pair between the two sides, seeded by the iteration: wins minus losses of plus.
fn pair(p: &Probe) -> Option<(f64, u64)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(p.k);
    let q = 1.0 / (1.0 + (strength(&p.minus) - strength(&p.plus)).exp());
    let r: f64 = (0..2)
        .map(|_| if rng.gen::<f64>() < q { 1.0 } else { -1.0 })
        .sum();
    Some((r, 2))
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("punct-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn spsa_converges_toward_the_optimum() {
    let mut s = Spsa::new(params(), SpsaSettings::new(4000, 7));
    while !s.done() {
        let (r, games) = pair(&s.next_probe()).unwrap();
        s.apply(r, games);
    }
    for ((p, t), o) in params().iter().zip(&s.theta).zip(OPTIMUM) {
        let start_dist = (p.start - o).abs();
        assert!(
            (t - o).abs() < 0.25 * start_dist,
            "{}: {t:.1}, optimum {o}",
            p.name
        );
    }
}

#[test]
fn resume_continues_exactly() {
    let d = dir("spsa-resume");
    let settings = SpsaSettings::new(300, 3);
    let whole = d.join("whole.jsonl");
    let mut s = Spsa::new(params(), settings.clone());
    let mut log = SpsaLog::open(&whole, &mut s, false, false).unwrap();
    run(&mut s, &mut log, pair, |_, _| {}).unwrap();
    let expected = s.theta.clone();

    // Interrupted at iteration 121 (its games count for nothing), with a torn line after it.
    let cut = d.join("cut.jsonl");
    let mut s = Spsa::new(params(), settings.clone());
    let mut log = SpsaLog::open(&cut, &mut s, false, false).unwrap();
    let done = run(
        &mut s,
        &mut log,
        |p| if p.k == 121 { None } else { pair(p) },
        |_, _| {},
    )
    .unwrap();
    assert!(!done);
    assert_eq!(s.k, 120);
    drop(log);
    let mut f = std::fs::OpenOptions::new().append(true).open(&cut).unwrap();
    std::io::Write::write_all(&mut f, b"{\"type\":\"iter\",\"k\":121,\"c\":[").unwrap();
    assert!(SpsaLog::open(
        &cut,
        &mut Spsa::new(params(), settings.clone()),
        false,
        false
    )
    .is_err());
    let mut other = settings.clone();
    other.seed = 4;
    assert!(SpsaLog::open(&cut, &mut Spsa::new(params(), other), true, false).is_err());

    let mut s = Spsa::new(params(), settings);
    let mut log = SpsaLog::open(&cut, &mut s, true, false).unwrap();
    assert_eq!(s.k, 120);
    run(&mut s, &mut log, pair, |_, _| {}).unwrap();
    assert_eq!(s.theta, expected);
    let (a, b) = (
        std::fs::read_to_string(&cut).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
    );
    for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        assert_eq!(x, y, "line {n} differs");
    }
    assert_eq!(a.lines().count(), b.lines().count());
    let _ = std::fs::remove_dir_all(&d);
}
