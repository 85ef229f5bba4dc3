//! Built-in players that need no process: `builtin:random` plays uniform random legal moves,
//! `builtin:greedy` looks one ply ahead (see [`greedy`](crate::referee::greedy)).

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::referee::config::Proto;
use crate::referee::greedy;
use crate::referee::player::{Fault, Player, Reply, SearchInfo, ThinkRequest};

/// The `cmd=` names of the built-in players.
pub const BUILTINS: [&str; 2] = ["builtin:random", "builtin:greedy"];

/// The built-in player `cmd` names, if it is one.
pub fn builtin_player(cmd: &str, name: &str) -> Option<Box<dyn Player>> {
    match cmd {
        "builtin:random" => Some(Box::new(RandomPlayer::new(name))),
        "builtin:greedy" => Some(Box::new(GreedyPlayer::new(name))),
        _ => None,
    }
}

/// Longest time `builtin:greedy` spends on its safety checks per move (it also keeps within a
/// third of the move's deadline).
const GREEDY_BUDGET: Duration = Duration::from_secs(1);

/// Uniform random legal moves from a generator seeded per game, so a game can be replayed.
pub struct RandomPlayer {
    name: String,
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    pub fn new(name: &str) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }
}

impl Player for RandomPlayer {
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
        let moves = req.pos.legal_moves();
        let bestmove = if moves.is_empty() {
            "(none)".to_string()
        } else {
            moves[self.rng.gen_range(0..moves.len())].to_string()
        };
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

/// One-ply player: wins at once, else stops the opponent's win, else improves its connection
/// and centre (ties broken by a generator seeded per game).
pub struct GreedyPlayer {
    name: String,
    rng: Xoshiro256PlusPlus,
}

impl GreedyPlayer {
    pub fn new(name: &str) -> GreedyPlayer {
        GreedyPlayer {
            name: name.to_string(),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
        }
    }
}

impl Player for GreedyPlayer {
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
        let bestmove = if req.pos.is_finished() {
            "(none)".to_string()
        } else {
            let mut pos = req.pos.clone();
            let budget = (req.deadline / 3).min(GREEDY_BUDGET);
            greedy::choose(&mut pos, &mut self.rng, budget)
                .mv
                .to_string()
        };
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
    use crate::position::{Position, Variant};

    fn pick(p: &mut RandomPlayer, pos: &Position) -> String {
        let req = ThinkRequest {
            position: "",
            go: "",
            deadline: Default::default(),
            pos,
        };
        p.think(&req).unwrap().bestmove
    }

    #[test]
    fn random_moves_are_legal_and_seeded() {
        let mut a = RandomPlayer::new("r");
        let mut b = RandomPlayer::new("r");
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
