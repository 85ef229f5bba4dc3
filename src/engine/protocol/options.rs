//! The option table: every `setoption` name with its type, default and range, and the checked
//! current values. The tunables come from [`params::specs`] so the list cannot drift from the code.

use crate::engine::search::nnue::DEFAULT_EVAL_FILE;
use crate::engine::search::params::{self, Params};
use crate::engine::search::skill::{self, ELO_MAX, ELO_MIN, FULL_SKILL};
use crate::engine::search::SearchMode;
use crate::engine::types::Level;
use crate::rules::position::Variant;

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const VARIANT: &str = "Variant";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const PONDER: &str = "Ponder";
pub const CLEAR_HASH: &str = "Clear Hash";
pub const MULTIPV: &str = "MultiPV";
pub const SEED: &str = "Seed";
pub const DEBUG_LOG_FILE: &str = "Debug Log File";
pub const EVAL_FILE: &str = "EvalFile";
pub const SEARCH_MODE: &str = "SearchMode";
pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
pub const SKILL_LEVEL: &str = "Skill Level";

/// The type of an option with its default (and range or choices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Button,
    /// Free text; an empty default is shown as `<empty>`.
    Text {
        default: &'static str,
    },
}

/// One option as announced after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// Every option in announcement order: the engine's own, then one spin per tunable.
pub fn specs() -> Vec<OptionSpec> {
    use OptionKind::*;
    let mut v = vec![
        OptionSpec {
            name: HASH,
            kind: Spin {
                default: 16,
                min: 1,
                max: 1024,
            },
        },
        OptionSpec {
            name: THREADS,
            kind: Spin {
                default: 1,
                min: 1,
                max: 64,
            },
        },
        OptionSpec {
            name: VARIANT,
            kind: Combo {
                default: "standard",
                choices: &["standard", "basic"],
            },
        },
        OptionSpec {
            name: MOVE_OVERHEAD,
            kind: Spin {
                default: 10,
                min: 0,
                max: 5000,
            },
        },
        OptionSpec {
            name: PONDER,
            kind: Check { default: false },
        },
        OptionSpec {
            name: CLEAR_HASH,
            kind: Button,
        },
        OptionSpec {
            name: MULTIPV,
            kind: Spin {
                default: 1,
                min: 1,
                max: 64,
            },
        },
        OptionSpec {
            name: SEED,
            kind: Spin {
                default: 0,
                min: 0,
                max: i32::MAX as i64,
            },
        },
        OptionSpec {
            name: DEBUG_LOG_FILE,
            kind: Text { default: "" },
        },
        OptionSpec {
            name: EVAL_FILE,
            kind: Text {
                default: DEFAULT_EVAL_FILE,
            },
        },
        OptionSpec {
            name: SEARCH_MODE,
            kind: Combo {
                default: SearchMode::NAMES[0],
                choices: &SearchMode::NAMES,
            },
        },
        OptionSpec {
            name: LIMIT_STRENGTH,
            kind: Check { default: false },
        },
        OptionSpec {
            name: UCI_ELO,
            kind: Spin {
                default: ELO_MIN as i64,
                min: ELO_MIN as i64,
                max: ELO_MAX as i64,
            },
        },
        OptionSpec {
            name: SKILL_LEVEL,
            kind: Spin {
                default: FULL_SKILL,
                min: 0,
                max: FULL_SKILL,
            },
        },
    ];
    v.extend(params::specs().iter().map(|p| OptionSpec {
        name: p.name,
        kind: Spin {
            default: p.default as i64,
            min: p.min as i64,
            max: p.max as i64,
        },
    }));
    v
}

/// The `option name ...` line announcing one option.
pub fn option_line(spec: &OptionSpec) -> String {
    let head = format!("option name {} type", spec.name);
    match &spec.kind {
        OptionKind::Check { default } => format!("{head} check default {default}"),
        OptionKind::Spin { default, min, max } => {
            format!("{head} spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, choices } => {
            let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
            format!("{head} combo default {default}{vars}")
        }
        OptionKind::Button => format!("{head} button"),
        OptionKind::Text { default: "" } => format!("{head} string default <empty>"),
        OptionKind::Text { default } => format!("{head} string default {default}"),
    }
}

/// The current values of the options.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionValues {
    pub hash_mb: usize,
    pub threads: usize,
    pub variant: Variant,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub multipv: usize,
    pub seed: u64,
    pub debug_log_file: Option<String>,
    /// `EvalFile` as set (`none`, `<default>` or a path); the session loads the network.
    pub eval_file: String,
    pub search_mode: SearchMode,
    /// `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`: see [`OptionValues::level`].
    pub limit_strength: bool,
    pub uci_elo: i64,
    pub skill_level: i64,
    pub params: Params,
}

impl OptionValues {
    /// The strength level in force: `UCI_Elo` when `UCI_LimitStrength` is on (as Stockfish),
    /// else `Skill Level` below 20; `None` at full strength.
    pub fn level(&self) -> Option<Level> {
        if self.limit_strength {
            Some(skill::level_of_elo(self.uci_elo))
        } else {
            skill::level_of_skill(self.skill_level)
        }
    }
}

impl Default for OptionValues {
    fn default() -> OptionValues {
        OptionValues {
            hash_mb: 16,
            threads: 1,
            variant: Variant::Standard,
            move_overhead_ms: 10,
            ponder: false,
            multipv: 1,
            seed: 0,
            debug_log_file: None,
            eval_file: DEFAULT_EVAL_FILE.to_string(),
            search_mode: SearchMode::AlphaBeta,
            limit_strength: false,
            uci_elo: ELO_MIN as i64,
            skill_level: FULL_SKILL,
            params: Params::default(),
        }
    }
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    Variant(Variant),
    MoveOverhead,
    Ponder,
    ClearHash,
    MultiPv,
    Seed(u64),
    DebugLogFile(Option<String>),
    EvalFile(String),
    SearchMode(SearchMode),
    /// `UCI_LimitStrength`, `UCI_Elo` or `Skill Level` (the level goes with each `go`).
    Strength,
    Param(&'static str, i32),
}

impl OptionValues {
    /// Checks and applies `setoption name <name> [value <value>]`. On error nothing changes and
    /// the message says why.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, String> {
        let all = specs();
        let Some(spec) = all
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
        else {
            return Err(format!(
                "no option named {} (uci lists the options)",
                crate::engine::protocol::command::quote(name)
            ));
        };
        let keep = |why: String| Err(format!("{why}; {} keeps its value", spec.name));
        let value = value.map(str::trim);
        let change = match &spec.kind {
            OptionKind::Button => {
                return match spec.name {
                    CLEAR_HASH => Ok(Change::ClearHash),
                    _ => unreachable!("every button is handled"),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let Some(text) = value.filter(|v| !v.is_empty()) else {
                    return keep(format!("{} needs a value", spec.name));
                };
                let Ok(n) = text.parse::<i64>() else {
                    return keep(format!(
                        "{} is not a whole number",
                        crate::engine::protocol::command::quote(text)
                    ));
                };
                if n < *min || n > *max {
                    return keep(format!("{} must be in {min}..={max}, not {n}", spec.name));
                }
                match spec.name {
                    HASH => {
                        self.hash_mb = n as usize;
                        Change::Hash(n as usize)
                    }
                    THREADS => {
                        self.threads = n as usize;
                        Change::Threads(n as usize)
                    }
                    MOVE_OVERHEAD => {
                        self.move_overhead_ms = n as u64;
                        Change::MoveOverhead
                    }
                    MULTIPV => {
                        self.multipv = n as usize;
                        Change::MultiPv
                    }
                    SEED => {
                        self.seed = n as u64;
                        Change::Seed(n as u64)
                    }
                    UCI_ELO => {
                        self.uci_elo = n;
                        Change::Strength
                    }
                    SKILL_LEVEL => {
                        self.skill_level = n;
                        Change::Strength
                    }
                    param => {
                        if let Err(e) = self.params.set(param, n as i32) {
                            return keep(e);
                        }
                        Change::Param(spec.name, n as i32)
                    }
                }
            }
            OptionKind::Check { .. } => {
                let on = match value.map(str::to_ascii_lowercase).as_deref() {
                    Some("true") => true,
                    Some("false") => false,
                    _ => {
                        return keep(format!(
                            "{} needs true or false, not {}",
                            spec.name,
                            crate::engine::protocol::command::quote(value.unwrap_or(""))
                        ))
                    }
                };
                if spec.name == LIMIT_STRENGTH {
                    self.limit_strength = on;
                    Change::Strength
                } else {
                    self.ponder = on;
                    Change::Ponder
                }
            }
            OptionKind::Combo { choices, .. } if spec.name == SEARCH_MODE => {
                let text = value.unwrap_or("");
                let Some(mode) = SearchMode::from_name(text) else {
                    return keep(format!(
                        "{} is not one of {}",
                        crate::engine::protocol::command::quote(text),
                        choices.join(", ")
                    ));
                };
                self.search_mode = mode;
                Change::SearchMode(mode)
            }
            OptionKind::Combo { choices, .. } => {
                let text = value.unwrap_or("");
                let Some(variant) = Variant::from_name(text) else {
                    return keep(format!(
                        "{} is not one of {}",
                        crate::engine::protocol::command::quote(text),
                        choices.join(", ")
                    ));
                };
                self.variant = variant;
                Change::Variant(variant)
            }
            OptionKind::Text { .. } if spec.name == EVAL_FILE => {
                self.eval_file = value.unwrap_or("").to_string();
                Change::EvalFile(self.eval_file.clone())
            }
            OptionKind::Text { .. } => {
                let path = value
                    .filter(|v| !v.is_empty() && *v != "<empty>")
                    .map(str::to_string);
                self.debug_log_file = path.clone();
                Change::DebugLogFile(path)
            }
        };
        Ok(change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_a_spin_option_exactly_once_with_its_range() {
        let all = specs();
        for p in params::specs() {
            let found: Vec<_> = all
                .iter()
                .filter(|s| s.name.eq_ignore_ascii_case(p.name))
                .collect();
            assert_eq!(found.len(), 1, "{}", p.name);
            assert_eq!(
                found[0].kind,
                OptionKind::Spin {
                    default: p.default as i64,
                    min: p.min as i64,
                    max: p.max as i64
                },
                "{}",
                p.name
            );
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
        }
        assert_eq!(all.len(), 14 + params::specs().len());
    }

    #[test]
    fn option_names_are_unique_ignoring_case() {
        let all = specs();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{}", a.name);
            }
        }
    }

    #[test]
    fn defaults_match_the_announced_defaults() {
        let v = OptionValues::default();
        for spec in specs() {
            match (spec.name, &spec.kind) {
                (HASH, OptionKind::Spin { default, .. }) => assert_eq!(v.hash_mb as i64, *default),
                (THREADS, OptionKind::Spin { default, .. }) => {
                    assert_eq!(v.threads as i64, *default)
                }
                (MOVE_OVERHEAD, OptionKind::Spin { default, .. }) => {
                    assert_eq!(v.move_overhead_ms as i64, *default)
                }
                (MULTIPV, OptionKind::Spin { default, .. }) => {
                    assert_eq!(v.multipv as i64, *default)
                }
                (SEED, OptionKind::Spin { default, .. }) => assert_eq!(v.seed as i64, *default),
                (PONDER, OptionKind::Check { default }) => assert_eq!(v.ponder, *default),
                (LIMIT_STRENGTH, OptionKind::Check { default }) => {
                    assert_eq!(v.limit_strength, *default)
                }
                (UCI_ELO, OptionKind::Spin { default, .. }) => assert_eq!(v.uci_elo, *default),
                (SKILL_LEVEL, OptionKind::Spin { default, .. }) => {
                    assert_eq!(v.skill_level, *default)
                }
                (VARIANT, OptionKind::Combo { default, .. }) => {
                    assert_eq!(v.variant.name(), *default)
                }
                (EVAL_FILE, OptionKind::Text { default }) => assert_eq!(v.eval_file, *default),
                (SEARCH_MODE, OptionKind::Combo { default, .. }) => {
                    assert_eq!(SearchMode::from_name(default), Some(v.search_mode))
                }
                (CLEAR_HASH, OptionKind::Button) | (DEBUG_LOG_FILE, OptionKind::Text { .. }) => {}
                (name, OptionKind::Spin { default, .. }) => {
                    assert_eq!(v.params.get(name).map(i64::from), Some(*default), "{name}")
                }
                (name, kind) => panic!("unexpected option {name} {kind:?}"),
            }
        }
    }

    #[test]
    fn option_lines() {
        let all = specs();
        let line = |n: &str| option_line(all.iter().find(|s| s.name == n).unwrap());
        assert_eq!(
            line(HASH),
            "option name Hash type spin default 16 min 1 max 1024"
        );
        assert_eq!(
            line(VARIANT),
            "option name Variant type combo default standard var standard var basic"
        );
        assert_eq!(line(PONDER), "option name Ponder type check default false");
        assert_eq!(line(CLEAR_HASH), "option name Clear Hash type button");
        assert_eq!(
            line(DEBUG_LOG_FILE),
            "option name Debug Log File type string default <empty>"
        );
        assert_eq!(
            line(EVAL_FILE),
            format!("option name EvalFile type string default {DEFAULT_EVAL_FILE}")
        );
    }

    #[test]
    fn set_checks_values_and_keeps_the_old_one_on_error() {
        let mut v = OptionValues::default();
        assert_eq!(v.set("hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(v.hash_mb, 64);
        for bad in [Some("0"), Some("99999"), Some("big"), Some(""), None] {
            let e = v.set("Hash", bad).unwrap_err();
            assert!(e.contains("Hash keeps its value"), "{e}");
            assert_eq!(v.hash_mb, 64);
        }
        assert_eq!(v.set("move overhead", Some("30")), Ok(Change::MoveOverhead));
        assert_eq!(v.move_overhead_ms, 30);
        assert_eq!(v.set("PONDER", Some("TRUE")), Ok(Change::Ponder));
        assert!(v.ponder);
        assert!(v.set("Ponder", Some("yes")).is_err());
        assert!(v.ponder);
        assert_eq!(
            v.set("variant", Some("Basic")),
            Ok(Change::Variant(Variant::Basic))
        );
        assert!(v.set("variant", Some("chess")).is_err());
        assert_eq!(v.variant, Variant::Basic);
        assert_eq!(v.set("clear hash", None), Ok(Change::ClearHash));
        assert_eq!(
            v.set("Debug Log File", Some("/tmp/x.log")),
            Ok(Change::DebugLogFile(Some("/tmp/x.log".into())))
        );
        assert_eq!(
            v.set("Debug Log File", Some("<empty>")),
            Ok(Change::DebugLogFile(None))
        );
        assert_eq!(v.set("Seed", Some("42")), Ok(Change::Seed(42)));
        assert_eq!(v.set("Threads", Some("2")), Ok(Change::Threads(2)));
        assert_eq!(v.set("MultiPV", Some("3")), Ok(Change::MultiPv));
        assert_eq!(v.multipv, 3);
        assert!(v.set("Colour", Some("1")).unwrap_err().contains("'Colour'"));
    }

    #[test]
    fn the_strength_options_name_a_level_as_stockfish_does() {
        let mut v = OptionValues::default();
        assert_eq!(v.level(), None, "full strength by default");
        assert_eq!(v.set("Skill Level", Some("20")), Ok(Change::Strength));
        assert_eq!(
            v.set("UCI_Elo", Some(&ELO_MAX.to_string())),
            Ok(Change::Strength)
        );
        assert_eq!(v.level(), None, "UCI_Elo alone changes nothing");
        v.set("skill level", Some("4")).unwrap();
        assert_eq!(v.level(), Some(Level { skill: 4.0 }));
        // UCI_LimitStrength wins over Skill Level.
        v.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(v.level(), Some(skill::level_of_elo(ELO_MAX as i64)));
        for bad in [ELO_MIN as i64 - 1, ELO_MAX as i64 + 1] {
            assert!(v.set("UCI_Elo", Some(&bad.to_string())).is_err());
        }
        assert!(v.set("Skill Level", Some("21")).is_err());
        assert!(v.set("UCI_LimitStrength", Some("1")).is_err());
        assert!(v.limit_strength && v.uci_elo == ELO_MAX as i64 && v.skill_level == 4);
        v.set("UCI_LimitStrength", Some("false")).unwrap();
        v.set("Skill Level", Some("20")).unwrap();
        assert_eq!(v.level(), None);
    }

    #[test]
    fn tunables_are_set_through_params_within_their_range() {
        let mut v = OptionValues::default();
        for p in params::specs() {
            let lower = p.name.to_ascii_lowercase();
            assert_eq!(
                v.set(&lower, Some(&p.max.to_string())),
                Ok(Change::Param(p.name, p.max))
            );
            assert_eq!(v.params.get(p.name), Some(p.max));
            assert!(v
                .set(p.name, Some(&(p.max as i64 + 1).to_string()))
                .is_err());
            assert!(v
                .set(p.name, Some(&(p.min as i64 - 1).to_string()))
                .is_err());
            assert_eq!(v.params.get(p.name), Some(p.max));
        }
    }
}
