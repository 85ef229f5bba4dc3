//! Generalized sequential probability ratio test (GSPRT), as fishtest and fastchess run it.
//!
//! The results are a sample of a discrete distribution over known scores: 0, ½, 1 for single
//! games (trinomial) or 0, ¼, ½, ¾, 1 for game pairs (pentanomial), with no model of draws. H0 says
//! the expected score is s0, H1 says s1. For each hypothesis we take the maximum-likelihood
//! distribution among those with that expected score, and the log-likelihood ratio is
//! LLR = Σ nⱼ·ln(p1ⱼ / p0ⱼ).
//!
//! The constrained maximum (M. Van den Bergh, "support_MLE_multinomial"): maximise Σ nⱼ ln pⱼ with
//! Σ pⱼ = 1 and Σ aⱼ pⱼ = s. A Lagrange multiplier gives pⱼ = p̂ⱼ / (1 + λ(aⱼ − s)), where p̂ is the
//! observed frequency and λ is the root of the secular equation Σ p̂ⱼ(aⱼ − s)/(1 + λ(aⱼ − s)) = 0.
//! That function falls strictly on the interval where every 1 + λ(aⱼ − s) > 0, from +∞ to −∞, so
//! bisection finds its single root.
//!
//! Zero counts are replaced by 1e-3 first, as fishtest does, so that every bin stays possible and
//! the root exists. Models for the bounds elo0/elo1: `Logistic`, standard Elo, s = 1/(1 + 10^(−elo/400));
//! `Normalized` (fastchess's default), nElo, s = ½ + nElo·σ_game·ln10/800 with σ_game measured from
//! the (regularised) results: σ for games, √2·σ_pair for pairs.

use super::elo::{
    pentanomial_bins, sample, score_from_elo, wdl_bins, Pentanomial, Wdl, NELO_SCALE,
};
use serde::{Deserialize, Serialize};

/// What each empty result bin counts as (fishtest's regularisation).
pub const ZERO_COUNT: f64 = 1e-3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtModel {
    /// elo0/elo1 are normalized Elo (fastchess default).
    Normalized,
    /// elo0/elo1 are logistic Elo (cutechess).
    Logistic,
}

impl std::str::FromStr for SprtModel {
    type Err = String;
    fn from_str(s: &str) -> Result<SprtModel, String> {
        match s.to_ascii_lowercase().as_str() {
            "normalized" | "normalised" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err(format!(
                "unknown SPRT model '{s}' (expected normalized or logistic)"
            )),
        }
    }
}

impl std::fmt::Display for SprtModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
}

impl SprtDecision {
    /// "H0" or "H1", as the reports name the accepted hypothesis.
    pub fn hypothesis(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
        }
    }
}

/// The decision that stopped a sequential test and the evidence at that moment. Games in flight
/// still finish and are counted afterwards; they can move the LLR back inside the bounds, but the
/// test was decided when it first crossed one (that is what makes it sequential).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStop {
    pub decision: SprtDecision,
    pub llr: f64,
    /// Games counted when the bound was crossed.
    pub games: u64,
}

impl Sprt {
    /// Checks the parameters: 0 < alpha, beta and alpha + beta < 1 (so that lower < 0 < upper),
    /// elo0 < elo1, all finite.
    pub fn validate(&self) -> Result<(), String> {
        let finite = [self.elo0, self.elo1, self.alpha, self.beta]
            .iter()
            .all(|x| x.is_finite());
        if !finite {
            return Err("SPRT parameters must be finite numbers".into());
        }
        if !(self.alpha > 0.0 && self.beta > 0.0 && self.alpha + self.beta < 1.0) {
            return Err(format!(
                "SPRT alpha and beta must be positive with alpha + beta < 1 (got alpha={}, beta={})",
                self.alpha, self.beta
            ));
        }
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "SPRT elo0 must be below elo1 (got elo0={}, elo1={})",
                self.elo0, self.elo1
            ));
        }
        Ok(())
    }

    /// (lower, upper) = (ln(β/(1−α)), ln((1−β)/α)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// LLR of H1 against H0 from game-pair counts; 0 with no pairs.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&pentanomial_bins(p), true)
    }

    /// LLR of H1 against H0 from single-game counts; 0 with no games.
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        self.llr(&wdl_bins(w), false)
    }

    /// The LLR a match reports: from its game pairs when it has any, else from its games.
    pub fn llr_of(&self, w: &Wdl, p: &Pentanomial) -> f64 {
        if p.pairs() > 0 {
            self.llr_pentanomial(p)
        } else {
            self.llr_trinomial(w)
        }
    }

    /// H1 at or above the upper bound, H0 at or below the lower one, otherwise keep playing.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }

    /// The hypothesised expected scores (s0, s1) for these results (bins hold raw counts).
    pub fn hypothesis_scores(&self, bins: &[(f64, f64)], pairs: bool) -> (f64, f64) {
        let to_score = |elo: f64| match self.model {
            SprtModel::Logistic => score_from_elo(elo),
            SprtModel::Normalized => {
                let variance = sample(&regularise(bins)).map_or(0.0, |m| m.variance);
                let sigma_game = if pairs {
                    (2.0 * variance).sqrt()
                } else {
                    variance.sqrt()
                };
                0.5 + elo * sigma_game / NELO_SCALE
            }
        };
        (to_score(self.elo0), to_score(self.elo1))
    }

    fn llr(&self, bins: &[(f64, f64)], pairs: bool) -> f64 {
        if bins.iter().all(|&(_, c)| c == 0.0) {
            return 0.0;
        }
        let (s0, s1) = self.hypothesis_scores(bins, pairs);
        let counts = regularise(bins);
        let (Some(p0), Some(p1)) = (mle_with_mean(&counts, s0), mle_with_mean(&counts, s1)) else {
            return 0.0;
        };
        counts
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, n), (&q0, &q1))| n * (q1 / q0).ln())
            .sum()
    }
}

/// Replaces empty bins by [`ZERO_COUNT`].
fn regularise(bins: &[(f64, f64)]) -> Vec<(f64, f64)> {
    bins.iter().map(|&(a, n)| (a, n.max(ZERO_COUNT))).collect()
}

/// The maximum-likelihood distribution over the bins' values with expected value `s`, for the
/// observed (positive) counts: p̂ⱼ/(1 + λ(aⱼ − s)) with λ the root of the secular equation.
/// `s` is first kept strictly inside the range of values. `None` without two distinct values.
fn mle_with_mean(bins: &[(f64, f64)], s: f64) -> Option<Vec<f64>> {
    let total: f64 = bins.iter().map(|&(_, n)| n).sum();
    let lo_value = bins.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let hi_value = bins
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if !(total > 0.0 && hi_value > lo_value && s.is_finite()) {
        return None;
    }
    // A hypothesis at (or past) the extreme values is approached, not met.
    let margin = 1e-9 * (hi_value - lo_value);
    let s = s.clamp(lo_value + margin, hi_value - margin);
    let freq: Vec<(f64, f64)> = bins.iter().map(|&(a, n)| (a - s, n / total)).collect();
    let secular =
        |lambda: f64| -> f64 { freq.iter().map(|&(b, p)| p * b / (1.0 + lambda * b)).sum() };
    // 1 + λb > 0 for all b in [lo − s, hi − s] <=> −1/(hi − s) < λ < 1/(s − lo).
    let (mut lo, mut hi) = (-1.0 / (hi_value - s), 1.0 / (s - lo_value));
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if secular(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    Some(freq.iter().map(|&(b, p)| p / (1.0 + lambda * b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    #[test]
    fn bounds_by_hand() {
        // α = β = 0.05: ln(0.05/0.95) = ln(0.0526316) = −2.944439, ln(0.95/0.05) = ln 19 = 2.944439.
        let (lower, upper) = sprt(0.0, 5.0, SprtModel::Normalized).bounds();
        assert!((lower + 2.944439).abs() < 1e-6);
        assert!((upper - 2.944439).abs() < 1e-6);
        // α = 0.05, β = 0.1: ln(0.1/0.95) = −2.251292, ln(0.9/0.05) = ln 18 = 2.890372.
        let s = Sprt {
            beta: 0.1,
            ..sprt(0.0, 5.0, SprtModel::Logistic)
        };
        let (lower, upper) = s.bounds();
        assert!((lower + 2.251292).abs() < 1e-6);
        assert!((upper - 2.890372).abs() < 1e-6);
        assert_eq!(s.decide(2.9), Some(SprtDecision::AcceptH1));
        assert_eq!(s.decide(-2.26), Some(SprtDecision::AcceptH0));
        assert_eq!(s.decide(0.0), None);
        assert_eq!(s.decide(f64::NAN), None);
    }

    #[test]
    fn validation() {
        assert!(sprt(0.0, 5.0, SprtModel::Normalized).validate().is_ok());
        assert!(sprt(5.0, 0.0, SprtModel::Normalized).validate().is_err());
        assert!(Sprt {
            alpha: 0.0,
            ..sprt(0.0, 5.0, SprtModel::Normalized)
        }
        .validate()
        .is_err());
        assert!(Sprt {
            alpha: 0.6,
            beta: 0.5,
            ..sprt(0.0, 5.0, SprtModel::Normalized)
        }
        .validate()
        .is_err());
        assert!(Sprt {
            elo1: f64::NAN,
            ..sprt(0.0, 5.0, SprtModel::Normalized)
        }
        .validate()
        .is_err());
        assert_eq!("Logistic".parse::<SprtModel>(), Ok(SprtModel::Logistic));
        assert!("bayesian".parse::<SprtModel>().is_err());
    }

    #[test]
    fn mle_by_hand() {
        // Two values 0 and 1 with frequencies 0.4, 0.6 and mean constrained to 0.5: the only such
        // distribution is (0.5, 0.5). Check: 0.4/(1 + λ(0 − 0.5)) = 0.5 gives λ = 0.4, and
        // 0.6/(1 + 0.4·0.5) = 0.6/1.2 = 0.5.
        let p = mle_with_mean(&[(0.0, 4.0), (1.0, 6.0)], 0.5).unwrap();
        assert!(
            (p[0] - 0.5).abs() < 1e-12 && (p[1] - 0.5).abs() < 1e-12,
            "{p:?}"
        );
        // Mean equal to the observed one: the observed frequencies themselves (λ = 0).
        let p = mle_with_mean(&[(0.0, 1.0), (0.5, 2.0), (1.0, 1.0)], 0.5).unwrap();
        assert!((p[0] - 0.25).abs() < 1e-12 && (p[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn no_results_give_zero() {
        let s = sprt(0.0, 10.0, SprtModel::Normalized);
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
        assert_eq!(s.llr_trinomial(&Wdl::default()), 0.0);
    }

    #[test]
    fn llr_behaviour() {
        let s = sprt(0.0, 10.0, SprtModel::Normalized);
        let (lower, upper) = s.bounds();
        // Clearly stronger (mean pair score 0.6 over 400 pairs): crosses the upper bound. (Over
        // 100 pairs it would not yet: nElo 10 is only s1 = 0.508 here, a small step from s0 = 0.5.)
        let strong = Pentanomial([0, 40, 200, 120, 40]);
        let llr = s.llr_pentanomial(&strong);
        assert!(llr > upper, "llr {llr}");
        assert_eq!(s.decide(llr), Some(SprtDecision::AcceptH1));
        // Even results: nearer H0 (0) than H1 (+10), so negative, and more so with more pairs.
        let even = Pentanomial([10, 20, 40, 20, 10]);
        let llr_even = s.llr_pentanomial(&even);
        assert!(llr_even < 0.0 && llr_even > lower, "llr {llr_even}");
        // At s = s0 the expected LLR per pair is about −(s1 − s0)²/(2σ²_pair); here σ²_pair = 0.075,
        // s1 − s0 = 10·√0.15/347.44 = 0.011147, so −0.000828 per pair: 5000 pairs give about −4.1.
        let llr_even_x50 = s.llr_pentanomial(&Pentanomial([500, 1000, 2000, 1000, 500]));
        assert!(llr_even_x50 < llr_even);
        assert!((llr_even_x50 + 4.14).abs() < 0.1, "{llr_even_x50}");
        assert_eq!(s.decide(llr_even_x50), Some(SprtDecision::AcceptH0));
        // Mirror image of the strong result: far below the lower bound.
        assert!(s.llr_pentanomial(&strong.flipped()) < lower);
        // Trinomial: 600 wins, 200 losses, 200 draws (score 0.7) is far past the bound in both models.
        let w = Wdl {
            wins: 600,
            losses: 200,
            draws: 200,
        };
        assert!(s.llr_trinomial(&w) > upper);
        assert!(sprt(0.0, 10.0, SprtModel::Logistic).llr_trinomial(&w) > upper);
        // fastchess's normal approximation N/2·ln(σ0²/σ1²), σᵢ² = Σ p̂ⱼ(aⱼ − sᵢ)², should be close.
        let n = strong.0.map(|c| (c as f64).max(ZERO_COUNT));
        let total: f64 = n.iter().sum();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let bins: Vec<(f64, f64)> = values
            .iter()
            .copied()
            .zip(strong.0.map(|c| c as f64))
            .collect();
        let (s0, s1) = s.hypothesis_scores(&bins, true);
        let var_around = |m: f64| -> f64 {
            values
                .iter()
                .zip(&n)
                .map(|(a, c)| c / total * (a - m) * (a - m))
                .sum()
        };
        let approx = total / 2.0 * (var_around(s0) / var_around(s1)).ln();
        assert!((llr - approx).abs() < 0.05 * approx, "{llr} vs {approx}");
        // Swapping the hypotheses negates the LLR (same constrained maxima, other order).
        let forward = sprt(0.0, 10.0, SprtModel::Logistic).llr_pentanomial(&strong);
        let swapped = sprt(10.0, 0.0, SprtModel::Logistic).llr_pentanomial(&strong);
        assert!((forward + swapped).abs() < 1e-9);
    }

    #[test]
    fn extreme_results_stay_finite() {
        let s = sprt(0.0, 5.0, SprtModel::Normalized);
        for p in [
            Pentanomial([0, 0, 0, 0, 7]),
            Pentanomial([7, 0, 0, 0, 0]),
            Pentanomial([0, 0, 7, 0, 0]),
            Pentanomial([0, 0, 1, 0, 0]),
        ] {
            let llr = s.llr_pentanomial(&p);
            assert!(llr.is_finite(), "{p:?}: {llr}");
        }
        let all_wins = Wdl {
            wins: 50,
            losses: 0,
            draws: 0,
        };
        let llr = sprt(0.0, 5.0, SprtModel::Logistic).llr_trinomial(&all_wins);
        assert!(llr.is_finite() && llr > 0.0);
        // Huge nElo bounds push s past 1; they are clamped, not NaN.
        let llr = sprt(0.0, 1e6, SprtModel::Normalized).llr_trinomial(&all_wins);
        assert!(!llr.is_nan());
    }

    #[test]
    fn normalized_hypotheses_by_hand() {
        // W=10 L=5 D=3 (no empty bin): σ = 0.434791 (see stats tests).
        // s1 = ½ + 10·0.434791/347.435586 = 0.5 + 0.012514 = 0.512514; s0 = 0.5.
        let w = Wdl {
            wins: 10,
            losses: 5,
            draws: 3,
        };
        let s = sprt(0.0, 10.0, SprtModel::Normalized);
        let bins = [(0.0, 5.0), (0.5, 3.0), (1.0, 10.0)];
        let (s0, s1) = s.hypothesis_scores(&bins, false);
        assert_eq!(s0, 0.5);
        assert!((s1 - 0.512514).abs() < 1e-6, "{s1}");
        // Logistic: s1 = 1/(1 + 10^(−10/400)) = 1/(1 + 0.943788) = 0.514387.
        let (_, s1) = sprt(0.0, 10.0, SprtModel::Logistic).hypothesis_scores(&bins, false);
        assert!((s1 - 0.514387).abs() < 1e-6, "{s1}");
        assert!(s.llr_trinomial(&w).is_finite());
    }

    /// Independent check: maximise Σ nⱼ ln pⱼ over distributions with the given mean directly,
    /// by nested golden-section search over the free probabilities (the objective is concave and
    /// the partial maxima of a concave function stay concave, so each level is unimodal).
    fn golden_max(lo: f64, hi: f64, f: &dyn Fn(f64) -> f64) -> f64 {
        if hi <= lo {
            return f64::NEG_INFINITY;
        }
        let r = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (lo, hi);
        let mut c = b - r * (b - a);
        let mut d = a + r * (b - a);
        let (mut fc, mut fd) = (f(c), f(d));
        for _ in 0..70 {
            if fc > fd {
                b = d;
                d = c;
                fd = fc;
                c = b - r * (b - a);
                fc = f(c);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + r * (b - a);
                fd = f(d);
            }
        }
        fc.max(fd)
    }

    fn loglik(n: &[f64], p: &[f64]) -> f64 {
        n.iter()
            .zip(p)
            .map(|(&n, &p)| {
                if p > 0.0 {
                    n * p.ln()
                } else {
                    f64::NEG_INFINITY
                }
            })
            .sum()
    }

    /// Trinomial (L, D, W at 0, ½, 1) with mean s: D = t, W = s − t/2, L = 1 − s − t/2.
    fn max_loglik_trinomial(n: &[f64; 3], s: f64) -> f64 {
        let top = (2.0 * s).min(2.0 * (1.0 - s));
        golden_max(0.0, top, &|t| {
            loglik(n, &[1.0 - s - t / 2.0, t, s - t / 2.0])
        })
    }

    /// Pentanomial at 0, ¼, ½, ¾, 1 with free x = p1, y = p2, z = p3:
    /// p4 = s − x/4 − y/2 − 3z/4 and p0 = 1 − s − 3x/4 − y/2 − z/4, both ≥ 0.
    fn max_loglik_pentanomial(n: &[f64; 5], s: f64) -> f64 {
        let x_top = 1f64.min(4.0 * s).min(4.0 * (1.0 - s) / 3.0);
        golden_max(0.0, x_top, &|x| {
            let y_top = (2.0 * (s - x / 4.0)).min(2.0 * (1.0 - s - 3.0 * x / 4.0));
            golden_max(0.0, y_top, &|y| {
                let z_top = (4.0 * (s - x / 4.0 - y / 2.0) / 3.0)
                    .min(4.0 * (1.0 - s - 3.0 * x / 4.0 - y / 2.0));
                golden_max(0.0, z_top, &|z| {
                    let p4 = s - x / 4.0 - y / 2.0 - 3.0 * z / 4.0;
                    let p0 = 1.0 - s - 3.0 * x / 4.0 - y / 2.0 - z / 4.0;
                    loglik(n, &[p0, x, y, z, p4])
                })
            })
        })
    }

    #[test]
    fn llr_matches_direct_maximisation() {
        // Logistic 0 vs 20 Elo: s0 = 0.5, s1 = 1/(1 + 10^(−0.05)) = 0.528744.
        let s = sprt(0.0, 20.0, SprtModel::Logistic);
        let s1 = score_from_elo(20.0);
        for w in [
            Wdl {
                wins: 30,
                losses: 20,
                draws: 50,
            },
            Wdl {
                wins: 12,
                losses: 15,
                draws: 3,
            },
            Wdl {
                wins: 9,
                losses: 2,
                draws: 0,
            }, // empty bin -> 1e-3
        ] {
            let n = [w.losses as f64, w.draws as f64, w.wins as f64].map(|c| c.max(1e-3));
            let direct = max_loglik_trinomial(&n, s1) - max_loglik_trinomial(&n, 0.5);
            let llr = s.llr_trinomial(&w);
            assert!(
                (llr - direct).abs() < 1e-6 * (1.0 + direct.abs()),
                "{w:?}: {llr} vs {direct}"
            );
        }
        for p in [
            Pentanomial([3, 20, 50, 22, 5]),
            Pentanomial([1, 3, 6, 4, 2]),
            Pentanomial([0, 4, 9, 0, 1]),
        ] {
            let n = p.0.map(|c| (c as f64).max(1e-3));
            let direct = max_loglik_pentanomial(&n, s1) - max_loglik_pentanomial(&n, 0.5);
            let llr = s.llr_pentanomial(&p);
            assert!(
                (llr - direct).abs() < 1e-6 * (1.0 + direct.abs()),
                "{p:?}: {llr} vs {direct}"
            );
        }
    }
}
