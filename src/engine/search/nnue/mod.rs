//! The learned evaluation: a small network over the board, trained by `punct-tune train-net`
//! (docs/tuning.md, "Train your own net").
//!
//! [`features`] (the inputs: per cell the top dot's colour by height and the dot under it,
//! the hands; seen from each player's side), [`net`] (the quantised network and its versioned
//! file), [`accumulator`] (the hidden layer brought from one evaluated position to the next by
//! the cells that changed). The engine option `EvalFile` chooses: `<default>` (the network
//! embedded in the binary), a path, or `none` (the hand evaluation, `evaluate.rs`).

pub mod accumulator;
pub mod features;
pub mod net;

use std::sync::Arc;

use crate::engine::search::params::Params;
use crate::rules::position::Position;

pub use accumulator::Accumulator;
pub use net::Network;

/// The network built into the binary (trained on the engine's self-play: docs/log.md, step 44).
pub static EMBEDDED: &[u8] = include_bytes!("default.nnue");

/// What `EvalFile` is at start: the embedded network (docs/log.md, step 30; `none` gives
/// the hand evaluation back).
pub const DEFAULT_EVAL_FILE: &str = "<default>";

/// The embedded network.
pub fn embedded() -> Arc<Network> {
    static NET: std::sync::OnceLock<Arc<Network>> = std::sync::OnceLock::new();
    NET.get_or_init(|| {
        Arc::new(Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))
    })
    .clone()
}

/// Whether an `EvalFile` value names the embedded network.
pub fn is_default_name(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v == "<empty>" || v.eq_ignore_ascii_case("<default>")
}

/// The evaluation an `EvalFile` value selects: `Ok(None)` for the hand evaluation (`none`),
/// the embedded network for `<default>` (or empty), else the network in that file.
pub fn from_option(value: &str) -> Result<Option<Arc<Network>>, String> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("none") {
        Ok(None)
    } else if is_default_name(v) {
        Ok(Some(embedded()))
    } else {
        Network::load(std::path::Path::new(v)).map(|n| Some(Arc::new(n)))
    }
}

/// The evaluation the engine starts with ([`DEFAULT_EVAL_FILE`]).
pub fn default_net() -> Option<Arc<Network>> {
    from_option(DEFAULT_EVAL_FILE).expect("the default EvalFile loads")
}

/// A search thread's view of the network: the weights and its own accumulator.
pub struct NetEval<'a> {
    pub net: &'a Network,
    pub acc: &'a mut Accumulator,
}

impl NetEval<'_> {
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, params: &Params) -> i32 {
        evaluate(self.net, self.acc, pos, params)
    }
}

/// The evaluation with a network (side to move's view): its output, plus the hand evaluation
/// times the network's hand weight when it has one (a residual network).
pub fn evaluate(net: &Network, acc: &mut Accumulator, pos: &Position, params: &Params) -> i32 {
    let out = acc.evaluate(net, pos);
    if net.hand_weight == 0 {
        out
    } else {
        out + crate::engine::search::evaluate::evaluate(pos, params) * net.hand_weight / 1024
    }
}
