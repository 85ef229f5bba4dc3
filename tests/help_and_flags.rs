//! Every binary and subcommand answers `--help` with its usage (status 0, on stdout); unknown
//! flags are named as such with the nearest known one; the referee's `-debug` shows the
//! engine I/O on stderr.

use std::process::{Command, Output};

fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

const PUNCT: &str = env!("CARGO_BIN_EXE_punct");
const REFEREE: &str = env!("CARGO_BIN_EXE_punct-referee");
const GUI: &str = env!("CARGO_BIN_EXE_punct-gui");
const TUNE: &str = env!("CARGO_BIN_EXE_punct-tune");
const MOCK: &str = env!("CARGO_BIN_EXE_punct-mock-engine");

#[test]
fn every_binary_and_subcommand_answers_help_with_its_usage() {
    let cases: &[(&str, &[&str], &str)] = &[
        (PUNCT, &["--help"], "usage: punct "),
        (PUNCT, &["help"], "usage: punct "),
        (PUNCT, &["bench", "--help"], "usage: punct "),
        (PUNCT, &["perft", "-h"], "usage: punct "),
        (PUNCT, &["moves", "--help"], "usage: punct "),
        (PUNCT, &["eval", "--help"], "usage: punct "),
        (PUNCT, &["svg", "--flip", "--help"], "usage: punct "),
        (PUNCT, &["levels", "--help"], "usage: punct "),
        (
            PUNCT,
            &["--variant", "basic", "perft", "2", "--help"],
            "usage: punct ",
        ),
        (REFEREE, &["--help"], "punct-referee review -engine"),
        (REFEREE, &["-help"], "usage: punct-referee"),
        (
            REFEREE,
            &["review", "--help"],
            "usage: punct-referee review",
        ),
        (GUI, &["--help"], "usage: punct-gui"),
        (TUNE, &["--help"], "punct-tune COMMAND --help"),
        (TUNE, &["gen", "--help"], "punct-tune gen -out FILE"),
        (
            TUNE,
            &["gen", "-out", "x.bin", "-h"],
            "punct-tune gen -out FILE",
        ),
        (TUNE, &["convert", "--help"], "punct-tune convert -in FILE"),
        (TUNE, &["order-label", "--help"], "punct-tune order-label"),
        (TUNE, &["order-fit", "--help"], "punct-tune order-fit -data"),
        (TUNE, &["texel", "-help"], "punct-tune texel -data"),
        (TUNE, &["spsa", "--help"], "punct-tune spsa -param"),
        (TUNE, &["train-net", "--help"], "punct-tune train-net -data"),
        (MOCK, &["--help"], "usage: punct-mock-engine"),
    ];
    for (program, args, usage) in cases {
        let out = run(program, args);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(
            out.status.success() && stdout.contains(usage) && stderr.is_empty(),
            "{program} {args:?}: {:?}\nstdout: {stdout}\nstderr: {stderr}",
            out.status
        );
    }
}

#[test]
fn the_mock_engine_answers_version_as_the_other_binaries_do() {
    let punct = text(&run(PUNCT, &["--version"]).stdout);
    for flag in ["--version", "-V"] {
        let out = run(MOCK, &[flag]);
        assert!(out.status.success());
        assert_eq!(
            text(&out.stdout),
            punct.replacen("punct", "punct-mock-engine", 1),
            "{flag}"
        );
    }
}

#[test]
fn unknown_flags_are_named_with_the_nearest_known_one() {
    let cases: &[(&str, &[&str], &str)] = &[
        (
            REFEREE,
            &[
                "-engine",
                "cmd=builtin:random",
                "-engine",
                "cmd=builtin:random",
                "-debugg",
            ],
            "unknown flag '-debugg': did you mean '-debug'?",
        ),
        (
            REFEREE,
            &["-each", "depth=1", "-pgnout", "x.pgn", "min"],
            "unexpected 'min' after '-pgnout x.pgn'",
        ),
        (
            REFEREE,
            &["review", "-pgm", "x.pgn"],
            "unknown flag '-pgm': did you mean '-pgn'?",
        ),
        (
            TUNE,
            &["order-fit", "-dat", "x.txt"],
            "unknown flag '-dat': did you mean '-data'?",
        ),
        (
            TUNE,
            &["texel", "-data", "x.bin", "-epoch", "3"],
            "unknown flag '-epoch': did you mean '-epochs'?",
        ),
        (
            PUNCT,
            &["--versoin"],
            "unknown flag '--versoin' (the flags: --version,",
        ),
        (
            PUNCT,
            &["bnech"],
            "unknown command 'bnech' (the commands: perft,",
        ),
        (
            MOCK,
            &["--mdoe", "crash"],
            "unknown flag '--mdoe' (see --help)",
        ),
    ];
    for (program, args, message) in cases {
        let out = run(program, args);
        let stderr = text(&out.stderr);
        assert!(
            out.stdout.is_empty(),
            "{program} {args:?}: stdout is the protocol's"
        );
        assert!(
            out.status.code() == Some(2) && stderr.contains(message),
            "{program} {args:?}: {:?}: {stderr}",
            out.status
        );
    }
}

#[test]
fn referee_debug_copies_the_engine_io_to_stderr() {
    let engine = format!("cmd={PUNCT}");
    let args = [
        "-engine",
        &engine,
        "name=eng",
        "depth=1",
        "-engine",
        "cmd=builtin:random",
        "-games",
        "2",
        "-debug",
    ];
    let out = run(REFEREE, &args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // `MS >eng(PID): LINE` sent to the engine, `MS <eng(PID): LINE` read from it.
    let lines: Vec<(&str, &str)> = (stderr.lines())
        .filter_map(|l| {
            let (ms, rest) = l.split_once(' ')?;
            ms.parse::<u64>().ok()?;
            rest.split_once(": ")
        })
        .collect();
    let sent = |what: &str| {
        lines
            .iter()
            .any(|(who, line)| who.starts_with(">eng(") && line.starts_with(what))
    };
    let read = |what: &str| {
        lines
            .iter()
            .any(|(who, line)| who.starts_with("<eng(") && line.starts_with(what))
    };
    assert!(sent("uci") && sent("position ") && sent("go "), "{stderr}");
    assert!(read("uciok") && read("bestmove "), "{stderr}");
    assert!(
        !stdout.contains(">eng("),
        "the I/O is on stderr only: {stdout}"
    );
    // Without -debug, none of it.
    let quiet = run(REFEREE, &args[..args.len() - 1]);
    assert!(!text(&quiet.stderr).contains(">eng("));
}
