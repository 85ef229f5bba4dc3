//! docs/rules.md section 5 (end of the game) and the finished-when-read rule of section 7, on
//! hand-built positions with the expected winner and reason stated.

use crate::common;

use common::clauses::{basic, legal, mv, standard};
use common::{board_of, ending_of};
use punct::{Colour, EndReason, IllegalReason, Move, Outcome, Position};

fn win(colour: Colour) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(colour),
        reason: EndReason::Connection,
    })
}

/// The game is over: no legal moves at all, every move rejected, and the simple model agrees.
fn assert_finished(pos: &Position, expected: Option<Outcome>) {
    assert_eq!(pos.outcome(), expected, "{pos}");
    assert!(pos.legal_moves().is_empty(), "{pos}");
    assert_eq!(pos.count_legal_moves(), 0);
    assert_eq!(
        pos.check_move(Move::Pass).unwrap_err().reason,
        IllegalReason::GameOver
    );
    assert_eq!(
        pos.check_move(mv("b2b3b4")).unwrap_err().reason,
        IllegalReason::GameOver
    );
    // Read back from its string, the position is finished the same way (a double pass is not
    // recorded in a position string).
    let reread = punct::parse_position(&pos.to_string(), pos.variant()).unwrap();
    if expected.map(|o| o.reason) != Some(EndReason::DoublePass) {
        assert_eq!(reread.outcome(), expected, "{pos} read back");
        assert_eq!(ending_of(expected), board_of(pos).ending, "simple reader");
    }
}

/// White's chain from a5 along row 5 to i5, then north-east to o11; one drop on p12 q12 q13
/// reaches the east side.
const WEST_EAST: &str = "Wa5b5c5/Wd5e5f5/Be10e11e12/Wg5h5i5/Bg11g12g13/Bi13i14i15/Wj6k7l8/Bk14k13k15/Bm13m14m15/Wn10m9o11 w 10";

#[test]
fn white_connects_west_to_east_by_a_drop() {
    let pos = standard(WEST_EAST);
    assert_eq!(pos.outcome(), None);
    assert!(!pos.has_connection(Colour::White));
    let after = legal(&pos, "p12q12q13");
    assert!(after.has_connection(Colour::White));
    assert_finished(&after, win(Colour::White));
    // A drop elsewhere does not end the game.
    let other = legal(&pos, "p15p14p16");
    assert_eq!(other.outcome(), None);
}

#[test]
fn black_connects_south_west_to_north_east_by_a_drop() {
    // Black's chain h1 i2 j3 .. p9 then north up column p to p15; White has six triangles in
    // the west.
    let pos = standard("Bh1i2j3/Bk4l5m6/Bn7o8p9/Bp10p11p12/Bp14p13p15/Wa2a3b3/Wc2c3d3/We2e3f3/Wa5a6b6/Wc6c7d7/We6e7f7 b 11");
    assert_eq!(pos.outcome(), None);
    let after = legal(&pos, "p16o16p17");
    assert_finished(&after, win(Colour::Black));
}

#[test]
fn white_connects_south_east_to_north_west_by_a_move() {
    // White's chain from l4 up column l, then west along row 14 to h14; the T on g3 moves up
    // column g to close the gap on g14 f14 (f14 is on the north-west side).
    let pos = standard("Wl4l5l6/Wl7l8l9/Wl10l11l12/Wl13l14k14/Wj14i14h14/Wg3g4h4/Ba2a3b3/Bc2c3d3/Ba5a6b6/Bc6c7d7/Be6e7f7/Be2e3f3 w 12");
    assert_eq!(pos.outcome(), None);
    let after = legal(&pos, "g3-g14f14g15");
    assert_finished(&after, win(Colour::White));
    // The same piece one space short does not connect.
    let short = legal(&pos, "g3-g13f13g14");
    assert_eq!(short.outcome(), None);
}

/// Black's complete chain a5 .. i5, j6 .. q13 is cut on e5 by a White S bridge (e3 e4 e5, on a
/// White S on e3); White's chain a8 .. d8, h8 .. q16 lacks e8 f8 g8.
const REVEAL: &str = "Wa8b8c8/Wd8c7d7/Wi8h8j9/Wk10l11m12/Wn13n14o14/Wp15q15q16/We3d2c1/Ba5b5c5/Bd5e5f5/Bg5h5i5/Bj6k7l8/Bn10m9o11/Bp12q12q13/We3e4e5 w 14";

#[test]
fn a_revealed_connection_wins_for_the_opponent() {
    let pos = standard(REVEAL);
    assert_eq!(pos.outcome(), None);
    assert!(!pos.has_connection(Colour::Black));
    // Lifting the bridge uncovers e5: Black's chain is complete, White's is not.
    let after = legal(&pos, "e3-e10e11e12");
    assert!(after.has_connection(Colour::Black) && !after.has_connection(Colour::White));
    assert_finished(&after, win(Colour::Black));
}

#[test]
fn the_mover_wins_when_both_connect() {
    let pos = standard(REVEAL);
    // The bridge lands on e8 f8 g8: White's chain is complete and Black's is revealed.
    let after = legal(&pos, "e3-e8f8g8");
    assert!(after.has_connection(Colour::Black) && after.has_connection(Colour::White));
    assert_finished(&after, win(Colour::White));
}

#[test]
fn position_strings_with_connections_are_finished_when_read() {
    // Both chains complete: the player not to move made the last move and wins.
    let both = "Wa8b8c8/Wd8c7d7/We8f8g8/Wi8h8j9/Wk10l11m12/Wn13n14o14/Wp15q15q16/We3d2c1/Ba5b5c5/Bd5e5f5/Bg5h5i5/Bj6k7l8/Bn10m9o11/Bp12q12q13";
    assert_finished(&standard(&format!("{both} w 14")), win(Colour::Black));
    assert_finished(&standard(&format!("{both} b 14")), win(Colour::White));
    // Only Black's chain: Black wins whoever is to move.
    let black =
        "Wa8b8c8/Wd8c7d7/Wi8h8j9/We3d2c1/Ba5b5c5/Bd5e5f5/Bg5h5i5/Bj6k7l8/Bn10m9o11/Bp12q12q13";
    assert_finished(&standard(&format!("{black} w 10")), win(Colour::Black));
    assert_finished(&standard(&format!("{black} b 10")), win(Colour::Black));
    assert_finished(&basic(&format!("{black} b 10")), win(Colour::Black));
}

/// 17 White and 17 Black pieces, none in the centre, no connection; White's last piece in hand
/// is an R. `{W}` and `{B}` are a White and a Black triangle placed by each test.
const LAST_DROP: &str = "{W}/{B}/Wa6a7b7/Ba8b8b9/Wb1c1c2/Bc3c4d4/Wb10c10c11/Bc7d7d8/Wc5c6d6/Bd1d2e2/Wd9e9e10/Bd10d11e11/We1f2g3/Be6f6g6/We3e4e5/Be13f14g15/We12f13g14/Bf1g2h3/Wg1h2i3/Bf8f9f10/Wg11g10g12/Bh5g4i6/Wi13i12i14/Bh12h11h13/Wi16h16j17/Bi2h1j2/Wj5j6k5/Bj12j13k12/Wk8l9m9/Bi15j16k16/Wk13k14l15/Bk4l5m5/Wl7m7n8/Bl8m8n9 w 34";

fn last_drop(white_t: &str, black_t: &str, basic_game: bool) -> Position {
    let text = LAST_DROP.replace("{W}", white_t).replace("{B}", black_t);
    let pos = if basic_game {
        basic(&text)
    } else {
        standard(&text)
    };
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.hand_total(Colour::White), 1);
    assert_eq!(pos.hand_total(Colour::Black), 1);
    // White drops its 18th piece (an R on e8 e7 f7), far from the centre.
    legal(&pos, "e8e7f7")
}

fn centre_count(winner: Option<Colour>, white: u8, black: u8) -> Option<Outcome> {
    Some(Outcome {
        winner,
        reason: EndReason::CentreCount { white, black },
    })
}

#[test]
fn eighteenth_drop_standard_centre_count() {
    // Triangles outside the centre: 0-0, a draw.
    let after = last_drop("Wa2a3b3", "Ba4a5b5", false);
    assert_finished(&after, centre_count(None, 0, 0));
    // White's triangle on i9 i10 j10 in the centre: 3-0 for White.
    let after = last_drop("Wi9i10j10", "Ba4a5b5", false);
    assert_finished(&after, centre_count(Some(Colour::White), 3, 0));
    // Black's triangle there instead: Black wins although White dropped last.
    let after = last_drop("Wa2a3b3", "Bi9i10j10", false);
    assert_finished(&after, centre_count(Some(Colour::Black), 0, 3));
    // Both in the centre, 3-3: a draw.
    let after = last_drop("Wi9i10j10", "Bh8g7h7", false);
    assert_finished(&after, centre_count(None, 3, 3));
}

#[test]
fn eighteenth_drop_basic_is_a_draw() {
    let draw = Some(Outcome {
        winner: None,
        reason: EndReason::LastDrop,
    });
    for (w, b) in [("Wa2a3b3", "Ba4a5b5"), ("Wi9i10j10", "Ba4a5b5")] {
        assert_finished(&last_drop(w, b, true), draw);
    }
}

#[test]
fn a_move_before_the_last_drop_does_not_end_the_game() {
    let text = LAST_DROP
        .replace("{W}", "Wa2a3b3")
        .replace("{B}", "Ba4a5b5");
    let pos = standard(&text);
    // A shift keeps the last piece in hand: play goes on.
    let after = legal(&pos, "a2-a2b2b3");
    assert_eq!(after.outcome(), None);
    assert_eq!(after.hand_total(Colour::White), 1);
}

#[test]
fn two_passes_in_a_row_draw() {
    // No reachable position forcing a pass is known (docs/rules.md 4.3), so the passes are made
    // with the trusted `make`, to check the bookkeeping of the rule.
    let mut pos = standard(WEST_EAST);
    let hash = pos.hash();
    pos.make(Move::Pass);
    assert_eq!(pos.outcome(), None);
    assert!(pos.last_was_pass());
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.make(Move::Pass);
    assert_finished(
        &pos,
        Some(Outcome {
            winner: None,
            reason: EndReason::DoublePass,
        }),
    );
    pos.unmake();
    pos.unmake();
    assert_eq!(pos.hash(), hash);
    assert_eq!(pos.outcome(), None);
    // A pass followed by another move resets the count. (Both sides have used their four S
    // pieces, so Black's move is a triangle; `play` checks it.)
    pos.make(Move::Pass);
    pos.play(mv("b2b3c3")).unwrap();
    assert!(!pos.last_was_pass());
    assert_eq!(pos.outcome(), None);
}

/// An outcome reads as the reason text of `docs/referee.md`'s table of endings (the referee's
/// game records and the engine's `info string game over` line show it).
#[test]
fn outcomes_read_as_the_documented_reason_texts() {
    let text = |winner, reason| Outcome { winner, reason }.to_string();
    assert_eq!(
        text(Some(Colour::White), EndReason::Connection),
        "White wins by connection"
    );
    assert_eq!(
        text(Some(Colour::Black), EndReason::Connection),
        "Black wins by connection"
    );
    let count = |white, black| EndReason::CentreCount { white, black };
    assert_eq!(
        text(Some(Colour::Black), count(3, 5)),
        "Black wins on the centre count 3-5"
    );
    assert_eq!(text(None, count(4, 4)), "draw on the centre count 4-4");
    assert_eq!(
        text(None, EndReason::LastDrop),
        "draw: last piece dropped (basic game)"
    );
    assert_eq!(text(None, EndReason::DoublePass), "draw by two passes");
}
