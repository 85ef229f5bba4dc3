//! `punct-gui`'s strength levels (issue 45, part 4), checked on what the engine itself was sent
//! and printed (a transcript of its process, `gui_common::transcript`): the levels come from
//! the engine's own `uci` answer (eight named steps over its `UCI_Elo` range, or skills below
//! the top of `Skill Level`, or none); a move is searched at its seat's level, set by
//! `setoption` and `isready` before `go`, and the engine names it in its `info string level`;
//! analysis, the hint and the review play at full strength; the PGN has the level
//! (`BlackElo`, `BlackLevel`) when every move of the side was played at it.
//!
//! `PUNCT_GUI_EXE=path` runs these against another build of `punct-gui`.

use crate::gui_common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use gui_common::transcript::{logged_engine, searches, transcripts, Search};
use gui_common::{Gui, TempDir, PUNCT};
use serde_json::{json, Value};

const LONG: Duration = Duration::from_secs(30);

/// A spin option's min and max, as `punct` itself answers `uci`.
fn spin_range(name: &str) -> (i64, i64) {
    let mut p = Command::new(PUNCT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    p.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
    let out = String::from_utf8(p.wait_with_output().unwrap().stdout).unwrap();
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("option name {name} type spin")))
        .unwrap_or_else(|| panic!("no {name} in punct's uci answer"));
    let w: Vec<&str> = line.split_whitespace().collect();
    let after = |k: &str| -> i64 {
        let i = w.iter().position(|x| *x == k).unwrap();
        w[i + 1].parse().unwrap()
    };
    (after("min"), after("max"))
}

fn ok(gui: &Gui, path: &str, body: Value) -> Value {
    let r = gui.post(path, &body);
    assert_eq!(r.status, 200, "{path} {body}: {}", r.text());
    r.json()
}

fn start(engines: &[Vec<String>]) -> Gui {
    let mut args = vec!["--no-default-engine".to_string()];
    for e in engines {
        args.extend(e.iter().cloned());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    Gui::start(&refs)
}

/// White (a person) plays its first legal drop; then waits for the engine's reply.
fn human_then_engine(gui: &Gui) {
    let s = gui.state();
    let n = s["moves"].as_array().unwrap().len();
    let drops = s["legal"]["drops"].as_object().unwrap();
    let mv = drops.values().find_map(|v| v[0].as_str()).unwrap();
    ok(gui, "/api/move", json!({ "move": mv }));
    gui.wait_state(LONG, "the engine's reply", |s| {
        s["moves"].as_array().unwrap().len() == n + 2
    });
}

/// The searches of the only engine process of `dir` so far (the game's).
fn game_searches(dir: &TempDir) -> Vec<Search> {
    let t = transcripts(&dir.0);
    assert_eq!(
        t.len(),
        1,
        "one engine process: {:?}",
        t.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    searches(&t[0].1)
}

fn pgn(gui: &Gui) -> String {
    gui.get("/api/pgn").text()
}

#[test]
fn the_levels_are_the_engines_own_and_each_move_is_searched_at_its_seats() {
    let dir = TempDir::fresh("punct-gui-levels-elo");
    let gui = start(&[logged_engine(&dir.0, "logged", &[])]);
    let s = gui.wait_state(LONG, "the engine's options", |s| {
        s["engines"][0]["options_known"] == true
    });
    // Eight steps over the UCI_Elo range punct advertises, each with its Elo.
    let (lo, hi) = spin_range("UCI_Elo");
    let levels = s["engines"][0]["levels"].as_array().unwrap().clone();
    let elos: Vec<i64> = levels.iter().map(|l| l["elo"].as_i64().unwrap()).collect();
    assert_eq!(elos.len(), 8, "{levels:?}");
    assert_eq!((elos[0], elos[7]), (lo, hi));
    for (k, e) in elos.iter().enumerate() {
        let even = lo as f64 + (hi - lo) as f64 * k as f64 / 7.0;
        assert!(
            (*e as f64 - even).abs() <= 10.0,
            "step {k}: {e} (even {even})"
        );
    }
    assert!(elos.windows(2).all(|w| w[0] < w[1]), "{elos:?}");
    assert_eq!(levels[0]["label"], format!("Beginner · Elo {lo}"));
    assert_eq!(levels[7]["name"], "Master");
    assert_eq!(s["levels"], json!([null, null]));
    assert_eq!(s["level_labels"], json!([null, "full strength"]));
    // Levels in words or out of range are refused, in words.
    for bad in [
        json!([0, null]),
        json!([null, 9]),
        json!("Beginner"),
        json!([1]),
    ] {
        let r = gui.post("/api/setup", &json!({ "levels": bad }));
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert!(
            r.text().contains("null (full strength) or 1..8"),
            "{}",
            r.text()
        );
    }

    // Beginner for Black: the options, isready, then go; the engine names the level.
    let s = ok(
        &gui,
        "/api/setup",
        json!({"levels": [null, 1], "time": {"movetime": 100}}),
    );
    assert_eq!(s["levels"], json!([null, 1]));
    assert_eq!(s["level_labels"][1], format!("Beginner · Elo {lo}"));
    human_then_engine(&gui);
    human_then_engine(&gui);
    let moves = game_searches(&dir);
    assert_eq!(moves.len(), 2, "two searches");
    assert!(
        moves[0].set("UCI_LimitStrength", "true"),
        "{:?}",
        moves[0].before
    );
    assert!(moves[0].set("UCI_Elo", &lo.to_string()));
    assert!(moves[0].ready_after_options(), "{:?}", moves[0].before);
    for m in &moves {
        let want = format!("< info string level UCI_Elo {lo} ");
        assert!(
            m.level_line().is_some_and(|l| l.starts_with(&want)),
            "{:?}",
            m.printed
        );
    }
    // Nothing is sent again while it holds.
    assert!(!moves[1].before.iter().any(|l| l.starts_with("> setoption")));
    let text = pgn(&gui);
    assert!(
        text.contains(&format!(
            "[BlackElo \"{lo}\"]\n[BlackLevel \"UCI_Elo {lo}\"]"
        )),
        "{text}"
    );
    assert!(
        !text.contains("WhiteElo") && !text.contains("WhiteLevel"),
        "{text}"
    );

    // Master mid-game: from the next move on; the record then claims no level for Black.
    ok(&gui, "/api/setup", json!({"levels": [null, 8]}));
    human_then_engine(&gui);
    let last = game_searches(&dir).pop().unwrap();
    assert!(last.set("UCI_Elo", &hi.to_string()), "{:?}", last.before);
    assert!(last
        .level_line()
        .is_some_and(|l| l.contains(&format!("UCI_Elo {hi} "))));
    let text = pgn(&gui);
    assert!(
        !text.contains("BlackElo") && !text.contains("BlackLevel"),
        "{text}"
    );

    // Full strength: turned off before the search, and the engine names no level.
    ok(&gui, "/api/setup", json!({"levels": [null, null]}));
    human_then_engine(&gui);
    let last = game_searches(&dir).pop().unwrap();
    assert!(last.set("UCI_LimitStrength", "false"), "{:?}", last.before);
    assert!(last.ready_after_options());
    assert_eq!(last.level_line(), None, "{:?}", last.printed);

    // A level is kept for the next games.
    ok(&gui, "/api/setup", json!({"levels": [null, 2]}));
    let s = ok(&gui, "/api/new", json!({}));
    assert_eq!(s["levels"], json!([null, 2]));
    let elo2 = elos[1];
    human_then_engine(&gui);
    let last = game_searches(&dir).pop().unwrap();
    assert!(last
        .level_line()
        .is_some_and(|l| l.contains(&format!("UCI_Elo {elo2} "))));
    let text = pgn(&gui);
    assert!(text.contains(&format!("[BlackElo \"{elo2}\"]")), "{text}");
}

/// The hint, the review and analysis play at full strength, whatever the seat's level or a
/// level given on the command line: checked in each of their processes' transcripts.
#[test]
fn the_hint_the_review_and_analysis_play_at_full_strength() {
    let dir = TempDir::fresh("punct-gui-levels-help");
    let (lo, _) = spin_range("UCI_Elo");
    let mut engine = logged_engine(&dir.0, "logged", &[]);
    engine.push("option.UCI_LimitStrength=true".into());
    engine.push(format!("option.UCI_Elo={lo}"));
    let gui = start(&[engine]);
    gui.wait_state(LONG, "the engine's options", |s| {
        s["engines"][0]["options_known"] == true
    });
    ok(
        &gui,
        "/api/setup",
        json!({"levels": [null, 1], "time": {"movetime": 100}}),
    );
    human_then_engine(&gui);
    let game_log = transcripts(&dir.0)[0].0.clone();
    let full_strength = |what: &str, lines: &[String]| {
        assert!(
            lines
                .iter()
                .any(|l| l == "> setoption name UCI_LimitStrength value false"),
            "{what}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("> ")
                && (l.contains("UCI_LimitStrength value true") || l.contains("UCI_Elo"))),
            "{what}: {lines:?}"
        );
        let s = searches(lines);
        assert!(!s.is_empty(), "{what}: no search");
        for x in &s {
            assert_eq!(x.level_line(), None, "{what}: {:?}", x.printed);
        }
    };
    let others = |dir: &TempDir| -> Vec<Vec<String>> {
        transcripts(&dir.0)
            .into_iter()
            .filter(|(p, _)| *p != game_log)
            .map(|(_, l)| l)
            .collect()
    };

    // The hint: an engine process of its own.
    ok(&gui, "/api/hint", json!({"engine": 0, "movetime": 200}));
    gui.wait_state(LONG, "the hint", |s| s["hint"]["move"].is_string());
    let hint = others(&dir);
    assert_eq!(hint.len(), 1);
    full_strength("hint", &hint[0]);

    // The review: another process.
    ok(&gui, "/api/review", json!({"engine": 0, "movetime": 50}));
    gui.wait_state(LONG, "the review", |s| {
        s["review"]["running"] == false && s["review"]["done"] == s["review"]["total"]
    });
    let review: Vec<Vec<String>> = others(&dir).into_iter().filter(|l| *l != hint[0]).collect();
    assert_eq!(review.len(), 1);
    full_strength("review", &review[0]);

    // Analysis: the game's engine, at full strength for it, then at its level again.
    ok(&gui, "/api/analysis", json!({"on": true, "engine": 0}));
    gui.wait_state(LONG, "the analysis", |s| {
        s["thinking"]["purpose"] == "analysis"
    });
    std::thread::sleep(Duration::from_millis(300));
    ok(&gui, "/api/analysis", json!({"on": false}));
    human_then_engine(&gui);
    let game = searches(
        &std::fs::read_to_string(&game_log)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>(),
    );
    let at = game
        .iter()
        .position(|s| s.go == "> go infinite")
        .expect("the analysis' search");
    assert!(
        game[at].set("UCI_LimitStrength", "false"),
        "{:?}",
        game[at].before
    );
    assert!(game[at].ready_after_options());
    assert_eq!(game[at].level_line(), None, "{:?}", game[at].printed);
    let next = &game[at + 1];
    assert!(next.set("UCI_LimitStrength", "true"), "{:?}", next.before);
    assert!(next
        .level_line()
        .is_some_and(|l| l.contains(&format!("UCI_Elo {lo} "))));
}

/// An engine with only `Skill Level` gets skill levels; one with neither option none, and the
/// state says why.
#[test]
fn skill_levels_for_an_engine_without_elo_and_none_without_either() {
    let (dir_a, dir_b) = (
        TempDir::fresh("punct-gui-levels-skill"),
        TempDir::fresh("punct-gui-levels-none"),
    );
    let gui = start(&[
        logged_engine(&dir_a.0, "skilled", &["UCI_Elo", "UCI_LimitStrength"]),
        logged_engine(
            &dir_b.0,
            "plain",
            &["UCI_Elo", "UCI_LimitStrength", "Skill Level"],
        ),
    ]);
    // Seated engines start at once: their levels are known before they play.
    ok(
        &gui,
        "/api/setup",
        json!({"white": 0, "black": 1, "levels": [3, 3], "time": {"movetime": 50}}),
    );
    let s = gui.wait_state(LONG, "both engines' options", |s| {
        s["engines"][0]["options_known"] == true && s["engines"][1]["options_known"] == true
    });
    let (lo, hi) = spin_range("Skill Level");
    let skills: Vec<i64> = (s["engines"][0]["levels"].as_array().unwrap().iter())
        .map(|l| {
            assert!(l["elo"].is_null(), "{l}");
            l["skill"].as_i64().unwrap()
        })
        .collect();
    assert_eq!(skills.len(), 8);
    assert_eq!(
        (skills[0], skills[7]),
        (lo, hi - 1),
        "the top skill is full strength"
    );
    assert!(skills.windows(2).all(|w| w[0] < w[1]), "{skills:?}");
    let third = skills[2];
    assert_eq!(s["engines"][1]["levels"], json!([]));
    assert!(
        s["engines"][1]["levels_why"]
            .as_str()
            .unwrap()
            .contains("no strength levels"),
        "{}",
        s["engines"][1]
    );
    assert_eq!(
        s["level_labels"],
        json!([format!("Casual · skill {third}"), "full strength"])
    );
    gui.wait_state(LONG, "four moves", |s| {
        s["moves"].as_array().unwrap().len() >= 4
    });
    ok(&gui, "/api/pause", json!({"paused": true}));
    let skilled = searches(&transcripts(&dir_a.0)[0].1);
    assert!(
        skilled[0].set("Skill Level", &third.to_string()),
        "{:?}",
        skilled[0].before
    );
    // (The search that pause stopped may not have printed yet.)
    for x in skilled
        .iter()
        .filter(|x| x.printed.iter().any(|l| l.starts_with("< bestmove")))
    {
        assert!(
            x.level_line().is_some_and(
                |l| l.starts_with(&format!("< info string level Skill Level {third} "))
            ),
            "{:?}",
            x.printed
        );
    }
    let plain = &transcripts(&dir_b.0)[0].1;
    assert!(
        !plain
            .iter()
            .any(|l| l.starts_with("> setoption name Skill Level")
                || l.starts_with("> ") && l.contains("UCI_")),
        "{plain:?}"
    );
    for x in searches(plain) {
        assert_eq!(x.level_line(), None);
    }
    let text = pgn(&gui);
    assert!(
        text.contains(&format!("[WhiteLevel \"Skill Level {third}\"]")),
        "{text}"
    );
    assert!(
        !text.contains("WhiteElo") && !text.contains("BlackLevel"),
        "{text}"
    );
}
