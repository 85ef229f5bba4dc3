//! `punct-tune train-net`: trains the evaluation network (`engine::search::nnue`) in floating
//! point on sampled positions, then quantises it into the engine's file format.
//!
//! The float model is the engine's: `a[p] = clamp(b + Σ W[f], 0, 1)` per perspective (inputs
//! `f` as `nnue::features` defines them), `o = w · [a[stm], a[opp]] + c`, the win chance
//! `sigmoid(o)`; loss the mean squared error of the win chance against the target
//! `lambda * result + (1 - lambda) * sigmoid(score / scale)`. Adam on mini-batches, the
//! learning rate on a cosine from `-lr` to a tenth of it, one random board symmetry per
//! position and epoch, the model of the best validation loss kept. Quantised: `W`, `b` times
//! `QA`, `w` times `QB`, `c` times `QA·QB`, and the engine's output `o · scale` centipawns.

use std::path::PathBuf;
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::search::nnue::features::INPUTS;
use crate::engine::search::nnue::net::{Network, QA, QB};
use crate::tune::args::Args;
use crate::tune::curve::{parse_sizes, resolve_sizes, Curve, Measure};
use crate::tune::net_data::{self, features, sigmoid, symmetries, NetSample, Symmetry};

pub const HELP: &str = "\
punct-tune train-net -data FILE[,FILE...] -out NET [flags]
  Trains the evaluation network on sampled positions (punct-tune gen) and writes it for the
  engine's EvalFile option.
  -hidden N    hidden units per perspective (default 128)
  -epochs N    (default 30)          -batch N     positions per step (default 1024)
  -lr X        Adam's step (default 0.001, cosine to a tenth)
  -wd X        decoupled weight decay of the weights (AdamW; default 0)
  -lambda L    weight of the game result against the search's score (default 0.5)
  -scale S     centipawns per logit: the score's sigmoid and the net's unit (default 400)
  -valid F     share of games held out (default 0.1)     -augment true|false  (default true)
  -residual true|false  the hand evaluation is added to the output, the network learns the
               rest (the engine then computes both; default false)
  -threads N   (default 1)           -seed N      (default 1)
  -sizes A,B,...[,all]  a learning curve instead: one network per training size (the first A, B,
               ... training positions, all: every one; the same held-out games), written to PREFIX-A.nnue...,
               validation losses to PREFIX.tsv and PREFIX.svg   -curve PREFIX (net-curve)
  -compare NET[,NET...]  the validation loss of existing networks on the same held-out games
               (<default>: the embedded one); alone (no -out, no -sizes) nothing is trained
";

/// The float network.
#[derive(Clone)]
pub struct Model {
    pub hidden: usize,
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: f32,
    /// The weight of the hand evaluation's logit in the output (a residual network; 0 else).
    pub hand_w: f32,
    /// Whether the hand evaluation enters the output (`-residual true`).
    pub residual: bool,
    /// Centipawns per logit.
    pub scale: f32,
}

impl Model {
    pub fn new(hidden: usize, rng: &mut impl Rng) -> Model {
        let r = 1.0 / (2 * hidden) as f32;
        Model {
            hidden,
            ft_w: (0..INPUTS * hidden)
                .map(|_| rng.gen_range(-0.08..0.08))
                .collect(),
            ft_b: vec![0.25; hidden],
            out_w: (0..2 * hidden)
                .map(|_| rng.gen_range(-r.sqrt()..r.sqrt()))
                .collect(),
            out_b: 0.0,
            hand_w: 0.0,
            residual: false,
            scale: 400.0,
        }
    }

    fn zeros(hidden: usize) -> Model {
        Model {
            hidden,
            ft_w: vec![0.0; INPUTS * hidden],
            ft_b: vec![0.0; hidden],
            out_w: vec![0.0; 2 * hidden],
            out_b: 0.0,
            hand_w: 0.0,
            residual: false,
            scale: 400.0,
        }
    }

    fn accumulate(&self, feats: &[usize], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.ft_b);
        for &f in feats {
            for (a, &w) in acc.iter_mut().zip(&self.ft_w[f * h..(f + 1) * h]) {
                *a += w;
            }
        }
    }

    /// The output (a logit) for the inputs each side sees and the hand evaluation's logit
    /// (used by a residual network only).
    pub fn forward(&self, stm: &[usize], opp: &[usize], hand: f32, scratch: &mut Scratch) -> f32 {
        let h = self.hidden;
        self.accumulate(stm, &mut scratch.acc[0]);
        self.accumulate(opp, &mut scratch.acc[1]);
        let mut o = self.out_b + self.hand_w * hand;
        for (half, acc) in scratch.acc.iter().enumerate() {
            for (a, &w) in acc.iter().zip(&self.out_w[half * h..(half + 1) * h]) {
                o += a.clamp(0.0, 1.0) * w;
            }
        }
        o
    }

    /// Adds the gradient of one position's loss to `g`; returns the loss.
    fn backward(
        &self,
        stm: &[usize],
        opp: &[usize],
        (target, hand): (f32, f32),
        g: &mut Model,
        s: &mut Scratch,
    ) -> f32 {
        let h = self.hidden;
        let o = self.forward(stm, opp, hand, s);
        let p = sigmoid(o as f64) as f32;
        let d = 2.0 * (p - target) * p * (1.0 - p);
        g.out_b += d;
        g.hand_w += d * hand;
        for half in 0..2 {
            let w = &self.out_w[half * h..(half + 1) * h];
            let gw = &mut g.out_w[half * h..(half + 1) * h];
            for i in 0..h {
                let a = s.acc[half][i];
                gw[i] += d * a.clamp(0.0, 1.0);
                s.grad[half][i] = if a > 0.0 && a < 1.0 { d * w[i] } else { 0.0 };
            }
            for (gb, &x) in g.ft_b.iter_mut().zip(&s.grad[half]) {
                *gb += x;
            }
            for &f in if half == 0 { stm } else { opp } {
                for (gw, &x) in g.ft_w[f * h..(f + 1) * h].iter_mut().zip(&s.grad[half]) {
                    *gw += x;
                }
            }
        }
        (p - target) * (p - target)
    }

    fn params_mut(&mut self) -> [&mut [f32]; 5] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.out_w,
            std::slice::from_mut(&mut self.out_b),
            std::slice::from_mut(&mut self.hand_w),
        ]
    }

    fn params(&self) -> [&[f32]; 5] {
        [
            &self.ft_w,
            &self.ft_b,
            &self.out_w,
            std::slice::from_ref(&self.out_b),
            std::slice::from_ref(&self.hand_w),
        ]
    }

    /// The engine's network: weights rounded to the integer scales.
    pub fn quantise(&self, scale: i32) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let net = Network {
            hidden: self.hidden,
            scale,
            ft_bias: self.ft_b.iter().map(|&x| q(x, QA)).collect(),
            ft_weights: self.ft_w.iter().map(|&x| q(x, QA)).collect(),
            out_weights: self.out_w.iter().map(|&x| q(x, QB)).collect(),
            out_bias: (self.out_b * (QA * QB) as f32).round() as i32,
            hand_weight: (self.hand_w * 1024.0).round() as i32,
            id: 0,
        };
        Network::from_bytes(&net.to_bytes()).expect("a quantised network reads back")
    }
}

/// Per-thread buffers.
pub struct Scratch {
    acc: [Vec<f32>; 2],
    grad: [Vec<f32>; 2],
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            grad: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

/// The inputs of a sample under a symmetry, side to move's then opponent's.
fn both(sample: &NetSample, sym: &Symmetry, feats: &mut [Vec<usize>; 2]) {
    let stm = sample.snap.side as usize;
    let [a, b] = feats;
    features(&sample.snap, sym, stm, a);
    features(&sample.snap, sym, 1 - stm, b);
}

/// The hand evaluation's logit as a residual network's input (0 for a pure network).
fn hand_input(model: &Model, x: &NetSample) -> f32 {
    if model.residual {
        x.hand_eval as f32 / model.scale
    } else {
        0.0
    }
}

/// Mean squared error of the float model over `data` (no symmetry).
pub fn float_loss(model: &Model, data: &[NetSample], identity: &Symmetry) -> f64 {
    let mut s = Scratch::new(model.hidden);
    let mut f = [Vec::new(), Vec::new()];
    let mut sum = 0.0;
    for x in data {
        both(x, identity, &mut f);
        let p = sigmoid(model.forward(&f[0], &f[1], hand_input(model, x), &mut s) as f64);
        sum += (p - x.target as f64).powi(2);
    }
    sum / data.len().max(1) as f64
}

/// Mean squared error of the quantised network (integer inference, as in the engine).
pub fn net_loss(net: &Network, data: &[NetSample], identity: &Symmetry) -> f64 {
    let mut f = [Vec::new(), Vec::new()];
    let mut sum = 0.0;
    for x in data {
        both(x, identity, &mut f);
        let cp = net.evaluate_features(&f[0], &f[1]) + x.hand_eval * net.hand_weight / 1024;
        let p = sigmoid(cp as f64 / net.scale as f64);
        sum += (p - x.target as f64).powi(2);
    }
    sum / data.len().max(1) as f64
}

/// The same error of the hand evaluation at its best scale (fitted on `data`): the baseline.
pub fn hand_loss(data: &[NetSample]) -> (f64, f64) {
    let loss = |scale: f64| {
        data.iter()
            .map(|x| (sigmoid(x.hand_eval as f64 / scale) - x.target as f64).powi(2))
            .sum::<f64>()
            / data.len().max(1) as f64
    };
    (100..=2000)
        .step_by(10)
        .map(|s| (loss(s as f64), s as f64))
        .fold((f64::MAX, 0.0), |a, b| if b.0 < a.0 { b } else { a })
}

struct Adam {
    m: Model,
    v: Model,
    t: i32,
}

impl Adam {
    /// One step; `wd` is the decoupled weight decay (AdamW) of the weights, not the biases.
    fn step(&mut self, model: &mut Model, g: &Model, lr: f32, wd: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let step = lr * c2.sqrt() / c1;
        for (k, (((p, g), m), v)) in model
            .params_mut()
            .into_iter()
            .zip(g.params())
            .zip(self.m.params_mut())
            .zip(self.v.params_mut())
            .enumerate()
        {
            if wd > 0.0 && (k == 0 || k == 2) {
                p.iter_mut().for_each(|x| *x -= lr * wd * *x);
            }
            for i in 0..p.len() {
                let gi = g[i];
                m[i] = B1 * m[i] + (1.0 - B1) * gi;
                v[i] = B2 * v[i] + (1.0 - B2) * gi * gi;
                p[i] -= step * m[i] / (v[i].sqrt() + 1e-8);
            }
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Decoupled weight decay (0: none).
    pub wd: f32,
    pub threads: usize,
    pub seed: u64,
    pub augment: bool,
    /// A residual network: the hand evaluation's logit is an input of the output (its weight
    /// learnt, starting at 1), the network learns the rest.
    pub residual: bool,
    /// Centipawns per logit.
    pub scale: f32,
}

/// Trains; `report(epoch, train loss, validation loss, seconds)` after every epoch. Returns
/// the model of the best validation loss.
pub fn train(
    train: &[NetSample],
    valid: &[NetSample],
    cfg: &TrainConfig,
    mut report: impl FnMut(usize, f64, f64, f64),
) -> Model {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let syms = symmetries();
    let mut model = Model::new(cfg.hidden, &mut rng);
    model.residual = cfg.residual;
    model.scale = cfg.scale;
    if cfg.residual {
        model.hand_w = 1.0;
    }
    let mut adam = Adam {
        m: Model::zeros(cfg.hidden),
        v: Model::zeros(cfg.hidden),
        t: 0,
    };
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Model> = (0..threads).map(|_| Model::zeros(cfg.hidden)).collect();
    let mut scratch: Vec<Scratch> = (0..threads).map(|_| Scratch::new(cfg.hidden)).collect();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (float_loss(&model, valid, &syms[0]), model.clone());
    let t0 = Instant::now();
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let progress = (epoch - 1) as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
        let sym_of: Vec<u8> = (0..train.len())
            .map(|_| if cfg.augment { rng.gen_range(0..12) } else { 0 })
            .collect();
        let mut total = 0.0f64;
        for batch in order.chunks(cfg.batch) {
            let per = batch.len().div_ceil(threads);
            let model_ref = &model;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(per)
                    .zip(grads.iter_mut().zip(scratch.iter_mut()))
                    .map(|(part, (g, s))| {
                        let (syms, sym_of) = (&syms, &sym_of);
                        scope.spawn(move || {
                            for p in g.params_mut() {
                                p.iter_mut().for_each(|x| *x = 0.0);
                            }
                            let mut loss = 0.0f64;
                            let mut feats = [Vec::new(), Vec::new()];
                            for &i in part {
                                both(&train[i], &syms[sym_of[i] as usize], &mut feats);
                                let t = (train[i].target, hand_input(model_ref, &train[i]));
                                loss += model_ref.backward(&feats[0], &feats[1], t, g, s) as f64;
                            }
                            loss
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            total += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(per);
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (a, b) in first[0].params_mut().into_iter().zip(other.params()) {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                }
            }
            let n = batch.len() as f32;
            for p in first[0].params_mut() {
                p.iter_mut().for_each(|x| *x /= n);
            }
            adam.step(&mut model, &first[0], lr, cfg.wd);
        }
        let v = float_loss(&model, valid, &syms[0]);
        report(
            epoch,
            total / train.len().max(1) as f64,
            v,
            t0.elapsed().as_secs_f64(),
        );
        if v < best.0 {
            best = (v, model.clone());
        }
    }
    best.1
}

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let data: Vec<PathBuf> = a
        .all("-data")
        .concat()
        .iter()
        .flat_map(|w| w.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty())
        .map(PathBuf::from)
        .collect();
    if data.is_empty() {
        return Err(format!("-data FILE is needed\n{HELP}"));
    }
    let sizes = a.word("-sizes")?.map(|x| parse_sizes(&x)).transpose()?;
    // Networks to measure on the same held-out games (`<default>`: the embedded one).
    let compare: Vec<String> = a
        .word("-compare")?
        .map(|w| w.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let mut compared = Vec::new();
    for name in &compare {
        match crate::engine::search::nnue::from_option(name)? {
            Some(net) => compared.push((name.clone(), net)),
            None => return Err(format!("-compare {name}: not a network")),
        }
    }
    let curve = a.word("-curve")?.unwrap_or_else(|| "net-curve".to_string());
    let out = match (a.word("-out")?, &sizes) {
        (Some(o), _) => o,
        (None, Some(_)) => String::new(),
        (None, None) if !compared.is_empty() => String::new(),
        (None, None) => return Err("-out FILE is needed".into()),
    };
    let cfg = TrainConfig {
        hidden: a.num("-hidden")?.unwrap_or(128),
        epochs: a.num("-epochs")?.unwrap_or(30),
        batch: a.num::<usize>("-batch")?.unwrap_or(1024).max(1),
        lr: a.num("-lr")?.unwrap_or(0.001),
        wd: a.num("-wd")?.unwrap_or(0.0),
        threads: a.num::<usize>("-threads")?.unwrap_or(1).max(1),
        seed: a.num("-seed")?.unwrap_or(1),
        augment: a.word("-augment")?.is_none_or(|v| v != "false"),
        residual: a.word("-residual")?.is_some_and(|v| v == "true"),
        scale: a.num("-scale")?.unwrap_or(400.0),
    };
    if cfg.hidden == 0 || cfg.hidden > crate::engine::search::nnue::net::MAX_HIDDEN {
        return Err("-hidden must lie in 1..=1024".into());
    }
    let targets = net_data::TargetConfig {
        lambda: a.num("-lambda")?.unwrap_or(0.5),
        scale: cfg.scale as f64,
        valid: a.num("-valid")?.unwrap_or(0.1),
    };
    if !(0.0..=1.0).contains(&targets.lambda) || targets.scale < 1.0 {
        return Err("-lambda must lie in [0, 1] and -scale be at least 1".into());
    }
    a.finish()?;
    let t0 = Instant::now();
    let d = net_data::load(&data, &targets)?;
    println!(
        "Read {} positions ({} for training, {} held out by game; {} unreadable) in {:.1}s",
        d.train.len() + d.valid.len(),
        d.train.len(),
        d.valid.len(),
        d.unreadable,
        t0.elapsed().as_secs_f64()
    );
    if d.train.is_empty() || d.valid.is_empty() {
        return Err("too few positions to train and validate".into());
    }
    let mean: f64 = d.valid.iter().map(|x| x.target as f64).sum::<f64>() / d.valid.len() as f64;
    let constant: f64 = d
        .valid
        .iter()
        .map(|x| (x.target as f64 - mean).powi(2))
        .sum::<f64>()
        / d.valid.len() as f64;
    let (hand, hand_scale) = hand_loss(&d.valid);
    println!(
        "Validation loss of a constant {constant:.6}; of the hand evaluation {hand:.6} \
         (at its best scale, {hand_scale} cp per logit)"
    );
    for (name, net) in &compared {
        let loss = net_loss(net, &d.valid, &symmetries()[0]);
        println!(
            "Validation loss of {name} ({} hidden, {}): {loss:.6}",
            net.hidden,
            if net.hand_weight != 0 {
                "residual"
            } else {
                "pure"
            }
        );
    }
    if out.is_empty() && sizes.is_none() {
        return Ok(0);
    }
    println!("{cfg:?}, lambda {} scale {}", targets.lambda, targets.scale);
    if let Some(sizes) = sizes {
        return learning_curve(&d, &cfg, &sizes, hand, targets.scale, &curve);
    }
    let model = train(&d.train, &d.valid, &cfg, |e, t, v, s| {
        println!("epoch {e:3}  train loss {t:.6}  validation loss {v:.6}  {s:.1}s")
    });
    let syms = symmetries();
    let float = float_loss(&model, &d.valid, &syms[0]);
    let net = model.quantise(targets.scale.round() as i32);
    if cfg.residual {
        println!(
            "Hand evaluation weight {:.3} (file: {}/1024)",
            model.hand_w, net.hand_weight
        );
    }
    let quant = net_loss(&net, &d.valid, &syms[0]);
    println!(
        "Validation loss: float {float:.6}, quantised {quant:.6} (hand evaluation {hand:.6}); \
         {:.1}s in all",
        t0.elapsed().as_secs_f64()
    );
    std::fs::write(&out, net.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "Wrote {out} ({} bytes, {} hidden units): setoption name EvalFile value {out}",
        net.to_bytes().len(),
        net.hidden
    );
    Ok(0)
}

/// One network per training size (the first `size` training positions; the held-out games
/// the same for all), each written to `PREFIX-SIZE.nnue`, and the curve of their validation
/// losses beside the hand evaluation's.
fn learning_curve(
    d: &net_data::NetData,
    cfg: &TrainConfig,
    sizes: &[usize],
    hand: f64,
    scale: f64,
    prefix: &str,
) -> Result<u8, String> {
    let syms = symmetries();
    let (mut done, mut losses) = (Vec::new(), Vec::new());
    for size in resolve_sizes(sizes, d.train.len(), "train-net")? {
        println!("\n== {size} training positions ==");
        let model = train(&d.train[..size], &d.valid, cfg, |e, t, v, s| {
            println!("epoch {e:3}  train loss {t:.6}  validation loss {v:.6}  {s:.1}s")
        });
        let net = model.quantise(scale.round() as i32);
        let loss = net_loss(&net, &d.valid, &syms[0]);
        let file = format!("{prefix}-{size}.nnue");
        std::fs::write(&file, net.to_bytes()).map_err(|e| format!("{file}: {e}"))?;
        println!("size {size}: validation loss {loss:.6} (hand {hand:.6}), {file}");
        done.push(size);
        losses.push(loss);
    }
    let kind = if cfg.residual { "residual" } else { "pure" };
    Curve {
        title: format!(
            "Evaluation network ({kind}, {} hidden): learning curve ({} held-out positions)",
            cfg.hidden,
            d.valid.len()
        ),
        sizes: done,
        measures: vec![Measure {
            name: "validation loss".to_string(),
            values: losses,
            reference: Some(("hand evaluation".to_string(), hand)),
        }],
    }
    .write(prefix)?;
    Ok(0)
}
