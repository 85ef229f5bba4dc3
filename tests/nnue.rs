//! The learned evaluation: the incremental accumulator against a computation from scratch over
//! random games (make and unmake), the network file's checks, the quantised network against
//! the float model it came from, and the `EvalFile` option of the engine process.

use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use punct::engine::search::nnue::features::{active, Snapshot, INPUTS};
use punct::engine::search::nnue::net::{file_size, Network};
use punct::engine::search::nnue::{self, Accumulator};
use punct::tune::net_data::{features, symmetries};
use punct::tune::net_train::{Model, Scratch};
use punct::{Position, Variant};

use crate::engine_common;
use engine_common::run_script;

/// The output and both perspectives' sums from scratch.
fn scratch(net: &Network, pos: &Position) -> (i32, [Vec<i32>; 2]) {
    let stm = pos.side_to_move().index();
    let sums = [
        net.accumulate(&active(pos, 0)),
        net.accumulate(&active(pos, 1)),
    ];
    let out = net.output(&sums[stm], &sums[1 - stm]);
    (out, sums)
}

fn check(acc: &mut Accumulator, net: &Network, pos: &Position, what: &str) {
    let got = acc.evaluate(net, pos);
    let (want, sums) = scratch(net, pos);
    assert_eq!(got, want, "{what}: {pos}");
    assert_eq!(acc.sums(0), &sums[0][..], "{what}: White's sums, {pos}");
    assert_eq!(acc.sums(1), &sums[1][..], "{what}: Black's sums, {pos}");
}

#[test]
fn the_incremental_accumulator_equals_a_computation_from_scratch_over_random_games() {
    let net = Network::random(24, 7);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
    let mut evals = 0;
    for game in 0..12 {
        let mut acc = Accumulator::new();
        let mut pos = Position::new(Variant::Standard);
        check(&mut acc, &net, &pos, "start");
        while !pos.is_finished() && pos.ply() < 120 {
            let moves = pos.legal_moves();
            // A little tree below the current position: children, grandchildren, back up.
            for _ in 0..3 {
                let a = moves[rng.gen_range(0..moves.len())];
                pos.make(a);
                check(&mut acc, &net, &pos, "child");
                if !pos.is_finished() {
                    let replies = pos.legal_moves();
                    let b = replies[rng.gen_range(0..replies.len())];
                    pos.make(b);
                    check(&mut acc, &net, &pos, "grandchild");
                    pos.unmake();
                }
                pos.unmake();
                check(&mut acc, &net, &pos, "after unmake");
                evals += 3;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
            // Sometimes skip evaluations for a few plies (a jump across the tree).
            if game % 3 != 0 || rng.gen_bool(0.5) {
                check(&mut acc, &net, &pos, "game move");
            }
        }
    }
    assert!(evals > 1000, "{evals}");
}

#[test]
fn a_network_file_reads_back_and_wrong_files_are_refused_with_the_reason() {
    let net = Network::random(16, 3);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_size(16));
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

    let err = |b: &[u8]| Network::from_bytes(b).unwrap_err();
    assert!(err(b"hello").contains("not a PÜNCT network file"));
    let mut v = bytes.clone();
    v[8] = 2;
    assert!(err(&v).contains("version 2"), "{}", err(&v));
    let mut v = bytes.clone();
    v[16..20].copy_from_slice(&(INPUTS as u32 + 1).to_le_bytes());
    assert!(err(&v).contains("inputs"), "{}", err(&v));
    assert!(err(&bytes[..bytes.len() - 1]).contains("bytes"));
    let mut v = bytes.clone();
    let mid = v.len() / 2;
    v[mid] ^= 1;
    assert!(err(&v).contains("checksum"), "{}", err(&v));

    let dir = std::env::temp_dir().join(format!("punct-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.nnue");
    std::fs::write(&path, &bytes).unwrap();
    let loaded = nnue::from_option(path.to_str().unwrap()).unwrap().unwrap();
    assert_eq!(*loaded, net);
    assert!(nnue::from_option("none").unwrap().is_none());
    assert_eq!(
        nnue::from_option("<default>").unwrap().unwrap().id,
        nnue::embedded().id
    );
    assert!(nnue::from_option(dir.join("missing").to_str().unwrap())
        .unwrap_err()
        .contains("cannot read"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_quantised_network_follows_the_float_model() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let model = Model::new(32, &mut rng);
    let net = model.quantise(400);
    let identity = &symmetries()[0];
    let mut s = Scratch::new(32);
    let (mut f0, mut f1) = (Vec::new(), Vec::new());
    let mut pos = Position::new(Variant::Standard);
    for _ in 0..60 {
        if pos.is_finished() {
            break;
        }
        let snap = Snapshot::of(&pos);
        let stm = snap.side as usize;
        features(&snap, identity, stm, &mut f0);
        features(&snap, identity, 1 - stm, &mut f1);
        let float = model.forward(&f0, &f1, 0.0, &mut s) * 400.0;
        let int = net.evaluate_features(&f0, &f1);
        assert!(
            (float - int as f32).abs() <= 6.0 + 0.05 * float.abs(),
            "{float} vs {int} at {pos}"
        );
        assert_eq!(int, Accumulator::new().evaluate(&net, &pos));
        let moves = pos.legal_moves();
        pos.make(moves[rng.gen_range(0..moves.len())]);
    }
}

#[test]
fn evalfile_switches_the_evaluation_and_a_bad_file_keeps_the_previous_one() {
    let (_, out) = run_script(
        &[],
        "uci\nsetoption name EvalFile value /no/such/net.nnue\nisready\neval\n\
         setoption name EvalFile value <default>\neval\n\
         setoption name EvalFile value none\ngo nodes 300\nquit\n",
    );
    assert!(out.contains(&format!(
        "option name EvalFile type string default {}",
        nnue::DEFAULT_EVAL_FILE
    )));
    assert!(
        out.contains("info string error: setoption: EvalFile: cannot read /no/such/net.nnue"),
        "{out}"
    );
    assert!(out.contains("EvalFile keeps its value"), "{out}");
    let nets: Vec<&str> = out.lines().filter(|l| l.starts_with("eval net")).collect();
    assert_eq!(nets.len(), 2, "{out}");
    assert!(nets[1].contains("EvalFile <default>") && nets[1].contains("the search uses it"));
    assert!(out.contains("bestmove"), "{out}");

    // The command line: eval shows the network's output beside the hand evaluation.
    let cli = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["--evalfile", "<default>", "eval"])
        .output()
        .unwrap();
    let text = String::from_utf8(cli.stdout).unwrap();
    assert!(
        text.contains("eval total") && text.contains("eval net"),
        "{text}"
    );
}

#[test]
fn a_residual_network_adds_its_share_of_the_hand_evaluation() {
    let mut net = Network::random(8, 11);
    net.hand_weight = 512;
    let net = Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(net.hand_weight, 512);
    let params = punct::engine::search::params::Params::default();
    let mut pos = Position::new(Variant::Standard);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..30 {
        let hand = punct::engine::search::evaluate::evaluate(&pos, &params);
        let own = Accumulator::new().evaluate(&net, &pos);
        let both = nnue::evaluate(&net, &mut Accumulator::new(), &pos, &params);
        assert_eq!(both, own + hand * 512 / 1024, "{pos}");
        let moves = pos.legal_moves();
        pos.make(moves[rng.gen_range(0..moves.len())]);
    }
}

/// `train-net` reads its data in every sample format: the same positions written as text, JSON
/// Lines and binary load into the same training and validation sets with the same targets.
#[test]
fn the_trainer_reads_every_sample_format_alike() {
    use punct::referee::players::player::Score;
    use punct::tune::data::{encode, header, Format, Sample};
    use punct::tune::net_data::{load, TargetConfig};

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    let mut samples = Vec::new();
    for game in 1..=8u64 {
        let mut pos = Position::new(Variant::Standard);
        let result = ["1-0", "0-1", "1/2-1/2"][game as usize % 3];
        while !pos.is_finished() && pos.ply() < 40 {
            let moves = pos.legal_moves();
            let best = moves[rng.gen_range(0..moves.len())];
            if pos.ply() >= 4 {
                samples.push(Sample {
                    position: pos.to_string(),
                    side: pos.side_to_move(),
                    ply: pos.ply(),
                    score: Some(match rng.gen_range(0..6) {
                        0 => Score::Mate(
                            rng.gen_range(1..=3) * if rng.gen_bool(0.5) { 1 } else { -1 },
                        ),
                        _ => Score::Cp(rng.gen_range(-900..900)),
                    }),
                    depth: Some(rng.gen_range(1..6)),
                    result: result.to_string(),
                    game,
                    best: Some(best),
                });
            }
            pos.make(best);
        }
    }
    let dir = std::env::temp_dir().join(format!("punct-net-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = TargetConfig {
        lambda: 0.3,
        scale: 400.0,
        valid: 0.25,
    };
    let mut loaded = Vec::new();
    for (format, name) in [
        (Format::Text, "d.txt"),
        (Format::Jsonl, "d.jsonl"),
        (Format::Bin, "d.bin"),
    ] {
        let mut bytes = header(format, Variant::Standard);
        for s in &samples {
            encode(format, s, &mut bytes).unwrap();
        }
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let data = load(&[path], &cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(data.unreadable, 0, "{name}");
        loaded.push((name, data));
    }
    std::fs::remove_dir_all(&dir).ok();
    let (_, text) = &loaded[0];
    assert_eq!(text.train.len() + text.valid.len(), samples.len());
    assert!(!text.train.is_empty() && !text.valid.is_empty());
    for (name, other) in &loaded[1..] {
        for (a, b) in [(&text.train, &other.train), (&text.valid, &other.valid)] {
            assert_eq!(a.len(), b.len(), "{name}");
            for (x, y) in a.iter().zip(b.iter()) {
                assert_eq!(x.snap, y.snap, "{name}");
                assert_eq!(x.target, y.target, "{name}");
                assert_eq!(x.hand_eval, y.hand_eval, "{name}");
            }
        }
    }
}
