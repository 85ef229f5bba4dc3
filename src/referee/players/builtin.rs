//! Built-in players that need no process: `builtin:random` plays uniform random legal moves,
//! `builtin:safe` random moves that win at once or give no win in one away, `builtin:greedy`
//! looks one ply ahead (see [`greedy`](crate::referee::players::greedy)). They never change:
//! `safe` and `greedy` anchor the strength levels' Elo scale (docs/levels.md), and a test
//! pins their moves.
//!
//! Both are one [`BuiltinPlayer`] with a different [`Choose`] function, so a new built-in is
//! a row of [`BUILTINS`] and its choice function.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::referee::players::greedy;
use crate::referee::players::player::{Fault, Player, Reply, SearchInfo, ThinkRequest};
use crate::referee::settings::Proto;

/// Picks the move token for a request, drawing any randomness from the generator (seeded per
/// game, so a game can be replayed).
pub type Choose = fn(&ThinkRequest, &mut Xoshiro256PlusPlus) -> String;

/// The built-in players: their `cmd=` names and how each chooses.
pub const BUILTINS: [(&str, Choose); 3] = [
    ("builtin:random", random_move),
    ("builtin:safe", safe_move),
    ("builtin:greedy", greedy_move),
];

/// The built-in player `cmd` names, if it is one.
pub fn builtin_player(cmd: &str, name: &str) -> Option<Box<dyn Player>> {
    BUILTINS
        .iter()
        .find(|(c, _)| *c == cmd)
        .map(|&(_, choose)| Box::new(BuiltinPlayer::new(name, choose)) as Box<dyn Player>)
}

/// Longest time `builtin:greedy` spends on its safety checks per move (it also keeps within a
/// third of the move's deadline).
const GREEDY_BUDGET: Duration = Duration::from_secs(1);

/// `builtin:random`: a uniform random legal move.
fn random_move(req: &ThinkRequest, rng: &mut Xoshiro256PlusPlus) -> String {
    let moves = req.pos.legal_moves();
    if moves.is_empty() {
        "(none)".to_string()
    } else {
        moves[rng.gen_range(0..moves.len())].to_string()
    }
}

/// `builtin:safe`: wins at once, else a random move after which the opponent cannot win at
/// once.
fn safe_move(req: &ThinkRequest, rng: &mut Xoshiro256PlusPlus) -> String {
    if req.pos.is_finished() {
        return "(none)".to_string();
    }
    let mut pos = req.pos.clone();
    let budget = (req.deadline / 3).min(GREEDY_BUDGET);
    greedy::choose_safe(&mut pos, rng, budget).mv.to_string()
}

/// `builtin:greedy`: wins at once, else stops the opponent's win, else improves its connection
/// and centre (ties broken by the generator).
fn greedy_move(req: &ThinkRequest, rng: &mut Xoshiro256PlusPlus) -> String {
    if req.pos.is_finished() {
        return "(none)".to_string();
    }
    let mut pos = req.pos.clone();
    let budget = (req.deadline / 3).min(GREEDY_BUDGET);
    greedy::choose(&mut pos, rng, budget).mv.to_string()
}

/// A player without a process: the [`Player`] plumbing around a [`Choose`] function.
pub struct BuiltinPlayer {
    name: String,
    rng: Xoshiro256PlusPlus,
    choose: Choose,
}

impl BuiltinPlayer {
    pub fn new(name: &str, choose: Choose) -> BuiltinPlayer {
        BuiltinPlayer {
            name: name.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            choose,
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn proto(&self) -> Proto {
        Proto::Uci
    }

    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        Ok(())
    }

    fn think(&mut self, req: &ThinkRequest) -> Result<Reply, Fault> {
        let go_sent = Instant::now();
        let bestmove = (self.choose)(req, &mut self.rng);
        Ok(Reply {
            bestmove,
            go_sent,
            received: Instant::now(),
            info: SearchInfo::default(),
        })
    }

    fn reset(&mut self) {}

    fn pid(&self) -> Option<u32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Position, Variant};

    fn pick(p: &mut BuiltinPlayer, pos: &Position) -> String {
        let req = ThinkRequest {
            position: "",
            go: "",
            // Long enough that greedy's time budget never decides (its choice stays seeded).
            deadline: Duration::from_secs(30),
            pos,
        };
        p.think(&req).unwrap().bestmove
    }

    #[test]
    fn every_builtin_replays_a_game_from_its_seed() {
        for (cmd, choose) in BUILTINS {
            let play = |seed| {
                let mut p = BuiltinPlayer::new(cmd, choose);
                p.new_game(seed).unwrap();
                let mut pos = Position::new(Variant::Standard);
                let mut moves = Vec::new();
                for _ in 0..6 {
                    let m = pick(&mut p, &pos);
                    pos.play(crate::parse_move(&m).unwrap()).unwrap();
                    moves.push(m);
                }
                moves
            };
            assert_eq!(play(7), play(7), "{cmd}");
            assert!(builtin_player(cmd, "x").is_some(), "{cmd}");
        }
        assert!(builtin_player("builtin:none", "x").is_none());
    }

    /// The moves of two seeded games of `builtin:safe` against `builtin:greedy`, as one
    /// FNV-1a hash of their text (stable across toolchains, unlike `DefaultHasher`).
    fn anchor_games_hash() -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for seed in [1, 2] {
            let mut safe = BuiltinPlayer::new("safe", safe_move);
            let mut greedy = BuiltinPlayer::new("greedy", greedy_move);
            safe.new_game(seed).unwrap();
            greedy.new_game(seed).unwrap();
            let mut pos = Position::new(Variant::Standard);
            while !pos.is_finished() {
                let p = if pos.ply().is_multiple_of(2) {
                    &mut safe
                } else {
                    &mut greedy
                };
                let m = pick(p, &pos);
                pos.play(crate::parse_move(&m).unwrap()).unwrap();
                for b in m.bytes().chain([b' ']) {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        h
    }

    /// The anchors of the strength scale must never change (docs/levels.md): a change to
    /// `safe` or `greedy` (or to the rules' move order they draw from) moves every level's
    /// measured Elo. This pins their games; if it fails, the change needs a new scale and a
    /// new calibration, not a new number here.
    #[test]
    fn the_anchors_play_as_they_always_have() {
        assert_eq!(anchor_games_hash(), ANCHOR_GAMES_HASH);
    }

    const ANCHOR_GAMES_HASH: u64 = 16_213_300_931_806_715_718;

    #[test]
    fn random_moves_are_legal_and_seeded() {
        let mut a = BuiltinPlayer::new("r", random_move);
        let mut b = BuiltinPlayer::new("r", random_move);
        a.new_game(42).unwrap();
        b.new_game(42).unwrap();
        let mut pos = Position::new(Variant::Standard);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..20 {
            let m = pick(&mut a, &pos);
            assert_eq!(m, pick(&mut b, &pos));
            let mv = crate::parse_move(&m).unwrap();
            pos.play(mv).unwrap();
            seen.insert(m);
        }
        assert_eq!(seen.len(), 20);
        b.new_game(43).unwrap();
        a.new_game(42).unwrap();
        let start = Position::new(Variant::Standard);
        let differs = (0..10).any(|_| pick(&mut a, &start) != pick(&mut b, &start));
        assert!(differs, "different seeds should give different games");
    }
}
