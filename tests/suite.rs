//! The integration tests as one binary: each file of `tests/` is a module here, so the crate
//! is linked once for all of them (one binary per file linked it 45 times). Run one file's
//! tests with `cargo test --release --test suite FILE::`, e.g. `rules_perft::`.
//! A new test file needs its `mod` line below.

mod common;
mod engine_common;
mod gui_common;
mod referee_common;

mod cli;
mod engine_bench_signature;
mod engine_eval_pins;
mod engine_hardening;
mod engine_info_lines;
mod engine_levels;
mod engine_protocol;
mod engine_proven_mates;
mod engine_puct;
mod engine_race;
mod engine_repetition;
mod engine_search;
mod engine_tactics;
mod engine_threads;
mod engine_threats;
mod gui_api;
mod gui_api_games;
#[cfg(unix)] // its engines run behind /bin/sh, which logs what they are sent
mod gui_api_levels;
mod gui_browser;
mod gui_page;
mod gui_page_expect;
mod gui_page_levels;
mod gui_page_phone;
mod gui_page_trust;
mod gui_play;
mod gui_svg;
mod help_and_flags;
mod layout;
mod nnue;
mod order_model;
mod platform;
mod referee_faults;
mod referee_greedy;
mod referee_hostile;
mod referee_levels;
mod referee_match;
mod referee_record_edges;
mod referee_records;
mod referee_resume;
mod referee_review;
mod referee_sprt;
mod referee_suite;
mod rules_bad_input;
mod rules_game_end;
mod rules_geometry;
mod rules_moves;
mod rules_perft;
mod rules_properties;
mod tournaments_openings;
#[cfg(unix)] // bash scripts
mod tournaments_scripts;
mod tune_cli;
mod tune_data;
mod tune_sample;
mod tune_shard;
mod tune_spsa;
mod tune_texel;
mod versions;
