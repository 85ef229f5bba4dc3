//! The referee: plays PÜNCT engines against each other and reports results.
//!
//! `config` (flags and TOML into a `RunConfig`), `engine_process` (a child in its own process
//! group, reads with deadlines), `signals` (Ctrl-C kills every engine group), `player` (engine
//! or built-in behind one trait), `builtin` (random, and greedy with `greedy`, `greedy_score`),
//! `openings`, `game` (one game), `tournament`
//! (schedule, standings), `runner` (workers, records, output), `pgn`, `jsonl`, `resume`,
//! `compliance`; `sample` (`-sample`), `shard` and `merge` (runs split over machines); and from the statistics side `timecontrol`, `stats`, `sprt`, `report`.

pub mod builtin;
pub mod compliance;
pub mod config;
pub mod engine_process;
pub mod game;
pub mod greedy;
pub mod greedy_score;
pub mod jsonl;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod report;
pub mod resume;
pub mod review;
pub mod runner;
pub mod sample;
pub mod shard;
pub mod signals;
pub mod sprt;
pub mod stats;
pub mod timecontrol;
pub mod tournament;
