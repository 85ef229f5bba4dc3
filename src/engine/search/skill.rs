//! Strength levels: `Skill Level` 0-19 (20 is full strength) and `UCI_Elo`, which names a
//! fractional skill through the calibration table [`LEVEL_ELO`].
//!
//! A level weakens the engine the way a weaker player is weak, not by random blunders:
//! - it judges less well: the lower levels look one ply ahead at every legal move and play
//!   one drawn with a probability that falls with how much worse the move scored (a softmax
//!   over the scores whose temperature falls as the level rises): a weak level prefers moves
//!   that build its connection and guard the centre, but often not the best of them;
//! - it sees less: the higher levels search within a node budget that grows with the level,
//!   drawing from their best few lines at a low temperature, the top ones playing their best
//!   line. A budget in nodes, not time, makes a level mean the same at every time control and
//!   on every machine, and a weak level answers at once, as a person would;
//! - but it never misses what lies on the board: a win in one scores far above every other
//!   move and is always played, and a move that lets the opponent win next move scores far
//!   below (against such a threat only the moves that stop it are searched). A two-move
//!   threat is beyond the one-ply levels.
//!
//! A fractional skill plays each move at one of the two levels around it, drawn so that the
//! average is the skill (Stockfish's fractional levels). All draws come from a generator
//! seeded by `Seed` and the position, so with one thread a level replays the same moves.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::types::SearchResult;
use crate::engine::types::{Level, Limits, RootLine, Score};
use crate::rules::position::Position;

/// The full-strength skill (no level).
pub const FULL_SKILL: i64 = 20;

/// What one level does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Depth limit (0: none).
    pub depth: u32,
    /// Node budget (0: none).
    pub nodes: u64,
    /// Lines the move is drawn from (at most the legal moves).
    pub candidates: u32,
    /// Softmax temperature over the lines' scores, in centipawns (0: the best line).
    pub temperature: u32,
}

const fn row(depth: u32, nodes: u64, candidates: u32, temperature: u32) -> LevelSettings {
    LevelSettings {
        depth,
        nodes,
        candidates,
        temperature,
    }
}

/// Skill levels 0 to 19: the static order's first 400 moves at one ply (where the engine's
/// first iteration looks), drawn at a falling temperature (level 0 at random among them);
/// then two plies, with some noise and without, then a node budget that doubles. Each level
/// searches more than the one below, or as much with less noise. The temperatures were
/// chosen from a calibration of an earlier table to give steps of about 75 Elo.
pub const LEVELS: [LevelSettings; 20] = [
    row(1, 0, 400, 100_000),
    row(1, 0, 400, 1_000),
    row(1, 0, 400, 350),
    row(1, 0, 400, 255),
    row(1, 0, 400, 191),
    row(1, 0, 400, 144),
    row(1, 0, 400, 112),
    row(1, 0, 400, 95),
    row(1, 0, 400, 80),
    row(1, 0, 400, 66),
    row(1, 0, 400, 53),
    row(1, 0, 400, 42),
    row(1, 0, 400, 33),
    row(1, 0, 400, 22),
    row(1, 0, 400, 13),
    row(2, 0, 3, 15),
    row(2, 0, 1, 0),
    row(0, 1_000, 1, 0),
    row(0, 2_000, 1, 0),
    row(0, 4_000, 1, 0),
];

/// The claimed Elo of skill levels 0 to 19 on the project's fixed scale (docs/levels.md): the
/// calibration's fit, rounded. `UCI_Elo` runs from the first to the last.
pub const LEVEL_ELO: [i32; 20] = [
    400, 480, 555, 630, 705, 780, 855, 930, 1005, 1080, 1155, 1230, 1305, 1380, 1455, 1530, 1620,
    1700, 1780, 1850,
];

/// `UCI_Elo`'s range.
pub const ELO_MIN: i32 = LEVEL_ELO[0];
pub const ELO_MAX: i32 = LEVEL_ELO[LEVEL_ELO.len() - 1];

/// The level of `Skill Level` `skill` (`None` at full strength).
pub fn level_of_skill(skill: i64) -> Option<Level> {
    (skill < FULL_SKILL).then(|| Level {
        skill: skill.clamp(0, FULL_SKILL - 1) as f64,
    })
}

/// The level that plays at `elo` (clamped to `UCI_Elo`'s range): the skill interpolated in
/// the calibration table.
pub fn level_of_elo(elo: i64) -> Level {
    let elo = elo.clamp(ELO_MIN as i64, ELO_MAX as i64) as f64;
    let i = LEVEL_ELO
        .iter()
        .rposition(|&e| e as f64 <= elo)
        .unwrap_or(0);
    let skill = match LEVEL_ELO.get(i + 1) {
        Some(&next) => {
            let e = LEVEL_ELO[i] as f64;
            i as f64 + (elo - e) / (next as f64 - e)
        }
        None => i as f64,
    };
    Level { skill }
}

/// The claimed Elo of a level: the table, interpolated for a fractional skill.
pub fn claimed_elo(level: Level) -> i32 {
    let i = (level.skill.floor() as usize).min(LEVEL_ELO.len() - 1);
    let f = level.skill - i as f64;
    match LEVEL_ELO.get(i + 1) {
        Some(&next) if f > 0.0 => {
            (LEVEL_ELO[i] as f64 + f * (next - LEVEL_ELO[i]) as f64).round() as i32
        }
        _ => LEVEL_ELO[i],
    }
}

/// The integer level a move is played at: a fractional skill rounds up with the probability
/// of its fraction.
fn level_for_move(level: Level, rng: &mut impl Rng) -> usize {
    let base = level.skill.floor().clamp(0.0, (LEVELS.len() - 1) as f64);
    let frac = level.skill - base;
    let up = frac > 0.0 && rng.gen::<f64>() < frac;
    (base as usize + usize::from(up)).min(LEVELS.len() - 1)
}

/// The generator of one decision: the same seed and position give the same draws.
fn decision_rng(seed: u64, pos: &Position) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ pos.hash().rotate_left(17) ^ 0x005e_ed1e_7e15)
}

/// A line's score as one number: proven wins above every evaluation, the quickest first;
/// proven losses below, the slowest first.
fn line_value(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => cp as f64,
        Score::Mate(n) if n > 0 => 1e6 - n as f64,
        Score::Mate(n) => -1e6 - n as f64,
    }
}

/// Draws one of `lines` with probability proportional to `exp(score / temperature)` (the
/// Gumbel-max draw); its index.
fn pick_line(lines: &[RootLine], temperature: u32, rng: &mut impl Rng) -> usize {
    let t = temperature.max(1) as f64;
    let keyed = lines.iter().enumerate().map(|(i, l)| {
        let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
        (i, line_value(l.score) / t - (-u.ln()).ln())
    });
    keyed
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(i, _)| i)
}

/// The settings a level plays this move with, and the generator for the rest of the
/// decision.
pub fn settings_for_move(level: Level, seed: u64, pos: &Position) -> (usize, Xoshiro256PlusPlus) {
    let mut rng = decision_rng(seed, pos);
    (level_for_move(level, &mut rng), rng)
}

/// How a level plays one move: the search it runs (its depth and node budget within the
/// client's limits, whose clock still holds) and how it draws among the lines found.
pub struct LevelPlan {
    /// The limits of the level's own search.
    pub inner: Limits,
    /// The lines the client asked to see; the level draws from all of its own.
    pub shown: usize,
    candidates: usize,
    temperature: u32,
    rng: Xoshiro256PlusPlus,
}

impl LevelPlan {
    /// The plan of `level` for `pos`, drawn from `seed` and the position.
    pub fn new(level: Level, seed: u64, pos: &Position, limits: &Limits) -> LevelPlan {
        let (index, rng) = settings_for_move(level, seed, pos);
        let set = LEVELS[index];
        let candidates = set.candidates as usize;
        let cap = |given: Option<u64>, own: u64| match (given, own) {
            (g, 0) => g,
            (Some(g), o) => Some(g.min(o)),
            (None, o) => Some(o),
        };
        let inner = Limits {
            depth: cap(limits.depth.map(u64::from), u64::from(set.depth)).map(|d| d as u32),
            nodes: cap(limits.nodes, set.nodes),
            multipv: limits.multipv.max(candidates),
            level: None,
            ..limits.clone()
        };
        LevelPlan {
            inner,
            shown: limits.multipv.max(1),
            candidates,
            temperature: set.temperature,
            rng,
        }
    }

    /// Replaces the search's move by one of its best lines, drawn as the level draws.
    pub fn choose(mut self, result: &mut SearchResult) {
        let lines = &result.lines[..result.lines.len().min(self.candidates)];
        if lines.len() > 1 && self.temperature > 0 {
            let chosen = lines[pick_line(lines, self.temperature, &mut self.rng)].clone();
            result.best = chosen.pv.first().copied();
            result.ponder = chosen.pv.get(1).copied();
            result.score = chosen.score;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    #[test]
    fn each_level_searches_more_or_draws_with_less_noise_than_the_one_below() {
        // One-ply and fixed-depth levels first, then node budgets.
        let effort = |r: &LevelSettings| match r.nodes {
            0 => (0, u64::from(r.depth)),
            n => (1, n),
        };
        let noise = |r: &LevelSettings| match r.candidates {
            0 | 1 => 0,
            k => k * r.temperature,
        };
        for w in LEVELS.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            assert!(
                a.depth > 0 || a.nodes > 0,
                "{a:?}: no limit is full strength"
            );
            assert!(effort(a) <= effort(b), "{a:?} {b:?}");
            if effort(a) == effort(b) {
                assert!(noise(a) > noise(b), "{a:?} {b:?}");
            }
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn elo_and_skill_map_onto_each_other() {
        for (i, &e) in LEVEL_ELO.iter().enumerate() {
            let l = level_of_elo(e as i64);
            assert!((l.skill - i as f64).abs() < 1e-9, "{e}: {l:?}");
            assert_eq!(claimed_elo(l), e);
        }
        let mid = (LEVEL_ELO[3] + LEVEL_ELO[4]) / 2;
        let l = level_of_elo(mid as i64);
        assert!(l.skill > 3.0 && l.skill < 4.0, "{l:?}");
        assert_eq!(claimed_elo(l), mid);
        assert_eq!(level_of_elo(-5).skill, 0.0);
        assert_eq!(level_of_elo(99_999).skill, (LEVELS.len() - 1) as f64);
        assert_eq!(level_of_skill(FULL_SKILL), None);
        assert_eq!(level_of_skill(7), Some(Level { skill: 7.0 }));
    }

    #[test]
    fn a_fractional_skill_averages_to_itself() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let level = Level { skill: 6.25 };
        let n = 4000;
        let sum: usize = (0..n).map(|_| level_for_move(level, &mut rng)).sum();
        let mean = sum as f64 / n as f64;
        assert!((mean - 6.25).abs() < 0.05, "{mean}");
        let whole = Level { skill: 6.0 };
        assert!((0..100).all(|_| level_for_move(whole, &mut rng) == 6));
    }

    #[test]
    fn the_draw_favours_better_lines_more_at_a_low_temperature() {
        let line = |cp| RootLine {
            score: Score::Cp(cp),
            pv: vec![Move::Pass],
        };
        let lines = [line(50), line(20), line(0), line(-40)];
        let share_of_best = |t| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
            (0..4000)
                .filter(|_| pick_line(&lines, t, &mut rng) == 0)
                .count() as f64
                / 4000.0
        };
        let (cold, hot) = (share_of_best(5), share_of_best(60));
        assert!(cold > 0.98, "{cold}");
        assert!(hot > 0.3 && hot < 0.7, "{hot}");
        // A proven win is always taken over evaluations, a proven loss never chosen.
        let tactical = [
            line(10),
            RootLine {
                score: Score::Mate(2),
                pv: vec![Move::Pass],
            },
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert!((0..200).all(|_| pick_line(&tactical, 60, &mut rng) == 1));
        let losing = [
            RootLine {
                score: Score::Mate(-1),
                pv: vec![Move::Pass],
            },
            line(-900),
        ];
        assert!((0..200).all(|_| pick_line(&losing, 60, &mut rng) == 1));
    }
}
