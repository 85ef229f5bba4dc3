//! Static evaluation (STUB: to be replaced by the real evaluation).

use crate::engine::params::Params;
use crate::position::Position;

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position, params: &Params) -> i32 {
    trace(pos, params).iter().map(|(_, v)| v).sum()
}

/// The evaluation broken into named terms (side to move's point of view).
pub fn trace(pos: &Position, params: &Params) -> Vec<(&'static str, i32)> {
    let us = pos.side_to_move();
    let centre = pos.centre_count();
    let c = centre[us.index()] as i32 - centre[(!us).index()] as i32;
    vec![("centre", c * params.path_weight / 10)]
}
