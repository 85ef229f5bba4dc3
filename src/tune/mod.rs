//! Tuning, on top of the engine (its evaluation as features) and the referee (its games):
//! `gen` (self-play data with `-sample`), `dataset` + `texel` (fit evaluation weights to game
//! results), `spsa` + `games` (tune any spin options by playing games), `svg` (SPSA paths),
//! `output` (setoption and `params!` lines), `args`, `net_data` + `net_train` (the evaluation
//! network, `train-net`); the commands are `*_cmd`, `gen` and `net_train`.

pub mod args;
pub mod dataset;
pub mod games;
pub mod gen;
pub mod net_data;
pub mod net_train;
pub mod output;
pub mod spsa;
pub mod spsa_cmd;
pub mod svg;
pub mod texel;
pub mod texel_cmd;
