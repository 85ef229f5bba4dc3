//! The hidden layer kept up to date incrementally.
//!
//! The accumulator remembers the position it was last brought to as cell codes and hands
//! (`features`). To evaluate another position it looks only at the cells that either position
//! occupies, and for each cell whose code differs it takes the old inputs' rows out and puts the
//! new ones in (both perspectives); the same for the pieces in hand. In a search the position
//! evaluated next is nearly always a few moves from the one before (a sibling, a child), so an
//! evaluation costs the rows of the few cells those moves changed, with no hook in make and
//! unmake; after a jump across the tree it costs at most a refresh. Starting afresh is the same
//! walk from the empty board and the biases.

use crate::engine::search::nnue::features::{cell_code, cell_features, dense, hand_feature};
use crate::engine::search::nnue::net::Network;
use crate::rules::cell::NUM_CELLS;
use crate::rules::piece::{Colour, Kind};
use crate::rules::position::Position;
use crate::CellSet;

/// One search thread's accumulator (both perspectives: White's and Black's).
pub struct Accumulator {
    /// The network the sums belong to (`Network::id`); `None`: nothing computed yet.
    net: Option<u64>,
    codes: [u8; NUM_CELLS],
    occupied: CellSet,
    hands: [[u8; 6]; 2],
    /// `[White's view, Black's view]`, `hidden` sums each.
    acc: [Vec<i32>; 2],
    /// Rows added or removed so far (both perspectives counted once), for statistics.
    pub rows: u64,
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator::new()
    }
}

#[inline]
fn add(acc: &mut [i32], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a += w as i32;
    }
}

#[inline]
fn sub(acc: &mut [i32], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a -= w as i32;
    }
}

impl Accumulator {
    pub fn new() -> Accumulator {
        Accumulator {
            net: None,
            codes: [0; NUM_CELLS],
            occupied: CellSet::EMPTY,
            hands: [[0; 6]; 2],
            acc: [Vec::new(), Vec::new()],
            rows: 0,
        }
    }

    /// Forgets the position (the next update starts from the biases).
    pub fn reset(&mut self) {
        self.net = None;
    }

    fn start(&mut self, net: &Network) {
        let bias: Vec<i32> = net.ft_bias.iter().map(|&b| b as i32).collect();
        self.acc = [bias.clone(), bias];
        self.codes = [0; NUM_CELLS];
        self.occupied = CellSet::EMPTY;
        self.hands = [[0; 6]; 2];
        self.net = Some(net.id);
    }

    /// Brings the sums to `pos`.
    pub fn update(&mut self, net: &Network, pos: &Position) {
        if self.net != Some(net.id) || self.acc[0].len() != net.hidden {
            self.start(net);
        }
        let now = pos.top_view(Colour::White) | pos.top_view(Colour::Black);
        let [white, black] = &mut self.acc;
        let mut rows = 0;
        for c in now | self.occupied {
            let d = dense(c);
            let code = if now.contains(c) {
                cell_code(pos, c)
            } else {
                0
            };
            let old = self.codes[d];
            if code == old {
                continue;
            }
            cell_features(d, old, 0, |f| sub(white, net.row(f)));
            cell_features(d, old, 1, |f| sub(black, net.row(f)));
            cell_features(d, code, 0, |f| add(white, net.row(f)));
            cell_features(d, code, 1, |f| add(black, net.row(f)));
            rows += 4;
            self.codes[d] = code;
        }
        self.occupied = now;
        for colour in Colour::ALL {
            for kind in Kind::ALL {
                let (ci, k) = (colour.index(), kind.index());
                let new = pos.in_hand(colour, kind) as usize;
                let old = self.hands[ci][k] as usize;
                for i in new..old {
                    sub(white, net.row(hand_feature(0, ci, k, i)));
                    sub(black, net.row(hand_feature(1, ci, k, i)));
                }
                for i in old..new {
                    add(white, net.row(hand_feature(0, ci, k, i)));
                    add(black, net.row(hand_feature(1, ci, k, i)));
                }
                rows += new.abs_diff(old) as u64;
                self.hands[ci][k] = new as u8;
            }
        }
        self.rows += rows;
    }

    /// The sums of one perspective (0 White, 1 Black), as last updated.
    pub fn sums(&self, persp: usize) -> &[i32] {
        &self.acc[persp]
    }

    /// The network's output for `pos`, in centipawns from the side to move's point of view.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.update(net, pos);
        let stm = pos.side_to_move().index();
        net.output(&self.acc[stm], &self.acc[1 - stm])
    }
}
