//! SPSA as fishtest runs it: each parameter has a start value, bounds, `c_end` (the final
//! perturbation) and `r_end` (the final learning rate, in units of c_end²); with N iterations,
//! `c_k = c_end · N^γ / k^γ`, `a_k = r_end · c_end² · (A + N)^α / (A + k)^α`, and after the
//! games of iteration k between θ + c_k·Δ and θ − c_k·Δ (Δ random ±1) with result r (wins
//! minus losses of the plus side) `θ ← θ + a_k / c_k · r · Δ`. Defaults: α = 0.602,
//! γ = 0.101, A = 0.1·N.
//!
//! Every iteration is appended (and synced) to a JSON Lines log before the next begins; the
//! perturbation and the rounding of iteration k come from the seed and k alone, so a run
//! continued from its log (`-resume`) takes exactly the steps the uninterrupted run would.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::referee::openings::mix;
use crate::referee::records::jsonl::read_objects;

pub const LOG_VERSION: u32 = 1;

/// One tuned parameter (a spin option).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

impl SpsaParam {
    /// Reads `NAME,VALUE,MIN,MAX,C_END,R_END` (fishtest's order without the type), or a
    /// shorter prefix whose missing fields come from `defaults(name)` = (value, min, max):
    /// `c_end` then defaults to max(|value|/20, 0.5) (the fishtest advice) and `r_end` to 0.002.
    pub fn parse(
        text: &str,
        defaults: impl Fn(&str) -> Option<(f64, f64, f64)>,
    ) -> Result<SpsaParam, String> {
        let f: Vec<&str> = text.split(',').map(str::trim).collect();
        let name = f[0].to_string();
        if name.is_empty() || f.len() > 6 {
            return Err(format!(
                "-param '{text}': expected NAME[,VALUE,MIN,MAX,C_END,R_END]"
            ));
        }
        let num = |i: usize, what: &str| -> Result<Option<f64>, String> {
            f.get(i)
                .map(|v| {
                    v.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| format!("-param '{text}': {what} '{v}' is not a number"))
                })
                .transpose()
        };
        let d = defaults(&name);
        let pick = |i, what, def: Option<f64>| -> Result<f64, String> {
            num(i, what)?.or(def).ok_or_else(|| {
                format!("-param '{text}': {what} is missing (no option '{name}' to take it from)")
            })
        };
        let start = pick(1, "value", d.map(|d| d.0))?;
        let min = pick(2, "min", d.map(|d| d.1))?;
        let max = pick(3, "max", d.map(|d| d.2))?;
        let c_end = pick(4, "c_end", Some((start.abs() / 20.0).max(0.5)))?;
        let r_end = pick(5, "r_end", Some(0.002))?;
        if !(min <= start && start <= max) {
            return Err(format!("-param '{text}': value must lie in min..=max"));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(format!("-param '{text}': c_end and r_end must be positive"));
        }
        Ok(SpsaParam {
            name,
            start,
            min,
            max,
            c_end,
            r_end,
        })
    }
}

/// Settings of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaSettings {
    pub iterations: u64,
    pub a: f64,
    pub alpha: f64,
    pub gamma: f64,
    pub seed: u64,
}

impl SpsaSettings {
    /// fishtest's defaults for `iterations`.
    pub fn new(iterations: u64, seed: u64) -> SpsaSettings {
        SpsaSettings {
            iterations,
            a: 0.1 * iterations as f64,
            alpha: 0.602,
            gamma: 0.101,
            seed,
        }
    }
}

/// What one iteration plays: the integer values of both sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// 1-based iteration number.
    pub k: u64,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
}

/// One logged iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterRecord {
    pub k: u64,
    pub c: Vec<f64>,
    pub a: Vec<f64>,
    pub flip: Vec<i8>,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
    /// Wins minus losses of the plus side.
    pub result: f64,
    pub games: u64,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// The state of a run: parameters, θ and the iterations done.
pub struct Spsa {
    pub params: Vec<SpsaParam>,
    pub settings: SpsaSettings,
    pub theta: Vec<f64>,
    /// Iterations done.
    pub k: u64,
    pub history: Vec<IterRecord>,
}

impl Spsa {
    pub fn new(params: Vec<SpsaParam>, settings: SpsaSettings) -> Spsa {
        let theta = params.iter().map(|p| p.start).collect();
        Spsa {
            params,
            settings,
            theta,
            k: 0,
            history: Vec::new(),
        }
    }

    fn gains(&self, k: u64) -> (Vec<f64>, Vec<f64>) {
        let s = &self.settings;
        let n = s.iterations as f64;
        let k = k as f64;
        let c: Vec<f64> = self
            .params
            .iter()
            .map(|p| p.c_end * n.powf(s.gamma) / k.powf(s.gamma))
            .collect();
        let a = self
            .params
            .iter()
            .map(|p| {
                p.r_end * p.c_end * p.c_end * (s.a + n).powf(s.alpha) / (s.a + k).powf(s.alpha)
            })
            .collect();
        (c, a)
    }

    fn rng(&self, k: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(mix(mix(self.settings.seed) ^ k))
    }

    /// The perturbation of iteration `k` and the values both sides play (rounded at random
    /// without bias, clamped to the bounds).
    fn plan(&self, k: u64) -> (Vec<i8>, Probe, Vec<f64>, Vec<f64>) {
        let (c, a) = self.gains(k);
        let mut rng = self.rng(k);
        let flip: Vec<i8> = self
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1 } else { -1 })
            .collect();
        let side = |sign: f64, rng: &mut Xoshiro256PlusPlus| -> Vec<i64> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let x = (self.theta[i] + sign * c[i] * f64::from(flip[i])).clamp(p.min, p.max);
                    let r = (x + rng.gen::<f64>()).floor();
                    r.clamp(p.min.ceil(), p.max.floor()) as i64
                })
                .collect()
        };
        let plus = side(1.0, &mut rng);
        let minus = side(-1.0, &mut rng);
        (flip, Probe { k, plus, minus }, c, a)
    }

    pub fn done(&self) -> bool {
        self.k >= self.settings.iterations
    }

    /// The next iteration's probe.
    pub fn next_probe(&self) -> Probe {
        self.plan(self.k + 1).1
    }

    /// Applies the result of the probe of iteration `k + 1` (wins minus losses of the plus
    /// side over `games` games) and returns the record to log.
    pub fn apply(&mut self, result: f64, games: u64) -> IterRecord {
        let k = self.k + 1;
        let (flip, probe, c, a) = self.plan(k);
        for (i, p) in self.params.iter().enumerate() {
            let step = a[i] / c[i] * result * f64::from(flip[i]);
            self.theta[i] = (self.theta[i] + step).clamp(p.min, p.max);
        }
        self.k = k;
        let rec = IterRecord {
            k,
            c,
            a,
            flip,
            plus: probe.plus,
            minus: probe.minus,
            result,
            games,
            theta: self.theta.clone(),
        };
        self.history.push(rec.clone());
        rec
    }

    /// θ rounded to the option values.
    pub fn values(&self) -> Vec<i64> {
        self.theta.iter().map(|t| t.round() as i64).collect()
    }
}

/// The append-only log of a run.
pub struct SpsaLog {
    file: File,
    pub path: PathBuf,
}

impl SpsaLog {
    /// Starts a log (refusing to overwrite one unless `overwrite`) or, with `resume`, reads it
    /// back: a torn last line is cut, the header must match, and the state continues after the
    /// last logged iteration.
    pub fn open(
        path: &Path,
        spsa: &mut Spsa,
        resume: bool,
        overwrite: bool,
    ) -> Result<SpsaLog, String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let header = json!({
            "type": "spsa", "version": LOG_VERSION,
            "params": spsa.params, "settings": spsa.settings,
        });
        if exists && resume {
            let bytes = std::fs::read(path).map_err(err)?;
            let text = String::from_utf8_lossy(&bytes);
            let (objects, good) =
                read_objects(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            if good < text.len() {
                log::warn!("{}: cutting a torn last line", path.display());
                let f = OpenOptions::new().write(true).open(path).map_err(err)?;
                f.set_len(good as u64).map_err(err)?;
            }
            let head = objects
                .iter()
                .map(|(_, v)| v)
                .find(|v| v.get("type").and_then(Value::as_str) == Some("spsa"))
                .ok_or_else(|| format!("{}: no spsa header", path.display()))?;
            if head.get("params") != header.get("params")
                || head.get("settings") != header.get("settings")
            {
                return Err(format!(
                    "{}: the log was written with other parameters or settings; resume with the same ones",
                    path.display()
                ));
            }
            for v in objects
                .iter()
                .map(|(_, v)| v)
                .filter(|v| v.get("type").and_then(Value::as_str) == Some("iter"))
            {
                let rec: IterRecord = serde_json::from_value(v.clone())
                    .map_err(|e| format!("{}: bad iteration record: {e}", path.display()))?;
                if rec.k != spsa.k + 1 || rec.theta.len() != spsa.theta.len() {
                    return Err(format!(
                        "{}: iteration {} out of order",
                        path.display(),
                        rec.k
                    ));
                }
                spsa.k = rec.k;
                spsa.theta = rec.theta.clone();
                spsa.history.push(rec);
            }
            let file = OpenOptions::new().append(true).open(path).map_err(err)?;
            return Ok(SpsaLog {
                file,
                path: path.to_path_buf(),
            });
        }
        if exists && !overwrite {
            return Err(format!(
                "{} exists: continue that run with -resume, or start over with -overwrite",
                path.display()
            ));
        }
        let mut log = SpsaLog {
            file: File::create(path).map_err(err)?,
            path: path.to_path_buf(),
        };
        log.write(&header).map_err(err)?;
        Ok(log)
    }

    fn write(&mut self, v: &Value) -> std::io::Result<()> {
        let mut line = v.to_string();
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.sync_data()
    }

    pub fn append(&mut self, rec: &IterRecord) -> Result<(), String> {
        let mut v = serde_json::to_value(rec).map_err(|e| e.to_string())?;
        v["type"] = json!("iter");
        v["version"] = json!(LOG_VERSION);
        self.write(&v)
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// Runs iterations until done or until `play` returns None (interrupted). `play` returns the
/// result (wins minus losses of the plus side) and the number of games.
pub fn run(
    spsa: &mut Spsa,
    log: &mut SpsaLog,
    mut play: impl FnMut(&Probe) -> Option<(f64, u64)>,
    mut progress: impl FnMut(&Spsa, &IterRecord),
) -> Result<bool, String> {
    while !spsa.done() {
        let probe = spsa.next_probe();
        let Some((result, games)) = play(&probe) else {
            return Ok(false);
        };
        let rec = spsa.apply(result, games);
        log.append(&rec)?;
        progress(spsa, &rec);
    }
    Ok(true)
}
