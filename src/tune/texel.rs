//! Texel tuning: fit evaluation weights to game results by minimising the logistic loss
//! (cross-entropy) between `sigmoid(K * eval)` and the result of each position, K fitted first
//! with the current weights. The loss is convex in the weights (eval is linear in them), so the
//! fit takes damped Newton steps (Levenberg–Marquardt): a handful of epochs, each one pass over
//! the data on every core. A held-out validation set decides when to stop and which weights win.

use std::time::Instant;

use crate::tune::dataset::Dataset;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct TexelConfig {
    /// K fixed instead of fitted.
    pub k: Option<f64>,
    pub max_epochs: usize,
    /// Epochs without a better validation loss before stopping.
    pub patience: usize,
    pub threads: usize,
    /// Bounds of each tuned weight.
    pub bounds: Vec<(f64, f64)>,
}

/// One epoch as reported.
#[derive(Clone, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
    pub seconds: f64,
}

/// The outcome of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    pub k: f64,
    /// Weights with the best validation loss.
    pub weights: Vec<f64>,
    pub start_train_loss: f64,
    pub start_valid_loss: f64,
    pub best_valid_loss: f64,
    pub epochs: Vec<Epoch>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a prediction `p` against a result `r` in [0, 1].
fn log_loss(p: f64, r: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
}

/// Splits rows `0..n` into `threads` ranges and sums `f` over them in parallel.
fn par_rows<T: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
    mut combine: impl FnMut(T),
) {
    let threads = threads.max(1).min(n.max(1));
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|a| {
                let f = &f;
                s.spawn(move || f(a..(a + chunk).min(n)))
            })
            .collect();
        for h in handles {
            combine(h.join().expect("loss thread"));
        }
    });
}

/// Mean loss of the data with weights `w` and scale `k`.
pub fn loss(data: &Dataset, w: &[f64], k: f64, threads: usize) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let mut total = 0.0;
    par_rows(
        data.len(),
        threads,
        |rows| {
            rows.map(|r| log_loss(sigmoid(k * data.eval(r, w)), data.target(r)))
                .sum::<f64>()
        },
        |x| total += x,
    );
    total / data.len() as f64
}

/// Mean loss, its gradient and its Hessian (n×n, row-major) in the weights.
fn derivatives(data: &Dataset, w: &[f64], k: f64, threads: usize) -> (f64, Vec<f64>, Vec<f64>) {
    let n = data.width;
    let mut loss_sum = 0.0;
    let mut grad = vec![0.0; n];
    let mut hess = vec![0.0; n * n];
    par_rows(
        data.len(),
        threads,
        |rows| {
            let mut l = 0.0;
            let mut g = vec![0.0; n];
            let mut h = vec![0.0; n * n];
            let mut coefs: Vec<(usize, f64)> = Vec::with_capacity(16);
            for r in rows {
                let p = sigmoid(k * data.eval(r, w));
                let t = data.target(r);
                l += log_loss(p, t);
                coefs.clear();
                data.for_each_entry(r, |i, c| coefs.push((i, c)));
                let gr = (p - t) * k;
                let hr = p * (1.0 - p) * k * k;
                for &(i, ci) in &coefs {
                    g[i] += gr * ci;
                    for &(j, cj) in &coefs {
                        h[i * n + j] += hr * ci * cj;
                    }
                }
            }
            (l, g, h)
        },
        |(l, g, h)| {
            loss_sum += l;
            grad.iter_mut().zip(g).for_each(|(a, b)| *a += b);
            hess.iter_mut().zip(h).for_each(|(a, b)| *a += b);
        },
    );
    let m = data.len().max(1) as f64;
    grad.iter_mut().for_each(|x| *x /= m);
    hess.iter_mut().for_each(|x| *x /= m);
    (loss_sum / m, grad, hess)
}

/// Solves `a x = b` (n×n, row-major) by Gaussian elimination with partial pivoting; None if
/// singular.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let piv =
            (col..n).max_by(|&x, &y| a[x * n + col].abs().total_cmp(&a[y * n + col].abs()))?;
        if a[piv * n + col].abs() < 1e-300 {
            return None;
        }
        if piv != col {
            for j in 0..n {
                a.swap(piv * n + j, col * n + j);
            }
            b.swap(piv, col);
        }
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            for j in col..n {
                a[row * n + j] -= f * a[col * n + j];
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|j| a[row * n + j] * x[j]).sum();
        x[row] = (b[row] - s) / a[row * n + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The K that minimises the loss with weights `w` (golden-section search over ln K).
pub fn fit_k(data: &Dataset, w: &[f64], threads: usize) -> f64 {
    let f = |lk: f64| loss(data, w, lk.exp(), threads);
    let (mut a, mut b) = ((1e-6f64).ln(), (10.0f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fits the weights, starting from `start`, reporting each epoch to `progress`.
pub fn fit(
    train: &Dataset,
    valid: &Dataset,
    start: &[f64],
    cfg: &TexelConfig,
    mut progress: impl FnMut(&Epoch),
) -> Fit {
    let threads = cfg.threads.max(1);
    let clamp = |w: &mut Vec<f64>| {
        for (x, &(lo, hi)) in w.iter_mut().zip(&cfg.bounds) {
            *x = x.clamp(lo, hi);
        }
    };
    let k = cfg.k.unwrap_or_else(|| fit_k(train, start, threads));
    let valid_loss = |w: &[f64]| {
        if valid.is_empty() {
            loss(train, w, k, threads)
        } else {
            loss(valid, w, k, threads)
        }
    };
    let mut w = start.to_vec();
    clamp(&mut w);
    let start_train_loss = loss(train, &w, k, threads);
    let start_valid_loss = valid_loss(&w);
    let mut best = (start_valid_loss, w.clone());
    let mut damping = 1e-3;
    let mut since_best = 0;
    let mut epochs = Vec::new();
    let t0 = Instant::now();
    for epoch in 1..=cfg.max_epochs {
        let (l, g, h) = derivatives(train, &w, k, threads);
        let n = w.len();
        // Levenberg–Marquardt: raise the damping until the step lowers the training loss.
        let mut accepted = None;
        for _ in 0..30 {
            let mut a = h.clone();
            for i in 0..n {
                a[i * n + i] += damping * (h[i * n + i] + 1e-9);
            }
            let step = solve(a, g.iter().map(|x| -x).collect());
            if let Some(step) = step {
                let mut cand: Vec<f64> = w.iter().zip(&step).map(|(a, b)| a + b).collect();
                clamp(&mut cand);
                let cl = loss(train, &cand, k, threads);
                if cl <= l {
                    accepted = Some((cand, cl));
                    damping = (damping / 3.0).max(1e-9);
                    break;
                }
            }
            damping *= 4.0;
        }
        let Some((cand, train_loss)) = accepted else {
            break; // no step lowers the loss: a minimum (within the bounds)
        };
        let moved = cand
            .iter()
            .zip(&w)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        w = cand;
        let vl = valid_loss(&w);
        let e = Epoch {
            epoch,
            train_loss,
            valid_loss: vl,
            seconds: t0.elapsed().as_secs_f64(),
        };
        progress(&e);
        epochs.push(e);
        if vl < best.0 - 1e-12 {
            best = (vl, w.clone());
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= cfg.patience {
                break;
            }
        }
        if moved < 1e-4 {
            break; // converged
        }
    }
    Fit {
        k,
        weights: best.1,
        start_train_loss,
        start_valid_loss,
        best_valid_loss: best.0,
        epochs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_small_system() {
        let x = solve(vec![2.0, 1.0, 1.0, 3.0], vec![3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert!(solve(vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 1.0]).is_none());
    }

    #[test]
    fn log_loss_is_smallest_at_the_result() {
        assert!(log_loss(0.9, 1.0) < log_loss(0.5, 1.0));
        assert!(log_loss(0.5, 0.5) < log_loss(0.9, 0.5));
    }
}
