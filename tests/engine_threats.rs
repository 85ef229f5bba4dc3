//! The engine's one-move win and threat detection against the rules library alone: on
//! positions from seeded random games (biased towards shifts, so that stacks and bridges
//! occur), every winning move is found by playing all legal moves, and the engine's answers
//! must agree.

mod common;

use common::winning_moves;
use punct::engine::threats::{find_win, threat, threat_zone};
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

/// What the opponent of the side to move could do with the move (found by passing and playing
/// every move): win by a connection, win by the centre count, or draw by it.
#[derive(Default, Debug)]
struct OpponentEnds {
    connection: bool,
    centre_win: bool,
    centre_draw: bool,
}

fn opponent_ends(p: &mut Position) -> OpponentEnds {
    let mut ends = OpponentEnds::default();
    p.make(Move::Pass);
    let them = p.side_to_move();
    for mv in p.legal_moves() {
        p.make(mv);
        if let Some(o) = p.outcome() {
            match o.reason {
                EndReason::Connection => ends.connection |= o.winner == Some(them),
                EndReason::CentreCount { .. } => {
                    ends.centre_win |= o.winner == Some(them);
                    ends.centre_draw |= o.winner.is_none();
                }
                _ => {}
            }
        }
        p.unmake();
    }
    p.unmake();
    ends
}

/// The standard game's last drop ends it by the centre count (drops never touch the centre, so
/// the count is the one before the drop): with one piece left in the opponent's hand, a count
/// it leads is a decisive threat and a tied count a drawing one; both put the whole centre in
/// the zone, since changing the count is the only defence. Checked against the rules on the
/// positions of seeded random games where the opponent has one piece left.
#[test]
fn last_drop_centre_count_threats_agree_with_the_rules() {
    let centre = punct::geometry::central_cells();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let (mut ties, mut leads, mut behind) = (0, 0, 0);
    for _ in 0..40 {
        let mut p = Position::new(Variant::Standard);
        while !p.is_finished() {
            let them = !p.side_to_move();
            if p.hand_total(them) == 1 {
                let ends = opponent_ends(&mut p);
                let t = threat(&p);
                if ends.centre_win || ends.centre_draw {
                    let t = t.unwrap_or_else(|| panic!("{p:?}: {ends:?}, no threat"));
                    assert!(
                        (centre - t.zone).is_empty(),
                        "{p:?}: centre outside the zone"
                    );
                    assert_eq!(
                        t.decisive,
                        ends.centre_win || ends.connection,
                        "{p:?}: {ends:?}"
                    );
                    ties += u32::from(ends.centre_draw);
                    leads += u32::from(ends.centre_win);
                } else {
                    behind += 1;
                    assert_eq!(t.is_some(), ends.connection, "{p:?}: {ends:?} {t:?}");
                }
            }
            let moves = p.legal_moves();
            let shifts: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Shift { .. }))
                .collect();
            let mv = if !shifts.is_empty() && rng.gen_bool(0.7) {
                *shifts.choose(&mut rng).unwrap()
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            p.make(mv);
        }
    }
    // Each case often enough to mean something.
    assert!(
        ties > 20 && leads > 20 && behind > 20,
        "{ties} {leads} {behind}"
    );
}
