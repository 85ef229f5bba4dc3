//! Ratings of many players from the games between them, on a scale fixed by anchors (players
//! whose ratings are given): the maximum-likelihood Bradley-Terry fit of Elo's logistic model,
//! as Ordo and BayesElo make it, with the first player's advantage as one more parameter.
//!
//! - A game scores `s` (1, ½ or 0) for White; its expectation is
//!   `E = 1 / (1 + 10^((r_black - r_white - white) / 400))`. The fit solves, for every free
//!   player and for `white`, that the points scored equal the points expected (Newton's
//!   method on the log-likelihood, draws counted as half a win and half a loss).
//! - A prior of [`PRIOR_DRAWS`] virtual draws between each two players that met keeps every
//!   rating finite when a player won (or lost) all its games against someone (BayesElo's
//!   prior; it pulls such a pair's difference to a large finite value, never past it).
//! - Errors are the 95 % intervals of the inverse Fisher information: how well the games fix
//!   each rating relative to the anchors. A player connected to no anchor has no rating.

use std::collections::BTreeMap;

use crate::referee::stats::elo::Z95;

/// Largest change of a rating in one Newton step.
const MAX_STEP: f64 = 200.0;

/// Virtual draws added between each two players that met.
pub const PRIOR_DRAWS: f64 = 1.0;

/// One game: the players' indices and White's points.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub white: usize,
    pub black: usize,
    pub white_points: f64,
}

/// One player's fitted rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub games: u64,
    /// Points scored (real games only).
    pub points: f64,
    /// `None` when no game connects the player to an anchor.
    pub elo: Option<f64>,
    /// Half the 95 % interval; 0 for an anchor.
    pub error: Option<f64>,
    pub anchor: bool,
}

/// The fit: every player's rating and the first player's advantage.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub ratings: Vec<Rating>,
    /// Elo that moving first is worth, with its 95 % error.
    pub white_advantage: f64,
    pub white_error: f64,
    /// Newton iterations used.
    pub iterations: usize,
}

const K: f64 = std::f64::consts::LN_10 / 400.0;

fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// Fits the ratings of `names` from `games`, the players in `anchors` (name, rating) held fixed.
/// Errors: no anchor, or an anchor that is not a player.
pub fn fit(
    names: &[String],
    games: &[RatedGame],
    anchors: &[(String, f64)],
) -> Result<Fit, String> {
    if anchors.is_empty() {
        return Err("ratings need at least one anchor (NAME=ELO)".into());
    }
    let n = names.len();
    let mut fixed: Vec<Option<f64>> = vec![None; n];
    for (name, elo) in anchors {
        let i = names
            .iter()
            .position(|p| p == name)
            .ok_or_else(|| format!("anchor {name} played no game"))?;
        fixed[i] = Some(*elo);
    }
    let connected = connected_to_anchors(n, games, &fixed);
    // Free parameters: the connected players that are not anchors, then White's advantage.
    let free: Vec<usize> = (0..n)
        .filter(|&i| fixed[i].is_none() && connected[i])
        .collect();
    let slot: Vec<Option<usize>> = {
        let mut s = vec![None; n];
        for (k, &i) in free.iter().enumerate() {
            s[i] = Some(k);
        }
        s
    };
    let m = free.len() + 1;
    let w = m - 1;
    // Free players start at the anchors' mean; Newton's steps are capped (far from the
    // optimum the curvature of a lopsided result is nearly zero and a full step overshoots).
    let start = anchors.iter().map(|a| a.1).sum::<f64>() / anchors.len() as f64;
    let mut r: Vec<f64> = (0..n).map(|i| fixed[i].unwrap_or(start)).collect();
    let mut white = 0.0;
    let met = pairs_met(games);
    let mut iterations = 0;
    let mut info = vec![vec![0.0; m]; m];
    for it in 0..1000 {
        iterations = it + 1;
        let mut grad = vec![0.0; m];
        info.iter_mut()
            .for_each(|row| row.iter_mut().for_each(|x| *x = 0.0));
        let mut add = |a: usize, b: usize, s: f64, weight: f64, with_white: bool, r: &[f64]| {
            let adv = if with_white { white } else { 0.0 };
            let e = expected(r[a] + adv - r[b]);
            let g = weight * (s - e) * K;
            let h = weight * e * (1.0 - e) * K * K;
            let sa = slot[a];
            let sb = slot[b];
            let sw = with_white.then_some(w);
            let terms = [(sa, 1.0), (sb, -1.0), (sw, 1.0)];
            for &(x, sx) in &terms {
                let Some(x) = x else { continue };
                grad[x] += sx * g;
                for &(y, sy) in &terms {
                    if let Some(y) = y {
                        info[x][y] += sx * sy * h;
                    }
                }
            }
        };
        for g in games.iter().filter(|g| connected[g.white]) {
            add(g.white, g.black, g.white_points, 1.0, true, &r);
        }
        for &(a, b) in met.iter().filter(|&&(a, _)| connected[a]) {
            add(a, b, 0.5, PRIOR_DRAWS, false, &r);
        }
        // White's advantage is found even with all players fixed; a singular system (no
        // games) leaves everything where it is.
        let Some(step) = solve(&info, &grad) else {
            break;
        };
        let step: Vec<f64> = step.iter().map(|d| d.clamp(-MAX_STEP, MAX_STEP)).collect();
        for (k, &i) in free.iter().enumerate() {
            r[i] += step[k];
        }
        white += step[w];
        if step.iter().all(|d| d.abs() < 1e-7) {
            break;
        }
    }
    let cov = invert(&info);
    let mut tally = vec![(0u64, 0.0f64); n];
    for g in games {
        tally[g.white].0 += 1;
        tally[g.white].1 += g.white_points;
        tally[g.black].0 += 1;
        tally[g.black].1 += 1.0 - g.white_points;
    }
    let ratings = (0..n)
        .map(|i| {
            let (elo, error) = match (fixed[i], slot[i], &cov) {
                (Some(e), _, _) => (Some(e), Some(0.0)),
                (None, Some(k), Some(c)) => (Some(r[i]), Some(Z95 * c[k][k].max(0.0).sqrt())),
                (None, Some(_), None) => (Some(r[i]), None),
                (None, None, _) => (None, None),
            };
            Rating {
                name: names[i].clone(),
                games: tally[i].0,
                points: tally[i].1,
                elo,
                error,
                anchor: fixed[i].is_some(),
            }
        })
        .collect();
    let white_error = cov
        .as_ref()
        .map_or(f64::NAN, |c| Z95 * c[w][w].max(0.0).sqrt());
    Ok(Fit {
        ratings,
        white_advantage: white,
        white_error,
        iterations,
    })
}

/// The distinct pairs of players that met, each once (lower index first).
fn pairs_met(games: &[RatedGame]) -> Vec<(usize, usize)> {
    let mut pairs: BTreeMap<(usize, usize), ()> = BTreeMap::new();
    for g in games {
        pairs.insert((g.white.min(g.black), g.white.max(g.black)), ());
    }
    pairs.into_keys().collect()
}

/// Which players a chain of games links to an anchor.
fn connected_to_anchors(n: usize, games: &[RatedGame], fixed: &[Option<f64>]) -> Vec<bool> {
    let mut seen: Vec<bool> = fixed.iter().map(Option::is_some).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for g in games {
            if seen[g.white] != seen[g.black] {
                seen[g.white] = true;
                seen[g.black] = true;
                changed = true;
            }
        }
    }
    seen.truncate(n);
    seen
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row = a[i].clone();
            row.push(b[i]);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if r != col && f != 0.0 {
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of `a`, column by column; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let cols: Option<Vec<Vec<f64>>> = (0..n)
        .map(|j| {
            let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == j))).collect();
            solve(a, &e)
        })
        .collect();
    let cols = cols?;
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn names(k: usize) -> Vec<String> {
        (0..k).map(|i| format!("p{i}")).collect()
    }

    /// Games drawn from known ratings: colour-alternating pairs between neighbours and
    /// next-neighbours, White `adv` Elo stronger.
    fn simulate(truth: &[f64], adv: f64, per_pair: usize, seed: u64) -> Vec<RatedGame> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut games = Vec::new();
        for a in 0..truth.len() {
            for b in (a + 1)..truth.len().min(a + 3) {
                for k in 0..per_pair {
                    let (w, bl) = if k % 2 == 0 { (a, b) } else { (b, a) };
                    let p = expected(truth[w] + adv - truth[bl]);
                    let s = if rng.gen::<f64>() < p { 1.0 } else { 0.0 };
                    games.push(RatedGame {
                        white: w,
                        black: bl,
                        white_points: s,
                    });
                }
            }
        }
        games
    }

    #[test]
    fn the_fit_recovers_known_ratings_within_its_errors() {
        let truth = [0.0, 120.0, 200.0, 350.0, 420.0, 600.0];
        let games = simulate(&truth, 80.0, 400, 5);
        let fit = fit(&names(6), &games, &[("p0".into(), 0.0)]).unwrap();
        for (r, t) in fit.ratings.iter().zip(truth) {
            let (e, err) = (r.elo.unwrap(), r.error.unwrap());
            assert!((e - t).abs() <= err.max(1.0) * 1.5, "{r:?} vs {t}");
        }
        assert!(
            (fit.white_advantage - 80.0).abs() < 25.0,
            "{}",
            fit.white_advantage
        );
        // Errors grow along the chain away from the anchor.
        let errs: Vec<f64> = fit.ratings.iter().map(|r| r.error.unwrap()).collect();
        assert_eq!(errs[0], 0.0);
        assert!(errs[5] > errs[1], "{errs:?}");
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_an_unlinked_player_is_unrated() {
        let games: Vec<RatedGame> = (0..20)
            .map(|k| RatedGame {
                white: k % 2,
                black: 1 - k % 2,
                white_points: if k % 2 == 0 { 1.0 } else { 0.0 },
            })
            .chain([RatedGame {
                white: 2,
                black: 3,
                white_points: 0.5,
            }])
            .collect();
        let fit = fit(&names(4), &games, &[("p1".into(), 1000.0)]).unwrap();
        let p0 = fit.ratings[0].elo.unwrap();
        assert!(p0.is_finite() && p0 > 1400.0, "{p0}");
        assert_eq!(fit.ratings[2].elo, None);
        assert_eq!(fit.ratings[1].elo, Some(1000.0));
        assert!(super::fit(&names(2), &games[..2], &[]).is_err());
        assert!(super::fit(&names(2), &games[..2], &[("x".into(), 0.0)]).is_err());
    }
}
