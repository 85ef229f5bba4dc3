//! `punct-gui`'s HTTP API without a browser: new game, moves with the rules library's reasons,
//! legal targets, engines (moves, analysis start and stop, crash, hang, restart), bad requests,
//! the Host and Origin checks, and many event streams at once.

use crate::gui_common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use gui_common::{http, read_events_until, Gui, TempDir, MOCK, PUNCT};
use punct::{parse_move, Position, Variant};
use serde_json::{json, Value};

fn humans() -> Value {
    json!({"white": "human", "black": "human", "variant": "standard"})
}

fn gui_with_mock(mode: &str) -> Gui {
    Gui::start(&[
        "--no-default-engine",
        "--engine",
        &format!("cmd={PUNCT}"),
        "name=punct",
        "option.Hash=8",
        "--engine",
        &format!("cmd={MOCK}"),
        "name=mock",
        "arg=--mode",
        &format!("arg={mode}"),
    ])
}

/// Replays the state's moves from the start: each must be legal by the rules library.
fn assert_moves_legal(s: &Value) {
    let mut pos = Position::new(Variant::Standard);
    for m in s["moves"].as_array().unwrap() {
        pos.play(parse_move(m.as_str().unwrap()).unwrap()).unwrap();
    }
}

#[test]
fn new_game_moves_and_reasons() {
    let gui = gui_with_mock("random");
    let r = gui.post("/api/new", &humans());
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["position"], "- w 0");
    assert_eq!(s["can_move"], true);
    // Every legal drop of the start is offered, by kind.
    let start = Position::new(Variant::Standard);
    let offered: usize = ["T", "S", "C", "A", "L", "R"]
        .iter()
        .map(|k| s["legal"]["drops"][k].as_array().map_or(0, |a| a.len()))
        .sum();
    assert_eq!(offered, start.legal_moves().len());
    assert!(s["svg"].as_str().unwrap().contains("data-cell=\"i9\""));

    let r = gui.post("/api/move", &json!({"move": "c5c6d6"}));
    assert_eq!(r.status, 200, "{}", r.text());
    let s = r.json();
    assert_eq!(s["moves"], json!(["c5c6d6"]));
    assert_eq!(s["side"], "black");
    assert_eq!(s["last"], "c5c6d6");
    assert_eq!(s["hands"]["white"]["T"], 5);
    assert_eq!(
        s["svg"].as_str().unwrap().matches("class=\"dot\"").count(),
        3
    );

    // Illegal: the rules library's reason; unreadable: the parser's.
    let r = gui.post("/api/move", &json!({"move": "i9i10j10"}));
    assert_eq!(r.status, 422);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("central hexagon"),
        "{}",
        r.text()
    );
    let r = gui.post("/api/move", &json!({"move": "c5c6d6"}));
    assert_eq!(r.status, 422);
    assert!(r.text().contains("c5 is not empty"), "{}", r.text());
    let r = gui.post("/api/move", &json!({"move": "zz99"}));
    assert_eq!(r.status, 422);
    assert!(r.text().contains("zz99"));
    let r = gui.post("/api/move", &json!({"move": "pass"}));
    assert_eq!(r.status, 422);
    assert!(r.text().contains("passing is allowed only"), "{}", r.text());

    // Navigation and undo.
    gui.post("/api/move", &json!({"move": "f5f6f7"}));
    let s = gui.post("/api/goto", &json!({"ply": 1})).json();
    assert_eq!(s["cursor"], 1);
    assert_eq!(s["position"], "Wc5c6d6 b 1");
    assert_eq!(s["at_end"], false);
    let s = gui.post("/api/undo", &json!({})).json();
    assert_eq!(s["moves"], json!(["c5c6d6"]));
    // PGN out, and back in.
    let pgn = gui.get("/api/pgn");
    assert_eq!(pgn.status, 200);
    assert!(pgn.text().contains("1. c5c6d6"), "{}", pgn.text());
    gui.post("/api/new", &humans());
    let s = gui.post("/api/load", &json!({"text": pgn.text()})).json();
    assert_eq!(s["moves"], json!(["c5c6d6"]));
    // A position string and a move list load too.
    let s = gui
        .post("/api/load", &json!({"text": "Wc5c6d6/Bf5f6f7 w 2"}))
        .json();
    assert_eq!(s["position"], "Wc5c6d6/Bf5f6f7 w 2");
    let s = gui
        .post("/api/load", &json!({"text": "c5c6d6 f5f6f7 m5m6n6"}))
        .json();
    assert_eq!(s["moves"].as_array().unwrap().len(), 3);
    let r = gui.post("/api/load", &json!({"text": "c5c6d6 c5c6d6"}));
    assert_eq!(r.status, 400);
    assert!(r.text().contains("move 2"), "{}", r.text());
}

#[test]
fn legal_targets_are_exactly_the_rules_moves() {
    let gui = gui_with_mock("random");
    gui.post("/api/new", &humans());
    for m in ["c5c6d6", "f5f6f7", "m5m6n6"] {
        assert_eq!(gui.post("/api/move", &json!({ "move": m })).status, 200);
    }
    let pos = punct::parse_position(gui.state()["position"].as_str().unwrap(), Variant::Standard)
        .unwrap();
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    // Drops of one kind with the PÜNCT on one space.
    let r = gui.get("/api/targets?kind=T&cell=c8").json();
    let drops: Vec<String> = serde_json::from_value(r["moves"].clone()).unwrap();
    let want: Vec<&String> = legal
        .iter()
        .filter(|m| {
            let mv = parse_move(m).unwrap();
            matches!(mv, punct::Move::Drop(p) if p.kind() == punct::Kind::T && p.punct().to_string() == "c8")
        })
        .collect();
    assert!(!drops.is_empty());
    assert_eq!(drops.iter().collect::<Vec<_>>(), want);
    // Where Black's piece on f5 can go.
    let r = gui.get("/api/targets?from=f5").json();
    let shifts: Vec<String> = serde_json::from_value(r["moves"].clone()).unwrap();
    let want: Vec<&String> = legal.iter().filter(|m| m.starts_with("f5-")).collect();
    assert!(!shifts.is_empty());
    assert_eq!(shifts.iter().collect::<Vec<_>>(), want);
    // White's piece is not Black's to move.
    assert_eq!(gui.get("/api/targets?from=c5").json()["moves"], json!([]));
    assert_eq!(gui.get("/api/targets?from=zz").status, 400);
    assert_eq!(gui.get("/api/targets?kind=Q&cell=c8").status, 400);
}

#[test]
fn the_engine_answers_and_analysis_starts_and_stops() {
    let gui = gui_with_mock("random");
    let r = gui.post(
        "/api/new",
        &json!({"white": "human", "black": 0, "time": {"movetime": 100}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    // Moving for the engine is refused while it thinks.
    let r = gui.post("/api/move", &json!({"move": "f5f6f7"}));
    assert!(r.status == 422 || gui.state()["moves"].as_array().unwrap().len() == 2);
    let s = gui.wait_state(Duration::from_secs(20), "the engine's move", |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    assert_moves_legal(&s);
    assert_eq!(s["side"], "white");

    // Analysis: the event stream carries info lines with a PV.
    let mut stream = gui.open_events();
    let r = gui.post(
        "/api/analysis",
        &json!({"on": true, "engine": 0, "multipv": 2}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let info = read_events_until(&mut stream, Duration::from_secs(20), |ev, data| {
        ev == "info" && data["multipv"] == 2 && data["pv"].is_array()
    });
    assert_eq!(info["purpose"], "analysis");
    assert!(info["depth"].as_u64().unwrap() >= 1);
    assert!(info["score"].is_object());
    let s = gui.state();
    assert_eq!(s["thinking"]["purpose"], "analysis");
    gui.post("/api/analysis", &json!({"on": false}));
    gui.wait_state(Duration::from_secs(5), "analysis to stop", |s| {
        s["thinking"].is_null() && s["engines"][0]["state"] == "ready"
    });
    // Bad analysis requests.
    assert_eq!(
        gui.post("/api/analysis", &json!({"on": true, "engine": 9}))
            .status,
        400
    );
    assert_eq!(
        gui.post("/api/analysis", &json!({"on": true, "multipv": 0}))
            .status,
        400
    );
    assert_eq!(gui.post("/api/analysis", &json!({})).status, 400);
}

/// White's first move against the mock (engine 1) as Black at 50 ms a move, then waits up to
/// `within` for the mock to be reported failed with `detail` in the reason: the state then, and
/// how long after the move that took.
fn first_move_fails_the_mock(gui: &Gui, within: Duration, detail: &str) -> (Value, Duration) {
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": 1, "time": {"movetime": 50}}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    let t = Instant::now();
    let s = gui.wait_state(within, "the engine to fail", |s| {
        s["engines"][1]["state"] == "failed"
    });
    assert!(
        s["engines"][1]["detail"].as_str().unwrap().contains(detail),
        "{}",
        s["engines"]
    );
    (s, t.elapsed())
}

#[test]
fn a_crashed_engine_is_reported_and_restarted() {
    let gui = gui_with_mock("crash");
    let (s, _) = first_move_fails_the_mock(&gui, Duration::from_secs(20), "exited");
    assert!(s["message"].as_str().unwrap().contains("mock"));
    // The server is fine, and a restart brings the engine back.
    let r = gui.post("/api/engine/restart", &json!({"engine": 1}));
    assert_eq!(r.status, 200);
    gui.wait_state(Duration::from_secs(20), "the restarted engine", |s| {
        let st = &s["engines"][1]["state"];
        st == "ready" || st == "thinking" || st == "failed"
    });
    assert_eq!(
        gui.post("/api/engine/restart", &json!({"engine": 7}))
            .status,
        400
    );
}

#[test]
fn a_hung_engine_is_stopped_and_reported() {
    // Late: `stop` after the move's time and 5 s, killed 3 s later and started again once by
    // itself; hung again, it is shown as failed.
    let gui = gui_with_mock("hang");
    let (_, took) = first_move_fails_the_mock(&gui, Duration::from_secs(40), "in time");
    assert!(took < Duration::from_secs(25), "{took:?}");
    assert_eq!(gui.get("/api/state").status, 200);
}

#[test]
fn a_late_answer_after_stop_is_taken() {
    // The mock answers its first move at once and the next ones 6 s late: past the move's
    // time and 5 s it is sent `stop`, and its answer (within 3 s more) is played, no restart.
    let gui = Gui::start(&[
        "--no-default-engine",
        "--engine",
        &format!("cmd={PUNCT}"),
        "name=punct",
        "--engine",
        &format!("cmd={MOCK}"),
        "name=mock",
        "arg=--mode",
        "arg=slow",
        "arg=--delay-ms",
        "arg=6000",
        "arg=--after",
        "arg=1",
    ]);
    gui.post(
        "/api/new",
        &json!({"white": "human", "black": 1, "time": {"movetime": 50}}),
    );
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    gui.wait_state(Duration::from_secs(10), "the first answer", |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    let s = gui.state();
    let legal = s["legal"]["drops"]["T"][0].as_str().unwrap().to_string();
    gui.post("/api/move", &json!({"move": legal}));
    let s = gui.wait_state(Duration::from_secs(15), "the late answer", |s| {
        s["moves"].as_array().unwrap().len() == 4
    });
    assert_eq!(s["engines"][1]["restarts"], 0, "{}", s["engines"]);
    assert_eq!(s["engines"][1]["state"], "ready", "{}", s["engines"]);
}

#[test]
fn bad_requests_are_answered_and_survived() {
    let mut gui = gui_with_mock("random");
    let json_post = |path: &str, body: &str| gui.post_text(path, body);
    assert_eq!(json_post("/api/move", "{not json").status, 400);
    assert_eq!(json_post("/api/move", "{}").status, 400);
    assert_eq!(json_post("/api/move", "[1,2]").status, 400);
    assert_eq!(json_post("/api/goto", "{\"ply\": -1}").status, 400);
    assert_eq!(json_post("/api/nothing", "{}").status, 404);
    assert_eq!(
        json_post("/api/new", "{\"white\": \"rm -rf /\"}").status,
        400
    );
    assert_eq!(
        json_post("/api/new", "{\"time\": {\"movetime\": 0}}").status,
        400
    );
    assert_eq!(
        json_post("/api/new", "{\"start\": \"Wc5c6d6 w\"}").status,
        400
    );
    assert_eq!(
        json_post("/api/results/load", "{\"file\": \"../../etc/passwd\"}").status,
        400
    );
    // A body over the limit is refused from its length alone.
    let r = gui.request(
        "POST",
        "/api/load",
        &[
            ("Content-Type", "application/json"),
            ("Content-Length", "3000000"),
        ],
        "",
    );
    assert_eq!(r.status, 413);
    // Not JSON: a foreign page's form post is refused.
    let r = gui.request(
        "POST",
        "/api/move",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "move=c5c6d6",
    );
    assert_eq!(r.status, 415);
    assert_eq!(gui.get("/nothing").status, 404);
    assert_eq!(gui.request("DELETE", "/", &[], "").status, 405);
    // Garbage on the socket.
    let mut s = TcpStream::connect(("127.0.0.1", gui.port)).unwrap();
    let _ = s.write_all(b"\x00\x01garbage\r\n\r\n");
    drop(s);
    assert!(gui.is_running());
    assert_eq!(gui.get("/api/state").status, 200);
}

#[test]
fn only_its_own_host_and_origin_are_served() {
    let gui = gui_with_mock("random");
    let port = gui.port;
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
    ] {
        let r = http(port, "GET", "/api/state", &[("Host", &host)], "");
        assert_eq!(r.status, 403, "{host}");
        assert!(r.header("Access-Control-Allow-Origin").is_none());
    }
    // No Host at all.
    assert_eq!(http(port, "GET", "/", &[], "").status, 403);
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let r = http(port, "GET", "/", &[("Host", &host)], "");
        assert_eq!(r.status, 200, "{host}");
        assert!(r.header("Access-Control-Allow-Origin").is_none());
        assert!(r.header("Content-Security-Policy").is_some());
    }
    // A foreign origin cannot post, even with JSON.
    let post_from = |origin: &str| {
        gui.request(
            "POST",
            "/api/new",
            &[("Content-Type", "application/json"), ("Origin", origin)],
            "{}",
        )
    };
    assert_eq!(post_from("http://evil.example").status, 403);
    assert_eq!(post_from(&format!("http://127.0.0.1:{port}")).status, 200);
}

#[test]
fn many_tabs_get_the_same_state_and_closed_tabs_are_dropped() {
    let gui = gui_with_mock("random");
    gui.post("/api/new", &humans());
    let mut tabs: Vec<TcpStream> = (0..6).map(|_| gui.open_events()).collect();
    for t in &mut tabs {
        let s = read_events_until(t, Duration::from_secs(5), |ev, _| ev == "state");
        assert_eq!(s["moves"], json!([]));
    }
    // Close half of them, then move: the others see it.
    tabs.truncate(3);
    gui.post("/api/move", &json!({"move": "c5c6d6"}));
    for t in &mut tabs {
        read_events_until(t, Duration::from_secs(5), |ev, s| {
            ev == "state" && s["moves"] == json!(["c5c6d6"])
        });
    }
    drop(tabs);
    // More tabs than the limit: the extra ones are refused, the server goes on.
    let many: Vec<TcpStream> = (0..40).map(|_| gui.open_events()).collect();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.get("/api/state").status, 200);
    drop(many);
    std::thread::sleep(Duration::from_millis(100));
    let s = gui.post("/api/move", &json!({"move": "f5f6f7"}));
    assert_eq!(s.status, 200);
    // Closed tabs are noticed at the next write (a keep-alive every 2 s): a new tab gets in.
    let end = Instant::now() + Duration::from_secs(15);
    loop {
        let mut t = gui.open_events();
        let mut head = [0u8; 12];
        std::thread::sleep(Duration::from_millis(100));
        if t.read(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200") {
            read_events_until(&mut t, Duration::from_secs(5), |ev, _| ev == "state");
            break;
        }
        assert!(
            Instant::now() < end,
            "no tab accepted after the others closed"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn engines_play_each_other() {
    let gui = gui_with_mock("random");
    let r = gui.post(
        "/api/new",
        &json!({"white": 0, "black": 1, "time": {"movetime": 30}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let s = gui.wait_state(Duration::from_secs(30), "six engine moves", |s| {
        s["moves"].as_array().unwrap().len() >= 6
    });
    assert_moves_legal(&s);
    // Pause stops them; a human cannot move for an engine at the end of the list.
    let n = gui.post("/api/pause", &json!({"paused": true})).json()["moves"]
        .as_array()
        .unwrap()
        .len();
    std::thread::sleep(Duration::from_millis(300));
    let later = gui.state()["moves"].as_array().unwrap().len();
    assert!(later <= n + 1, "{n} -> {later}");
}

#[test]
fn tournament_records_are_listed_and_replayed() {
    let dir = TempDir::fresh("punct-gui-results");
    let dir = &dir.0;
    let record = "[Event \"t\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\
                  [Variant \"standard\"]\n[FEN \"- w 0\"]\n\n1. c5c6d6 {0.1s} f5f6f7 {0.1s} *\n\n";
    std::fs::write(dir.join("t.pgn"), record).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
    let gui = Gui::start(&["--no-default-engine", "--results", dir.to_str().unwrap()]);
    let list = gui.get("/api/results").json();
    assert_eq!(list["files"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["files"][0]["file"], "t.pgn");
    assert_eq!(list["files"][0]["games"][0]["white"], "a");
    let s = gui
        .post("/api/results/load", &json!({"file": "t.pgn", "index": 0}))
        .json();
    assert_eq!(s["moves"], json!(["c5c6d6", "f5f6f7"]));
    assert_eq!(s["cursor"], 0);
    assert_eq!(s["names"], json!(["a", "b"]));
    let s = gui.post("/api/goto", &json!({"ply": 2})).json();
    assert_eq!(s["position"], "Wc5c6d6/Bf5f6f7 w 2");
    assert_eq!(
        gui.post("/api/results/load", &json!({"file": "t.pgn", "index": 5}))
            .status,
        400
    );
    assert_eq!(
        gui.post("/api/results/load", &json!({"file": "notes.txt"}))
            .status,
        400
    );
}
