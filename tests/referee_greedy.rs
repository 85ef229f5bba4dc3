//! `builtin:greedy` against the rules library alone: it takes every win in one, blocks a
//! threat whenever some move does, and beats `builtin:random`.

use crate::referee_common;

use std::collections::HashSet;
use std::time::Duration;

use punct::referee::players::greedy::{choose, opponent_wins_after, winning_moves, Why};
use punct::{parse_move, parse_position, Colour, Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const BUDGET: Duration = Duration::from_secs(5);

/// Every move after which the side to move has won, by playing them all.
fn brute_wins(pos: &mut Position) -> HashSet<Move> {
    let me = pos.side_to_move();
    let mut wins = HashSet::new();
    for mv in pos.legal_moves() {
        pos.make(mv);
        if pos.outcome().is_some_and(|o| o.winner == Some(me)) {
            wins.insert(mv);
        }
        pos.unmake();
    }
    wins
}

/// A random legal move, preferring (half the time) shifts that land on a stack, where bridges,
/// covered pieces and uncovering happen.
fn biased_move(pos: &Position, rng: &mut Xoshiro256PlusPlus) -> Move {
    let moves = pos.legal_moves();
    if rng.gen_bool(0.5) {
        let stacked: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| match m {
                Move::Shift { to, .. } => pos.landing_level(*to) > 0,
                _ => false,
            })
            .collect();
        if !stacked.is_empty() {
            return stacked[rng.gen_range(0..stacked.len())];
        }
    }
    moves[rng.gen_range(0..moves.len())]
}

/// Positions from biased random games of both variants (the game not over), every `step` plies,
/// and the last position of every game won by a connection (the winner had a win in one).
fn sample_positions(seed: u64, games: usize, step: usize) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let variant = if g % 2 == 0 {
            Variant::Standard
        } else {
            Variant::Basic
        };
        let mut pos = Position::new(variant);
        let mut ply = 0;
        let mut before_last = pos.to_string();
        while !pos.is_finished() && ply < 120 {
            before_last = pos.to_string();
            if ply % step == step - 1 {
                // A fresh copy (no history), as the referee hands a player.
                out.push(parse_position(&before_last, variant).unwrap());
            }
            let mv = biased_move(&pos, &mut rng);
            pos.make(mv);
            ply += 1;
        }
        if pos
            .outcome()
            .is_some_and(|o| o.reason == punct::EndReason::Connection)
        {
            out.push(parse_position(&before_last, variant).unwrap());
        }
    }
    out
}

/// The positions greedy faces in games against the biased random mover (which makes threats
/// and leaves them unblocked, so wins in one are common), both variants, both colours.
fn greedy_game_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let variant = [Variant::Standard, Variant::Basic][g % 2];
        let greedy = [Colour::White, Colour::Black][g / 2 % 2];
        let mut pos = Position::new(variant);
        while !pos.is_finished() && pos.ply() < 120 {
            let mv = if pos.side_to_move() == greedy {
                out.push(parse_position(&pos.to_string(), variant).unwrap());
                choose(&mut pos, &mut rng, BUDGET).mv
            } else {
                biased_move(&pos, &mut rng)
            };
            pos.make(mv);
        }
    }
    out
}

#[test]
fn takes_every_win_in_one_and_finds_exactly_the_winning_moves() {
    let mut with_wins = 0;
    let mut positions = sample_positions(1, 12, 6);
    positions.extend(greedy_game_positions(2, 16));
    for pos in &positions {
        let mut pos = pos.clone();
        let want = brute_wins(&mut pos);
        let got: HashSet<Move> = winning_moves(&mut pos, usize::MAX).into_iter().collect();
        assert_eq!(got, want, "{pos:?}");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let d = choose(&mut pos, &mut rng, BUDGET);
        if !want.is_empty() {
            with_wins += 1;
            assert!(want.contains(&d.mv), "{pos:?}: played {}", d.mv);
            assert_eq!(d.why, Why::Wins);
        }
    }
    // The sample holds enough positions with wins for the comparison to mean something.
    assert!(positions.len() > 200, "{}", positions.len());
    assert!(with_wins >= 20, "{with_wins} of {}", positions.len());
}

#[test]
fn takes_the_shift_wins_the_engine_once_missed() {
    // From issue 8: d8-d12e12f12 (a bridge landing) and i14-h14g14f14 (a bridge piece moved)
    // both connect for Black.
    let text = "Bb9a8b10/Wd7d6e6/Bd8c8b8/Bd12c11e13/Wf14f13f12/Wg11h12i12/Bh15h14g13/Bi5h4g3/\
                Bj6i6i7/Bj14i14j13/Wk12j12k13/Bl5l4m5/Bl9m9n9/Wl14k14k15/Bl15m16m17/Wm11l11n11/\
                Wm13l13m12/Bm15n15n16/Wn13n14o13/Wo8p8p9/Bo16o15p16/Wp11o11p12/Bp15p14q15/\
                Bi14i13i12/Bm16l16k15/Wo13n13m12 b 49";
    let mut pos = parse_position(text, Variant::Standard).unwrap();
    let wins: HashSet<Move> = winning_moves(&mut pos, usize::MAX).into_iter().collect();
    for m in ["d8-d12e12f12", "i14-h14g14f14"] {
        assert!(wins.contains(&parse_move(m).unwrap()), "{m} missing");
    }
    assert_eq!(wins, brute_wins(&mut pos));
    let d = choose(&mut pos, &mut Xoshiro256PlusPlus::seed_from_u64(1), BUDGET);
    assert!(wins.contains(&d.mv), "played {}", d.mv);
}

/// Whether some move of the side to move leaves the opponent without a winning move.
fn some_stopper_exists(pos: &mut Position) -> bool {
    pos.legal_moves()
        .into_iter()
        .any(|m| !opponent_wins_after(pos, m))
}

/// Whether the opponent of the side to move could win at once if it moved now.
fn opponent_threatens(pos: &mut Position) -> bool {
    pos.make(Move::Pass);
    let threat = !brute_wins(pos).is_empty();
    pos.unmake();
    threat
}

#[test]
fn opponent_win_check_agrees_with_playing_every_reply() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let (mut yes, mut no) = (0, 0);
    for pos in sample_positions(2, 12, 7) {
        let mut pos = pos;
        if !brute_wins(&mut pos).is_empty() {
            continue;
        }
        let moves = pos.legal_moves();
        for _ in 0..4 {
            let mv = moves[rng.gen_range(0..moves.len())];
            let opp = !pos.side_to_move();
            pos.make(mv);
            let want = match pos.outcome() {
                Some(o) => o.winner == Some(opp),
                None => !brute_wins(&mut pos).is_empty(),
            };
            pos.unmake();
            assert_eq!(opponent_wins_after(&mut pos, mv), want, "{pos:?} {mv}");
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes >= 10 && no >= 10, "{yes} {no}");
}

#[test]
fn blocks_a_one_move_threat_whenever_a_block_exists() {
    let (mut blocked, mut lost) = (0, 0);
    for pos in sample_positions(4, 40, 2) {
        let mut pos = pos;
        if !brute_wins(&mut pos).is_empty() || !opponent_threatens(&mut pos) {
            continue;
        }
        let d = choose(&mut pos, &mut Xoshiro256PlusPlus::seed_from_u64(7), BUDGET);
        if opponent_wins_after(&mut pos, d.mv) {
            assert!(
                !some_stopper_exists(&mut pos),
                "{pos:?}: {} does not stop the threat but a stopper exists",
                d.mv
            );
            lost += 1;
        } else {
            blocked += 1;
        }
        if blocked + lost >= 40 {
            break;
        }
    }
    assert!(blocked >= 10, "blocked {blocked}, lost {lost}");
}

/// One game between greedy and random from the start; the winner's colour, if any.
fn greedy_vs_random(greedy: Colour, seed: u64) -> Option<Colour> {
    let mut pos = Position::new(Variant::Standard);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    while !pos.is_finished() && pos.ply() < 300 {
        let mv = if pos.side_to_move() == greedy {
            choose(&mut pos, &mut rng, BUDGET).mv
        } else {
            let moves = pos.legal_moves();
            moves[rng.gen_range(0..moves.len())]
        };
        pos.make(mv);
    }
    pos.outcome().and_then(|o| o.winner)
}

#[test]
fn beats_random_in_nearly_all_games() {
    let mut wins = 0;
    for g in 0..20u64 {
        let colour = if g % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        if greedy_vs_random(colour, g) == Some(colour) {
            wins += 1;
        }
    }
    assert!(wins >= 19, "greedy won {wins} of 20 against random");
}

#[test]
fn the_referee_plays_greedy_by_name_and_rejects_unknown_builtins() {
    let out = referee_common::referee()
        .args([
            "-engine",
            "cmd=builtin:greedy",
            "-engine",
            "cmd=builtin:random",
            "-games",
            "4",
            "-random-openings",
            "plies=2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("Score of builtin:greedy vs builtin:random: 4 - 0 - 0"),
        "{text}"
    );
    let out = referee_common::referee()
        .args([
            "-engine",
            "cmd=builtin:greedier",
            "-engine",
            "cmd=builtin:random",
        ])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("builtin:greedy"));
}
