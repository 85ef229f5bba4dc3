//! Tuning, on top of the engine (its evaluation as features) and the referee (its games):
//! `gen` (self-play data: `selfplay` one game in this process, `genrun` the threads, files
//! and resume; or the referee with `-sample`), `data` (sample files: text, JSON Lines and
//! binary; `convert`), `dataset` + `texel` (fit evaluation weights to game
//! results), `order_label` + `order_fit` (label positions with the searched best move, fit
//! the move-ordering model), `net_data` + `net_train` (the evaluation network, `train-net`),
//! `spsa` + `games` (tune any spin options by playing games), `svg`
//! (SPSA paths), `output` (setoption and `params!` lines), `args`; the commands are `*_cmd`,
//! `gen`, `convert`, `order_*` and `net_train`.

pub mod args;
pub mod convert;
pub mod curve;
pub mod data;
pub mod dataset;
pub mod games;
pub mod gen;
pub mod genrun;
pub mod net_data;
pub mod net_train;
pub mod order_fit;
pub mod order_label;
pub mod output;
pub mod selfplay;
pub mod spsa;
pub mod spsa_cmd;
pub mod svg;
pub mod texel;
pub mod texel_cmd;
