//! Result text in cutechess/fastchess wording, so that their users and scripts recognise it
//! (fishtest greps `Games:` and `Ptnml(0-2):`, cutechess users `Score of` and `Elo difference:`).
//! Infinite values print as `inf`, undefined ones (no games, zero variance) as `n/a`.

use super::elo::{
    los_pentanomial, los_trinomial, pentanomial_elo, pentanomial_nelo, trinomial_elo,
    trinomial_nelo, EloEstimate, Pentanomial, Wdl,
};
use super::sprt::{Sprt, SprtStop};

/// cutechess's running score: `Score of A vs B: 10 - 5 - 3  [0.639] 18`.
pub fn score_line(first: &str, second: &str, w: &Wdl) -> String {
    format!(
        "Score of {first} vs {second}: {} - {} - {}  [{:.3}] {}",
        w.wins,
        w.losses,
        w.draws,
        w.score(),
        w.games()
    )
}

/// Everything the two-player summary needs; counts from `first`'s point of view.
#[derive(Debug, Clone)]
pub struct MatchReport<'a> {
    pub first: &'a str,
    pub second: &'a str,
    pub wdl: Wdl,
    pub ptnml: Option<Pentanomial>,
    pub sprt: Option<&'a Sprt>,
    /// The decision that stopped the run, when its SPRT stopped it (a live run; `None` for a
    /// report that only recomputes the test from all games, as `-merge` does).
    pub stopped: Option<SprtStop>,
}

/// The label of a figure from single games' wins, losses and draws.
pub const TRINOMIAL: &str = "(trinomial: game by game)";
/// The label of a figure from pairs of games with swapped colours.
pub const PENTANOMIAL: &str = "(pentanomial: by game pair)";

fn estimate(e: Option<EloEstimate>, decimals: usize) -> String {
    match e {
        Some(e) => format!("{:.*} +/- {:.*}", decimals, e.elo, decimals, e.error),
        None => "n/a".to_string(),
    }
}

/// The summary lines: cutechess's Elo line (trinomial, like cutechess), the Games line, then with
/// pairs the Ptnml line; fastchess's `Elo: .., nElo: ..` line (pentanomial when there are pairs);
/// with an SPRT the LLR line and, once decided, `... H0/H1 was accepted`. Each Elo and LOS line
/// ends with the model it counts by ([`TRINOMIAL`], [`PENTANOMIAL`]): the two estimates of one
/// match differ, and the pentanomial one, by game pairs, is the one an SPRT uses.
pub fn match_summary(r: &MatchReport) -> Vec<String> {
    let w = &r.wdl;
    let mut lines = vec![format!(
        "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} % {TRINOMIAL}",
        estimate(trinomial_elo(w), 1),
        los_trinomial(w) * 100.0,
        w.draw_ratio() * 100.0
    )];
    let points_pct = if w.games() == 0 {
        0.0
    } else {
        w.score() * 100.0
    };
    lines.push(format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        w.games(),
        w.wins,
        w.losses,
        w.draws,
        w.points(),
        points_pct
    ));
    let pairs = r.ptnml.filter(|p| p.pairs() > 0);
    if let Some(p) = &pairs {
        let [a, b, c, d, e] = p.0;
        lines.push(format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]"));
        lines.push(format!(
            "Elo: {}, nElo: {} {PENTANOMIAL}",
            estimate(pentanomial_elo(p), 2),
            estimate(pentanomial_nelo(p), 2)
        ));
        lines.push(format!(
            "LOS: {:.2} % {PENTANOMIAL}",
            los_pentanomial(p) * 100.0
        ));
    } else {
        lines.push(format!(
            "Elo: {}, nElo: {} {TRINOMIAL}",
            estimate(trinomial_elo(w), 2),
            estimate(trinomial_nelo(w), 2)
        ));
    }
    if let Some(sprt) = r.sprt {
        let llr = sprt.llr_of(w, &r.ptnml.unwrap_or_default());
        let (lower, upper) = sprt.bounds();
        // Progress towards the bound it is heading for, as both tools show it.
        let pct = if llr >= 0.0 {
            llr / upper
        } else {
            llr / -lower
        } * 100.0;
        lines.push(format!(
            "LLR: {llr:.2} ({pct:.1}%) ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
            sprt.elo0, sprt.elo1
        ));
        if let Some(decision) = r.stopped.map(|s| s.decision).or_else(|| sprt.decide(llr)) {
            lines.push(format!(
                "SPRT ([{:.2}, {:.2}]) completed - {} was accepted",
                sprt.elo0,
                sprt.elo1,
                decision.hypothesis()
            ));
        }
        if let Some(stop) = r.stopped.filter(|s| s.games != w.games()) {
            lines.push(format!(
                "SPRT stopped the match after {} games (LLR {:.2}); the LLR above also counts \
                 the {} games that finished after it",
                stop.games,
                stop.llr,
                w.games().saturating_sub(stop.games)
            ));
        }
    }
    lines
}

/// The line after a run with games lost on time: what such a loss means (the engines' time
/// margins in ms, one figure when they agree).
pub fn time_loss_note(margins_ms: &[u128]) -> String {
    let mut m = margins_ms.to_vec();
    m.sort_unstable();
    m.dedup();
    let margin = match m.as_slice() {
        [one] => format!("{one} ms"),
        more => format!(
            "{} ms by engine",
            more.iter()
                .map(u128::to_string)
                .collect::<Vec<_>>()
                .join("/")
        ),
    };
    format!(
        "Time losses: a move that came later than the mover's clock allowed plus timemargin \
         ({margin}) lost its game. On a busy machine an engine can wait that long for a core: \
         compare with a run on an idle machine, or give timemargin=MS (docs/referee.md, \
         \"Time losses\")"
    )
}

/// A player's totals against the field.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerStanding {
    pub name: String,
    pub wdl: Wdl,
}

/// cutechess's ranking table (Rank Name Elo +/- Games Score Draw), best score first (players
/// without games last); Elo is each
/// player's performance against the field it met.
pub fn standings_table(players: &[PlayerStanding]) -> String {
    let mut order: Vec<&PlayerStanding> = players.iter().collect();
    // Best score first; players without games last.
    order.sort_by(|a, b| {
        let key = |p: &PlayerStanding| (p.wdl.games() > 0, p.wdl.score());
        let (ka, kb) = (key(a), key(b));
        kb.0.cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
    });
    let width = players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut out = format!(
        "{:>4} {:<width$} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (rank, p) in order.iter().enumerate() {
        let (elo, error) = match trinomial_elo(&p.wdl) {
            Some(e) => (format!("{:.0}", e.elo), format!("{:.0}", e.error)),
            None => ("n/a".to_string(), "n/a".to_string()),
        };
        let (score, draw) = if p.wdl.games() == 0 {
            (0.0, 0.0)
        } else {
            (p.wdl.score() * 100.0, p.wdl.draw_ratio() * 100.0)
        };
        out.push_str(&format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>7} {:>6.1}% {:>6.1}%\n",
            rank + 1,
            p.name,
            elo,
            error,
            p.wdl.games(),
            score,
            draw
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::stats::sprt::{SprtDecision, SprtModel};

    const W10_L5_D3: Wdl = Wdl {
        wins: 10,
        losses: 5,
        draws: 3,
    };

    #[test]
    fn score_line_like_cutechess() {
        assert_eq!(
            score_line("A", "B", &W10_L5_D3),
            "Score of A vs B: 10 - 5 - 3  [0.639] 18"
        );
        assert_eq!(
            score_line("A", "B", &Wdl::default()),
            "Score of A vs B: 0 - 0 - 0  [0.500] 0"
        );
    }

    #[test]
    fn trinomial_summary() {
        // Figures from the stats tests: Elo 99.11 ± 165.52, LOS 90.16 %, draws 3/18 = 16.7 %,
        // nElo 110.98 ± 160.51, points 11.5 = 63.89 %.
        let lines = match_summary(&MatchReport {
            first: "A",
            second: "B",
            wdl: W10_L5_D3,
            ptnml: None,
            sprt: None,
            stopped: None,
        });
        assert_eq!(
            lines,
            [
                "Elo difference: 99.1 +/- 165.5, LOS: 90.2 %, DrawRatio: 16.7 % (trinomial: game by game)",
                "Games: 18, Wins: 10, Losses: 5, Draws: 3, Points: 11.5 (63.89 %)",
                "Elo: 99.11 +/- 165.52, nElo: 110.98 +/- 160.51 (trinomial: game by game)",
            ]
        );
    }

    #[test]
    fn pentanomial_and_sprt_summary() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        };
        let ptnml = Pentanomial([0, 40, 200, 120, 40]);
        let llr = sprt.llr_pentanomial(&ptnml);
        let lines = match_summary(&MatchReport {
            first: "A",
            second: "B",
            wdl: Wdl {
                wins: 320,
                losses: 160,
                draws: 320,
            },
            ptnml: Some(ptnml),
            sprt: Some(&sprt),
            stopped: None,
        });
        assert_eq!(lines[2], "Ptnml(0-2): [0, 40, 200, 120, 40]");
        assert!(lines[0].starts_with("Elo difference: ") && lines[0].ends_with(TRINOMIAL));
        assert!(lines[3].starts_with("Elo: ") && lines[3].contains(", nElo: "));
        assert!(
            lines[3].ends_with("(pentanomial: by game pair)"),
            "{}",
            lines[3]
        );
        assert!(lines[4].starts_with("LOS: ") && lines[4].ends_with(PENTANOMIAL));
        let pct = llr / 2.944439 * 100.0;
        assert_eq!(
            lines[5],
            format!("LLR: {llr:.2} ({pct:.1}%) (-2.94, 2.94) [0.00, 10.00]")
        );
        assert_eq!(lines[6], "SPRT ([0.00, 10.00]) completed - H1 was accepted");
        assert_eq!(lines.len(), 7);

        // Undecided: no accept line.
        let undecided = MatchReport {
            first: "A",
            second: "B",
            wdl: Wdl {
                wins: 2,
                losses: 1,
                draws: 1,
            },
            ptnml: Some(Pentanomial([0, 0, 1, 1, 0])),
            sprt: Some(&sprt),
            stopped: None,
        };
        let lines = match_summary(&undecided);
        assert!(lines.last().unwrap().starts_with("LLR: "));

        // The same counts after a stop: the decision that stopped the run stands, and the
        // report says how many games finished after it.
        let stopped = SprtStop {
            decision: SprtDecision::AcceptH1,
            llr: 2.95,
            games: 2,
        };
        let lines = match_summary(&MatchReport {
            stopped: Some(stopped),
            ..undecided
        });
        let n = lines.len();
        assert!(lines[n - 3].starts_with("LLR: "), "{lines:?}");
        assert_eq!(
            lines[n - 2],
            "SPRT ([0.00, 10.00]) completed - H1 was accepted"
        );
        assert_eq!(
            lines[n - 1],
            "SPRT stopped the match after 2 games (LLR 2.95); the LLR above also counts the 2 \
             games that finished after it"
        );
    }

    #[test]
    fn the_time_loss_note_names_the_margin() {
        let one = time_loss_note(&[50, 50]);
        assert!(
            one.starts_with("Time losses: ") && one.contains("(50 ms)"),
            "{one}"
        );
        assert!(time_loss_note(&[300, 50]).contains("(50/300 ms by engine)"));
    }

    #[test]
    fn degenerate_summaries_are_sane() {
        let empty = match_summary(&MatchReport {
            first: "A",
            second: "B",
            wdl: Wdl::default(),
            ptnml: Some(Pentanomial::default()),
            sprt: None,
            stopped: None,
        });
        assert_eq!(
            empty[0],
            format!("Elo difference: n/a, LOS: 50.0 %, DrawRatio: 0.0 % {TRINOMIAL}")
        );
        assert_eq!(
            empty[1],
            "Games: 0, Wins: 0, Losses: 0, Draws: 0, Points: 0.0 (0.00 %)"
        );
        assert_eq!(empty[2], format!("Elo: n/a, nElo: n/a {TRINOMIAL}"));
        let all_wins = match_summary(&MatchReport {
            first: "A",
            second: "B",
            wdl: Wdl {
                wins: 4,
                losses: 0,
                draws: 0,
            },
            ptnml: None,
            sprt: None,
            stopped: None,
        });
        assert_eq!(
            all_wins[0],
            format!("Elo difference: inf +/- inf, LOS: 97.7 %, DrawRatio: 0.0 % {TRINOMIAL}")
        );
        assert_eq!(
            all_wins[2],
            format!("Elo: inf +/- inf, nElo: n/a {TRINOMIAL}")
        );
        for line in empty.iter().chain(&all_wins) {
            assert!(!line.contains("NaN"), "{line}");
        }
    }

    #[test]
    fn standings_sorted_by_score() {
        let table = standings_table(&[
            PlayerStanding {
                name: "low".into(),
                wdl: W10_L5_D3.flipped(),
            },
            PlayerStanding {
                name: "high-scorer".into(),
                wdl: W10_L5_D3,
            },
            PlayerStanding {
                name: "idle".into(),
                wdl: Wdl::default(),
            },
        ]);
        let rows: Vec<&str> = table.lines().collect();
        assert_eq!(rows.len(), 4);
        assert_eq!(
            rows[0],
            "Rank Name            Elo     +/-   Games   Score    Draw"
        );
        // high-scorer: Elo 99 ± 166, 18 games, 63.9 %, draws 16.7 %; low is the mirror image.
        assert_eq!(
            rows[1],
            "   1 high-scorer      99     166      18   63.9%   16.7%"
        );
        assert_eq!(
            rows[2],
            "   2 low             -99     166      18   36.1%   16.7%"
        );
        assert_eq!(
            rows[3],
            "   3 idle            n/a     n/a       0    0.0%    0.0%"
        );
    }
}
