//! `-ratings FILE...`: the ratings of every player of some runs' JSONL logs on a scale fixed by
//! anchors (`-anchor NAME=ELO`), with each player's claimed rating beside it (`-claims FILE`)
//! and the head-to-head results, as a text table, a Markdown table (`-table FILE`) and a plot
//! of measured against claimed (`-plot FILE.svg`). `tournaments/calibrate-levels.sh` uses it
//! to check the engine's strength levels (docs/levels.md).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

use crate::referee::exit::{EXIT_BAD_ARGS, EXIT_ERROR, EXIT_OK};
use crate::referee::records::jsonl::{games_of, read_objects};
use crate::referee::stats::elo::{trinomial_elo, Wdl};
use crate::referee::stats::ratings::{fit, Fit, RatedGame};

/// What `-ratings` was asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingsConfig {
    pub files: Vec<PathBuf>,
    pub anchors: Vec<(String, f64)>,
    /// Lines `NAME<TAB>ELO` (or spaces); `#` comments.
    pub claims: Option<PathBuf>,
    pub table: Option<PathBuf>,
    pub plot: Option<PathBuf>,
    /// How far a measured rating may be from its claim (the table marks the others).
    pub tolerance: f64,
}

/// The games of the logs, by player.
pub struct Games {
    pub names: Vec<String>,
    pub games: Vec<RatedGame>,
}

/// Reads the game records of `files` (each file once).
pub fn read_games(files: &[PathBuf]) -> Result<Games, String> {
    let mut seen = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut games = Vec::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    for path in files {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (objects, _) = read_objects(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for g in games_of(&objects).map_err(|e| format!("{}: {e}", path.display()))? {
            let white_points = match g.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue, // unfinished or aborted
            };
            let white = index(&g.white, &mut names);
            let black = index(&g.black, &mut names);
            games.push(RatedGame {
                white,
                black,
                white_points,
            });
        }
    }
    Ok(Games { names, games })
}

/// Reads `NAME ELO` lines.
pub fn read_claims(path: &PathBuf) -> Result<BTreeMap<String, f64>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut claims = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(name), Some(elo), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("{}:{}: expected NAME ELO", path.display(), n + 1));
        };
        let elo: f64 = elo
            .parse()
            .map_err(|_| format!("{}:{}: {elo} is not a number", path.display(), n + 1))?;
        claims.insert(name.to_string(), elo);
    }
    Ok(claims)
}

/// Head-to-head results between two players, from the first one's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Encounter {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
}

/// Every pair that met, lower index first.
pub fn encounters(games: &Games) -> Vec<Encounter> {
    let mut by_pair: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
    for g in &games.games {
        let (a, b) = (g.white.min(g.black), g.white.max(g.black));
        let points_a = if a == g.white {
            g.white_points
        } else {
            1.0 - g.white_points
        };
        by_pair.entry((a, b)).or_default().add_game(points_a);
    }
    by_pair
        .into_iter()
        .map(|((first, second), wdl)| Encounter { first, second, wdl })
        .collect()
}

/// One row of the table: a player with a claim, or an anchor.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub name: String,
    pub claimed: Option<f64>,
    pub measured: Option<f64>,
    pub error: Option<f64>,
    pub games: u64,
    pub score: f64,
    pub anchor: bool,
}

/// The fit's rows: players with a claim in claimed order, then the others by rating.
pub fn rows(fit: &Fit, claims: &BTreeMap<String, f64>) -> Vec<Row> {
    let mut rows: Vec<Row> = (fit.ratings.iter())
        .map(|r| Row {
            name: r.name.clone(),
            claimed: claims.get(&r.name).copied(),
            measured: r.elo,
            error: r.error,
            games: r.games,
            score: if r.games > 0 {
                r.points / r.games as f64
            } else {
                0.5
            },
            anchor: r.anchor,
        })
        .collect();
    rows.sort_by(|a, b| {
        let key = |r: &Row| r.claimed.or(r.measured).unwrap_or(f64::NEG_INFINITY);
        key(a).total_cmp(&key(b))
    });
    rows
}

fn fmt_elo(v: Option<f64>) -> String {
    v.map_or("-".into(), |e| format!("{e:.0}"))
}

/// The Markdown table and the summary lines under it.
pub fn markdown(rows: &[Row], fit: &Fit, games: &Games, tolerance: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| player | claimed | measured | 95 % | measured - claimed | games | score |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|");
    let mut within = (0, 0);
    for r in rows {
        let diff = match (r.claimed, r.measured) {
            (Some(c), Some(m)) => {
                within.1 += 1;
                let ok = (m - c).abs() <= tolerance;
                within.0 += usize::from(ok);
                format!("{:+.0}{}", m - c, if ok { "" } else { " **(off)**" })
            }
            _ => "-".into(),
        };
        let error = match (r.anchor, r.error) {
            (true, _) => "anchor".to_string(),
            (false, Some(e)) => format!("±{e:.0}"),
            (false, None) => "-".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {error} | {diff} | {} | {:.1} % |",
            r.name,
            fmt_elo(r.claimed),
            fmt_elo(r.measured),
            r.games,
            100.0 * r.score
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{} games; within ±{tolerance:.0} of the claim: {} of {}; the first move is worth {:+.0} ± {:.0} Elo.",
        games.games.len(),
        within.0,
        within.1,
        fit.white_advantage,
        fit.white_error
    );
    let _ = writeln!(s);
    s.push_str(&steps_table(rows, games));
    s
}

/// Each claimed player against the next one up (monotonic when every step wins), and every
/// other pair that met directly: the head-to-head Elo beside the claimed difference.
pub fn steps_table(rows: &[Row], games: &Games) -> String {
    let index = |name: &str| games.names.iter().position(|n| n == name);
    let met = encounters(games);
    let claimed: Vec<&Row> = rows.iter().filter(|r| r.claimed.is_some()).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| pair (higher claim first) | claimed difference | head to head | games | Elo (95 %) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    let mut steps = (0, 0);
    for (i, hi) in claimed.iter().enumerate() {
        for lo in claimed[..i].iter().rev() {
            let (Some(h), Some(l)) = (index(&hi.name), index(&lo.name)) else {
                continue;
            };
            let Some(e) = met
                .iter()
                .find(|e| (e.first, e.second) == (h.min(l), h.max(l)))
            else {
                continue;
            };
            let wdl = if e.first == h { e.wdl } else { e.wdl.flipped() };
            let adjacent = std::ptr::eq(*lo, claimed[i - 1]);
            if adjacent {
                steps.1 += 1;
                steps.0 += usize::from(wdl.score() > 0.5);
            }
            let elo = trinomial_elo(&wdl);
            let _ = writeln!(
                s,
                "| {} - {}{} | {:+.0} | {}-{}-{} ({:.1} %) | {} | {} |",
                hi.name,
                lo.name,
                if adjacent { " (step)" } else { "" },
                hi.claimed.unwrap_or(0.0) - lo.claimed.unwrap_or(0.0),
                wdl.wins,
                wdl.losses,
                wdl.draws,
                100.0 * wdl.score(),
                wdl.games(),
                match elo {
                    Some(e) if e.elo.is_finite() && e.error.is_finite() => {
                        format!("{:+.0} ± {:.0}", e.elo, e.error)
                    }
                    Some(e) => format!("{:+}", e.elo),
                    None => "-".into(),
                }
            );
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Steps won (each level against the next one down): {} of {}.",
        steps.0, steps.1
    );
    s
}

/// Runs `-ratings`: prints the table, writes what was asked; the exit status.
pub fn run(cfg: &RatingsConfig) -> u8 {
    match report(cfg) {
        Ok(text) => {
            print!("{text}");
            EXIT_OK
        }
        Err((code, e)) => {
            eprintln!("punct-referee: -ratings: {e}");
            code
        }
    }
}

fn report(cfg: &RatingsConfig) -> Result<String, (u8, String)> {
    let bad = |e: String| (EXIT_BAD_ARGS, e);
    let games = read_games(&cfg.files).map_err(bad)?;
    if games.games.is_empty() {
        return Err(bad("no finished game in the logs".into()));
    }
    let claims = match &cfg.claims {
        Some(p) => read_claims(p).map_err(bad)?,
        None => BTreeMap::new(),
    };
    let fit = fit(&games.names, &games.games, &cfg.anchors).map_err(bad)?;
    let rows = rows(&fit, &claims);
    let table = markdown(&rows, &fit, &games, cfg.tolerance);
    let write = |path: &PathBuf, text: &str| {
        std::fs::write(path, text).map_err(|e| (EXIT_ERROR, format!("{}: {e}", path.display())))
    };
    if let Some(p) = &cfg.table {
        write(p, &table)?;
    }
    if let Some(p) = &cfg.plot {
        write(
            p,
            &crate::referee::calibration_plot::svg(&rows, cfg.tolerance),
        )?;
    }
    Ok(table)
}

pub const HELP: &str = "\
usage: punct-referee -ratings FILE... -anchor NAME=ELO [-anchor NAME=ELO]... [-claims FILE]
                     [-table FILE.md] [-plot FILE.svg] [-tolerance ELO]

Ratings of every player in the JSONL logs (-jsonl of any runs, shards included) on the scale
the anchors fix (a maximum-likelihood fit of Elo's model, as Ordo's; 95 % intervals), each
beside its claimed rating from -claims (lines NAME ELO), with the head-to-head results of
every pair that met. -tolerance (default 100) marks the ratings further from their claim.
Used by tournaments/calibrate-levels.sh (docs/levels.md).
";

/// `punct-referee -ratings ...`: parses the arguments; `None` when they are not `-ratings`.
pub fn parse(args: &[String]) -> Option<Result<Option<RatingsConfig>, String>> {
    if args.first().map(String::as_str) != Some("-ratings") {
        return None;
    }
    Some(parse_ratings(&args[1..]))
}

/// `Ok(None)`: help was asked for.
fn parse_ratings(args: &[String]) -> Result<Option<RatingsConfig>, String> {
    let mut cfg = RatingsConfig {
        tolerance: 100.0,
        ..RatingsConfig::default()
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if matches!(a, "-h" | "-help" | "--help") {
            return Ok(None);
        }
        if !a.starts_with('-') {
            cfg.files.push(PathBuf::from(a));
            continue;
        }
        let value = args
            .get(i)
            .filter(|v| !v.starts_with('-') || v.parse::<f64>().is_ok())
            .ok_or_else(|| format!("{a} needs a value"))?;
        i += 1;
        match a {
            "-anchor" => {
                let (name, elo) = value
                    .rsplit_once('=')
                    .ok_or_else(|| format!("-anchor {value}: expected NAME=ELO"))?;
                let elo: f64 = elo
                    .parse()
                    .map_err(|_| format!("-anchor {value}: {elo} is not a number"))?;
                cfg.anchors.push((name.to_string(), elo));
            }
            "-claims" => cfg.claims = Some(PathBuf::from(value)),
            "-table" => cfg.table = Some(PathBuf::from(value)),
            "-plot" => cfg.plot = Some(PathBuf::from(value)),
            "-tolerance" => {
                cfg.tolerance = value
                    .parse()
                    .ok()
                    .filter(|t: &f64| *t > 0.0)
                    .ok_or_else(|| format!("-tolerance: {value} is not a positive number"))?
            }
            _ => {
                return Err(format!(
                "-ratings: unknown flag '{a}' (known: -anchor, -claims, -table, -plot, -tolerance)"
            ))
            }
        }
    }
    if cfg.files.is_empty() {
        return Err("-ratings needs the JSONL logs of the games".into());
    }
    if cfg.anchors.is_empty() {
        return Err("-ratings needs at least one -anchor NAME=ELO".into());
    }
    Ok(Some(cfg))
}
