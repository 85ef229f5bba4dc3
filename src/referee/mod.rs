//! The referee: plays PÜNCT engines against each other and reports results.
//!
//! **Start here:** `runner.rs` ([`runner::run`]) plays a whole run: it takes the [`RunConfig`]
//! (`settings.rs`) that `cli/mod.rs` reads from the flags, asks `tournament.rs` for the games,
//! plays each with `game.rs`, and writes the records and statistics. `src/bin/punct-referee.rs`
//! dispatches the other commands (`compliance.rs`, `suite.rs`, `records/merge.rs`).
//!
//! From the bottom up (each part imports only parts listed before it):
//!
//! - `platform` (the only code that differs between Unix and elsewhere), `exit`, `signals`,
//!   `timecontrol`: process groups and signals, exit statuses, Ctrl-C, clocks;
//! - `stats/`: `elo` (counts, Elo), `sprt`, `report` (cutechess/fastchess lines);
//! - `settings`: the plain settings types ([`EngineConfig`], [`RunConfig`], `Proto`, ...);
//! - `players/`: `engine_process` (a child in its own process group, reads with deadlines),
//!   `player` (the trait, and an engine behind it), `builtin` (random, and greedy with `greedy`,
//!   `greedy_score`);
//! - `openings`; `records/record` (a finished game as recorded); `game` (one game);
//!   `tournament` (schedule, standings);
//! - `records/`: `pgn`, `jsonl`, `resume`, `sample` (`-sample`), `shard` and `merge` (runs split
//!   over machines);
//! - `calibration` and `calibration_plot` (`-ratings`: ratings on an anchored scale, their
//!   table and plot);
//! - `junit` (JUnit XML); `runner` (workers, records, output), `compliance` (`-compliance`,
//!   `-check-pgn`), `suite` (`-suite`: test positions for CI), `review` (`punct-referee review`:
//!   a game annotated by an engine, also the GUI's game review);
//! - `cli/`: the command line and TOML files, the one part that knows every other part.
//!
//! [`RunConfig`]: settings::RunConfig
//! [`EngineConfig`]: settings::EngineConfig

pub mod calibration;
pub mod calibration_plot;
pub mod cli;
pub mod compliance;
pub mod exit;
pub mod game;
pub mod junit;
pub mod openings;
pub mod platform;
pub mod players;
pub mod records;
pub mod review;
pub mod runner;
pub mod settings;
pub mod signals;
pub mod stats;
pub mod suite;
pub mod timecontrol;
pub mod tournament;
