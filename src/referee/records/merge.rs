//! `-merge FILE...`: the statistics of one run from the JSONL logs of its shards (`-shard`).
//! Games are keyed by their number, which the shards share with the whole run, so the union of
//! the shards' games is the run's games and the standings, pentanomial pairs and SPRT come out
//! as one run would print them. A game recorded twice must be the same game.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::referee::exit::{EXIT_BAD_ARGS, EXIT_OK, EXIT_SPRT_H0};
use crate::referee::records::jsonl::{games_of, read_objects};
use crate::referee::records::record::GameRecord;
use crate::referee::settings::SprtConfig;
use crate::referee::stats::elo::{Pentanomial, Wdl};
use crate::referee::stats::report::{
    match_summary, score_line, standings_table, MatchReport, PlayerStanding,
};
use crate::referee::stats::sprt::SprtDecision;
use crate::referee::tournament::{time_lines, Standings};

/// The shards' logs read together.
pub struct Merged {
    /// Player names by index.
    pub players: Vec<String>,
    /// Every game once, by game number.
    pub games: Vec<GameRecord>,
    /// Games the run scheduled (from the `start` records; the largest seen).
    pub games_total: Option<u64>,
}

/// Reads and combines the logs.
pub fn merge_files(files: &[PathBuf]) -> Result<Merged, String> {
    let mut games: BTreeMap<u64, GameRecord> = BTreeMap::new();
    let mut players: Option<Vec<String>> = None;
    let mut total: Option<u64> = None;
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let where_ = |e: String| format!("{}: {e}", path.display());
        let (objects, _) = read_objects(&text).map_err(where_)?;
        for start in objects
            .iter()
            .map(|(_, v)| v)
            .filter(|v| v.get("type").and_then(Value::as_str) == Some("start"))
        {
            let names: Option<Vec<String>> = start
                .get("players")
                .and_then(|p| serde_json::from_value(p.clone()).ok());
            if let Some(names) = names {
                match &players {
                    Some(p) if *p != names => {
                        return Err(format!(
                            "{}: players {names:?} differ from {p:?} of the other logs",
                            path.display()
                        ))
                    }
                    _ => players = Some(names),
                }
            }
            if let Some(t) = start.get("games_total").and_then(Value::as_u64) {
                // A shard's start record counts only its own games; the run is at least that.
                total = Some(total.map_or(t, |x| x.max(t)));
            }
        }
        for g in games_of(&objects).map_err(where_)? {
            match games.get(&g.game) {
                Some(old) if old.moves != g.moves || old.result != g.result => {
                    return Err(format!(
                        "{}: game {} was also recorded differently in another log \
                         (overlapping shards of different runs?)",
                        path.display(),
                        g.game
                    ))
                }
                Some(_) => {}
                None => {
                    games.insert(g.game, g);
                }
            }
        }
    }
    let mut players = players.unwrap_or_default();
    for g in games.values() {
        let need = g.white_player.max(g.black_player) + 1;
        if players.len() < need {
            players.resize(need, String::new());
        }
        players[g.white_player] = g.white.clone();
        players[g.black_player] = g.black.clone();
    }
    Ok(Merged {
        players,
        games: games.into_values().collect(),
        games_total: total,
    })
}

/// The final report lines of the merged run (the lines a single run ends with).
pub fn report_lines(m: &Merged, sprt: Option<SprtConfig>) -> (Vec<String>, Option<SprtDecision>) {
    let mut st = Standings::new(m.players.len());
    for g in &m.games {
        st.add(g);
    }
    let copy = |w: &Wdl| Wdl {
        wins: w.wins,
        losses: w.losses,
        draws: w.draws,
    };
    let mut lines = Vec::new();
    let mut decision = None;
    if m.players.len() == 2 {
        let e = st.encounters.get(&(0, 1));
        let wdl = e.map(|e| copy(&e.wdl)).unwrap_or(Wdl {
            wins: 0,
            losses: 0,
            draws: 0,
        });
        lines.push(score_line(&m.players[0], &m.players[1], &wdl));
        let s = sprt.map(|s| s.to_sprt());
        let ptnml = e.map(|e| Pentanomial(e.ptnml.0)).filter(|p| p.pairs() > 0);
        if let (Some(s), Some(e)) = (&s, e) {
            let llr = s.llr_of(&e.wdl, &e.ptnml);
            decision = if llr.is_finite() { s.decide(llr) } else { None };
        }
        lines.extend(match_summary(&MatchReport {
            first: &m.players[0],
            second: &m.players[1],
            wdl,
            ptnml,
            sprt: s.as_ref(),
            stopped: None,
        }));
    } else {
        let table: Vec<PlayerStanding> = m
            .players
            .iter()
            .zip(&st.players)
            .map(|(n, w)| PlayerStanding {
                name: n.clone(),
                wdl: copy(w),
            })
            .collect();
        lines.extend(standings_table(&table).lines().map(str::to_string));
        for ((a, b), e) in &st.encounters {
            lines.push(score_line(&m.players[*a], &m.players[*b], &e.wdl));
        }
    }
    lines.extend(time_lines(m.players.iter().map(String::as_str), &st));
    (lines, decision)
}

/// The `-merge` command: prints the merged statistics; exit status as a run's.
pub fn run(files: &[PathBuf], sprt: Option<SprtConfig>) -> u8 {
    let m = match merge_files(files) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("punct-referee: {e}");
            return EXIT_BAD_ARGS;
        }
    };
    println!(
        "Merged {} games from {} logs{}",
        m.games.len(),
        files.len(),
        m.games_total
            .map(|t| format!(" (a shard scheduled up to {t})"))
            .unwrap_or_default()
    );
    let (lines, decision) = report_lines(&m, sprt);
    for l in lines {
        println!("{l}");
    }
    match decision {
        Some(SprtDecision::AcceptH0) => EXIT_SPRT_H0,
        _ => EXIT_OK,
    }
}
