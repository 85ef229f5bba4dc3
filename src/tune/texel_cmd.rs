//! `punct-tune texel`: read sample files, extract features once, fit K and the weights, print
//! the result as `setoption` lines and `params!` defaults.

use std::path::PathBuf;
use std::time::Instant;

use crate::engine::search::params::{specs, specs_of, Group, Params};
use crate::referee::openings::mix;
use crate::rules::notation::parse_position;
use crate::rules::position::Variant;
use crate::tune::args::Args;
use crate::tune::data::read_all;
use crate::tune::dataset::Dataset;
use crate::tune::output::{params_heading, params_lines, setoption_lines};
use crate::tune::texel::{fit, loss, TexelConfig};

pub const HELP: &str = "\
punct-tune texel -data FILE [FILE...] [flags]
  Fits the evaluation weights to sampled positions (punct-referee -sample, punct-tune gen;
  text, JSON Lines or binary files).
  -params A,B,...   weights to fit (default: every Eval-group option but OppCoverCost)
  -set NAME=V ...   values of other options (the start point; the untuned ones stay fixed)
  -k K              fix the scale K instead of fitting it
  -valid F          share of games held out for validation (default 0.1)
  -epochs N         most epochs (default 50)     -patience N   stop after N epochs without a
                    better validation loss (default 3)
  -threads N        (default: all cores)         -variant standard|basic
";

/// Weights a Texel fit can move: the Eval group, minus those that enter the evaluation
/// non-linearly (they never appear in `features`).
fn default_tuned() -> Vec<String> {
    specs_of(Group::Eval)
        .filter(|s| s.name != "OppCoverCost")
        .map(|s| s.name.to_string())
        .collect()
}

pub fn run(words: &[String]) -> Result<(), String> {
    let mut a = Args::parse(words)?;
    let data: Vec<PathBuf> = a.all("-data").concat().iter().map(PathBuf::from).collect();
    if data.is_empty() {
        return Err(format!("-data FILE is needed\n{HELP}"));
    }
    let names: Vec<String> = match a.word("-params")? {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => default_tuned(),
    };
    let mut params = Params::default();
    a.set_params(&mut params)?;
    let mut tuned = Vec::new();
    for n in &names {
        let i = specs()
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(n))
            .ok_or_else(|| format!("-params: no option named '{n}'"))?;
        tuned.push(i);
    }
    let names: Vec<String> = tuned.iter().map(|&i| specs()[i].name.to_string()).collect();
    let k = a.num::<f64>("-k")?;
    let valid_share = a.num::<f64>("-valid")?.unwrap_or(0.1);
    if !(0.0..1.0).contains(&valid_share) {
        return Err("-valid must lie in [0, 1)".into());
    }
    let threads = a
        .num::<usize>("-threads")?
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let max_epochs = a.num::<usize>("-epochs")?.unwrap_or(50);
    let patience = a.num::<usize>("-patience")?.unwrap_or(3);
    let variant = match a.word("-variant")? {
        Some(v) => Variant::from_name(&v).ok_or_else(|| format!("-variant: '{v}'?"))?,
        None => Variant::Standard,
    };
    a.finish()?;

    let t0 = Instant::now();
    let samples = read_all(&data)?;
    let read_s = t0.elapsed().as_secs_f64();
    let is_valid = |game: u64| (mix(game ^ 0x7E57) % 10_000) as f64 / 10_000.0 < valid_share;
    let (valid_samples, train_samples): (Vec<_>, Vec<_>) =
        samples.iter().partition(|s| is_valid(s.game));
    let t1 = Instant::now();
    let build = |part: &[&crate::referee::records::sample::Sample]| {
        Dataset::build(
            part,
            |s| {
                let pos = parse_position(&s.position, variant).ok()?;
                Some((pos, s.result_for_side() as f32))
            },
            &params,
            &tuned,
            threads,
        )
    };
    let train = build(&train_samples);
    let valid = build(&valid_samples);
    let feat_s = t1.elapsed().as_secs_f64();
    let skipped = samples.len() - train.len() - valid.len();
    println!(
        "Read {} positions from {} file(s) in {read_s:.1}s ({skipped} unreadable skipped); \
         features in {feat_s:.1}s on {threads} threads; {} for training, {} held out",
        samples.len(),
        data.len(),
        train.len(),
        valid.len()
    );
    if train.is_empty() {
        return Err("no positions to fit".into());
    }
    let start: Vec<f64> = names
        .iter()
        .map(|n| params.get(n).unwrap_or(0) as f64)
        .collect();
    // Speed of one loss evaluation (the inner loop of every step), on one thread.
    let reps = (2_000_000 / train.len()).clamp(1, 50);
    let tl = Instant::now();
    let mut sink = 0.0;
    for _ in 0..reps {
        sink += loss(&train, &start, 0.01, 1);
    }
    let per_s = (reps * train.len()) as f64 / tl.elapsed().as_secs_f64();
    println!(
        "Loss evaluation: {:.1} M positions/s on one thread (check {sink:.3})",
        per_s / 1e6
    );
    let cfg = TexelConfig {
        k,
        max_epochs,
        patience,
        threads,
        bounds: tuned
            .iter()
            .map(|&i| (specs()[i].min as f64, specs()[i].max as f64))
            .collect(),
    };
    let result = fit(&train, &valid, &start, &cfg, |e| {
        println!(
            "epoch {:3}  train loss {:.6}  validation loss {:.6}  {:.2}s",
            e.epoch, e.train_loss, e.valid_loss, e.seconds
        )
    });
    println!(
        "K = {:.6}{}; validation loss {:.6} -> {:.6} ({} epochs, {:.1}s in all)",
        result.k,
        if k.is_some() { " (given)" } else { " (fitted)" },
        result.start_valid_loss,
        result.best_valid_loss,
        result.epochs.len(),
        t0.elapsed().as_secs_f64()
    );
    let values: Vec<i64> = result.weights.iter().map(|w| w.round() as i64).collect();
    println!(
        "\n{:<16} {:>8} {:>10} {:>8}",
        "weight", "start", "fitted", "value"
    );
    for ((n, s), (w, v)) in names
        .iter()
        .zip(&start)
        .zip(result.weights.iter().zip(&values))
    {
        println!("{n:<16} {s:>8} {w:>10.2} {v:>8}");
    }
    println!("\n# setoption lines");
    for l in setoption_lines(&names, &values) {
        println!("{l}");
    }
    println!("{}", params_heading());
    for l in params_lines(&names, &values) {
        println!("{l}");
    }
    println!(
        "\n# for punct-referee: {}",
        names
            .iter()
            .zip(&values)
            .map(|(n, v)| format!("option.{n}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}
