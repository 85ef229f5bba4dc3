//! The schedule (match, gauntlet, round-robin; every opening played as a pair with colours
//! swapped) and the running standings built from finished games.

use std::collections::BTreeMap;

use crate::referee::config::{RunConfig, TournamentKind};
use crate::referee::game::{GameRecord, GameSpec};
use crate::referee::openings::Openings;
use crate::referee::stats::{Pentanomial, Wdl};

/// The pairs of players that meet, first-named first.
pub fn encounters(kind: TournamentKind, players: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::Gauntlet => (1..players).map(|j| (0, j)).collect(),
        TournamentKind::Match | TournamentKind::RoundRobin => (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect(),
    }
}

/// Every game of the run in order. Games `2k-1` and `2k` of an encounter share an opening with
/// colours swapped; an odd `-games` leaves the last game of each encounter unpaired.
pub fn schedule(cfg: &RunConfig, openings: &Openings) -> Vec<GameSpec> {
    let mut specs = Vec::new();
    let mut game = 0;
    let mut pair = 0;
    for round in 1..=cfg.rounds {
        for (a, b) in encounters(cfg.tournament, cfg.engines.len()) {
            let mut left = cfg.games;
            while left > 0 {
                pair += 1;
                let opening = openings.get(pair - 1);
                for (white, black) in [(a, b), (b, a)].into_iter().take(left.min(2) as usize) {
                    game += 1;
                    specs.push(GameSpec {
                        game,
                        round,
                        pair,
                        white,
                        black,
                        opening_index: pair - 1,
                        opening: opening.clone(),
                    });
                }
                left = left.saturating_sub(2);
            }
        }
    }
    specs
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
    /// Referee overhead per move (µs), all games.
    pub overheads: Vec<f64>,
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
            overheads: Vec::new(),
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
        self.overheads
            .extend(g.moves.iter().filter_map(|m| m.overhead_us));
    }

    pub fn overhead_median_us(&self) -> Option<f64> {
        let mut v = self.overheads.clone();
        if v.is_empty() {
            return None;
        }
        v.sort_by(|a, b| a.total_cmp(b));
        Some(v[v.len() / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(flags: &str) -> RunConfig {
        crate::referee::config::run_config(flags)
    }

    #[test]
    fn pairs_swap_colours_and_share_openings() {
        let c = cfg(
            "-each depth=1 -engine cmd=a -engine cmd=b -games 3 -rounds 2 -random-openings plies=2",
        );
        let o = Openings::new(&c.openings, c.variant, c.srand).unwrap();
        let s = schedule(&c, &o);
        assert_eq!(s.len(), 6);
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
