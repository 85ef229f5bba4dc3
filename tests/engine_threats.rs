//! The engine's one-move win and threat detection against the rules library alone: on
//! positions from seeded random games (biased towards shifts, so that stacks and bridges
//! occur), every winning move is found by playing all legal moves, and the engine's answers
//! must agree.

mod common;

use common::winning_moves;
use punct::engine::threats::{find_win, threat_zone};
use punct::position::EndReason;
use punct::{Move, Position, Variant};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The spaces a move lands on or lifts a piece off.
fn touched(p: &Position, mv: Move) -> Vec<punct::Cell> {
    let mut cells: Vec<_> = mv
        .placement()
        .map(|pl| pl.cells().to_vec())
        .unwrap_or_default();
    if let Move::Shift { from, .. } = mv {
        let id = p.top_piece(from).expect("a shift moves a piece");
        cells.extend(p.piece(id).placement.cells());
    }
    cells
}

/// Checks one position; returns whether the side to move had a win, and one by a shift.
fn check(p: &mut Position) -> (bool, bool) {
    let wins = winning_moves(p);
    let found = find_win(p);
    assert_eq!(
        found.is_some(),
        !wins.is_empty(),
        "{p:?}: found {found:?}, wins {wins:?}"
    );
    if let Some(mv) = found {
        assert!(wins.contains(&mv), "{p:?}: {mv} does not win");
    }
    // The same position seen from the other side: its connecting moves are threats, and
    // every move that stops one must touch the zone, so each one's spaces lie in it.
    let zone = threat_zone(p);
    if !p.is_finished() {
        p.make(Move::Pass);
        let them = p.side_to_move();
        let mut threats = Vec::new();
        for mv in p.legal_moves() {
            let cells = touched(p, mv);
            p.make(mv);
            let o = p.outcome();
            if o.is_some_and(|o| o.winner == Some(them) && o.reason == EndReason::Connection) {
                threats.push((mv, cells));
            }
            p.unmake();
        }
        p.unmake();
        if !threats.is_empty() {
            let zone = zone.unwrap_or_else(|| panic!("{p:?}: threats, no zone"));
            for (mv, cells) in threats {
                assert!(
                    cells.iter().all(|&c| zone.contains(c)),
                    "{p:?}: threat {mv} outside the zone"
                );
            }
        }
    }
    (
        !wins.is_empty(),
        wins.iter().any(|m| matches!(m, Move::Shift { .. })),
    )
}

#[test]
fn one_move_wins_and_threats_agree_with_the_rules() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let (mut positions, mut with_win, mut shift_win) = (0, 0, 0);
    for game in 0..50 {
        let variant = if game % 3 == 2 {
            Variant::Basic
        } else {
            Variant::Standard
        };
        let mut p = Position::new(variant);
        while !p.is_finished() {
            positions += 1;
            let (win, by_shift) = check(&mut p);
            with_win += win as u32;
            shift_win += by_shift as u32;
            let moves = p.legal_moves();
            let shifts: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Shift { .. }))
                .collect();
            // Mostly shifts once there are any: games then run long and reach shift wins.
            let mv = if !shifts.is_empty() && rng.gen_bool(0.7) {
                *shifts.choose(&mut rng).unwrap()
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            p.make(mv);
        }
    }
    // Enough positions, and enough of them with a win, for the comparison to mean something.
    assert!(
        positions > 1_500 && with_win > 50 && shift_win > 15,
        "{positions} {with_win} {shift_win}"
    );
}
