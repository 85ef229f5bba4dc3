//! Repetitions in the search: a move back into a position already seen in the game scores as a
//! draw (docs/rules.md leaves repetition to the engines; the referee adjudicates the third
//! occurrence, so the engine must see it coming from the second).
//!
//! Catches: the search scoring a repetition only from the third occurrence
//! (`src/engine/search/tree.rs`, `negamax`: `pos.repetitions() >= 2`).

use punct::engine::search::Searcher;
use punct::engine::types::{Limits, Score, SearchControl};
use punct::{parse_position, Move, Position, Variant};

/// A quiet middle game position (no one-move win for either side), White to move.
const QUIET: &str = "Wc3c4c5/Wd9d10e10/Bf5f6g6/Bg12g13h13/Wi3i4j4/Bk9k10l10 w 6";

/// The shift that puts the piece moved by `mv` back where it was (played from `p`).
fn back(p: &Position, mv: Move) -> Move {
    let Move::Shift { from, to } = mv else {
        panic!("{mv} is not a shift")
    };
    let id = p.top_piece(from).expect("a shift moves a piece");
    Move::Shift {
        from: to.punct(),
        to: p.piece(id).placement,
    }
}

/// The first shift of the side to move that can be undone by the reverse shift a move later.
fn reversible_shift(p: &mut Position) -> Move {
    for mv in p.legal_moves() {
        if !matches!(mv, Move::Shift { .. }) {
            continue;
        }
        let undo = back(p, mv);
        p.make(mv);
        p.make(Move::Pass);
        let ok = p.legal_moves().contains(&undo);
        p.unmake();
        p.unmake();
        if ok {
            return mv;
        }
    }
    panic!("{p:?}: no reversible shift")
}

/// Depth 1 with the root restricted to `mv`: the score of that one move.
fn score_of(p: &Position, mv: Move) -> Score {
    let limits = Limits {
        depth: Some(1),
        searchmoves: vec![mv],
        ..Limits::default()
    };
    let r = Searcher::new(1).search(p, &limits, &SearchControl::default(), &mut |_| {});
    assert_eq!(r.best, Some(mv));
    r.score
}

#[test]
fn a_move_back_into_a_position_seen_before_scores_as_a_draw() {
    let mut p = parse_position(QUIET, Variant::Standard).unwrap();
    // White shifts a piece, Black shifts one, both shift back: the start position again.
    let w = reversible_shift(&mut p);
    let w_back = back(&p, w);
    p.make(w);
    let b = reversible_shift(&mut p);
    let b_back = back(&p, b);
    p.make(b);
    p.make(w_back);
    p.make(b_back);
    let start = parse_position(QUIET, Variant::Standard).unwrap();
    assert_eq!(p.to_string(), format!("{} 10", &QUIET[..QUIET.len() - 2]));
    assert_eq!(p.hash(), start.hash());
    assert_eq!(p.repetitions(), 2);

    // Without the history `w` leads to a position new to the game, scored by the evaluation.
    let fresh = score_of(&start, w);
    assert!(
        matches!(fresh, Score::Cp(cp) if cp != 0),
        "{w} from the start position: {fresh:?} (the test needs a non-zero evaluation)"
    );
    // With it, `w` repeats the position after the first move: a draw (its second occurrence).
    let mut again = p.clone();
    again.make(w);
    assert_eq!(again.repetitions(), 2);
    assert_eq!(score_of(&p, w), Score::Cp(0), "{w} repeats a position");
    // Any other move is still scored by the evaluation.
    let other = p
        .legal_moves()
        .into_iter()
        .find(|&m| m != w && matches!(m, Move::Shift { .. }))
        .unwrap();
    assert_eq!(score_of(&p, other), score_of(&start, other));
}
