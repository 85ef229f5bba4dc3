//! Bad input: the parsers of cells, moves and positions never panic on random, mutated,
//! truncated, huge or non-ASCII text, and their errors name the offending text. An illegal move
//! given to `play` leaves the position unchanged.

use crate::common;

use common::exhaustive;
use punct::{
    parse_cell, parse_move, parse_position, Colour, Move, ParseError, PositionError, Variant,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const CHARS: &[char] = &[
    'a', 'b', 'c', 'e', 'i', 'p', 'q', 'r', 's', 'z', 'A', 'I', 'Q', 'W', 'B', 'w', '0', '1', '2',
    '5', '7', '9', '-', '/', ' ', '\t', '\n', 'ü', 'é', '€', '😀', '\u{0}', '\u{200b}', 'ı', 'İ',
];

const VALID_MOVES: &[&str] = &[
    "c5c6d6",
    "c5-f5f6g6",
    "c5-c5b4b5",
    "a10-b10c10",
    "q16-q15q14q13",
    "i9i10i11",
    "pass",
    "e3-e10e11e12",
];

const VALID_POSITIONS: &[&str] = &[
    "- w 0",
    "startpos",
    "Wc5c6d6/Bf5f6f7 w 2",
    "We5e4e3/Be7e8e9/We5e6e7 b 3",
    "Bb5a4c6/Bb6b7c7/Wc4b4a3/Wc9b9d9/Wd1d2d3/Wf4f5g4/Wf9f10g10/Wg7g6h7/Wh12g12i13/Bi12h11j13/Bi15h14g13/Bl5k5j4/Bm6n6n7/Bn8m7n9/Wn14o14o15/Wp14p15p16/Bb6b5a4/Wf10e9d9/Bh11g10f9/Bi12i13j13/Bk5l6m7/Bn7n8n9/Wn14o14p14/Bb5a4b6/Bj13i12i13/Bb6b5a4/Bi13i12j13 w 132",
];

fn cases() -> usize {
    if exhaustive() {
        200_000
    } else {
        20_000
    }
}

fn random_string(rng: &mut Xoshiro256PlusPlus, max_len: usize) -> String {
    let len = rng.gen_range(0..=max_len);
    (0..len)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())])
        .collect()
}

/// A random edit of `s`: delete, insert, replace or swap characters, truncate, or repeat.
fn mutate(rng: &mut Xoshiro256PlusPlus, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        let n = chars.len();
        match rng.gen_range(0..6) {
            0 if n > 0 => {
                chars.remove(rng.gen_range(0..n));
            }
            1 => chars.insert(rng.gen_range(0..=n), CHARS[rng.gen_range(0..CHARS.len())]),
            2 if n > 0 => chars[rng.gen_range(0..n)] = CHARS[rng.gen_range(0..CHARS.len())],
            3 if n > 1 => {
                let i = rng.gen_range(0..n - 1);
                chars.swap(i, i + 1);
            }
            4 => chars.truncate(rng.gen_range(0..=n)),
            _ => {
                let copy = chars.clone();
                chars.extend(copy);
            }
        }
    }
    chars.into_iter().collect()
}

/// The error's message names the text it came from (its first characters, for long text).
fn assert_names_text(err: &ParseError, text: &str) {
    let shown = err.to_string();
    let token: String = text.chars().take(30).collect();
    assert!(
        shown.contains(token.trim()),
        "error {shown:?} does not name {text:?}"
    );
}

fn check_cell(text: &str) {
    match parse_cell(text) {
        Ok(c) => assert_eq!(c.to_string(), text.to_ascii_lowercase()),
        Err(e) => assert_names_text(&e, text),
    }
}

fn check_move_text(text: &str) {
    match parse_move(text) {
        Ok(m) => assert_eq!(parse_move(&m.to_string()), Ok(m), "{text}"),
        Err(e) => assert_names_text(&e, text),
    }
}

fn check_position_text(text: &str) {
    for variant in [Variant::Standard, Variant::Basic] {
        match parse_position(text, variant) {
            Ok(pos) => {
                let again = parse_position(&pos.to_string(), variant).unwrap();
                assert!(again == pos, "{text}");
            }
            Err(e) => {
                let shown = e.to_string();
                let fields: Vec<&str> = text.split_whitespace().collect();
                // The message names the offending piece or field.
                let named = match &e {
                    PositionError::Piece { index, text: t, .. } => {
                        fields[0]
                            .split('/')
                            .nth(index - 1)
                            .unwrap()
                            .starts_with(t.as_str())
                            && shown.contains(t.as_str())
                            && shown.contains(&format!("piece {index} "))
                    }
                    PositionError::Side(s) => {
                        fields[1].starts_with(s.as_str()) && shown.contains(s.as_str())
                    }
                    PositionError::Ply(s) => {
                        fields[2].starts_with(s.as_str()) && shown.contains(s.as_str())
                    }
                    PositionError::PlyTooSmall { ply, .. } => shown.contains(&ply.to_string()),
                    PositionError::FieldCount(t, n) => {
                        *n == fields.len()
                            && shown.contains(&n.to_string())
                            && shown.contains(t.trim_end_matches('…'))
                    }
                };
                assert!(named, "error {shown:?} for {text:?}");
            }
        }
    }
}

#[test]
fn fuzz_parse_cell() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xbad_0001);
    let names: Vec<String> = punct::Cell::all().iter().map(|c| c.to_string()).collect();
    for _ in 0..cases() {
        let text = if rng.gen_bool(0.5) {
            random_string(&mut rng, 6)
        } else {
            {
                let i = rng.gen_range(0..names.len());
                mutate(&mut rng, &names[i])
            }
        };
        check_cell(&text);
    }
    for text in [
        "",
        " ",
        "a",
        "a0",
        "a02",
        "a1",
        "r5",
        "i999999999999999999999",
        "ü9",
        "i9 ",
    ] {
        assert!(parse_cell(text).is_err(), "{text:?}");
        check_cell(text);
    }
    check_cell(&"i9".repeat(50_000));
}

#[test]
fn fuzz_parse_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xbad_0002);
    for _ in 0..cases() {
        let text = match rng.gen_range(0..3) {
            0 => random_string(&mut rng, 20),
            1 => {
                let i = rng.gen_range(0..VALID_MOVES.len());
                mutate(&mut rng, VALID_MOVES[i])
            }
            _ => {
                let valid = VALID_MOVES[rng.gen_range(0..VALID_MOVES.len())];
                valid.chars().take(rng.gen_range(0..valid.len())).collect()
            }
        };
        check_move_text(&text);
    }
    for text in [
        "",
        "-",
        "--",
        "c5-",
        "-c5c6d6",
        "c5c6",
        "c5c6d6e6",
        "c5-c5",
        "c5-c6-d6e6",
        "c5c6d8",
        "i9-a2a3a4a5",
        "pas",
        "passs",
        "c5c6d6 ",
        "c5 c6 d6",
        "ü5c6d6",
        "c5c6d😀",
    ] {
        check_move_text(text);
    }
    check_move_text(&"c5-".repeat(100_000));
    check_move_text(&"😀".repeat(100_000));
}

#[test]
fn fuzz_parse_position() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xbad_0003);
    for _ in 0..cases() / 4 {
        let text = match rng.gen_range(0..3) {
            0 => random_string(&mut rng, 40),
            _ => {
                let i = rng.gen_range(0..VALID_POSITIONS.len());
                mutate(&mut rng, VALID_POSITIONS[i])
            }
        };
        check_position_text(&text);
    }
    // Every truncation of a long valid position.
    let long = VALID_POSITIONS[4];
    for (i, _) in long.char_indices() {
        check_position_text(&long[..i]);
    }
    // Huge and odd inputs.
    check_position_text(&format!("{} w 1000", vec!["Wa2a3a4"; 20_000].join("/")));
    check_position_text(&format!("{} w 0", "W".repeat(1_000_000)));
    check_position_text("- w 99999999999999999999");
    check_position_text("- w 01");
    check_position_text("- x 0");
    check_position_text("Wa2a3a4 w 0");
    check_position_text("- w 0 extra");
    check_position_text("Wa2a3a4//Bc2c3c4 w 2");
    check_position_text("Wa2a3a4/Wa2a3a4/Wa2a3a4/Wa2a3a4/Wa2a3a4 w 5");
}

#[test]
fn error_messages_of_the_issue() {
    let err = parse_move("c5-f5f6g8").unwrap_err();
    assert_eq!(
        err.to_string(),
        "c5-f5f6g8: the three spaces are not a piece shape"
    );
    // Piece 3 lies on a2 (height 1), b4 (0) and c5 (0): its far end is not at the landing level.
    let err = parse_position("Wa2a3a4/Bc2c3c4/Wa3b4c5 w 3", Variant::Standard).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.starts_with("piece 3 of the position") && shown.ends_with("is not stable"),
        "{shown}"
    );
    assert!(shown.contains("Wa3b4c5"), "{shown}");
    let pos = parse_position(
        "Wa2a3a4/Bb1c1d1/Wc2c3c4/Bj2k3l4/Wm5m6m7/Bn6n7n8/Wo7o8o9/Bp8p9p10 w 8",
        Variant::Standard,
    )
    .unwrap();
    assert_eq!(pos.in_hand(Colour::White, punct::Kind::S), 0);
    let err = pos.check_move(parse_move("e4e5e6").unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "move e4e5e6: White has no straight piece left"
    );
}

#[test]
fn illegal_moves_leave_the_position_unchanged() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0xbad_0004);
    let placements = common::simple_rules::all_placements();
    let mut rejected = 0;
    for text in &VALID_POSITIONS[2..] {
        let mut pos = parse_position(text, Variant::Standard).unwrap();
        let start = pos.to_string();
        let own: Vec<_> = pos
            .pieces()
            .filter(|(_, p)| p.colour == pos.side_to_move())
            .map(|(_, p)| p.placement.punct().to_string())
            .collect();
        for _ in 0..cases() / 20 {
            let (_, p, m) = placements[rng.gen_range(0..placements.len())];
            let cells: String = [p, m[0], m[1]]
                .iter()
                .map(|&c| common::simple_rules::cell_name(c))
                .collect();
            let text = if !own.is_empty() && rng.gen_bool(0.5) {
                format!("{}-{cells}", own[rng.gen_range(0..own.len())])
            } else {
                cells
            };
            let m = parse_move(&text).unwrap();
            let (before, hash) = (pos.to_string(), pos.hash());
            let snapshot = pos.clone();
            match pos.play(m) {
                Ok(()) => pos.unmake(),
                Err(e) => {
                    rejected += 1;
                    assert!(e.to_string().starts_with(&format!("move {m}: ")), "{e}");
                }
            }
            assert_eq!(pos.to_string(), before);
            assert_eq!(pos.hash(), hash);
            assert!(pos == snapshot);
        }
        // A pass with moves left is rejected too.
        assert!(pos.play(Move::Pass).is_err());
        assert_eq!(pos.to_string(), start);
    }
    assert!(rejected > cases() / 20, "{rejected}");
}

/// A row number is digits only: Rust's integer parser would also take a sign (`+5` is 5).
#[test]
fn a_signed_row_number_is_not_a_cell() {
    for text in ["a+5", "b+1", "I+9", "c+10"] {
        assert!(parse_cell(text).is_err(), "{text}");
    }
    assert_eq!(parse_cell("a5").map(|c| (c.x(), c.y())), Ok((0, 4)));
}

/// Move text up to `MAX_MOVE_LEN` (16) characters is read and gets its own error; longer text is
/// too long. The cell count of a malformed move is the number of cells written on both sides.
#[test]
fn move_text_errors_name_the_length_and_the_cell_count() {
    use punct::rules::notation::SyntaxError;
    let error = |text: &str| parse_move(text).map_err(|e| e.error);
    // 16 characters: 1 cell, '-', 4 cells.
    assert_eq!("i10-i11i12i13i14".len(), 16);
    assert_eq!(error("i10-i11i12i13i14"), Err(SyntaxError::CellCount(5)));
    // 17 characters.
    assert_eq!(error("i10-i11i12i13i14j"), Err(SyntaxError::TooLong));
    assert_eq!(error(&"a1".repeat(40)), Err(SyntaxError::TooLong));
    // 2 + 3, 1 + 2, 2 + 2 cells.
    assert_eq!(error("c5c6-d6e6f6"), Err(SyntaxError::CellCount(5)));
    assert_eq!(error("c5-d6e6"), Err(SyntaxError::CellCount(3)));
    assert_eq!(error("c5c6-d6e6"), Err(SyntaxError::CellCount(4)));
}

/// A piece that cannot rest where a position string puts it: with its ends level but the PÜNCT
/// on an opponent's dot it is `PunctNotOwn`; with its ends below the landing level, `NotStable`.
#[test]
fn unstable_pieces_and_foreign_puncts_in_position_strings_are_told_apart() {
    use punct::rules::notation::PieceProblem;
    let problem = |text: &str| match parse_position(text, Variant::Standard) {
        Err(PositionError::Piece { index, problem, .. }) => Some((index, problem)),
        other => panic!("{text}: {other:?}"),
    };
    // Black's triangle exactly on White's: all three dots at level 1, the PÜNCT on white.
    assert_eq!(
        problem("Wc5c6d6/Bc5c6d6 w 2"),
        Some((2, PieceProblem::PunctNotOwn))
    );
    // White's centre-straight with its PÜNCT (the middle) on its own triangle at c5 and both
    // ends, b5 and d5, on empty spaces: the ends lie below the landing level 1.
    assert_eq!(
        problem("Wc5c6d6/Wc5b5d5 b 2"),
        Some((2, PieceProblem::NotStable))
    );
    // The same with the triangle's PÜNCT on d6, one end (c6) at level 1 and the other (e6) not.
    assert_eq!(
        problem("Wc5c6d6/Wd6c6e6 b 2"),
        Some((2, PieceProblem::NotStable))
    );
    // And a bridge that rests: the centre-straight d6 over c6 and e6 on two triangles.
    assert!(parse_position("Wc5c6d6/We6e5f6/Wd6c6e6 b 3", Variant::Standard).is_ok());
}
