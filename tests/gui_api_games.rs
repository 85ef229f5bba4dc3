//! `punct-gui`'s game over the API, as players trust it (issue 46): a paused clock shows what
//! it will charge, a change of the clock mid-game waits for the next game, a clock game has no
//! engine help unless chosen for it (and its PGN says which), a failed load quotes a short
//! excerpt, a PGN of several games offers each, a new game forgets the last one's review.
//!
//! `PUNCT_GUI_EXE=path` runs these against another build of `punct-gui` (e.g. the code before
//! a fix, to see a test fail).

use crate::gui_common;

use std::time::Duration;

use gui_common::{Gui, MOCK};
use serde_json::{json, Value};

fn gui() -> Gui {
    Gui::start(&[
        "--no-default-engine",
        "--engine",
        &format!("cmd={MOCK}"),
        "name=mock",
    ])
}

fn clocks(s: &Value) -> [u64; 2] {
    [
        s["clocks"][0].as_u64().expect("a clock"),
        s["clocks"][1].as_u64().expect("a clock"),
    ]
}

fn ok(gui: &Gui, path: &str, body: Value) -> Value {
    let r = gui.post(path, &body);
    assert_eq!(r.status, 200, "{path} {body}: {}", r.text());
    r.json()
}

fn refused(gui: &Gui, path: &str, body: Value) -> String {
    let r = gui.post(path, &body);
    assert!(r.status >= 400, "{path} {body} was accepted");
    r.json()["error"].as_str().unwrap_or_default().to_string()
}

/// A human against a human with a 60 s clock, White's first move played.
fn clock_game(gui: &Gui, help: bool) {
    ok(
        gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"base": 60000, "inc": 0}, "help": help}),
    );
    ok(gui, "/api/move", json!({"move": "c5c6d6"}));
}

/// Bug 2: Pause used to show the clock as it was when the turn began (2:40 became 2:58), and
/// `/api/state` said the same; it must show the time the turn has used, and stand still.
#[test]
fn a_paused_clock_shows_the_time_its_turn_used() {
    let gui = gui();
    clock_game(&gui, false);
    std::thread::sleep(Duration::from_millis(600));
    let s = ok(&gui, "/api/pause", json!({"paused": true}));
    let paused = clocks(&s)[1];
    assert!(paused <= 60_000 - 600, "the paused clock shows {paused} ms");
    std::thread::sleep(Duration::from_millis(400));
    let later = clocks(&gui.state())[1];
    assert_eq!(later, paused, "a paused clock moved");
    // Resumed, it goes on from there, and the move is charged what it showed and more.
    ok(&gui, "/api/pause", json!({"paused": false}));
    let s = ok(&gui, "/api/move", json!({"move": "f5f6f7"}));
    assert!(clocks(&s)[1] <= paused, "{:?} after {paused}", clocks(&s));
    // Analysis on one's own turn pauses too (with help chosen for the game): same display.
    clock_game(&gui, true);
    std::thread::sleep(Duration::from_millis(600));
    let s = ok(&gui, "/api/analysis", json!({"on": true, "engine": 0}));
    let held = clocks(&s)[1];
    assert!(held <= 60_000 - 600, "analysing shows {held} ms");
    ok(&gui, "/api/analysis", json!({"on": false}));
}

/// Bug 3: a change of the clock's base while a game goes on used to reset both running clocks
/// to it (52 s and 33 s became 5:00); it is for the next game, and said so.
#[test]
fn a_clock_change_mid_game_is_for_the_next_game() {
    let gui = gui();
    clock_game(&gui, false);
    ok(&gui, "/api/move", json!({"move": "f5f6f7"}));
    std::thread::sleep(Duration::from_millis(300));
    let before = clocks(&gui.state());
    let s = ok(
        &gui,
        "/api/setup",
        json!({"white": "human", "black": "human", "time": {"base": 300000, "inc": 0}}),
    );
    let after = clocks(&s);
    assert!(
        after[0] <= before[0] && after[1] <= before[1],
        "{before:?} -> {after:?}"
    );
    assert_eq!(s["time"], json!({"base": 60000, "inc": 0}));
    assert_eq!(s["next_time"], json!({"base": 300000, "inc": 0}));
    let m = s["message"].as_str().unwrap();
    assert!(m.contains("next game"), "{m}");
    // New game takes it.
    let s = ok(&gui, "/api/new", json!({}));
    assert_eq!(clocks(&s), [300_000, 300_000]);
    assert_eq!(s["next_time"], Value::Null);
    // Before the first move it applies at once; a time per move in a time-per-move game too.
    let s = ok(
        &gui,
        "/api/setup",
        json!({"time": {"base": 90000, "inc": 0}}),
    );
    assert_eq!(clocks(&s), [90_000, 90_000]);
    ok(&gui, "/api/new", json!({"time": {"movetime": 100}}));
    ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    let s = ok(&gui, "/api/setup", json!({"time": {"movetime": 200}}));
    assert_eq!(s["time"], json!({"movetime": 200}));
}

/// Item 2: in a clock game a takeback gave the time back (2:26 back to 2:57) and analysis on
/// one's own turn showed the engine's lines. Without help chosen for the game, engine help is
/// refused in words and the clocks run on through takebacks; with help, both are allowed; the
/// PGN says which.
#[test]
fn a_clock_game_has_engine_help_only_when_chosen() {
    let gui = gui();
    clock_game(&gui, false);
    std::thread::sleep(Duration::from_millis(300));
    for (path, body) in [
        ("/api/analysis", json!({"on": true, "engine": 0})),
        ("/api/hint", json!({"engine": 0, "movetime": 100})),
        ("/api/review", json!({"engine": 0, "movetime": 50})),
    ] {
        let e = refused(&gui, path, body);
        assert!(
            e.contains("no engine help") && e.contains("help"),
            "{path}: {e}"
        );
    }
    let s = gui.state();
    assert!(s["help_refused"].is_string(), "{}", s["help_refused"]);
    let before = clocks(&s);
    let s = ok(&gui, "/api/undo", json!({}));
    let after = clocks(&s);
    assert!(
        after[0] <= before[0] && after[1] <= before[1] && after[1] < 60_000,
        "a takeback gave time back: {before:?} -> {after:?}"
    );
    ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    let pgn = gui.get("/api/pgn").text();
    assert!(pgn.contains("[EngineHelp \"none\"]"), "{pgn}");
    // With help: analysis, and a takeback gives back what the position had.
    clock_game(&gui, true);
    std::thread::sleep(Duration::from_millis(300));
    let s = ok(&gui, "/api/undo", json!({}));
    assert_eq!(clocks(&s), [60_000, 60_000]);
    ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    ok(&gui, "/api/analysis", json!({"on": true, "engine": 0}));
    ok(&gui, "/api/analysis", json!({"on": false}));
    let pgn = gui.get("/api/pgn").text();
    assert!(pgn.contains("[EngineHelp \"allowed\"]"), "{pgn}");
    // A game with a time per move has no such tag (no clock to protect).
    ok(
        &gui,
        "/api/new",
        json!({"time": {"movetime": 100}, "help": false}),
    );
    assert!(!gui.get("/api/pgn").text().contains("EngineHelp"));
}

/// Bug 5: a failed load put the whole input into the message (a 1.4 MB move list made a
/// 490,000-px page; a binary file 3,300 characters of raw bytes). It quotes a short excerpt.
#[test]
fn a_failed_load_quotes_a_short_excerpt() {
    let gui = gui();
    let mut long = "c5c6d6 ".repeat(200_000);
    long.push_str("zz");
    let bin: String = (0..3300u32)
        .map(|i| char::from_u32(i % 32).unwrap())
        .chain("\u{FFFD}x".chars())
        .collect();
    let one_token = "q".repeat(100_000);
    for text in [long.as_str(), bin.as_str(), one_token.as_str()] {
        let e = refused(&gui, "/api/load", json!({ "text": text }));
        assert!(
            e.chars().count() < 500,
            "{} characters: {}",
            e.len(),
            &e[..300]
        );
        assert!(
            !e.chars().any(|c| c.is_control() || c == '\u{FFFD}'),
            "raw bytes in {e:?}"
        );
        assert!(e.contains("characters") || e.contains('…'), "{e}");
    }
    // The reason of the first bad move is still said.
    let e = refused(&gui, "/api/load", json!({"text": long}));
    assert!(e.contains("move 2"), "{e}");
}

/// Bug 8: a PGN with several games silently loaded the first. It says so and offers each.
#[test]
fn a_pgn_with_several_games_offers_each() {
    let gui = gui();
    let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. c5c6d6 f5f6f7 *\n\n\
               [White \"c\"]\n[Black \"d\"]\n[Result \"*\"]\n\n1. m5m6n6 *\n\n\
               [White \"e\"]\n[Black \"f\"]\n[Result \"*\"]\n\n1. c5c6d6 f5f6f7 2. m5m6n6 *\n";
    let s = ok(&gui, "/api/load", json!({ "text": pgn }));
    assert_eq!(s["moves"], json!(["c5c6d6", "f5f6f7"]));
    let m = s["message"].as_str().unwrap();
    assert!(m.contains("3 games") && m.contains("game 1 of 3"), "{m}");
    let games = s["pgn_games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2]["white"], "e");
    assert_eq!(games[2]["plies"], 3);
    let s = ok(&gui, "/api/load", json!({ "text": pgn, "index": 2 }));
    assert_eq!(s["moves"], json!(["c5c6d6", "f5f6f7", "m5m6n6"]));
    assert_eq!(s["names"], json!(["e", "f"]));
    assert_eq!(s["pgn_index"], 2);
    assert!(refused(&gui, "/api/load", json!({ "text": pgn, "index": 3 })).contains("3 games"));
    // One game: no list.
    let s = ok(
        &gui,
        "/api/load",
        json!({ "text": pgn.split("\n\n[").next().unwrap() }),
    );
    assert_eq!(s["pgn_games"], json!([]));
}

/// Item 7: the review box kept "— an earlier game" through later games; a new game or a load
/// forgets the review of another game.
#[test]
fn a_new_game_forgets_the_review_of_the_last() {
    let gui = gui();
    ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"movetime": 100}}),
    );
    ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    ok(&gui, "/api/review", json!({"engine": 0, "movetime": 20}));
    gui.wait_state(Duration::from_secs(20), "the review", |s| {
        s["review"]["running"] == false
    });
    let s = ok(&gui, "/api/new", json!({}));
    assert_eq!(s["review"], Value::Null);
    ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    ok(&gui, "/api/review", json!({"engine": 0, "movetime": 20}));
    let s = ok(&gui, "/api/load", json!({"text": "f5f6f7"}));
    assert_eq!(s["review"], Value::Null);
}
