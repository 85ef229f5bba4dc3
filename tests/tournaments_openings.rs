//! The shipped openings file and the configurations that use it: the referee reads it, and
//! every opening is 2-6 plies into an undecided standard game, with no repeats.

use std::collections::HashSet;

use punct::referee::cli::{parse_args, Command};
use punct::referee::openings::Openings;
use punct::referee::players::greedy::winning_moves;
use punct::referee::settings::{OpeningOrder, OpeningSource};
use punct::{parse_position, Move, Variant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn openings_file_holds_a_few_hundred_undecided_short_openings() {
    let path = std::path::Path::new(ROOT).join("tournaments/openings.txt");
    let src = OpeningSource::File {
        path: path.clone(),
        order: OpeningOrder::Sequential,
        start: 1,
    };
    let book = Openings::new(&src, Variant::Standard, 1).expect("the referee reads the file");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 200, "{} openings", lines.len());
    assert_eq!(book.get(0), lines[0]);
    let mut seen = HashSet::new();
    for line in &lines {
        assert!(seen.insert(*line), "repeated: {line}");
        let mut pos = parse_position(line, Variant::Standard).unwrap();
        assert!((2..=6).contains(&pos.ply()), "{line}");
        assert!(!pos.is_finished(), "{line}");
        assert!(
            winning_moves(&mut pos, 1).is_empty(),
            "side to move wins: {line}"
        );
        pos.make(Move::Pass);
        assert!(
            winning_moves(&mut pos, 1).is_empty(),
            "opponent wins: {line}"
        );
    }
}

#[test]
fn ladder_and_sprt_configs_use_the_openings_file() {
    for name in ["ladder.toml", "sprt-nodes.toml"] {
        let cfg = format!("{ROOT}/tournaments/{name}");
        let Ok(Command::Run(c)) = parse_args(&["-config".to_string(), cfg]) else {
            panic!("{name} does not parse");
        };
        match &c.openings {
            OpeningSource::File { path, .. } => {
                assert_eq!(
                    path,
                    std::path::Path::new("tournaments/openings.txt"),
                    "{name}"
                )
            }
            other => panic!("{name}: {other:?}"),
        }
        let cmds: Vec<&str> = c.engines.iter().map(|e| e.cmd.as_str()).collect();
        assert!(
            cmds.contains(&"target/baseline/v0.1.0/punct"),
            "{name}: {cmds:?}"
        );
    }
}

/// More game pairs than openings: the referee says the openings come round again (engines at
/// fixed nodes would replay the same games), and is silent when the book is large enough.
#[test]
fn referee_warns_when_openings_come_round_again() {
    use crate::referee_common::{output_of, random_pair, tmpdir};
    let dir = tmpdir("openings-reuse");
    let book = dir.join("three.txt");
    let lines: Vec<String> = std::fs::read_to_string(format!("{ROOT}/tournaments/openings.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .map(str::to_string)
        .collect();
    std::fs::write(&book, lines.join("\n")).unwrap();
    let openings = format!("file={}", book.display());
    for (games, warned) in [("8", true), ("6", false)] {
        let mut c = random_pair();
        c.env("RUST_LOG", "warn");
        c.args(["-games", games, "-openings", &openings]);
        let (code, out, err) = output_of(&mut c);
        assert_eq!(code, Some(0), "{out}\n{err}");
        assert_eq!(
            err.contains("but only 3 openings"),
            warned,
            "{games} games: {err}"
        );
    }
}
