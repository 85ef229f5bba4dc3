//! `punct-gui`'s game over the API (issue 35): no engine reply is lost (replies at the reader's
//! poll boundary, New game while engines play), browsing leaves the game alone (the engine
//! searches and the clocks run), undo after a loss on time, the names of the players, resign,
//! abort and the draw rule, the full game-over state, and the tournament records' list.
//!
//! `PUNCT_GUI_EXE=path` runs these against another build of `punct-gui` (e.g. the code before
//! a fix, to see a test fail).

use crate::gui_common;

use std::time::{Duration, Instant};

use gui_common::{Gui, TempDir, MOCK};
use punct::{Position, Variant};
use serde_json::{json, Value};

/// A GUI whose engines are mocks with the given extra arguments each.
fn gui_with_mocks(mocks: &[&[&str]]) -> Gui {
    let mut args: Vec<String> = vec!["--no-default-engine".into()];
    for (i, extra) in mocks.iter().enumerate() {
        args.push("--engine".into());
        args.push(format!("cmd={MOCK}"));
        args.push(format!("name=mock{i}"));
        for a in *extra {
            args.push(format!("arg={a}"));
        }
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    Gui::start(&refs)
}

fn moves(s: &Value) -> usize {
    s["moves"].as_array().map_or(0, Vec::len)
}

fn clocks(s: &Value) -> [u64; 2] {
    [
        s["clocks"][0].as_u64().expect("a clock"),
        s["clocks"][1].as_u64().expect("a clock"),
    ]
}

/// Engine against engine, both answering 8 ms after each `go`: the length of the GUI's poll
/// of an engine's output, so that replies land on the poll's deadline again and again (a reply
/// read there used to be dropped, and the engine was restarted 8 s later). Between games, New
/// game is clicked while an engine thinks (its answer to `stop` used to be lost the same way).
/// Every move must come quickly, with no restart.
#[test]
fn engine_replies_at_the_poll_boundary_are_never_lost() {
    let slow8: &[&str] = &["--mode", "slow", "--delay-us", "7500", "--sweep-us", "1000"];
    let gui = gui_with_mocks(&[slow8, slow8]);
    let new_game = || {
        let r = gui.post(
            "/api/new",
            &json!({"white": 0, "black": 1, "time": {"movetime": 200}}),
        );
        assert_eq!(r.status, 200, "{}", r.text());
    };
    new_game();
    let mut played = 0;
    let mut games = 0;
    let started = Instant::now();
    let mut last = (0, Instant::now());
    while played < 400 {
        let s = gui.state();
        let n = moves(&s);
        for e in 0..2 {
            assert_eq!(s["engines"][e]["restarts"], 0, "{}", s["engines"]);
            assert_ne!(s["engines"][e]["state"], "failed", "{}", s["engines"]);
        }
        let msg = s["message"].as_str().unwrap_or("");
        assert!(!msg.contains("restarted"), "after {played} moves: {msg}");
        if n != last.0 {
            played += n.saturating_sub(last.0);
            last = (n, Instant::now());
        }
        // A lost reply stalls the game for 5 s and more (then `stop`, then a restart).
        assert!(
            last.1.elapsed() < Duration::from_millis(4500),
            "no move for {:?} at ply {n} of game {games}: {}",
            last.1.elapsed(),
            s["engines"]
        );
        if !s["game_over"].is_null() || s["outcome"].is_object() || n >= 40 {
            // Clicked while an engine thinks (unless the game is over).
            new_game();
            games += 1;
            last = (0, Instant::now());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(started.elapsed() < Duration::from_secs(240));
    assert!(games >= 5, "{games} games");
}

/// Browsing is not changing the game: on the engine's turn it goes on searching and its clock
/// runs, its move is played while the board still shows the earlier position; on a human's
/// turn the time charged is the wall time of the whole turn, browsing included.
#[test]
fn browsing_leaves_the_engine_and_the_clocks_alone() {
    let gui = gui_with_mocks(&[&["--mode", "slow", "--delay-ms", "1500"]]);
    let r = gui.post(
        "/api/new",
        &json!({"white": "human", "black": 0, "time": {"base": 60000, "inc": 0}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    gui.wait_state(Duration::from_secs(20), "the engine to start", |s| {
        s["engines"][0]["state"] == "ready"
    });
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    let asked = Instant::now();
    // Straight back to the start position while the engine thinks.
    let s = gui.post("/api/goto", &json!({"ply": 0})).json();
    assert_eq!(s["cursor"], 0);
    let s = gui.wait_state(Duration::from_secs(20), "the engine's move", |s| {
        moves(s) == 2
    });
    let took = asked.elapsed();
    // The board still shows the start; the engine's clock ran for its thinking time.
    assert_eq!(s["cursor"], 0, "{}", s["moves"]);
    assert_eq!(s["engines"][0]["restarts"], 0);
    let black_used = 60_000 - clocks(&s)[1];
    assert!(
        black_used >= 1400 && black_used as u128 <= took.as_millis() + 2000,
        "Black used {black_used} ms in {took:?}"
    );
    assert_eq!(s["clock_running"], "white");
    assert_eq!(s["game_side"], "white");
}

/// A human's turn with browsing is charged its wall time (coming back used to restart the
/// turn, giving back the time used before browsing).
#[test]
fn browsing_on_a_human_turn_is_charged_its_wall_time() {
    let gui = gui_with_mocks(&[&[]]);
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": "human", "time": {"base": 60000, "inc": 0}}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.post("/api/move", &json!({"move": "f5f6f7"}));
    // White's turn: browse for a while, come back, then move.
    let turn = Instant::now();
    gui.post("/api/goto", &json!({"ply": 1}));
    std::thread::sleep(Duration::from_millis(2000));
    gui.post("/api/goto", &json!({"ply": 2}));
    std::thread::sleep(Duration::from_millis(300));
    let r = gui.post("/api/move", &json!({"move": "m5m6n6"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let wall = turn.elapsed().as_millis() as u64;
    let s = r.json();
    let white_used = 60_000 - clocks(&s)[0];
    assert!(
        white_used + 1000 >= wall && white_used <= wall + 2000,
        "White charged {white_used} ms for a turn of at least {wall} ms"
    );
    let noted = s["notes"][2]["ms"].as_f64().unwrap() as u64;
    assert!(noted.abs_diff(white_used) <= 2, "{noted} {white_used}");
    // Black's clock runs while the board shows an earlier position.
    let s = gui.post("/api/goto", &json!({"ply": 0})).json();
    assert_eq!(s["clock_running"], "black");
    std::thread::sleep(Duration::from_millis(300));
    assert!(clocks(&gui.state())[1] <= 60_000 - 300);
}

/// Undo after a loss on time in a game with help: the clocks get back what they had at the
/// position returned to, and the game goes on (it used to come back with 0:00 and lose again
/// at once). Without help the loss stands (issue 46: takebacks give no time back).
#[test]
fn undo_after_a_loss_on_time_gives_the_clock_back() {
    let gui = gui_with_mocks(&[&[]]);
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": "human", "time": {"base": 300, "inc": 0}}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.wait_state(Duration::from_secs(20), "Black's flag", |s| {
        s["game_over"]["reason"] == "time"
    });
    let r = gui.post("/api/undo", &json!({}));
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(r.text().contains("no time back"), "{}", r.text());
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": "human", "time": {"base": 1500, "inc": 0}, "help": true}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.post("/api/move", &json!({"move": "f5f6f7"}));
    let flag = |s: &Value| s["outcome"]["reason"] == "time";
    let s = gui.wait_state(Duration::from_secs(20), "White's flag", flag);
    assert_eq!(clocks(&s)[0], 0);
    assert!(gui.post("/api/move", &json!({"move": "m5m6n6"})).status >= 400);
    // Undo takes back Black's move: Black to move with the clocks of that position.
    let s = gui.post("/api/undo", &json!({})).json();
    assert!(s["outcome"].is_null(), "{}", s["outcome"]);
    let c = clocks(&s);
    assert_eq!(c[0], 1500, "{c:?}");
    assert!(c[1] > 1000, "{c:?}");
    let r = gui.post("/api/move", &json!({"move": "f5f6f7"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert!(s["outcome"].is_null());
    assert!(clocks(&s)[0] > 1000, "{}", s["clocks"]);
    assert_eq!(s["game_side"], "white");
    // White's clock falls again: the full end of the game, without a centre count.
    let s = gui.wait_state(Duration::from_secs(20), "White's flag", flag);
    let over = &s["game_over"];
    assert_eq!(over["reason"], "time", "{over}");
    assert_eq!(over["loser"], "white");
    assert_eq!(over["winner"], "black");
    assert_eq!(over["result"], "0-1");
    assert!(over["centre"].is_null());
    assert!(
        over["summary"].as_str().unwrap().contains("clock"),
        "{over}"
    );
    assert_eq!(s["clock_running"], Value::Null);
}

/// The hands name who sits there (a position loaded after a record: the seats, not the
/// record's players); a saved game names everyone who played a side.
#[test]
fn the_players_are_named_right() {
    let gui = gui_with_mocks(&[&[]]);
    let record = "[Event \"t\"]\n[Round \"1\"]\n[White \"punct\"]\n[Black \"mock\"]\n\
                  [Result \"*\"]\n[FEN \"- w 0\"]\n\n1. c5c6d6 {0.1s} f5f6f7 {0.1s} *\n\n";
    let s = gui.post("/api/load", &json!({ "text": record })).json();
    assert_eq!(s["names"], json!(["punct", "mock"]));
    assert_eq!(s["seats"], json!(["human", "human"]));
    let s = gui
        .post("/api/load", &json!({"text": "Wc5c6d6/Bf5f6f7 w 2"}))
        .json();
    assert_eq!(s["names"], json!(["Human", "Human"]), "{}", s["names"]);
    // Human against the engine, then the engine takes White over.
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": 0, "time": {"movetime": 50}}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.wait_state(Duration::from_secs(20), "the engine's move", |s| {
        moves(s) == 2
    });
    gui.post("/api/setup", &json!({"white": 0}));
    let s = gui.wait_state(Duration::from_secs(20), "the engine's moves", |s| {
        moves(s) >= 4
    });
    assert_eq!(s["names"], json!(["mock0", "mock0"]));
    assert_eq!(s["players"], json!(["Human / mock0", "mock0"]));
    let pgn = gui.get("/api/pgn").text();
    assert!(pgn.contains("[White \"Human / mock0\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"mock0\"]"), "{pgn}");
}

/// Resign, abort (before the second move, no result), no draw offer (the rulebook has no
/// draw by agreement), and undo refused after a resignation.
#[test]
fn resign_abort_and_no_draw_by_agreement() {
    let gui = gui_with_mocks(&[&[]]);
    let humans = json!({"white": "human", "black": "human", "time": {"movetime": 100}});
    gui.post("/api/new", &humans);
    let s = gui.state();
    assert_eq!(
        s["actions"],
        json!({"resign": true, "abort": true, "draw": false})
    );
    assert_eq!(s["draw"]["allowed"], false);
    let r = gui.post("/api/draw", &json!({}));
    assert_eq!(r.status, 409);
    assert!(r.text().contains("no draw by agreement"), "{}", r.text());
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    let r = gui.post("/api/abort", &json!({}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["game_over"]["reason"], "aborted");
    assert_eq!(s["game_over"]["result"], "*");
    assert_eq!(s["outcome"]["reason"], "aborted");
    assert_eq!(s["can_move"], false);
    assert!(gui
        .get("/api/pgn")
        .text()
        .contains("[Termination \"abandoned\"]"));
    assert_eq!(gui.post("/api/resign", &json!({})).status, 409);

    gui.post("/api/new", &humans);
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.post("/api/move", &json!({"move": "f5f6f7"}));
    assert_eq!(gui.state()["actions"]["abort"], false);
    let r = gui.post("/api/abort", &json!({}));
    assert_eq!(r.status, 409);
    assert!(r.text().contains("resign"), "{}", r.text());
    assert_eq!(
        gui.post("/api/resign", &json!({"side": "purple"})).status,
        409
    );
    // Both sides human: the side to move resigns.
    let s = gui.post("/api/resign", &json!({})).json();
    assert_eq!(s["game_over"]["reason"], "resignation");
    assert_eq!(s["game_over"]["loser"], "white");
    assert_eq!(s["game_over"]["result"], "0-1");
    assert!(s["game_over"]["centre"].is_null());
    assert_eq!(s["actions"]["resign"], false);
    let r = gui.post("/api/undo", &json!({}));
    assert_eq!(r.status, 409);
    let pgn = gui.get("/api/pgn").text();
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("White resigns"),
        "{pgn}"
    );

    // Against the engine, the human resigns whoever is to move.
    gui.post(
        "/api/new",
        &json!({"white": 0, "black": "human", "time": {"movetime": 50}}),
    );
    gui.wait_state(Duration::from_secs(20), "the engine's move", |s| {
        moves(s) == 1
    });
    let s = gui.post("/api/resign", &json!({})).json();
    assert_eq!(s["game_over"]["loser"], "black", "{}", s["game_over"]);
    assert!(s["thinking"].is_null());
}

/// A game played to its end by the rules: the state says how, in full, whatever the board
/// shows (connection: the path, and whether the loser's own lift uncovered it; centre count:
/// the counts).
#[test]
fn the_end_by_the_rules_is_described_in_full() {
    let gui = gui_with_mocks(&[&[]]);
    let mut seen = Vec::new();
    for seed in 0..6u64 {
        gui.post(
            "/api/new",
            &json!({"white": "human", "black": "human", "time": {"movetime": 100}}),
        );
        let mut pos = Position::new(Variant::Standard);
        let mut h = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let s = loop {
            let legal = pos.legal_moves();
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            let mv = legal[(h % legal.len() as u64) as usize];
            let r = gui.post("/api/move", &json!({"move": mv.to_string()}));
            assert_eq!(r.status, 200, "{}", r.text());
            pos.play(mv).unwrap();
            if pos.is_finished() {
                break r.json();
            }
        };
        let over = &s["game_over"];
        assert_eq!(&s["outcome"], over);
        let o = pos.outcome().unwrap();
        assert_eq!(over["text"], o.to_string());
        assert_eq!(over["ply"], moves(&s));
        let summary = over["summary"].as_str().unwrap();
        match over["reason"].as_str().unwrap() {
            "connection" => {
                let path = over["path"].as_array().unwrap();
                assert!(path.len() >= 2, "{over}");
                for c in path {
                    assert!(summary.contains(c.as_str().unwrap()), "{summary}");
                }
                let mover = if moves(&s) % 2 == 1 { "white" } else { "black" };
                let uncovered = over["winner"] != mover;
                assert_eq!(over["self_uncovered"], uncovered, "{over}");
                assert!(over["centre"].is_null());
            }
            "centre_count" => {
                let [w, b] = pos.centre_count();
                assert_eq!(over["centre"], json!({"white": w, "black": b}));
                assert!(summary.contains(&format!("{w} to {b}")), "{summary}");
            }
            r => panic!("unexpected end {r}: {over}"),
        }
        seen.push(over["reason"].as_str().unwrap().to_string());
        // Browsing back: the game is still over, the board shows no end.
        let s = gui.post("/api/goto", &json!({"ply": 1})).json();
        assert_eq!(&s["game_over"], over);
        assert!(s["outcome"].is_null());
        assert_eq!(s["clock_running"], Value::Null);
        // The same end in the saved record.
        let pgn = gui.get("/api/pgn").text();
        let result = over["result"].as_str().unwrap();
        assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    }
    assert!(!seen.is_empty());
    // White lifts its bridge off e5 and uncovers Black's chain (tests/rules_game_end.rs).
    let reveal = "Wa8b8c8/Wd8c7d7/Wi8h8j9/Wk10l11m12/Wn13n14o14/Wp15q15q16/We3d2c1/Ba5b5c5/\
                  Bd5e5f5/Bg5h5i5/Bj6k7l8/Bn10m9o11/Bp12q12q13/We3e4e5 w 14";
    let r = gui.post("/api/load", &json!({ "text": reveal }));
    assert_eq!(r.status, 200, "{}", r.text());
    let r = gui.post("/api/move", &json!({"move": "e3-e10e11e12"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let over = &r.json()["game_over"];
    assert_eq!(over["winner"], "black", "{over}");
    assert_eq!(over["reason"], "connection");
    assert_eq!(over["self_uncovered"], true);
    let summary = over["summary"].as_str().unwrap();
    assert!(
        summary.contains("White's own move uncovered it"),
        "{summary}"
    );
}

/// Tournament records: each game by its number (the referee's `Round` tag), numbered by place
/// when the tags do not number them (saved GUI games all say 1); an empty or missing folder
/// says where games come from.
#[test]
fn results_are_numbered_and_an_empty_list_says_where_games_come_from() {
    let dir = TempDir::fresh("punct-gui-numbers");
    let game = |round: u32| {
        format!(
            "[Event \"t\"]\n[Round \"{round}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\
             [FEN \"- w 0\"]\n\n1. c5c6d6 {{0.1s}} *\n\n"
        )
    };
    std::fs::write(dir.0.join("t.pgn"), [4, 5, 6].map(game).concat()).unwrap();
    std::fs::write(dir.0.join("saved.pgn"), [1, 1].map(game).concat()).unwrap();
    let gui = Gui::start(&["--no-default-engine", "--results", dir.0.to_str().unwrap()]);
    let list = gui.get("/api/results").json();
    let numbers = |file: &str| -> Vec<u64> {
        let f = list["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["file"] == file)
            .unwrap_or_else(|| panic!("{file} in {list}"));
        f["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["number"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(numbers("t.pgn"), vec![4, 5, 6]);
    assert_eq!(numbers("saved.pgn"), vec![1, 2]);
    assert!(list["hint"].is_null());
    let missing = dir.0.join("no-such-folder");
    let gui = Gui::start(&[
        "--no-default-engine",
        "--results",
        missing.to_str().unwrap(),
    ]);
    let list = gui.get("/api/results").json();
    assert_eq!(list["files"], json!([]));
    assert_eq!(list["exists"], false);
    let hint = list["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("does not exist"), "{list}");
    assert!(
        hint.contains("punct-referee") && hint.contains("-pgnout"),
        "{hint}"
    );
}

/// A review's marks stay for the moves the game still shares with it (after playing on from
/// a move): the state says which moves were reviewed and how many still agree. The message
/// "reviewing the game ..." ends with the review.
#[test]
fn review_marks_hold_for_the_moves_kept() {
    let gui = gui_with_mocks(&[&[]]);
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": "human", "time": {"movetime": 100}}),
    );
    for m in ["c5c6d6", "f5f6f7", "m5m6n6", "p10p11q10"] {
        let r = gui.post("/api/move", &json!({ "move": m }));
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let r = gui.post("/api/review", &json!({"engine": 0, "movetime": 20}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = gui.wait_state(Duration::from_secs(30), "the review", |s| {
        s["review"]["running"] == false && s["review"]["done"] == 5
    });
    assert_eq!(s["review"]["current"], true);
    assert_eq!(s["review"]["agree"], 4);
    // The running review's message does not outlive it.
    let s = gui.wait_state(Duration::from_secs(10), "the review's last state", |s| {
        !s["message"].as_str().unwrap_or("").starts_with("reviewing")
    });
    assert_eq!(s["message"], "review done: 5 positions");
    let r = gui.post("/api/playfrom", &json!({"ply": 2}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = gui.state();
    assert_eq!(s["review"]["current"], false);
    assert_eq!(s["review"]["agree"], 2);
    assert_eq!(
        s["review"]["moves"],
        json!(["c5c6d6", "f5f6f7", "m5m6n6", "p10p11q10"])
    );
    gui.post("/api/move", &json!({"move": "a3a4b3"}));
    assert_eq!(gui.state()["review"]["agree"], 2);
}

/// A bad time setting is refused with a reason in words, never the API's JSON format (an
/// empty field of the page arrives as null).
#[test]
fn time_settings_are_refused_in_words() {
    let gui = gui_with_mocks(&[&[]]);
    for (time, words) in [
        (json!({"movetime": null}), "time per move"),
        (json!({"movetime": 5}), "time per move"),
        (json!({"base": null, "inc": 1000}), "base time"),
        (json!({"base": 60000, "inc": "x"}), "increment"),
        (json!({}), "no time given"),
    ] {
        let r = gui.post("/api/new", &json!({ "time": time }));
        assert_eq!(r.status, 400, "{time}");
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(words) && !e.contains('{'), "{time}: {e}");
    }
    // A float is rounded; no increment means none.
    let s = gui
        .post("/api/new", &json!({"time": {"base": 1500.4}}))
        .json();
    assert_eq!(s["time"], json!({"base": 1500, "inc": 0}));
}
