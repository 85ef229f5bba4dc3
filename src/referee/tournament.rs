//! The schedule (match, gauntlet, round-robin; every opening played as a pair with colours
//! swapped) and the running standings built from finished games.

use std::collections::BTreeMap;

use crate::referee::game::GameSpec;
use crate::referee::openings::Openings;
use crate::referee::records::record::GameRecord;
use crate::referee::settings::{RunConfig, TournamentKind};
use crate::referee::stats::elo::{Pentanomial, Wdl};
use crate::referee::stats::values::Values;

/// The pairs of players that meet, first-named first.
pub fn encounters(kind: TournamentKind, players: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::Gauntlet => (1..players).map(|j| (0, j)).collect(),
        TournamentKind::Match | TournamentKind::RoundRobin => (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect(),
    }
}

/// The number of games of the run.
pub fn schedule_len(cfg: &RunConfig) -> u64 {
    let encounters = encounters(cfg.tournament, cfg.engines.len()).len() as u64;
    u64::from(cfg.rounds)
        .saturating_mul(encounters)
        .saturating_mul(u64::from(cfg.games))
}

/// Every game of the run in order, made as it is asked for (the memory does not grow with the
/// number of games). Games `2k-1` and `2k` of an encounter share an opening with colours
/// swapped; an odd `-games` leaves the last game of each encounter unpaired.
pub fn schedule<'a>(
    cfg: &'a RunConfig,
    openings: &'a Openings,
) -> impl Iterator<Item = GameSpec> + Send + 'a {
    let encounters = encounters(cfg.tournament, cfg.engines.len());
    let games = u64::from(cfg.games);
    let pairs_per_encounter = games.div_ceil(2);
    let per_round = encounters.len() as u64 * games;
    (0..schedule_len(cfg)).map(move |i| {
        let round = i / per_round;
        let e = (i % per_round) / games;
        let k = i % games;
        let pair = (round * encounters.len() as u64 + e) * pairs_per_encounter + k / 2 + 1;
        let (a, b) = encounters[e as usize];
        let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
        GameSpec {
            game: i + 1,
            round: round as u32 + 1,
            pair,
            white,
            black,
            opening_index: pair - 1,
            opening: openings.get(pair - 1),
        }
    })
}

/// Results of one encounter from the first player's point of view.
pub struct EncounterStats {
    pub wdl: Wdl,
    pub ptnml: Pentanomial,
    /// First game's points (first player's view) of pairs still waiting for their second game.
    pending: BTreeMap<u64, f64>,
}

/// Faults per player, as counted in fastchess's end report.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct FaultCounts {
    pub timeouts: u64,
    pub disconnects: u64,
    pub stalls: u64,
    pub illegal: u64,
}

pub struct Standings {
    pub players: Vec<Wdl>,
    pub faults: Vec<FaultCounts>,
    pub encounters: BTreeMap<(usize, usize), EncounterStats>,
    pub games: u64,
    /// Referee overhead per move (µs), all games (in flat memory: see [`Values`]).
    pub overheads: Values,
    /// Per player: the think time of each move against the time it was allotted.
    pub time_use: Vec<TimeUse>,
}

/// A player's think times (ms) and the time allotted for each move (ms, when limited).
#[derive(Debug, Default)]
pub struct TimeUse {
    pub used: Values,
    /// The moves that had an allotted time, and the sum of those times.
    pub budgets: u64,
    pub budget_sum_ms: f64,
    /// Moves that took longer than their allotted time (forgiven by the time margin, or lost
    /// on time).
    pub over_budget: u64,
}

/// Summary figures of a [`TimeUse`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeUseSummary {
    pub moves: usize,
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Mean allotted time of the moves that had one.
    pub mean_budget_ms: Option<f64>,
    pub over_budget: u64,
}

/// The summary's `Time:` line of each player that moved (names by player index).
pub fn time_lines<'a>(names: impl IntoIterator<Item = &'a str>, st: &Standings) -> Vec<String> {
    (names.into_iter().zip(&st.time_use))
        .filter_map(|(name, t)| {
            let t = t.summary()?;
            let allotted = (t.mean_budget_ms).map_or("none".to_string(), |b| format!("{b:.1} ms"));
            Some(format!(
                "Time: {name}  moves {}  mean {:.1} ms  p99 {:.1} ms  max {:.1} ms  allotted {allotted}  over budget {}",
                t.moves, t.mean_ms, t.p99_ms, t.max_ms, t.over_budget
            ))
        })
        .collect()
}

impl TimeUse {
    pub fn summary(&self) -> Option<TimeUseSummary> {
        let n = self.used.len();
        let mean = self.used.mean()?;
        // The nearest-rank 99th percentile.
        let p99 = self.used.nth((n * 99).div_ceil(100).clamp(1, n) - 1)?;
        let mean_budget = (self.budgets > 0).then(|| self.budget_sum_ms / self.budgets as f64);
        Some(TimeUseSummary {
            moves: n as usize,
            mean_ms: mean,
            p99_ms: p99,
            max_ms: self.used.max()?,
            mean_budget_ms: mean_budget,
            over_budget: self.over_budget,
        })
    }
}

impl Default for EncounterStats {
    fn default() -> EncounterStats {
        EncounterStats {
            wdl: Wdl {
                wins: 0,
                losses: 0,
                draws: 0,
            },
            ptnml: Pentanomial([0; 5]),
            pending: BTreeMap::new(),
        }
    }
}

fn add(w: &mut Wdl, points: f64) {
    if points > 0.75 {
        w.wins += 1;
    } else if points < 0.25 {
        w.losses += 1;
    } else {
        w.draws += 1;
    }
}

impl Standings {
    pub fn new(players: usize) -> Standings {
        Standings {
            players: (0..players)
                .map(|_| Wdl {
                    wins: 0,
                    losses: 0,
                    draws: 0,
                })
                .collect(),
            faults: vec![FaultCounts::default(); players],
            encounters: BTreeMap::new(),
            games: 0,
            overheads: Values::default(),
            time_use: (0..players).map(|_| TimeUse::default()).collect(),
        }
    }

    pub fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        for p in [g.white_player, g.black_player] {
            if let Some(pts) = g.points_of(p) {
                add(&mut self.players[p], pts);
            }
        }
        let (a, b) = (
            g.white_player.min(g.black_player),
            g.white_player.max(g.black_player),
        );
        let e = self.encounters.entry((a, b)).or_default();
        let pts = g.points_of(a).unwrap_or(0.5);
        add(&mut e.wdl, pts);
        match e.pending.remove(&g.pair) {
            Some(first) => e.ptnml.add_pair(first, pts),
            None => {
                e.pending.insert(g.pair, pts);
            }
        }
        if let Some(f) = g.fault_player {
            let c = &mut self.faults[f];
            match g.reason.as_str() {
                "time_forfeit" => c.timeouts += 1,
                "disconnect" => c.disconnects += 1,
                "stall" => c.stalls += 1,
                "illegal_move" => c.illegal += 1,
                _ => {}
            }
        }
        for o in g.moves.iter().filter_map(|m| m.overhead_us) {
            self.overheads.push(o);
        }
        // The first move is the opening position's side to move's.
        let black_first = g.opening.split_whitespace().rev().nth(1) == Some("b");
        let (first, second) = if black_first {
            (g.black_player, g.white_player)
        } else {
            (g.white_player, g.black_player)
        };
        for (i, m) in g.moves.iter().enumerate() {
            let t = &mut self.time_use[if i % 2 == 0 { first } else { second }];
            t.used.push(m.ms);
            if let Some(b) = m.budget_ms {
                t.budgets += 1;
                t.budget_sum_ms += b;
                if m.ms > b {
                    t.over_budget += 1;
                }
            }
        }
    }

    pub fn overhead_median_us(&self) -> Option<f64> {
        self.overheads.nth(self.overheads.len() / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(flags: &str) -> RunConfig {
        crate::referee::cli::run_config(flags)
    }

    #[test]
    fn pairs_swap_colours_and_share_openings() {
        let c = cfg(
            "-each depth=1 -engine cmd=a -engine cmd=b -games 3 -rounds 2 -random-openings plies=2",
        );
        let o = Openings::new(&c.openings, c.variant, c.srand).unwrap();
        let s: Vec<GameSpec> = schedule(&c, &o).collect();
        assert_eq!(s.len(), 6);
        assert_eq!(schedule_len(&c), 6);
        assert_eq!(
            s.iter().map(|g| g.game).collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5, 6]
        );
        assert_eq!(
            (s[0].white, s[0].black, s[1].white, s[1].black),
            (0, 1, 1, 0)
        );
        assert_eq!(s[0].opening, s[1].opening);
        assert_eq!(s[0].pair, s[1].pair);
        assert_ne!(s[0].opening, s[2].opening);
        assert_eq!((s[2].pair, s[2].white), (2, 0)); // odd game alone
        assert_eq!(s[3].round, 2);
        assert_eq!((s[3].pair, s[5].pair), (3, 4));
    }

    #[test]
    fn a_huge_schedule_is_made_lazily() {
        let c = cfg("-each depth=1 -engine cmd=a -engine cmd=b -engine cmd=c -games 100000000");
        let o = Openings::new(&c.openings, c.variant, c.srand).unwrap();
        assert_eq!(schedule_len(&c), 300_000_000);
        let mut s = schedule(&c, &o);
        let first: Vec<GameSpec> = s.by_ref().take(3).collect();
        assert_eq!((first[2].game, first[2].pair, first[2].white), (3, 2, 0));
        assert_eq!(s.next().map(|g| g.game), Some(4));
        // Encounters follow each other, pairs numbered on.
        let c = cfg("-each depth=1 -engine cmd=a -engine cmd=b -engine cmd=c -games 3");
        let s: Vec<GameSpec> = schedule(&c, &o).collect();
        let seen: Vec<_> = s.iter().map(|g| (g.pair, g.white, g.black)).collect();
        assert_eq!(
            &seen[..5],
            &[(1, 0, 1), (1, 1, 0), (2, 0, 1), (3, 0, 2), (3, 2, 0)]
        );
        assert_eq!(seen[8], (6, 1, 2));
    }

    #[test]
    fn encounters_per_kind() {
        assert_eq!(
            encounters(TournamentKind::Gauntlet, 4),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            encounters(TournamentKind::RoundRobin, 3),
            vec![(0, 1), (0, 2), (1, 2)]
        );
    }
}
