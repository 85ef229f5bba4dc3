//! Match statistics as cutechess and fastchess compute them (95 % intervals).
//!
//! Counts are always from the first-named player's point of view. Scores are per game point:
//! a game is worth 0, ½ or 1, a pair of games 0, ¼, ½, ¾ or 1 (its points divided by two).
//!
//! - Elo(s) = −400·log10(1/s − 1); the error is ½[Elo(s + 1.96·SE) − Elo(s − 1.96·SE)].
//! - Trinomial: σ² = [W(1−s)² + D(½−s)² + L·s²]/N, SE = σ/√N.
//! - Pentanomial: σ²_pair is the variance of pair scores, SE = σ_pair/√pairs.
//! - nElo = (s − ½)/σ_game · 800/ln 10, σ_game = σ (trinomial) or √2·σ_pair (pentanomial).
//! - LOS: cutechess ½[1 + erf((W−L)/√(2(W+L)))], fastchess Φ((s−½)/SE).
//!
//! Edge cases, chosen so that nothing is NaN: with no games every estimate is `None`. A score
//! of exactly 0 or 1 gives Elo ∓∞ with an infinite error, and an interval that reaches 0 or 1
//! gives an infinite error; the report prints `inf`. nElo is `None` when the variance is zero
//! (all games the same result), where it is undefined.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95 % interval, as both tools print it.
pub const Z95: f64 = 1.96;
/// nElo per unit of normalized score difference, 800/ln 10.
pub const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// Wins, losses and draws of the first-named player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game; ½ when no game was played (no evidence either way).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Draws per game; 0 with no games.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    /// Records one game from the first player's view: 1 win, 0 loss, anything between a draw.
    pub fn add_game(&mut self, points: f64) {
        if points >= 1.0 {
            self.wins += 1;
        } else if points <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same counts from the other player's point of view.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }
}

/// Game-pair counts by pair score 0, 0.5, 1, 1.5, 2 (LL, LD, WL+DD, WD, WW), fastchess's Ptnml(0-2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Records a pair from the first player's points in each of its two games (each 0, ½ or 1).
    /// Values outside 0..=1 are clamped; a NaN pair is ignored with a warning.
    pub fn add_pair(&mut self, first_game_points: f64, second_game_points: f64) {
        let total = first_game_points.clamp(0.0, 1.0) + second_game_points.clamp(0.0, 1.0);
        if total.is_nan() {
            log::warn!("pentanomial: ignoring a pair with a NaN result");
            return;
        }
        // total is in 0..=2 in steps of ½: bin = 2·total.
        let bin = (total * 2.0).round() as usize;
        self.0[bin.min(4)] += 1;
    }

    /// Mean pair score per game point (0..1); ½ with no pairs.
    pub fn score(&self) -> f64 {
        sample(&self.bins()).map_or(0.5, |m| m.mean)
    }

    /// The same counts from the other player's point of view.
    pub fn flipped(&self) -> Pentanomial {
        let [a, b, c, d, e] = self.0;
        Pentanomial([e, d, c, b, a])
    }

    fn bins(&self) -> [(f64, f64); 5] {
        let c = self.0.map(|n| n as f64);
        [
            (0.0, c[0]),
            (0.25, c[1]),
            (0.5, c[2]),
            (0.75, c[3]),
            (1.0, c[4]),
        ]
    }
}

impl std::ops::AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

pub(crate) fn wdl_bins(w: &Wdl) -> [(f64, f64); 3] {
    [
        (0.0, w.losses as f64),
        (0.5, w.draws as f64),
        (1.0, w.wins as f64),
    ]
}

pub(crate) fn pentanomial_bins(p: &Pentanomial) -> [(f64, f64); 5] {
    p.bins()
}

/// Mean and (population) variance of a sample given as (value, count) bins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Moments {
    pub n: f64,
    pub mean: f64,
    pub variance: f64,
}

pub(crate) fn sample(bins: &[(f64, f64)]) -> Option<Moments> {
    let n: f64 = bins.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = bins.iter().map(|&(x, c)| x * c).sum::<f64>() / n;
    let variance = bins
        .iter()
        .map(|&(x, c)| c * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    Some(Moments { n, mean, variance })
}

/// Elo estimate with the half-width of its 95 % interval (may be infinite, never NaN).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
}

/// Logistic Elo difference for a score: −400·log10(1/s − 1); −∞ at s ≤ 0 and +∞ at s ≥ 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Score expected at a logistic Elo difference: 1/(1 + 10^(−elo/400)).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_estimate(mean: f64, se: f64) -> EloEstimate {
    let elo = elo_from_score(mean);
    let error = if elo.is_infinite() {
        f64::INFINITY
    } else if se == 0.0 {
        0.0
    } else {
        0.5 * (elo_from_score(mean + Z95 * se) - elo_from_score(mean - Z95 * se))
    };
    EloEstimate { elo, error }
}

/// Elo from W/L/D; `None` with 0 games.
pub fn trinomial_elo(w: &Wdl) -> Option<EloEstimate> {
    let m = sample(&wdl_bins(w))?;
    Some(elo_estimate(m.mean, (m.variance / m.n).sqrt()))
}

/// Elo from pair counts; `None` with 0 pairs.
pub fn pentanomial_elo(p: &Pentanomial) -> Option<EloEstimate> {
    let m = sample(&p.bins())?;
    Some(elo_estimate(m.mean, (m.variance / m.n).sqrt()))
}

/// nElo from (mean, σ per game, games): the error is 1.96·SE/σ_game·800/ln10 with SE = σ_game/√games.
fn nelo_estimate(mean: f64, sigma_game: f64, games: f64) -> Option<EloEstimate> {
    if sigma_game <= 0.0 || !sigma_game.is_finite() {
        return None;
    }
    Some(EloEstimate {
        elo: (mean - 0.5) / sigma_game * NELO_SCALE,
        error: Z95 * NELO_SCALE / games.sqrt(),
    })
}

/// Normalized Elo from W/L/D; `None` with 0 games or zero variance.
pub fn trinomial_nelo(w: &Wdl) -> Option<EloEstimate> {
    let m = sample(&wdl_bins(w))?;
    nelo_estimate(m.mean, m.variance.sqrt(), m.n)
}

/// Normalized Elo from pair counts (σ_game = √2·σ_pair, games = 2·pairs); `None` with 0 pairs or
/// zero variance.
pub fn pentanomial_nelo(p: &Pentanomial) -> Option<EloEstimate> {
    let m = sample(&p.bins())?;
    nelo_estimate(m.mean, (2.0 * m.variance).sqrt(), 2.0 * m.n)
}

/// Likelihood of superiority, cutechess's formula (draws ignored); ½ with no decisive game.
pub fn los_trinomial(w: &Wdl) -> f64 {
    let decisive = (w.wins + w.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w.wins as f64 - w.losses as f64) / (2.0 * decisive).sqrt()))
}

/// Likelihood of superiority, fastchess's formula Φ((s−½)/SE) on pairs; ½ with no pairs.
pub fn los_pentanomial(p: &Pentanomial) -> f64 {
    let Some(m) = sample(&p.bins()) else {
        return 0.5;
    };
    let se = (m.variance / m.n).sqrt();
    let lead = m.mean - 0.5;
    if se == 0.0 {
        // No spread: the sign of the lead decides.
        return if lead > 0.0 {
            1.0
        } else if lead < 0.0 {
            0.0
        } else {
            0.5
        };
    }
    normal_cdf(lead / se)
}

/// Standard normal distribution function Φ(x).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, from the all-positive series
/// erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)), which has no cancellation;
/// |erf(x)| rounds to 1 beyond |x| = 6.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x >= 6.0 {
        return 1.0;
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
    }
    (2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    const W10_L5_D3: Wdl = Wdl {
        wins: 10,
        losses: 5,
        draws: 3,
    };

    #[test]
    fn counts_points_score_draw_ratio() {
        let w = W10_L5_D3;
        assert_eq!(w.games(), 18);
        assert_eq!(w.points(), 11.5); // 10 + 3/2
        assert!(close(w.score(), 11.5 / 18.0, 1e-15));
        assert!(close(w.draw_ratio(), 3.0 / 18.0, 1e-15));
        assert_eq!(Wdl::default().score(), 0.5);
        assert_eq!(Wdl::default().draw_ratio(), 0.0);
        let mut x = Wdl::default();
        for p in [1.0, 0.0, 0.5, 1.0] {
            x.add_game(p);
        }
        assert_eq!((x.wins, x.losses, x.draws), (2, 1, 1));
        assert_eq!(
            x.flipped(),
            Wdl {
                wins: 1,
                losses: 2,
                draws: 1
            }
        );
    }

    #[test]
    fn trinomial_elo_by_hand() {
        // W=10 L=5 D=3, N=18: s = 11.5/18 = 0.638889.
        // σ² = [10·(0.361111)² + 3·(−0.138889)² + 5·(0.638889)²]/18
        //    = [1.304012 + 0.057870 + 2.040895]/18 = 3.402778/18 = 0.189043; σ = 0.434791.
        // SE = 0.434791/√18 = 0.434791/4.242641 = 0.102481; 1.96·SE = 0.200863.
        // Elo(0.638889) = −400·log10(18/11.5 − 1) = −400·log10(0.565217) = −400·(−0.247784) = 99.11.
        // Elo(0.839752) = −400·log10(0.190828) = 287.74; Elo(0.438026) = −400·log10(1.282971) = −43.29.
        // error = ½(287.74 + 43.29) = 165.52.
        let e = trinomial_elo(&W10_L5_D3).unwrap();
        assert!(close(e.elo, 99.11, 0.01), "{e:?}");
        assert!(close(e.error, 165.52, 0.01), "{e:?}");
    }

    #[test]
    fn trinomial_nelo_by_hand() {
        // nElo = (0.638889 − 0.5)/0.434791 · 347.435586 = 0.319438 · 347.435586 = 110.98.
        // error = 1.96 · 347.435586/√18 = 680.973748/4.242641 = 160.51.
        let e = trinomial_nelo(&W10_L5_D3).unwrap();
        assert!(close(e.elo, 110.98, 0.01), "{e:?}");
        assert!(close(e.error, 160.51, 0.01), "{e:?}");
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs [1, 3, 6, 4, 2] = 16 pairs, scores 0, ¼, ½, ¾, 1.
        // s = (3·0.25 + 6·0.5 + 4·0.75 + 2·1)/16 = (0.75 + 3 + 3 + 2)/16 = 8.75/16 = 0.546875.
        // Σ n(x−s)² = 1·0.299072 + 3·0.088135 + 6·0.002197 + 4·0.041260 + 2·0.205322
        //           = 0.299072 + 0.264404 + 0.013184 + 0.165039 + 0.410645 = 1.152344;
        // σ²_pair = 1.152344/16 = 0.072021, σ_pair = 0.268368, SE = 0.268368/4 = 0.067092.
        // Elo(0.546875) = −400·log10(0.828571) = 32.67.
        // 1.96·SE = 0.131500: Elo(0.678375) = −400·log10(0.474110) = 129.65,
        // Elo(0.415375) = −400·log10(1.407466) = −59.38; error = ½(129.65 + 59.38) = 94.51.
        let p = Pentanomial([1, 3, 6, 4, 2]);
        assert_eq!(p.pairs(), 16);
        assert!(close(p.score(), 0.546875, 1e-15));
        let e = pentanomial_elo(&p).unwrap();
        assert!(close(e.elo, 32.67, 0.01), "{e:?}");
        assert!(close(e.error, 94.51, 0.01), "{e:?}");
        // nElo: σ_game = √2·0.268368 = 0.379530; (0.046875/0.379532)·347.435586 = 42.91.
        // error = 1.96·347.435586/√32 = 680.973748/5.656854 = 120.38.
        let n = pentanomial_nelo(&p).unwrap();
        assert!(close(n.elo, 42.91, 0.01), "{n:?}");
        assert!(close(n.error, 120.38, 0.01), "{n:?}");
        // LOS: Φ(0.046875/0.067092) = Φ(0.698667) = 0.7576.
        assert!(close(los_pentanomial(&p), 0.7576, 1e-4));
    }

    #[test]
    fn add_pair_bins_by_pair_points() {
        let mut p = Pentanomial::default();
        p.add_pair(0.0, 0.0); // LL
        p.add_pair(0.5, 0.0); // LD
        p.add_pair(1.0, 0.0); // WL
        p.add_pair(0.5, 0.5); // DD
        p.add_pair(0.5, 1.0); // WD
        p.add_pair(1.0, 1.0); // WW
        p.add_pair(f64::NAN, 1.0); // ignored
        assert_eq!(p.0, [1, 1, 2, 1, 1]);
        assert_eq!(p.flipped().0, [1, 1, 2, 1, 1]);
        assert_eq!(Pentanomial([1, 2, 3, 4, 5]).flipped().0, [5, 4, 3, 2, 1]);
    }

    #[test]
    fn los_by_hand() {
        // cutechess: W=10 L=5: (10−5)/√(2·15) = 5/5.477226 = 0.912871; erf(0.912871) = 0.803294;
        // LOS = ½(1 + 0.803294) = 0.901647.
        assert!(close(los_trinomial(&W10_L5_D3), 0.901647, 1e-6));
        // Symmetric: L=10 W=5 gives 1 − 0.901647.
        assert!(close(los_trinomial(&W10_L5_D3.flipped()), 0.098353, 1e-6));
        // Equal decisive results and no decisive results: ½.
        let even = Wdl {
            wins: 7,
            losses: 7,
            draws: 4,
        };
        assert_eq!(los_trinomial(&even), 0.5);
        assert_eq!(
            los_trinomial(&Wdl {
                wins: 0,
                losses: 0,
                draws: 9
            }),
            0.5
        );
        // W=1 L=0: erf(1/√2) = 0.682689, LOS = 0.841345 (= Φ(1)).
        assert!(close(
            los_trinomial(&Wdl {
                wins: 1,
                losses: 0,
                draws: 0
            }),
            0.841345,
            1e-6
        ));
    }

    #[test]
    fn erf_matches_table_values() {
        // Abramowitz & Stegun table 7.1: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929,
        // erf(2) = 0.9953222650; Φ(1.959964) = 0.975.
        assert!(close(erf(0.5), 0.5204998778, 1e-10));
        assert!(close(erf(1.0), 0.8427007929, 1e-10));
        assert!(close(erf(2.0), 0.9953222650, 1e-10));
        assert!(close(erf(-1.0), -0.8427007929, 1e-10));
        assert_eq!(erf(0.0), 0.0);
        assert_eq!(erf(10.0), 1.0);
        assert!(close(normal_cdf(1.959964), 0.975, 1e-6));
    }

    #[test]
    fn edge_cases_give_no_nan() {
        let none = Wdl::default();
        assert!(trinomial_elo(&none).is_none());
        assert!(trinomial_nelo(&none).is_none());
        assert!(pentanomial_elo(&Pentanomial::default()).is_none());
        assert!(pentanomial_nelo(&Pentanomial::default()).is_none());
        assert_eq!(los_pentanomial(&Pentanomial::default()), 0.5);

        // All wins: s = 1, Elo +∞ with infinite error; nElo undefined (σ = 0).
        let wins = Wdl {
            wins: 5,
            losses: 0,
            draws: 0,
        };
        let e = trinomial_elo(&wins).unwrap();
        assert_eq!((e.elo, e.error), (f64::INFINITY, f64::INFINITY));
        assert!(trinomial_nelo(&wins).is_none());
        // LOS = ½(1 + erf(5/√10)) = ½(1 + erf(1.581139)) = ½(1 + 0.974653) = 0.987326.
        assert!(close(los_trinomial(&wins), 0.987326, 1e-6));
        let e = trinomial_elo(&wins.flipped()).unwrap();
        assert_eq!(e.elo, f64::NEG_INFINITY);

        // All draws: s = ½, σ = 0 so Elo 0 ± 0; nElo undefined.
        let draws = Wdl {
            wins: 0,
            losses: 0,
            draws: 6,
        };
        assert_eq!(
            trinomial_elo(&draws),
            Some(EloEstimate {
                elo: 0.0,
                error: 0.0
            })
        );
        assert!(trinomial_nelo(&draws).is_none());

        // W=1 D=1: s = 0.75, σ² = [0.0625 + 0.0625]/2 = 0.0625, SE = 0.25/√2 = 0.176777;
        // s + 1.96·SE = 1.096 > 1, so the interval is unbounded above: error +∞, Elo finite.
        let e = trinomial_elo(&Wdl {
            wins: 1,
            losses: 0,
            draws: 1,
        })
        .unwrap();
        assert!(close(e.elo, 190.85, 0.01)); // −400·log10(1/3) = 190.85
        assert_eq!(e.error, f64::INFINITY);

        // Pentanomial all WW and all DD-like pairs.
        let p = Pentanomial([0, 0, 0, 0, 4]);
        assert_eq!(pentanomial_elo(&p).unwrap().elo, f64::INFINITY);
        assert_eq!(los_pentanomial(&p), 1.0);
        assert!(pentanomial_nelo(&p).is_none());
        let p = Pentanomial([0, 0, 4, 0, 0]);
        assert_eq!(
            pentanomial_elo(&p),
            Some(EloEstimate {
                elo: 0.0,
                error: 0.0
            })
        );
        assert_eq!(los_pentanomial(&p), 0.5);
    }

    #[test]
    fn elo_score_mapping() {
        // Elo(0.75) = −400·log10(1/3) = 400·0.477121 = 190.85; Elo(½) = 0.
        assert!(close(elo_from_score(0.75), 190.85, 0.01));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(score_from_elo(190.848_501_9), 0.75, 1e-9));
        assert!(close(elo_from_score(score_from_elo(-123.4)), -123.4, 1e-9));
    }
}
