//! Seeded random-playout property tests: the fast generator and make/unmake against the simple
//! second implementation in `common/simple_rules.rs`, in both variants. Playouts prefer shifts
//! onto pieces so that stacks, bridges and blocked pieces occur (counted and asserted).
//! Default: 600 games per variant (~46,000 positions each), full legal-set comparison every
//! 12th ply. `PUNCT_EXHAUSTIVE=1`: 2,000 games per variant, full comparison every 2nd ply
//! (~17 minutes; run once on 2026-11-26: ~308,000 positions, all in agreement).

use crate::common;

use std::collections::BTreeSet;

use common::simple_rules::{self, Board, Key};
use common::{biased_choice, board_of, ending_of, exhaustive, key_of, Features};
use punct::rules::cellset::CellSet;
use punct::{parse_move, parse_position, Colour, Kind, Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Longest playout; shift-heavy games could otherwise wander for long.
const MAX_PLIES: u32 = 160;

struct Run {
    games: usize,
    /// Compare the full legal move sets every this many plies.
    full_every: u32,
}

fn run() -> Run {
    if exhaustive() {
        Run {
            games: 2000,
            full_every: 2,
        }
    } else {
        Run {
            games: 600,
            full_every: 12,
        }
    }
}

/// Make then unmake restores the position (==, string, hash), and the incremental hash after
/// the move equals a full recomputation.
fn check_make_unmake(pos: &mut Position, mv: Move) {
    let before = pos.clone();
    let text = pos.to_string();
    pos.make(mv);
    assert_eq!(pos.hash(), pos.compute_hash(), "hash after {mv} in {text}");
    pos.unmake();
    assert_eq!(pos.to_string(), text, "unmake of {mv}");
    assert_eq!(
        pos.hash(),
        before.hash(),
        "hash after unmake of {mv} in {text}"
    );
    assert!(*pos == before, "unmake of {mv} in {text}");
}

/// Move notation round-trips, and the reader accepts the minor dots in either order.
fn check_move_notation(mv: Move) {
    let text = mv.to_string();
    assert_eq!(parse_move(&text), Ok(mv), "{text}");
    assert_eq!(key_of(mv), simple_rules::read_key(&text).unwrap());
    if mv != Move::Pass {
        // The last two cells are the minor dots; swap them.
        let (head, to) = text
            .rsplit_once('-')
            .map_or(("", text.as_str()), |(h, t)| (h, t));
        let cells = split_names(to);
        let swapped = if head.is_empty() {
            format!("{}{}{}", cells[0], cells[2], cells[1])
        } else {
            format!("{head}-{}{}{}", cells[0], cells[2], cells[1])
        };
        assert_eq!(parse_move(&swapped), Ok(mv), "{swapped} read as {text}");
    }
}

fn split_names(s: &str) -> Vec<&str> {
    let starts: Vec<usize> = s
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    (0..starts.len())
        .map(|k| &s[starts[k]..*starts.get(k + 1).unwrap_or(&s.len())])
        .collect()
}

/// The generated moves and the simple checker's legal set are the same set.
fn check_full_agreement(pos: &Position, board: &Board, moves: &[Move]) {
    let generated: BTreeSet<Key> = moves.iter().map(|&m| key_of(m)).collect();
    let simple = board.legal_moves();
    let missed: Vec<_> = simple.difference(&generated).take(5).collect();
    let extra: Vec<_> = generated.difference(&simple).take(5).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "in {pos}: generator missed {missed:?}, simple checker rejects {extra:?}"
    );
    assert_eq!(
        pos.count_legal_moves(),
        moves.len() as u64,
        "count in {pos}"
    );
}

/// Random candidate moves (any shape, any cell, as a drop or from a random own piece): the
/// library's `check_move` and the simple checker agree.
fn check_random_candidates(pos: &Position, board: &Board, rng: &mut Xoshiro256PlusPlus) {
    let placements = simple_rules::all_placements();
    let own: Vec<_> = board
        .pieces
        .iter()
        .filter(|p| p.white == board.white_to_move)
        .map(|p| p.p)
        .collect();
    for _ in 0..20 {
        let (_, p, minors) = placements[rng.gen_range(0..placements.len())];
        let key = if !own.is_empty() && rng.gen_bool(0.5) {
            Key::Shift {
                from: own[rng.gen_range(0..own.len())],
                p,
                minors,
            }
        } else {
            Key::Drop { p, minors }
        };
        let text = match key {
            Key::Shift { from, .. } => format!(
                "{}-{}{}{}",
                simple_rules::cell_name(from),
                simple_rules::cell_name(p),
                simple_rules::cell_name(minors[0]),
                simple_rules::cell_name(minors[1])
            ),
            _ => format!(
                "{}{}{}",
                simple_rules::cell_name(p),
                simple_rules::cell_name(minors[0]),
                simple_rules::cell_name(minors[1])
            ),
        };
        let mv = parse_move(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            pos.check_move(mv).is_ok(),
            board.is_legal(key),
            "check_move and the simple checker disagree on {text} in {pos}: {:?}",
            pos.check_move(mv)
        );
    }
}

/// `drop_puncts` names the PÜNCT spaces of exactly the generated drops of each shape.
fn check_drop_puncts(pos: &Position, moves: &[Move]) {
    for kind in Kind::ALL {
        for o in 0..kind.orientations() {
            let listed: CellSet = (moves.iter())
                .filter_map(|m| match m {
                    Move::Drop(pl) if pl.kind() == kind && pl.orientation() == o => {
                        Some(pl.punct())
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(pos.drop_puncts(kind, o), listed, "{kind:?} {o} in {pos}");
        }
    }
}

fn play_games(variant: Variant, seed: u64, run: &Run) -> Features {
    let basic = variant == Variant::Basic;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut features = Features::default();
    let mut moves = Vec::new();
    let mut endings = [0u64; 3];
    for game in 0..run.games {
        let mut pos = Position::new(variant);
        let mut board = Board::start(basic);
        while !pos.is_finished() && pos.ply() < MAX_PLIES {
            pos.legal_moves_into(&mut moves);
            features.count(&board);

            let mut sorted = moves.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len(), "a move generated twice in {pos}");
            assert!(!moves.is_empty(), "an unfinished game has a move in {pos}");

            if (pos.ply() + game as u32).is_multiple_of(run.full_every) {
                check_full_agreement(&pos, &board, &moves);
                check_drop_puncts(&pos, &moves);
                // Every move's notation when exhaustive, else a sample (the list is long).
                let step = if exhaustive() {
                    1
                } else {
                    1 + moves.len() / 64
                };
                for &mv in moves.iter().step_by(step) {
                    check_move_notation(mv);
                }
                let reread = parse_position(&pos.to_string(), variant).unwrap();
                assert!(reread == pos, "position string round trip of {pos}");
                assert_eq!(reread.to_string(), pos.to_string());
            }
            check_random_candidates(&pos, &board, &mut rng);
            for _ in 0..4 {
                let mv = moves[rng.gen_range(0..moves.len())];
                check_make_unmake(&mut pos, mv);
                check_move_notation(mv);
            }
            let mv = biased_choice(&pos, &moves, &mut rng);
            check_make_unmake(&mut pos, mv);

            pos.make(mv);
            board.apply(key_of(mv));
            // The simple model, moved by its own rules, matches the library's position.
            let read_back = board_of(&pos);
            assert_eq!(
                read_back.sorted_pieces(),
                board.sorted_pieces(),
                "after {mv}: {pos}"
            );
            assert_eq!(read_back.white_to_move, board.white_to_move);
            assert_eq!(pos.ply(), board.ply);
            assert_eq!(
                ending_of(pos.outcome()),
                board.ending,
                "game end after {mv} in {pos}"
            );
            for (colour, white) in [(Colour::White, true), (Colour::Black, false)] {
                assert_eq!(pos.has_connection(colour), board.connected(white), "{pos}");
            }
        }
        if pos.is_finished() {
            assert!(pos.legal_moves().is_empty() && pos.count_legal_moves() == 0);
            let e = board.ending.unwrap();
            endings[match e.why {
                simple_rules::Why::Connection => 0,
                simple_rules::Why::CentreCount(..) | simple_rules::Why::LastDrop => 1,
                simple_rules::Why::DoublePass => 2,
            }] += 1;
        }
        // Unwind the whole game: back to the start position exactly.
        while pos.undo_depth() > 0 {
            pos.unmake();
            assert_eq!(pos.hash(), pos.compute_hash());
        }
        assert!(pos == Position::new(variant));
    }
    eprintln!("{variant:?}: {features:?}, endings (connection, last drop, passes) {endings:?}");
    assert!(endings[1] > 0, "games end by the last drop");
    features
}

fn assert_features(f: &Features) {
    // Over thousands of positions each feature must be common, not a fluke.
    assert!(f.positions > 10_000, "{f:?}");
    assert!(f.stacked_pieces > f.positions / 2, "{f:?}");
    assert!(f.bridges > f.positions / 20, "{f:?}");
    assert!(f.blocked_pieces > f.positions / 4, "{f:?}");
    assert!(f.level_two_or_more > f.positions / 50, "{f:?}");
}

#[test]
fn standard_playouts_agree_with_simple_rules() {
    let f = play_games(Variant::Standard, 0x5eed_0001, &run());
    assert_features(&f);
}

#[test]
fn basic_playouts_agree_with_simple_rules() {
    let f = play_games(Variant::Basic, 0x5eed_0002, &run());
    assert_features(&f);
}

/// The library's connection check against the simple breadth-first search on random dot sets
/// around the percolation density, so that both answers are common.
#[test]
fn connection_check_agrees_with_breadth_first_search() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5eed_0003);
    let cells = simple_rules::all_cells();
    let mut answers = [0u32; 2];
    let rounds = if exhaustive() { 200_000 } else { 20_000 };
    for _ in 0..rounds {
        let density = rng.gen_range(0.3..0.7);
        let dots: BTreeSet<_> = cells
            .iter()
            .copied()
            .filter(|_| rng.gen_bool(density))
            .collect();
        let mut set = punct::CellSet::EMPTY;
        for &(x, y) in &dots {
            set.insert(punct::Cell::new(x, y).unwrap());
        }
        let expected = simple_rules::connects(&dots);
        assert_eq!(punct::rules::position::connects(set), expected, "{dots:?}");
        answers[usize::from(expected)] += 1;
    }
    assert!(
        answers[0] > rounds / 10 && answers[1] > rounds / 10,
        "{answers:?}"
    );
}
