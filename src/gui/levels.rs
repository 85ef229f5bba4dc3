//! Strength levels for the engine seats, for any engine that offers Stockfish's options:
//! `UCI_LimitStrength` + `UCI_Elo` (then each level is an Elo of the engine's advertised range)
//! or only `Skill Level` (then each level is a skill below the top one, which is full
//! strength). Eight named steps spread over what the engine offers, and full strength; an
//! engine with neither option has no levels. The levels are read from the engine's own `uci`
//! answer, never assumed: another engine, or a new release with another range, gets its own.

use serde::Serialize;

/// The steps' names, weakest first; a seat's level is its step (1..=8), `None` full strength.
pub const LEVEL_NAMES: [&str; 8] = [
    "Beginner",
    "Novice",
    "Casual",
    "Intermediate",
    "Club",
    "Advanced",
    "Expert",
    "Master",
];

/// What an engine's option list offers for playing weaker.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StrengthOptions {
    pub limit_strength: bool,
    /// `UCI_Elo`'s min and max.
    pub elo: Option<(i64, i64)>,
    /// `Skill Level`'s min and max (the max is full strength, as Stockfish's 20).
    pub skill: Option<(i64, i64)>,
}

/// One level of an engine: its step and name, and the option value that sets it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Level {
    pub step: u8,
    pub name: &'static str,
    pub elo: Option<i64>,
    pub skill: Option<i64>,
}

impl Level {
    /// The level as the PGN and the referee name it: `UCI_Elo 1500`, `Skill Level 7`.
    pub fn option_text(&self) -> String {
        match (self.elo, self.skill) {
            (Some(e), _) => format!("UCI_Elo {e}"),
            (None, Some(s)) => format!("Skill Level {s}"),
            (None, None) => String::new(),
        }
    }

    /// As the page shows it: `Club · Elo 1250`, `Club · skill 9`.
    pub fn label(&self) -> String {
        match (self.elo, self.skill) {
            (Some(e), _) => format!("{} · Elo {e}", self.name),
            (None, Some(s)) => format!("{} · skill {s}", self.name),
            (None, None) => self.name.to_string(),
        }
    }
}

/// One `option name NAME type KIND ... min A max B` line of an engine's handshake.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnouncedOption {
    pub name: String,
    pub kind: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl AnnouncedOption {
    /// The option a line announces (None for any other line).
    pub fn parse(line: &str) -> Option<AnnouncedOption> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        let type_at = words.iter().position(|w| *w == "type")?;
        let number = |key: &str| -> Option<i64> {
            let i = words[type_at..].iter().position(|w| *w == key)?;
            words.get(type_at + i + 1)?.parse().ok()
        };
        Some(AnnouncedOption {
            name: words[2..type_at].join(" "),
            kind: words.get(type_at + 1).copied().unwrap_or("").to_string(),
            min: number("min"),
            max: number("max"),
        })
    }

    /// Its `min` and `max`, for a spin whose range is not empty.
    fn spin_range(&self) -> Option<(i64, i64)> {
        match (self.min, self.max) {
            (Some(lo), Some(hi)) if self.kind == "spin" && lo <= hi => Some((lo, hi)),
            _ => None,
        }
    }
}

/// `n` values spread evenly from `lo` to `hi` (both included), rounded to `grain`, each once.
fn spread(lo: i64, hi: i64, grain: i64) -> Vec<i64> {
    let n = LEVEL_NAMES.len() as i64;
    let mut out: Vec<i64> = (0..n)
        .map(|k| {
            let exact = lo as f64 + (hi - lo) as f64 * k as f64 / (n - 1) as f64;
            let v = ((exact / grain as f64).round() as i64) * grain;
            if k == 0 {
                lo
            } else if k == n - 1 {
                hi
            } else {
                v.clamp(lo, hi)
            }
        })
        .collect();
    out.dedup();
    out
}

impl StrengthOptions {
    /// Takes in one announced option (other options are ignored).
    pub fn read(&mut self, o: &AnnouncedOption) {
        if o.name.eq_ignore_ascii_case("UCI_LimitStrength") {
            self.limit_strength = o.kind == "check";
        } else if o.name.eq_ignore_ascii_case("UCI_Elo") {
            self.elo = o.spin_range();
        } else if o.name.eq_ignore_ascii_case("Skill Level") {
            self.skill = o.spin_range().filter(|(lo, hi)| hi > lo);
        }
    }

    /// Whether it plays by Elo (both options of Stockfish's pair are there).
    fn by_elo(&self) -> bool {
        self.limit_strength && self.elo.is_some()
    }

    /// The engine's levels, weakest first: by Elo over `UCI_Elo`'s range (rounded to tens
    /// when the steps are wide), else by skill below `Skill Level`'s top; empty with neither.
    pub fn ladder(&self) -> Vec<Level> {
        let values = match (self.by_elo(), self.elo, self.skill) {
            (true, Some((lo, hi)), _) => spread(lo, hi, if hi - lo >= 700 { 10 } else { 1 }),
            (_, _, Some((lo, hi))) => spread(lo, hi - 1, 1),
            _ => Vec::new(),
        };
        let n = values.len();
        values
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                // Fewer values than names (a narrow range): names spread as the values are.
                let name_at = if n > 1 {
                    (i * (LEVEL_NAMES.len() - 1) + (n - 1) / 2) / (n - 1)
                } else {
                    0
                };
                Level {
                    step: i as u8 + 1,
                    name: LEVEL_NAMES[name_at],
                    elo: self.by_elo().then_some(v),
                    skill: (!self.by_elo()).then_some(v),
                }
            })
            .collect()
    }

    /// The level of `step` (`None`: full strength; a step past the ladder: its top).
    pub fn level(&self, step: Option<u8>) -> Option<Level> {
        let step = step?;
        let ladder = self.ladder();
        let i = (step.max(1) as usize).min(ladder.len());
        ladder.into_iter().nth(i.checked_sub(1)?)
    }

    /// The options to set before a search at `level` (`None`: full strength). Every option of
    /// the engine's pair is set each time, so that no earlier level lingers.
    pub fn setoptions(&self, level: Option<&Level>) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let elo = level.and_then(|l| l.elo);
        if self.limit_strength {
            out.push(("UCI_LimitStrength".into(), elo.is_some().to_string()));
        }
        if let (Some(e), Some(_)) = (elo, self.elo) {
            out.push(("UCI_Elo".into(), e.to_string()));
        }
        if let Some((_, top)) = self.skill {
            let skill = level.and_then(|l| l.skill).unwrap_or(top);
            out.push(("Skill Level".into(), skill.to_string()));
        }
        out
    }

    /// Why the engine has no levels (None when it has some).
    pub fn why_none(&self) -> Option<&'static str> {
        self.ladder().is_empty().then_some(
            "this engine offers no strength levels: its options have neither UCI_Elo (with \
             UCI_LimitStrength) nor Skill Level",
        )
    }
}

/// Whether an option (given with `--engine option.NAME=VALUE`) sets a level: such options are
/// left out of the review's and the hint's engines, which play at full strength.
pub fn is_strength_option(name: &str) -> bool {
    ["UCI_LimitStrength", "UCI_Elo", "Skill Level"]
        .iter()
        .any(|o| name.trim().eq_ignore_ascii_case(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> StrengthOptions {
        let mut s = StrengthOptions::default();
        for o in lines.iter().filter_map(|l| AnnouncedOption::parse(l)) {
            s.read(&o);
        }
        s
    }

    const ELO: &str = "option name UCI_Elo type spin default 1320 min 1320 max 3190";
    const LIMIT: &str = "option name UCI_LimitStrength type check default false";
    const SKILL: &str = "option name Skill Level type spin default 20 min 0 max 20";

    #[test]
    fn elo_levels_spread_over_the_advertised_range() {
        let s = read(&[
            LIMIT,
            ELO,
            SKILL,
            "option name Hash type spin default 16 min 1 max 1024",
        ]);
        assert_eq!(s.elo, Some((1320, 3190)));
        let ladder = s.ladder();
        assert_eq!(ladder.len(), 8);
        let elos: Vec<i64> = ladder.iter().map(|l| l.elo.unwrap()).collect();
        assert_eq!(elos.first(), Some(&1320));
        assert_eq!(elos.last(), Some(&3190));
        // Even steps (rounded to tens): each within 10 of the exact spread.
        for (k, e) in elos.iter().enumerate() {
            let exact = 1320.0 + 1870.0 * k as f64 / 7.0;
            assert!((*e as f64 - exact).abs() <= 10.0, "{k}: {e}");
            assert_eq!(e % 10, 0);
        }
        assert!(elos.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ladder[0].name, "Beginner");
        assert_eq!(ladder[7].name, "Master");
        assert_eq!(ladder[4].label(), format!("Club · Elo {}", elos[4]));
        assert_eq!(ladder[0].option_text(), "UCI_Elo 1320");
        // A level sets the pair and puts the skill at its top; full strength turns it off.
        assert_eq!(
            s.setoptions(s.level(Some(1)).as_ref()),
            [
                ("UCI_LimitStrength".to_string(), "true".to_string()),
                ("UCI_Elo".into(), "1320".into()),
                ("Skill Level".into(), "20".into())
            ]
        );
        assert_eq!(
            s.setoptions(s.level(None).as_ref()),
            [
                ("UCI_LimitStrength".to_string(), "false".to_string()),
                ("Skill Level".into(), "20".into())
            ]
        );
        assert_eq!(s.why_none(), None);
    }

    #[test]
    fn skill_only_levels_stay_below_the_top_skill() {
        let s = read(&[SKILL]);
        let ladder = s.ladder();
        let skills: Vec<i64> = ladder.iter().map(|l| l.skill.unwrap()).collect();
        assert_eq!(skills, [0, 3, 5, 8, 11, 14, 16, 19]);
        assert!(ladder.iter().all(|l| l.elo.is_none()));
        assert_eq!(ladder[2].option_text(), "Skill Level 5");
        assert_eq!(ladder[2].label(), "Casual · skill 5");
        assert_eq!(
            s.setoptions(s.level(Some(3)).as_ref()),
            [("Skill Level".to_string(), "5".to_string())]
        );
        assert_eq!(
            s.setoptions(None),
            [("Skill Level".to_string(), "20".to_string())]
        );
        // UCI_Elo without UCI_LimitStrength cannot be switched on: skills, then.
        let s = read(&[ELO, SKILL]);
        assert!(s.ladder().iter().all(|l| l.skill.is_some()));
    }

    #[test]
    fn an_engine_without_the_options_has_no_levels_and_says_why() {
        let s = read(&["option name Hash type spin default 16 min 1 max 1024"]);
        assert!(s.ladder().is_empty());
        assert_eq!(s.level(Some(3)), None);
        assert!(s.setoptions(None).is_empty());
        assert!(s.why_none().unwrap().contains("Skill Level"));
        // A skill without a range below its top is none either.
        assert!(
            read(&["option name Skill Level type spin default 1 min 1 max 1"])
                .ladder()
                .is_empty()
        );
    }

    #[test]
    fn narrow_ranges_give_fewer_levels_each_once() {
        let s = read(&["option name Skill Level type spin default 3 min 0 max 3"]);
        let ladder = s.ladder();
        let skills: Vec<i64> = ladder.iter().map(|l| l.skill.unwrap()).collect();
        assert_eq!(skills, [0, 1, 2]);
        assert_eq!(ladder[0].name, "Beginner");
        assert_eq!(ladder[2].name, "Master");
        // A step past the top is the top level.
        assert_eq!(s.level(Some(8)).unwrap().skill, Some(2));
        let s = read(&[
            LIMIT,
            "option name UCI_Elo type spin default 1000 min 1000 max 1003",
        ]);
        let elos: Vec<i64> = s.ladder().iter().map(|l| l.elo.unwrap()).collect();
        assert_eq!(elos, [1000, 1001, 1002, 1003]);
    }

    #[test]
    fn option_names_are_read_whatever_their_case() {
        let s = read(&[
            "option name uci_limitstrength type check default false",
            "option name skill level type spin default 20 min 0 max 20",
            "option name UCI_Elo type spin default x min 5",
        ]);
        assert!(s.limit_strength);
        assert_eq!(s.skill, Some((0, 20)));
        assert_eq!(s.elo, None, "a spin without its max");
        assert!(is_strength_option(" skill level "));
        assert!(!is_strength_option("Hash"));
    }
}
