//! The search side of the engine: it takes a position, [`Limits`](crate::engine::types::Limits)
//! and a stop flag, and knows nothing of the protocol.
//!
//! [`searcher`] (the entry point: tables, threads, lazy SMP), [`worker`] (one thread's state),
//! [`root`] (iterative deepening at the root), [`tree`] (the search below it), [`movepick`]
//! and [`sliced`] (which moves a node tries, in what order), [`order_model`] (the learned
//! move ordering, `OrderModel`), [`paths`] (connection distances), [`threats`] and `touch`
//! (one-move wins and the moves that stop them), [`race`] (the centre race's endings solved
//! exactly), [`evaluate`] (the hand evaluation) and [`nnue`] (the learned one, `EvalFile`),
//! `puct` (`SearchMode puct`: a policy-guided tree search), [`skill`] (strength levels), [`tt`], [`timeman`], [`params`] (every tunable weight), [`bench`].

pub mod bench;
mod busy;
pub mod evaluate;
mod facts;
pub mod movepick;
pub mod nnue;
pub mod order_model;
pub mod params;
pub mod paths;
mod puct;
pub mod race;
mod root;
pub mod searcher;
pub mod skill;
pub mod sliced;
pub mod threats;
pub mod timeman;
mod touch;
mod tree;
pub mod tt;
mod worker;

pub use searcher::{SearchMode, Searcher};
pub use worker::{uci_score, REPORTED_CP_MAX};
