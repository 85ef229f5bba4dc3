//! `-suite`: test positions for CI (docs/referee.md, "Test suites"). The runner against the real
//! engine and the mock (solved, unsolved, faults, exit codes, `-suite-min`, JUnit XML read back),
//! bad suite lines refused before any engine starts, and every shipped suite's answers checked
//! here by trying every legal move (and every reply) with the rules library.

use crate::referee_common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use punct::referee::suite::{read_suite, SuitePosition};
use punct::rules::moves::Move;
use punct::rules::piece::Colour;
use punct::rules::position::{EndReason, Position, Variant};
use referee_common::*;

const ENGINE: &str = env!("CARGO_BIN_EXE_punct");

fn suites_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tournaments/suites")
}

// ---- an independent, exhaustive check of the answers -------------------------------------

/// How the side to move wins by `m`, if it does (the move is played and the rules judge).
fn win_by(pos: &mut Position, m: Move) -> Option<EndReason> {
    let me = pos.side_to_move();
    pos.make(m);
    let r = match pos.outcome() {
        Some(o) if o.winner == Some(me) => Some(o.reason),
        _ => None,
    };
    pos.unmake();
    r
}

/// Whether the side to move has a winning move. Moves that won before are tried first (an
/// ordering only: without a win among them, every legal move is tried).
fn can_win(pos: &mut Position, tried_first: &mut Vec<Move>) -> bool {
    let legal = pos.legal_moves();
    let legal_set: BTreeSet<Move> = legal.iter().copied().collect();
    for &k in tried_first.iter() {
        if legal_set.contains(&k) && win_by(pos, k).is_some() {
            return true;
        }
    }
    for m in legal {
        if win_by(pos, m).is_some() {
            tried_first.push(m);
            return true;
        }
    }
    false
}

/// The exact answer of a position: its winning moves when it has any, else the moves after
/// which the opponent has no winning reply; and every legal move.
struct Answer {
    wins: BTreeMap<Move, EndReason>,
    good: BTreeSet<Move>,
    all: BTreeSet<Move>,
}

fn answer(pos: &Position) -> Answer {
    let mut pos = pos.clone();
    let all: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
    let mut wins = BTreeMap::new();
    for &m in &all {
        if let Some(r) = win_by(&mut pos, m) {
            wins.insert(m, r);
        }
    }
    if !wins.is_empty() {
        let good = wins.keys().copied().collect();
        return Answer { wins, good, all };
    }
    let mut good = BTreeSet::new();
    let mut tried_first = Vec::new();
    for &m in &all {
        pos.make(m);
        let lost = !pos.is_finished() && can_win(&mut pos, &mut tried_first);
        pos.unmake();
        if !lost {
            good.insert(m);
        }
    }
    Answer { wins, good, all }
}

/// Whether, after `m`, the opponent connects with some reply (every reply tried).
fn connection_reply_after(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.make(m);
    p.legal_moves()
        .into_iter()
        .any(|r| win_by(&mut p, r) == Some(EndReason::Connection))
}

/// Whether `m` is a shift landing as a bridge: after it, the space under the middle dot of the
/// moved piece holds no dot right below it (its next dot down, if any, lies lower).
fn lands_as_bridge(pos: &Position, m: Move) -> bool {
    let Move::Shift { to, .. } = m else {
        return false;
    };
    let Some(mid) = to.middle() else {
        return false;
    };
    let mut p = pos.clone();
    p.make(m);
    let mid_cell = to.cells()[mid];
    let stack = p.stack(mid_cell);
    let Some((&top, below)) = stack.split_last() else {
        return false;
    };
    let level = p.piece(top as usize).level;
    let next_down = below.last().map(|&i| p.piece(i as usize).level);
    level > 0 && next_down.is_none_or(|l| l + 1 < level)
}

/// The suite's answer as the set of moves that solve the position.
fn solving_set(p: &SuitePosition, all: &BTreeSet<Move>) -> BTreeSet<Move> {
    all.iter().copied().filter(|&m| p.solved_by(m)).collect()
}

fn check_suite_file(name: &str) -> Vec<(SuitePosition, Answer)> {
    let path = suites_dir().join(name);
    let positions = read_suite(&path, Variant::Standard).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        positions.len() >= 24,
        "{name}: {} positions, a few dozen wanted",
        positions.len()
    );
    let ids: BTreeSet<&str> = positions.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), positions.len(), "{name}: ids must be unique");
    positions
        .into_iter()
        .map(|p| {
            let a = answer(&p.pos);
            assert_eq!(
                solving_set(&p, &a.all),
                a.good,
                "{name} {} ({}): the answer is not the exhaustive one",
                p.id,
                p.answer_text()
            );
            assert!(!a.good.is_empty() && a.good.len() < a.all.len(), "{}", p.id);
            (p, a)
        })
        .collect()
}

#[test]
fn wins_in_one_are_every_winning_move_with_shifts_and_bridges_among_them() {
    let checked = check_suite_file("wins-in-one.epd");
    let (mut shifts, mut bridges) = (0, 0);
    for (p, a) in &checked {
        assert!(!a.wins.is_empty(), "{}: no win in one", p.id);
        shifts += a.wins.keys().any(|m| matches!(m, Move::Shift { .. })) as usize;
        bridges += a.wins.keys().any(|&m| lands_as_bridge(&p.pos, m)) as usize;
    }
    assert!(shifts >= 10, "positions won by a shift: {shifts}");
    assert!(bridges >= 5, "positions won by a bridge: {bridges}");
}

#[test]
fn blocks_stop_a_threatened_connection_and_are_every_such_move() {
    for (p, a) in check_suite_file("blocks.epd") {
        assert!(a.wins.is_empty(), "{}: the side to move wins at once", p.id);
        let losing = a.all.difference(&a.good).next().expect("a losing move");
        assert!(
            connection_reply_after(&p.pos, *losing),
            "{}: {losing} does not lose to a connection",
            p.id
        );
    }
}

#[test]
fn centre_race_positions_are_in_the_race_and_answered_exactly() {
    let checked = check_suite_file("centre-race.epd");
    let mut centre_wins = 0;
    for (p, a) in &checked {
        let hands = [Colour::White, Colour::Black].map(|c| p.pos.hand_total(c));
        assert_eq!(p.pos.variant(), Variant::Standard, "{}", p.id);
        assert!(hands.iter().any(|&h| h <= 2), "{}: hands {hands:?}", p.id);
        centre_wins += a
            .wins
            .values()
            .any(|r| matches!(r, EndReason::CentreCount { .. })) as usize;
    }
    assert!(centre_wins >= 3, "centre-count wins: {centre_wins}");
}

// ---- the runner -----------------------------------------------------------------------------

/// The first `n` lines of a shipped suite that are positions.
fn shipped_lines(name: &str, n: usize) -> Vec<String> {
    std::fs::read_to_string(suites_dir().join(name))
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .take(n)
        .map(str::to_string)
        .collect()
}

/// A suite of two wins in one: the first as shipped (solved), the second with its winning
/// moves turned into `am` (the engine wins, so it is not solved).
fn tiny_suite(dir: &Path) -> PathBuf {
    let lines = shipped_lines("wins-in-one.epd", 2);
    let flipped = lines[1]
        .replace(" bm ", " am ")
        .replace("id \"wins-02\"", "id \"wins-02 <as am> & 'quoted'\"");
    let path = dir.join("tiny.epd");
    std::fs::write(&path, format!("# tiny\n{}\n{flipped}\n", lines[0])).unwrap();
    path
}

/// A minimal XML reader for the JUnit file: elements with attributes, entities decoded.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: BTreeMap<String, String>,
    children: Vec<Element>,
    text: String,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn parse_xml(x: &str) -> Element {
    let mut stack = vec![Element::default()];
    let mut rest = x;
    while let Some(open) = rest.find('<') {
        stack.last_mut().unwrap().text += &unescape(&rest[..open]);
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let done = stack.pop().unwrap();
            assert_eq!(done.name, name.trim(), "mismatched end tag");
            stack.last_mut().unwrap().children.push(done);
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, mut attrs_text) = tag.split_once(' ').unwrap_or((tag, ""));
        let mut e = Element {
            name: name.to_string(),
            ..Element::default()
        };
        while let Some(eq) = attrs_text.find("=\"") {
            let key = attrs_text[..eq].trim().to_string();
            let after = &attrs_text[eq + 2..];
            let end = after.find('"').expect("unclosed attribute");
            assert!(!after[..end].contains('<'), "unescaped < in an attribute");
            e.attrs.insert(key, unescape(&after[..end]));
            attrs_text = &after[end + 1..];
        }
        if self_closing {
            stack.last_mut().unwrap().children.push(e);
        } else {
            stack.push(e);
        }
    }
    assert_eq!(stack.len(), 1, "unclosed elements");
    stack.pop().unwrap().children.pop().expect("a root element")
}

#[test]
fn the_engine_solves_a_win_and_not_a_flipped_one_exit_codes_min_and_junit() {
    let dir = tmpdir("suite-engine");
    let suite = tiny_suite(&dir);
    // In a folder not made yet, as the README's `-junit out/report.xml`.
    let junit = dir.join("out").join("report.xml");
    let mut cmd = referee();
    cmd.arg("-suite")
        .arg(&suite)
        .args([
            "-engine",
            &format!("cmd={ENGINE}"),
            "depth=2",
            "-concurrency",
            "2",
        ])
        .arg("-junit")
        .arg(&junit);
    let (code, out, err) = output_of(&mut cmd);
    assert_eq!(code, Some(1), "one position unsolved: exit 1\n{out}\n{err}");
    let first = out.lines().find(|l| l.starts_with("[1/2]")).expect(&out);
    assert!(
        first.starts_with("[1/2] solved   wins-01: played "),
        "{first}"
    );
    assert!(
        first.contains(", score ") && first.contains(", depth "),
        "{first}"
    );
    let second = out.lines().find(|l| l.starts_with("[2/2]")).expect(&out);
    assert!(
        second.starts_with("[2/2] UNSOLVED wins-02 <as am>"),
        "{second}"
    );
    assert!(second.contains("(expected am "), "{second}");
    assert!(out.contains("\nSolved 1 of 2\n"), "{out}");

    // The report read back: one testcase per position, a failure with the move played.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let root = parse_xml(&xml);
    assert_eq!(root.name, "testsuites");
    assert_eq!(
        (
            root.attrs["tests"].as_str(),
            root.attrs["failures"].as_str()
        ),
        ("2", "1")
    );
    let ts = &root.children[0];
    assert_eq!(ts.name, "testsuite");
    assert_eq!(ts.attrs["name"], suite.display().to_string());
    let cases: Vec<&Element> = ts.children.iter().collect();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].attrs["name"], "wins-01");
    assert!(cases[0].children.is_empty(), "solved: no failure");
    assert_eq!(cases[1].attrs["name"], "wins-02 <as am> & 'quoted'");
    let failure = &cases[1].children[0];
    assert_eq!(failure.name, "failure");
    assert_eq!(failure.attrs["type"], "unsolved");
    let played = second
        .split("played ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap();
    assert_eq!(failure.attrs["message"], format!("played {played}"));
    assert!(
        failure.text.contains(&format!("played {played}")),
        "{}",
        failure.text
    );

    // Enough solved with -suite-min 1: exit 0; more than there are: a bad argument.
    let (code, out, _) = output_of(referee().arg("-suite").arg(&suite).args([
        "-engine",
        &format!("cmd={ENGINE}"),
        "depth=2",
        "-suite-min",
        "1",
    ]));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Solved 1 of 2") && out.contains("Passed (at least 1 needed)"));
    let (code, _, err) = output_of(referee().arg("-suite").arg(&suite).args([
        "-engine",
        &format!("cmd={ENGINE}"),
        "depth=2",
        "-suite-min",
        "3",
    ]));
    assert_eq!(code, Some(2), "{err}");

    // Only the solvable line: every position solved, exit 0.
    let one = dir.join("one.epd");
    std::fs::write(&one, &shipped_lines("wins-in-one.epd", 1)[0]).unwrap();
    let (code, out, _) = output_of(referee().arg("-suite").arg(&one).args([
        "-engine",
        &format!("cmd={ENGINE}"),
        "nodes=20000",
    ]));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Solved 1 of 1"), "{out}");
}

/// The mock engine told to leave a mark when it starts: its `-engine` words and the mark.
fn marking_engine(dir: &Path) -> ([String; 2], PathBuf) {
    let mark = dir.join("started");
    (
        [
            format!("cmd={MOCK}"),
            format!("args=--mark {}", mark.display()),
        ],
        mark,
    )
}

#[test]
fn a_bad_line_is_an_error_naming_file_and_line_before_any_engine_starts() {
    let dir = tmpdir("suite-bad");
    let (engine, mark) = marking_engine(&dir);
    let good = shipped_lines("wins-in-one.epd", 1)[0].clone();
    let pieces = good
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    for (name, bad, want) in [
        // A triangle dropped into the central hexagon: never legal in the standard game.
        (
            "illegal",
            format!("{pieces} bm i9i10j10; id \"x\";"),
            "illegal move 'i9i10j10'",
        ),
        (
            "malformed",
            "Wc5c6/Bzz w 2 bm c5c6d6;".to_string(),
            "bad position 'Wc5c6/Bzz w 2'",
        ),
    ] {
        let path = dir.join(format!("{name}.epd"));
        std::fs::write(&path, format!("# header\n{good}\n\n{bad}\n")).unwrap();
        let (code, out, err) = output_of(
            referee()
                .arg("-suite")
                .arg(&path)
                .arg("-engine")
                .args(&engine)
                .arg("depth=1"),
        );
        assert_eq!(code, Some(2), "{name}: {out}{err}");
        let at = format!("{}:4: ", path.display());
        assert!(err.contains(&at) && err.contains(want), "{name}: {err}");
        assert!(!mark.exists(), "{name}: an engine was started");
        assert!(!out.contains("Solved"), "{out}");
    }
    // The same wrapper on a good suite does start (the mark works).
    let path = dir.join("good.epd");
    std::fs::write(&path, format!("{good}\n")).unwrap();
    let (code, out, _) = output_of(
        referee()
            .arg("-suite")
            .arg(&path)
            .arg("-engine")
            .args(&engine)
            .arg("depth=1"),
    );
    assert!(mark.exists(), "{out}");
    assert!(code == Some(0) || code == Some(1), "{out}");
}

#[test]
fn engine_faults_are_failures_with_their_reason_never_a_hang() {
    let dir = tmpdir("suite-faults");
    let lines = shipped_lines("blocks.epd", 3);
    let suite = dir.join("faults.epd");
    std::fs::write(&suite, lines.join("\n")).unwrap();
    for (mode, extra, want) in [
        ("crash", "depth=1", "engine fault: disconnects"),
        (
            "garbage",
            "depth=1",
            "engine fault: illegal move: @@garbage@@",
        ),
        ("hang", "st=0.3", "engine fault: no bestmove in time"),
    ] {
        let t = tag(&format!("suite-{mode}"));
        let junit = dir.join(format!("{mode}.xml"));
        let mut cmd = referee();
        cmd.arg("-suite")
            .arg(&suite)
            .args([
                "-engine",
                &format!("cmd={MOCK}"),
                &format!("args=--mode {mode} --after 0 --tag {t}"),
                extra,
                "-concurrency",
                "2",
            ])
            .arg("-junit")
            .arg(&junit);
        let m = run_measured(&mut cmd, Duration::from_secs(30));
        assert_eq!(m.code, Some(1), "{mode}: {}{}", m.stdout, m.stderr);
        assert!(m.wall < Duration::from_secs(15), "{mode}: {:?}", m.wall);
        let failed: Vec<&str> = m
            .stdout
            .lines()
            .filter(|l| l.contains("UNSOLVED"))
            .collect();
        assert_eq!(failed.len(), 3, "{mode}: {}", m.stdout);
        for l in failed {
            assert!(l.contains(want), "{mode}: {l}");
        }
        assert!(m.stdout.contains("Solved 0 of 3"), "{}", m.stdout);
        let root = parse_xml(&std::fs::read_to_string(&junit).unwrap());
        let cases = &root.children[0].children;
        assert_eq!(cases.len(), 3);
        for c in cases {
            let f = &c.children[0];
            assert_eq!(f.attrs["type"], "engine-fault", "{mode}");
            assert!(
                f.attrs["message"].starts_with(want),
                "{mode}: {:?}",
                f.attrs
            );
        }
        let left = leftovers(&t, Duration::from_secs(2));
        assert!(left.is_empty(), "{mode}: left behind: {left:?}");
    }
}

#[test]
fn version_flags_print_the_package_version() {
    for flag in ["--version", "-version"] {
        let (code, out, _) = output_of(referee().arg(flag));
        assert_eq!(code, Some(0));
        assert_eq!(out, format!("punct-referee {}\n", punct::VERSION));
    }
}
