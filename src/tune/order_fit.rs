//! `punct-tune order-fit`: fits the move-ordering model of `engine::search::order_model` to
//! labelled positions (`order_label`) and reports hit rates against the hand-made picker.
//!
//! The model is a conditional logit (Bradley-Terry over the legal moves of a position): the
//! probability of move m is exp(w·f(m)) / Σ exp(w·f(m')) over every legal move m', f one-hot
//! over the feature groups. The loss is the mean negative log-likelihood of the labelled best
//! moves plus an L2 penalty; it is convex, minimised by full-batch Adam. Moves of a position
//! with the same features are merged (with a count): most far-away drops look alike.

use std::collections::HashMap;
use std::time::Instant;

use crate::engine::search::movepick::MovePicker;
use crate::engine::search::order_model::{
    self, Context, Features, Model, GROUPS, GROUP_SIZES, NUM_WEIGHTS, OFFSETS,
};
use crate::engine::search::params::Params;
use crate::engine::search::threats::TouchCache;
use crate::referee::openings::mix;
use crate::rules::moves::Move;
use crate::rules::piece::PLACEMENT_SLOTS;
use crate::rules::position::Variant;
use crate::tune::args::Args;
use crate::tune::curve::{parse_sizes, resolve_sizes, Curve, Measure};
use crate::tune::order_label::{read_labels, Labelled};

pub const HELP: &str = "\
punct-tune order-fit -data FILE... [-test FILE...] [-out MODEL] [flags]
  Fits the move-ordering model (a conditional logit over the legal moves) to labelled
  positions (punct-tune order-label) and reports top-1/6/10 and top-5 % hit rates on -test
  against the picker's static order and its width-capped lists (the model off for those).
  -valid P (0.1)  share held out of -data for early stopping   -l2 X (0.0005)
  -iters N (300)  Adam steps   -lr X (0.05)   -model FILE: no fit, test this model
  -blend N (64)   the OrderModel value whose lists are tested   -widths 6,10,14,18
  -sizes A,B,...[,all]  a learning curve instead: one fit on the first A, B, ... (all:
                  every) training positions (the same validation set), losses and hit rates on -test
                  written to PREFIX.tsv and PREFIX.svg, the models to PREFIX-SIZE.txt
                  -curve PREFIX (order-curve)
";

/// One position's moves, merged by features.
struct Row {
    feats: Vec<Features>,
    counts: Vec<f64>,
    best: usize,
}

fn rows_of(items: &[Labelled], params: &Params) -> Vec<Row> {
    let mut out = Vec::with_capacity(items.len());
    for l in items {
        let ctx = Context::new(&l.position, &l.recent, params);
        let mut index: HashMap<Features, usize> = HashMap::new();
        let mut row = Row {
            feats: Vec::new(),
            counts: Vec::new(),
            best: usize::MAX,
        };
        for m in l.position.legal_moves() {
            let Some(f) = ctx.features(&l.position, m) else {
                continue;
            };
            let i = *index.entry(f).or_insert_with(|| {
                row.feats.push(f);
                row.counts.push(0.0);
                row.feats.len() - 1
            });
            row.counts[i] += 1.0;
            if m == l.best {
                row.best = i;
            }
        }
        if row.best != usize::MAX {
            out.push(row);
        }
    }
    out
}

#[inline]
fn dot(w: &[f64], f: &Features) -> f64 {
    (0..GROUPS).map(|g| w[OFFSETS[g] + f[g] as usize]).sum()
}

/// Mean negative log-likelihood of `rows` under `w` (and its gradient into `grad` if given).
fn loss(w: &[f64], rows: &[Row], mut grad: Option<&mut Vec<f64>>) -> f64 {
    if let Some(g) = grad.as_deref_mut() {
        g.iter_mut().for_each(|x| *x = 0.0);
    }
    let mut total = 0.0;
    let mut s = Vec::new();
    for r in rows {
        s.clear();
        s.extend(r.feats.iter().map(|f| dot(w, f)));
        let m = s.iter().copied().fold(f64::MIN, f64::max);
        let z: f64 = s
            .iter()
            .zip(&r.counts)
            .map(|(x, c)| c * (x - m).exp())
            .sum();
        total += z.ln() + m - s[r.best];
        if let Some(g) = grad.as_deref_mut() {
            for ((f, x), c) in r.feats.iter().zip(&s).zip(&r.counts) {
                let p = c * (x - m).exp() / z;
                for k in 0..GROUPS {
                    g[OFFSETS[k] + f[k] as usize] += p;
                }
            }
            let f = &r.feats[r.best];
            for k in 0..GROUPS {
                g[OFFSETS[k] + f[k] as usize] -= 1.0;
            }
        }
    }
    let n = rows.len().max(1) as f64;
    if let Some(g) = grad {
        g.iter_mut().for_each(|x| *x /= n);
    }
    total / n
}

/// Centinat integer weights, each group's mean taken out (the softmax does not see it).
fn to_model(w: &[f64]) -> Model {
    let mut weights = vec![0; NUM_WEIGHTS];
    for g in 0..GROUPS {
        let range = OFFSETS[g]..OFFSETS[g + 1];
        let mean = w[range.clone()].iter().sum::<f64>() / GROUP_SIZES[g] as f64;
        for i in range {
            weights[i] = ((w[i] - mean) * 100.0).round() as i32;
        }
    }
    Model { weights }
}

fn fit(train: &[Row], valid: &[Row], l2: f64, iters: usize, lr: f64) -> Model {
    let mut w = vec![0.0; NUM_WEIGHTS];
    let (mut m1, mut m2) = (vec![0.0; NUM_WEIGHTS], vec![0.0; NUM_WEIGHTS]);
    let mut grad = vec![0.0; NUM_WEIGHTS];
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut best = (f64::MAX, w.clone(), 0);
    let start = Instant::now();
    for t in 1..=iters {
        let l = loss(&w, train, Some(&mut grad)) + 0.5 * l2 * w.iter().map(|x| x * x).sum::<f64>();
        for i in 0..NUM_WEIGHTS {
            let g = grad[i] + l2 * w[i];
            m1[i] = b1 * m1[i] + (1.0 - b1) * g;
            m2[i] = b2 * m2[i] + (1.0 - b2) * g * g;
            let mh = m1[i] / (1.0 - f64::powi(b1, t as i32));
            let vh = m2[i] / (1.0 - f64::powi(b2, t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if t.is_multiple_of(10) || t == iters {
            let v = loss(&w, valid, None);
            println!(
                "iter {t:4}  train loss {l:.4}  valid loss {v:.4}  ({:.1} s)",
                start.elapsed().as_secs_f64()
            );
            if v < best.0 {
                best = (v, w.clone(), t);
            }
        }
    }
    println!("best valid loss {:.4} at iter {}", best.0, best.2);
    to_model(&best.1)
}

/// Tallies of where the labelled best move ranks.
#[derive(Default)]
struct Hits {
    n: usize,
    top: [usize; 3],
    /// Best move among the first `TOP_SHARE` of the legal moves.
    top_share: usize,
    /// Per tested width: best move in the list, and the list's total length.
    lists: Vec<(usize, usize)>,
    micros: f64,
}

const TOPS: [usize; 3] = [1, 6, 10];
/// SHARP's (Arimaa) measure: the expert move in the first 5 % of the ordered moves.
const TOP_SHARE: f64 = 0.05;

impl Hits {
    fn add_rank(&mut self, rank: usize, moves: usize) {
        for (k, &t) in TOPS.iter().enumerate() {
            self.top[k] += (rank < t) as usize;
        }
        self.top_share += (rank < (moves as f64 * TOP_SHARE).ceil() as usize) as usize;
    }
    fn pct(&self, x: usize) -> String {
        format!("{:5.1}%", 100.0 * x as f64 / self.n.max(1) as f64)
    }
}

/// The rank (0-based) of `best` when `moves` are sorted by `score` descending, ties by index.
fn rank_of(moves: &[Move], scores: &[i64], best: Move) -> usize {
    let Some(b) = moves.iter().position(|&m| m == best) else {
        return usize::MAX;
    };
    (0..moves.len())
        .filter(|&i| scores[i] > scores[b] || (scores[i] == scores[b] && i < b))
        .count()
}

fn list_hits(
    picker: &mut MovePicker,
    l: &Labelled,
    params: &Params,
    history: &[i32],
    widths: &[usize],
    hits: &mut Hits,
) {
    hits.lists.resize(widths.len(), (0, 0));
    for (k, &w) in widths.iter().enumerate() {
        picker.start(history);
        picker.pick(
            &l.position,
            0,
            w,
            params.block_cap as usize,
            None,
            [None; 2],
            params,
            history,
            &mut TouchCache::default(),
            true,
        );
        let len = picker.len(0);
        let found = (0..len).any(|i| picker.get(0, i).0 == l.best);
        hits.lists[k].0 += found as usize;
        hits.lists[k].1 += len;
    }
}

/// The legal moves but a pass (the moves the rankings order).
fn movable(l: &Labelled) -> Vec<Move> {
    let mut moves = l.position.legal_moves();
    moves.retain(|&mv| mv != Move::Pass);
    moves
}

/// The labelled move's rank under the model alone.
fn model_rank(l: &Labelled, moves: &[Move], model: &Model, params: &Params) -> usize {
    let ctx = Context::new(&l.position, &l.recent, params);
    let scores: Vec<i64> = (moves.iter())
        .map(|&mv| ctx.features(&l.position, mv).map_or(0, |f| model.score(&f)) as i64)
        .collect();
    rank_of(moves, &scores, l.best)
}

/// The labelled move's rank in the picker's static order (model off, no history).
fn picker_rank(
    picker: &mut MovePicker,
    l: &Labelled,
    moves: &[Move],
    params: &Params,
    history: &[i32],
) -> usize {
    let order = picker.order_root(&l.position, moves, params, history);
    (order.iter().position(|&mv| mv == l.best)).unwrap_or(usize::MAX)
}

fn test(items: &[Labelled], model: &Model, params: &Params, blend: i32, widths: &[usize]) {
    let history = vec![0i32; 2 * PLACEMENT_SLOTS];
    let mut picker = MovePicker::new(4);
    let (mut m, mut p, mut pl, mut ml) = (
        Hits::default(),
        Hits::default(),
        Hits::default(),
        Hits::default(),
    );
    // The picker alone is the baseline: the model is on by default, so turn it off here.
    let mut params = params.clone();
    params.order_model = 0;
    let params = &params;
    let mut with_model = params.clone();
    with_model.order_model = blend;
    let mut moves_total = 0usize;
    for l in items {
        let moves = movable(l);
        moves_total += moves.len();
        let t = Instant::now();
        m.add_rank(model_rank(l, &moves, model, params), moves.len());
        m.micros += t.elapsed().as_secs_f64() * 1e6;
        m.n += 1;
        // The picker's static order (the root's first iteration, no history).
        let t = Instant::now();
        p.add_rank(
            picker_rank(&mut picker, l, &moves, params, &history),
            moves.len(),
        );
        p.micros += t.elapsed().as_secs_f64() * 1e6;
        p.n += 1;
        // The width-capped lists of interior nodes, without and with the model.
        let t = Instant::now();
        list_hits(&mut picker, l, params, &history, widths, &mut pl);
        pl.micros += t.elapsed().as_secs_f64() * 1e6 / widths.len() as f64;
        pl.n += 1;
        let t = Instant::now();
        list_hits(&mut picker, l, &with_model, &history, widths, &mut ml);
        ml.micros += t.elapsed().as_secs_f64() * 1e6 / widths.len() as f64;
        ml.n += 1;
    }
    let n = items.len().max(1);
    println!(
        "\nHeld-out positions: {} (mean {:.0} legal moves)",
        items.len(),
        moves_total as f64 / n as f64
    );
    println!("| order | top 1 | top 6 | top 10 | top 5 % of the moves | µs per position |");
    println!("|---|---|---|---|---|---|");
    for (name, h) in [("model", &m), ("picker (static order)", &p)] {
        println!(
            "| {name} | {} | {} | {} | {} | {:.0} |",
            h.pct(h.top[0]),
            h.pct(h.top[1]),
            h.pct(h.top[2]),
            h.pct(h.top_share),
            h.micros / n as f64
        );
    }
    println!("\n| width | picker list: hit (mean length) | picker + model (OrderModel {blend}): hit (mean length) |");
    println!("|---|---|---|");
    for (k, w) in widths.iter().enumerate() {
        println!(
            "| {w} | {} ({:.1}) | {} ({:.1}) |",
            pl.pct(pl.lists[k].0),
            pl.lists[k].1 as f64 / n as f64,
            ml.pct(ml.lists[k].0),
            ml.lists[k].1 as f64 / n as f64
        );
    }
    println!(
        "\nCost of one list (µs per position): picker {:.0}, picker + model {:.0}",
        pl.micros / n as f64,
        ml.micros / n as f64
    );
}

/// Fits a model to `items`, holding out `valid_share` of them (by position hash) for early
/// stopping.
pub fn fit_labels(items: &[Labelled], valid_share: f64, l2: f64, iters: usize, lr: f64) -> Model {
    let params = Params::default();
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for l in items {
        let h = mix(l.position.hash());
        if ((h >> 11) as f64 / (1u64 << 53) as f64) < valid_share {
            valid.push(l.clone());
        } else {
            train.push(l.clone());
        }
    }
    let (train, valid) = (rows_of(&train, &params), rows_of(&valid, &params));
    let merged: usize = train.iter().map(|r| r.feats.len()).sum();
    println!(
        "{} training and {} validation positions, {:.0} distinct move descriptions per position",
        train.len(),
        valid.len(),
        merged as f64 / train.len().max(1) as f64,
    );
    let valid = if valid.is_empty() { &train } else { &valid };
    fit(&train, valid, l2, iters, lr)
}

/// The mean negative log-likelihood of the labelled moves under `model` (nats).
pub fn nll(model: &Model, items: &[Labelled]) -> f64 {
    let rows = rows_of(items, &Params::default());
    let w: Vec<f64> = model.weights.iter().map(|&x| x as f64 / 100.0).collect();
    loss(&w, &rows, None)
}

/// Fits one model per training size (the first `size` training positions, the same held-out
/// validation positions for all) and writes the learning curve: validation and test loss and
/// the model's hit rates on `tests`, beside the picker's static order.
#[allow(clippy::too_many_arguments)]
fn learning_curve(
    items: &[Labelled],
    tests: &[Labelled],
    sizes: &[usize],
    valid_share: f64,
    l2: f64,
    iters: usize,
    lr: f64,
    prefix: &str,
) -> Result<(), String> {
    let params = Params {
        order_model: 0,
        ..Params::default()
    };
    let (train, valid): (Vec<Labelled>, Vec<Labelled>) = (items.iter().cloned()).partition(|l| {
        ((mix(l.position.hash()) >> 11) as f64 / (1u64 << 53) as f64) >= valid_share
    });
    let (train, valid, test_rows) = (
        rows_of(&train, &params),
        rows_of(&valid, &params),
        rows_of(tests, &params),
    );
    if valid.is_empty() || tests.is_empty() {
        return Err("a learning curve needs validation positions (-valid) and -test".into());
    }
    let history = vec![0i32; 2 * PLACEMENT_SLOTS];
    let mut picker = MovePicker::new(4);
    let mut reference = Hits::default();
    for l in tests {
        let moves = movable(l);
        reference.add_rank(
            picker_rank(&mut picker, l, &moves, &params, &history),
            moves.len(),
        );
        reference.n += 1;
    }
    let pct = |h: &Hits, x: usize| 100.0 * x as f64 / h.n.max(1) as f64;
    let names = [
        "validation loss (nats)",
        "test loss (nats)",
        "top 1 (%)",
        "top 6 (%)",
        "top 5 % of moves (%)",
    ];
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut done = Vec::new();
    for size in resolve_sizes(sizes, train.len(), "order-fit")? {
        println!("\n== {size} training positions ==");
        let model = fit(&train[..size], &valid, l2, iters, lr);
        let file = format!("{prefix}-{size}.txt");
        std::fs::write(&file, model.to_text()).map_err(|e| format!("{file}: {e}"))?;
        let w: Vec<f64> = model.weights.iter().map(|&x| x as f64 / 100.0).collect();
        let mut hits = Hits::default();
        for l in tests {
            let moves = movable(l);
            hits.add_rank(model_rank(l, &moves, &model, &params), moves.len());
            hits.n += 1;
        }
        let row = [
            loss(&w, &valid, None),
            loss(&w, &test_rows, None),
            pct(&hits, hits.top[0]),
            pct(&hits, hits.top[1]),
            pct(&hits, hits.top_share),
        ];
        println!(
            "size {size}: {}",
            (names.iter().zip(row))
                .map(|(n, v)| format!("{n} {v:.4}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (k, v) in row.into_iter().enumerate() {
            values[k].push(v);
        }
        done.push(size);
    }
    let refs = [
        None,
        None,
        Some(pct(&reference, reference.top[0])),
        Some(pct(&reference, reference.top[1])),
        Some(pct(&reference, reference.top_share)),
    ];
    let curve = Curve {
        title: format!(
            "Move-ordering model: learning curve ({} validation, {} test positions)",
            valid.len(),
            tests.len()
        ),
        sizes: done,
        measures: (names.iter().zip(values).zip(refs))
            .map(|((name, values), r)| Measure {
                name: name.to_string(),
                values,
                reference: r.map(|v| ("picker's static order".to_string(), v)),
            })
            .collect(),
    };
    curve.write(prefix)
}

fn read_all(files: &[String]) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    for f in files {
        out.extend(read_labels(f, Variant::Standard)?);
    }
    Ok(out)
}

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let data: Vec<String> = a.all("-data").into_iter().flatten().collect();
    let tests: Vec<String> = a.all("-test").into_iter().flatten().collect();
    let out = a.word("-out")?;
    let model_file = a.word("-model")?;
    let valid_share = a.num::<f64>("-valid")?.unwrap_or(0.1);
    let l2 = a.num::<f64>("-l2")?.unwrap_or(0.0005);
    let iters = a.num::<usize>("-iters")?.unwrap_or(300);
    let lr = a.num::<f64>("-lr")?.unwrap_or(0.05);
    let blend = a.num::<i32>("-blend")?.unwrap_or(64);
    let widths: Vec<usize> = match a.word("-widths")? {
        Some(w) => w
            .split(',')
            .map(|x| x.parse().map_err(|_| format!("-widths: '{x}'")))
            .collect::<Result<_, _>>()?,
        None => vec![6, 10, 14, 18],
    };
    let sizes = a.word("-sizes")?.map(|x| parse_sizes(&x)).transpose()?;
    let curve = a.word("-curve")?;
    a.finish()?;
    if let Some(sizes) = sizes {
        if data.is_empty() || tests.is_empty() {
            return Err(format!("-sizes needs -data and -test\n{HELP}"));
        }
        let (items, tests) = (read_all(&data)?, read_all(&tests)?);
        let prefix = curve.unwrap_or_else(|| "order-curve".to_string());
        learning_curve(&items, &tests, &sizes, valid_share, l2, iters, lr, &prefix)?;
        return Ok(0);
    }
    let params = Params::default();
    let model = match (&model_file, data.is_empty()) {
        (Some(f), _) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
            Model::parse(&text)?
        }
        (None, true) => return Err(format!("-data or -model is needed\n{HELP}")),
        (None, false) => {
            let t = Instant::now();
            let items = read_all(&data)?;
            println!(
                "{} positions read in {:.1} s",
                items.len(),
                t.elapsed().as_secs_f64()
            );
            let model = fit_labels(&items, valid_share, l2, iters, lr);
            if let Some(o) = &out {
                std::fs::write(o, model.to_text()).map_err(|e| format!("{o}: {e}"))?;
                println!("model written to {o}");
            }
            model
        }
    };
    if !tests.is_empty() {
        let items = read_all(&tests)?;
        println!("test loss {:.4}", nll(&model, &items));
        let installed = order_model::install(Model {
            weights: model.weights.clone(),
        });
        debug_assert!(installed);
        test(&items, &model, &params, blend, &widths);
    }
    Ok(0)
}
