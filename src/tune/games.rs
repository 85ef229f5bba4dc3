//! The games of an SPSA iteration, played through the referee library in this process: the
//! engine with θ + c·Δ against the engine with θ − c·Δ, each opening twice with colours
//! swapped, `-concurrency` games at once. Openings and game numbers follow the iteration, so
//! a resumed run plays the games the interrupted one would have.

use std::sync::Mutex;

use crate::referee::game::{play_game, GameSpec};
use crate::referee::openings::Openings;
use crate::referee::players::player::{EnginePlayer, Player, Timeouts};
use crate::referee::settings::{EngineConfig, RunConfig};
use crate::tune::spsa::Probe;

pub struct IterationGames {
    cfg: RunConfig,
    openings: Openings,
    /// Game pairs per iteration.
    pub pairs: u64,
    names: Vec<String>,
}

fn with_values(base: &EngineConfig, name: &str, names: &[String], values: &[i64]) -> EngineConfig {
    let mut e = base.clone();
    e.name = name.to_string();
    for (n, v) in names.iter().zip(values) {
        e.options.retain(|(k, _)| !k.eq_ignore_ascii_case(n));
        e.options.push((n.clone(), v.to_string()));
    }
    e
}

impl IterationGames {
    /// `cfg` holds the engine as its first engine (its limit and options), the openings,
    /// variant, adjudication and concurrency; `names` are the tuned options.
    pub fn new(cfg: RunConfig, pairs: u64, names: Vec<String>) -> Result<IterationGames, String> {
        let e = &cfg.engines[0];
        if !e.is_builtin() && !crate::referee::runner::program_exists(e) {
            return Err(format!(
                "engine program '{}' not found or not executable",
                e.cmd
            ));
        }
        let openings = Openings::new(&cfg.openings, cfg.variant, cfg.srand)?;
        Ok(IterationGames {
            cfg,
            openings,
            pairs: pairs.max(1),
            names,
        })
    }

    /// Plays the probe's games; returns (wins − losses of the plus side, games), or None when
    /// interrupted (the iteration then counts for nothing).
    pub fn play(&self, probe: &Probe) -> Option<(f64, u64)> {
        let base = &self.cfg.engines[0];
        let engines = [
            with_values(base, "plus", &self.names, &probe.plus),
            with_values(base, "minus", &self.names, &probe.minus),
        ];
        let mut specs = Vec::new();
        for p in 0..self.pairs {
            let pair = (probe.k - 1) * self.pairs + p + 1;
            let opening = self.openings.get(pair - 1);
            for (g, (white, black)) in [(0, 1), (1, 0)].into_iter().enumerate() {
                specs.push(GameSpec {
                    game: 2 * pair - 1 + g as u64,
                    round: 1,
                    pair,
                    white,
                    black,
                    opening_index: pair - 1,
                    opening: opening.clone(),
                });
            }
        }
        let queue = Mutex::new(specs.into_iter());
        let total = Mutex::new(Some((0.0, 0u64)));
        let timeouts = || Timeouts {
            startup: self.cfg.startup_timeout,
            ready: self.cfg.ready_timeout,
        };
        std::thread::scope(|s| {
            for _ in 0..self.cfg.concurrency.min(2 * self.pairs as usize).max(1) {
                s.spawn(|| {
                    let mut players = [
                        EnginePlayer::new(engines[0].clone(), timeouts()),
                        EnginePlayer::new(engines[1].clone(), timeouts()),
                    ];
                    loop {
                        let Some(spec) = queue.lock().expect("queue").next() else {
                            break;
                        };
                        let [plus, minus] = &mut players;
                        let (w, b): (&mut dyn Player, &mut dyn Player) = if spec.white == 0 {
                            (plus, minus)
                        } else {
                            (minus, plus)
                        };
                        let cfgs = [&engines[spec.white], &engines[spec.black]];
                        let record = play_game(&spec, [w, b], cfgs, &self.cfg);
                        let mut t = total.lock().expect("total");
                        match (record, t.as_mut()) {
                            (Some(r), Some((sum, n))) => {
                                let pts = r.points_of(0).unwrap_or(0.5);
                                *sum += 2.0 * pts - 1.0;
                                *n += 1;
                            }
                            _ => *t = None,
                        }
                    }
                    for p in &mut players {
                        p.shutdown();
                    }
                });
            }
        });
        total.into_inner().expect("total")
    }
}
