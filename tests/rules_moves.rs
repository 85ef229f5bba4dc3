//! docs/rules.md sections 3 and 4, clause by clause, on hand-built positions. Each verdict is
//! checked three ways (see `common/clauses.rs`): `check_move`, `legal_moves` and the simple checker.

use crate::common;

use common::clauses::{basic, illegal, legal, level_at, mv, standard};
use punct::{parse_cell, Colour, IllegalReason as Why, Kind, Move};

fn cell(name: &str) -> punct::Cell {
    parse_cell(name).unwrap()
}

// ----- Section 3: stacks, levels, heights, blocked pieces -----

/// A level-2 S bridge (e5-e6-e7) whose middle hangs over a level-0 Black S (e6 f6 g6) with a
/// gap at level 1; its ends rest on two-piece stacks (White C on d5, Black S on e7).
const HIGH_BRIDGE: &str = "Wd5c5e5/Be6f6g6/Be7d7c7/Wd5c5e5/Be7d7c7/We5e6e7 b 6";

#[test]
fn levels_heights_and_gaps() {
    let pos = standard(HIGH_BRIDGE);
    assert_eq!(
        level_at(&pos, "e5"),
        2,
        "the bridge rests on two-piece stacks"
    );
    assert_eq!(level_at(&pos, "d5"), 1);
    assert_eq!(level_at(&pos, "e6"), 0);
    // e6: the S at level 0, a gap at level 1, the bridge middle at level 2.
    assert_eq!(pos.height(cell("e6")), 3);
    assert_eq!(pos.stack(cell("e6")).len(), 2);
    assert_eq!(pos.height(cell("e5")), 3);
    assert_eq!(pos.height(cell("c5")), 2);
    assert_eq!(pos.height(cell("f6")), 1);
    assert_eq!(pos.height(cell("e4")), 0);
    // The top view shows the highest dot: White's bridge over Black's S on e6.
    assert_eq!(pos.top_colour(cell("e6")), Some(Colour::White));
    assert_eq!(pos.top_colour(cell("f6")), Some(Colour::Black));
    assert_eq!(pos.top_colour(cell("e4")), None);
}

#[test]
fn piece_under_a_bridge_middle_is_blocked_even_across_a_gap() {
    let pos = standard(HIGH_BRIDGE);
    illegal(&pos, "e6-e6e5e4", Why::Blocked(cell("e6")));
    illegal(&pos, "e6-h6i6j6", Why::Blocked(cell("e6")));
    // The Black S on e7 (level 1) carries a bridge end.
    illegal(&pos, "e7-e7e8e9", Why::Blocked(cell("e7")));
    // Every Black piece is blocked: Black can only drop.
    assert!(pos.legal_moves().iter().all(|m| matches!(m, Move::Drop(_))));
    // White's C under the bridge end is blocked too; the bridge itself is free.
    let white = standard(&HIGH_BRIDGE.replace(" b 6", " w 6"));
    illegal(&white, "d5-d5d4d6", Why::Blocked(cell("d5")));
    legal(&white, "e5-e13f13g13");
}

/// A level-1 S bridge from e5 (on a White S) to e7 (on a Black S) over the empty e6.
const LOW_BRIDGE: &str = "We5e4e3/Be7e8e9/We5e6e7 b 3";

#[test]
fn piece_under_a_bridge_end_is_blocked() {
    let pos = standard(LOW_BRIDGE);
    illegal(&pos, "e7-e7f8g9", Why::Blocked(cell("e7")));
    // The space under the bridge middle is empty but has height 2.
    assert_eq!(pos.height(cell("e6")), 2);
    assert!(pos.stack(cell("e6")).len() == 1);
}

// ----- Section 4.1: drops -----

#[test]
fn drop_on_an_occupied_space_is_illegal() {
    let pos = standard("Wc5c6d6 b 1");
    illegal(&pos, "d6d7d8", Why::Occupied(cell("d6")));
    illegal(&pos, "c4c5c6", Why::Occupied(cell("c5")));
    legal(&pos, "d7d8d9");
}

#[test]
fn nothing_can_be_dropped_under_a_bridge() {
    let pos = standard(LOW_BRIDGE);
    illegal(&pos, "e6f6g6", Why::Occupied(cell("e6")));
    illegal(&pos, "e6d5d6", Why::Occupied(cell("e6")));
    legal(&pos, "f6g6h6");
}

#[test]
fn standard_drops_never_touch_the_central_hexagon() {
    let start = standard("- w 0");
    illegal(&start, "f6f7g7", Why::CentreDrop(cell("g7")));
    illegal(&start, "i9i10i11", Why::CentreDrop(cell("i9")));
    legal(&start, "f6f5f7");
    // Later drops and Black's drops too.
    let later = standard("Wa2a3a4/Bq16q15q14 w 2");
    illegal(&later, "h7h8h9", Why::CentreDrop(cell("h7")));
    let black = standard("Wa2a3a4 b 1");
    illegal(&black, "i9i10i11", Why::CentreDrop(cell("i9")));
    // No generated drop touches the centre (moves may).
    for m in later.legal_moves() {
        if let Move::Drop(p) = m {
            assert!(p.cells().iter().all(|c| !c.is_central()), "{m}");
        }
    }
}

#[test]
fn basic_only_whites_first_drop_avoids_the_centre() {
    let start = basic("- w 0");
    illegal(&start, "f6f7g7", Why::CentreDrop(cell("g7")));
    legal(&start, "f6f5f7");
    assert_eq!(
        start.count_legal_moves(),
        standard("- w 0").count_legal_moves()
    );
    // Black's first drop may touch the centre...
    let black = basic("Wa2a3a4 b 1");
    legal(&black, "i9i10i11");
    // ...and so may White's later drops.
    let later = basic("Wa2a3a4/Bi9i10i11 w 2");
    legal(&later, "h7h8h9");
    legal(&later, "i8h7h8");
}

#[test]
fn drop_needs_a_piece_of_that_kind_in_hand() {
    // White has its four straight pieces (S) on the board.
    let pos = standard("Wa2a3a4/Bb1c1d1/Wc2c3c4/Bj2k3l4/Wm5m6m7/Bn6n7n8/Wo7o8o9/Bp8p9p10 w 8");
    assert_eq!(pos.in_hand(Colour::White, Kind::S), 0);
    illegal(&pos, "e4e5e6", Why::NoneInHand(Colour::White, Kind::S));
    let err = pos.check_move(mv("e4e5e6")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "move e4e5e6: White has no straight piece left"
    );
    // A centre-straight piece on the same spaces is fine.
    legal(&pos, "e5e4e6");
}

// ----- Section 4.2: moves -----

/// Two level-0 rails: White S on e10 f10 g10, Black S on e12 f12 g12, with row 11 empty
/// between them; `mover` is one more White piece.
fn rails(mover: &str) -> punct::Position {
    standard(&format!("{mover}/We10f10g10/Be12f12g12/Bo14o15o16 w 4"))
}

/// The same rails one level higher (each is a two-piece stack) with a level-0 S on row 11 of
/// colour `row11` (`W` or `B`) under the gap.
fn high_rails(mover: &str, row11: char) -> punct::Position {
    standard(&format!(
        "{mover}/We10f10g10/{row11}e11f11g11/Be12f12g12/Bo14o15o16/We10f10g10/Be12f12g12 w 8"
    ))
}

#[test]
fn a_piece_moves_any_distance_in_a_line_over_anything() {
    let pos = rails("We3e2e1");
    // North over both rails to the top of the column (turned to the SE to fit).
    let after = legal(&pos, "e3-e13f13g13");
    assert_eq!(level_at(&after, "e13"), 0);
    legal(&pos, "e3-e4e5e6");
    legal(&pos, "e3-i3j3k3");
    // Into the central hexagon by a move is fine in the standard game.
    legal(&pos, "e3-i7i8i9");
    illegal(&pos, "e3-f5f6f7", Why::NotInLine);
    illegal(&pos, "e3-h5h6h7", Why::NotInLine);
}

#[test]
fn rotation_in_place_and_move_with_rotation() {
    let pos = rails("We3e2e1");
    legal(&pos, "e3-e3f3g3");
    legal(&pos, "e3-e3d2c1");
    legal(&pos, "e3-e6f6g6");
    legal(&pos, "e3-h3h2h1");
}

#[test]
fn a_move_must_change_the_placement() {
    let pos = rails("We3e2e1");
    illegal(&pos, "e3-e3e2e1", Why::NoChange);
    // An S turned end for end on the same spaces is a move: its PÜNCT is on another space.
    let after = legal(&pos, "e3-e1e2e3");
    let moved: Vec<_> = after
        .pieces()
        .filter(|(_, p)| p.colour == Colour::White && p.placement.kind() == Kind::S)
        .map(|(_, p)| p.placement.punct())
        .collect();
    assert!(moved.contains(&cell("e1")) && !moved.contains(&cell("e3")));
    // A C turned over on its own spaces is the same placement: not a move.
    let c = rails("We3e2e4");
    illegal(&c, "e3-e3e4e2", Why::NoChange);
}

#[test]
fn a_piece_keeps_its_kind_and_belongs_to_the_mover() {
    let pos = rails("We3e2e1");
    illegal(
        &pos,
        "e3-e3e4f4",
        Why::KindChanged {
            from: Kind::S,
            to: Kind::T,
        },
    );
    illegal(
        &pos,
        "e12-e13f13g13",
        Why::NotYourPiece(cell("e12"), Colour::Black),
    );
    illegal(&pos, "d2-d3d4d5", Why::NoPieceAt(cell("d2")));
}

#[test]
fn landing_level_is_the_highest_of_the_three_spaces() {
    // A White T dropped exactly onto another White T lands at level 1.
    let pos = standard("Wc3c4d4/Wh3h4i4/Bo14o15o16 w 3");
    let after = legal(&pos, "h3-c3c4d4");
    assert_eq!(level_at(&after, "c3"), 1);
    assert_eq!(after.height(cell("d4")), 2);
    // On the high rails a C lands at level 2.
    let high = high_rails("We3e2e4", 'W');
    let after = legal(&high, "e3-e11e10e12");
    assert_eq!(level_at(&after, "e11"), 2);
    assert_eq!(after.height(cell("e11")), 3);
}

#[test]
fn stability_of_a_triangle_needs_all_three_spaces_level() {
    let pos = rails("We3e2f3");
    // e10 and f10 are at height 1, f11 at 0: a triangle never bridges.
    illegal(&pos, "e3-e10f10f11", Why::NotStable);
    illegal(&pos, "e3-e11e10f11", Why::NotStable);
    legal(&pos, "e3-e9e8f9");
}

#[test]
fn stability_of_pieces_with_ends() {
    // S: the PÜNCT and the far dot at the landing level.
    let s = rails("We3e2e1");
    let after = legal(&s, "e3-e10e11e12");
    assert_eq!(level_at(&after, "e10"), 1);
    assert_eq!(after.height(cell("e11")), 2);
    assert_eq!(
        after.stack(cell("e11")).len(),
        1,
        "a gap under the bridge middle"
    );
    illegal(&s, "e3-e10e9e8", Why::NotStable);
    illegal(&s, "e3-e9e10e11", Why::NotStable);
    // L and R bridge from row 10 to row 12.
    legal(&rails("We3e4f5"), "e3-e10e11f12");
    legal(&rails("Wf3f4e4"), "f3-f10g11g12");
    illegal(&rails("We3e4f5"), "e3-e9e10f11", Why::NotStable);
    illegal(&rails("Wf3f4e4"), "f3-f10f11e11", Why::NotStable);
    // A: one end (e10) on the rail, the other (g11) on the empty row.
    illegal(&rails("Wf3f4g3"), "f3-f11e10g11", Why::NotStable);
    // C and A: the two minor dots are the ends (here both on the high rails).
    legal(&high_rails("We3e2e4", 'W'), "e3-e11e10e12");
    legal(&high_rails("Wf3f4g3", 'W'), "f3-f11e10f12");
    illegal(&high_rails("We3e2e4", 'W'), "e3-e10e9e11", Why::NotStable);
}

#[test]
fn punct_must_rest_on_an_own_dot() {
    // S with its PÜNCT on the Black rail.
    illegal(&rails("We3e2e1"), "e3-e12e11e10", Why::PunctNotOnOwn);
    // T exactly on a Black T: stable, but the PÜNCT is on Black.
    let pos = standard("Bc3c4d4/Wh3h4i4/Bo14o15o16 w 3");
    illegal(&pos, "h3-c3c4d4", Why::PunctNotOnOwn);
}

#[test]
fn punct_in_the_middle_of_a_bridge_needs_an_own_dot_below() {
    // C and A on the low rails: nothing under the PÜNCT.
    illegal(&rails("We3e2e4"), "e3-e11e10e12", Why::PunctNotOnOwn);
    illegal(&rails("Wf3f4g3"), "f3-f11e10f12", Why::PunctNotOnOwn);
    // On the high rails, with a gap: a Black dot below is not enough, a White one is.
    illegal(
        &high_rails("We3e2e4", 'B'),
        "e3-e11e10e12",
        Why::PunctNotOnOwn,
    );
    illegal(
        &high_rails("Wf3f4g3", 'B'),
        "f3-f11e10f12",
        Why::PunctNotOnOwn,
    );
    legal(&high_rails("We3e2e4", 'W'), "e3-e11e10e12");
    legal(&high_rails("Wf3f4g3", 'W'), "f3-f11e10f12");
}

#[test]
fn minor_dots_may_land_on_either_colour() {
    // Far end of the S on the Black rail, PÜNCT on the White rail.
    legal(&rails("We3e2e1"), "e3-e10e11e12");
    // T with its PÜNCT on White (c3) and both minor dots on Black (c4, d4).
    let pos = standard("Wc3d3e3/Bc4d4e4/Wh3h4i4/Bo14o15o16 w 4");
    let after = legal(&pos, "h3-c3c4d4");
    assert_eq!(level_at(&after, "c3"), 1);
    // Minor dots on own dots too.
    legal(&pos, "h3-c3d3d4");
}

#[test]
fn a_blocked_piece_cannot_move_after_being_covered() {
    let pos = rails("We3e2e1");
    let after = legal(&pos, "e3-e10e11e12");
    // Black's rail now carries the bridge end: blocked.
    illegal(&after, "e12-e13f13g13", Why::Blocked(cell("e12")));
    assert!(!after
        .legal_moves()
        .iter()
        .any(|m| matches!(m, Move::Shift { from, .. } if *from == cell("e12"))));
}

#[test]
fn moves_leave_the_centre_in_both_variants() {
    for pos in [
        standard("Wi9i10i11/Ba2a3a4 w 2"),
        basic("Wi9i10i11/Ba2a3a4 w 2"),
    ] {
        legal(&pos, "i9-i3i4i5");
        legal(&pos, "i9-i9h9g9");
    }
}

// ----- Section 4.3: passing -----

#[test]
fn pass_only_when_nothing_else_is_legal() {
    let pos = rails("We3e2e1");
    illegal(&pos, "pass", Why::PassWithMovesLeft);
    assert!(!pos.legal_moves().contains(&Move::Pass));
}

// ----- Repetition count (no rule uses it; the engine and referee will) -----

#[test]
fn repetitions_count_returns_to_the_same_position() {
    let mut pos = rails("We3e2e1");
    let start = pos.to_string();
    assert_eq!(pos.repetitions(), 1);
    let cycle = ["e3-e3f3g3", "o14-o14p15q16", "e3-e3e2e1", "o14-o14o15o16"];
    for expected in [2, 3, 4] {
        for (i, m) in cycle.iter().enumerate() {
            pos.play(mv(m)).unwrap();
            if i < 3 {
                assert_eq!(pos.repetitions(), expected - 1, "{m}");
            }
        }
        assert_eq!(pos.repetitions(), expected);
    }
    assert_eq!(pos.to_string().split(' ').next(), start.split(' ').next());
    // A drop is irreversible: the count starts again.
    pos.play(mv("a2a3a4")).unwrap();
    assert_eq!(pos.repetitions(), 1);
}

// ----- The position's own queries -----

/// `movable_piece_at` (the piece a shift from a cell would take): only the mover's own piece
/// whose PÜNCT is the top dot there, and only when nothing lies on it (docs/rules.md 4.2).
#[test]
fn the_movable_piece_is_the_own_unblocked_one_with_its_punct_on_the_cell() {
    let white = standard(&HIGH_BRIDGE.replace(" b 6", " w 6"));
    // White's bridge e5-e6-e7 lies on top of everything, its PÜNCT on e5.
    let bridge = white.top_piece(cell("e5")).unwrap();
    assert_eq!(white.piece(bridge).placement.to_string(), "e5e6e7");
    assert_eq!(white.movable_piece_at(cell("e5")), Some(bridge));
    // Its minor dots, the middle e6 and the far end e7: not where its PÜNCT is.
    assert_eq!(white.movable_piece_at(cell("e6")), None);
    assert_eq!(white.movable_piece_at(cell("e7")), None);
    // White's C on d5 (level 1), its PÜNCT on top at d5, carries the bridge end on e5: blocked.
    let c = white.top_piece(cell("d5")).unwrap();
    assert_eq!(white.piece(c).placement.to_string(), "d5c5e5");
    assert_eq!(white.movable_piece_at(cell("d5")), None);
    // Black's S e6-f6-g6: its top dots f6, g6 are Black's, but White is to move.
    assert_eq!(white.movable_piece_at(cell("f6")), None);
    assert_eq!(white.movable_piece_at(cell("e4")), None, "an empty space");
    // With Black to move, White's free bridge is not Black's to move, and Black's pieces are
    // all blocked or have no PÜNCT on top (the S e6-f6-g6 has its PÜNCT under the bridge).
    let black = standard(HIGH_BRIDGE);
    for &c in punct::Cell::all() {
        assert_eq!(black.movable_piece_at(c), None, "{c}");
    }
    // Every legal shift of White starts from a cell with a movable piece, and only there.
    let from: std::collections::BTreeSet<_> = white
        .legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Shift { from, .. } => Some(from),
            _ => None,
        })
        .collect();
    for &c in punct::Cell::all() {
        assert_eq!(
            white.movable_piece_at(c).is_some(),
            from.contains(&c),
            "{c}"
        );
    }
}

/// `moves_played` lists the moves made on the position, oldest first; `unmake` takes the last.
#[test]
fn moves_played_are_the_moves_made_in_order() {
    let mut pos = standard("- w 0");
    assert_eq!(pos.moves_played().count(), 0);
    let moves = ["c5c6d6", "f5f6f7", "c5-c5b4b5"].map(mv);
    for m in moves {
        pos.play(m).unwrap();
    }
    assert_eq!(pos.moves_played().collect::<Vec<_>>(), moves.to_vec());
    pos.unmake();
    assert_eq!(pos.moves_played().collect::<Vec<_>>(), moves[..2].to_vec());
}

/// `{:?}` of a position is its canonical string (docs/rules.md 7): pieces by level, then PÜNCT.
#[test]
fn debug_of_a_position_is_its_position_string() {
    assert_eq!(format!("{:?}", standard("- w 0")), "- w 0");
    // HIGH_BRIDGE is written in that order: level 0 d5, e6, e7; level 1 d5, e7; level 2 e5.
    assert_eq!(format!("{:?}", standard(HIGH_BRIDGE)), HIGH_BRIDGE);
}

/// Positions are equal when the game state is: pieces, variant, side to move, ply, a pass just
/// made, outcome (and so the hash). Each of these alone tells positions apart.
#[test]
fn positions_differing_in_one_part_of_the_state_are_unequal() {
    let tri = "Wc5c6d6";
    // The same position reached by a move and read from its string.
    let mut start = standard("- w 0");
    start.play(mv("c5c6d6")).unwrap();
    assert!(start == standard(&format!("{tri} b 1")));
    // Pieces.
    assert!(standard(&format!("{tri} b 1")) != standard("Wc6c5d6 b 1"));
    assert!(standard("- w 0") != start);
    // Variant only.
    assert!(standard("- w 0") != basic("- w 0"));
    // Ply only.
    assert!(standard(&format!("{tri} b 1")) != standard(&format!("{tri} b 3")));
    // Side to move only.
    assert!(standard(&format!("{tri} b 3")) != standard(&format!("{tri} w 3")));
    // A pass just made, only. (Passes are made with the trusted `make`, as in
    // `rules_game_end::two_passes_in_a_row_draw`: no position forcing one is known.)
    let mut passed = standard(&format!("{tri} w 2"));
    passed.make(Move::Pass);
    let not_passed = standard(&format!("{tri} b 3"));
    assert!(passed.last_was_pass() && !not_passed.last_was_pass());
    assert!(passed != not_passed);
    // The outcome only: two passes end the game; one pass after the same position does not.
    // The hashes agree (same pieces, side, variant and a pass just made).
    passed.make(Move::Pass);
    let mut one_pass = not_passed.clone();
    one_pass.make(Move::Pass);
    assert_eq!((passed.ply(), passed.side_to_move()), (4, Colour::White));
    assert_eq!(
        (one_pass.ply(), one_pass.side_to_move()),
        (4, Colour::White)
    );
    assert!(passed.is_finished() && !one_pass.is_finished());
    assert_eq!(passed.hash(), one_pass.hash());
    assert!(passed != one_pass);
}
