//! `punct-gui`'s page as players trust it with their games (issue 46, bugs 1-8), in headless
//! Chromium at laptop (1366x768, mouse) and phone (390x844, touch) sizes: nothing lost without
//! asking, clocks that tell the truth, a page that stays still while browsing, short error
//! messages, labels that hide no dot, a review that judges by the change of win chance, a
//! PGN's games to choose from and long names cut.
//!
//! Each test failed on the page and server before issue 46 (`PUNCT_GUI_ASSETS=DIR` serves an
//! older page to the same build, `PUNCT_GUI_EXE` runs an older server).

use crate::gui_browser::{artifacts, open};
use crate::gui_common::{Browser, Gui, MOCK};
use crate::gui_page::{humans, laptop, phone, post_ok, random_moves, start, text_of, LONG};

use std::time::Duration;

use punct::Variant;
use serde_json::{json, Value};

/// The element's box: [left, top, right, bottom].
pub(crate) fn rect(b: &Browser, css: &str) -> [f64; 4] {
    let v = b.js(&format!(
        "const e = document.querySelector(\"{css}\"); if (!e) return null; \
         const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]"
    ));
    serde_json::from_value(v.clone()).unwrap_or_else(|_| panic!("no box for {css}: {v}"))
}

pub(crate) fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5
}

/// Seconds on a clock as the page writes it ("2:58", "0:09.4").
pub(crate) fn clock_secs(text: &str) -> f64 {
    let (m, s) = text
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock: '{text}'"));
    m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap()
}

fn moves_of(gui: &Gui) -> usize {
    gui.state()["moves"].as_array().unwrap().len()
}

/// Bug 1: New game and Load threw away a game in progress at once (only `N` asked). Every way
/// to leave it asks now: New game, Load, Open PGN, by mouse and by touch; a loaded record,
/// which loses nothing, does not.
#[test]
fn leaving_a_game_in_progress_asks_first() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"base": 180000, "inc": 2000}}),
    );
    for m in ["c5c6d6", "f5f6f7"] {
        post_ok(&gui, "/api/move", json!({ "move": m }));
    }
    open(&b, &gui);
    let asked = |what: &str| {
        let t = b
            .wait_dialog(Duration::from_secs(3))
            .unwrap_or_else(|| panic!("{what} did not ask"));
        assert!(t.contains("not over"), "{what}: {t}");
        b.dismiss_dialog();
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(moves_of(&gui), 2, "{what} replaced the game after Cancel");
    };
    b.hover_click_css("#btn-new");
    asked("New game");
    b.clear_and_type(&b.find("#paste"), "m5m6n6");
    b.hover_click_css("#btn-load");
    asked("Load");
    let dir = crate::gui_common::TempDir::fresh("punct-gui-open-pgn");
    let file = dir.0.join("one.pgn");
    std::fs::write(&file, "[White \"a\"]\n[Black \"b\"]\n\n1. m5m6n6 *\n").unwrap();
    b.send_keys(&b.find("#pgn-file"), &file.display().to_string());
    asked("Open PGN");
    // Accepted: the game is replaced.
    b.hover_click_css("#btn-load");
    b.accept_dialog();
    gui.wait_state(LONG, "the loaded moves", |s| {
        s["moves"] == json!(["m5m6n6"])
    });
    // A loaded record loses nothing: New game asks no question.
    b.wait_js(
        "return state.from_record === true",
        LONG,
        "the record on the page",
    );
    b.hover_click_css("#btn-new");
    assert_eq!(b.wait_dialog(Duration::from_millis(700)), None);
    gui.wait_state(LONG, "the new game", |s| s["moves"] == json!([]));
    // By touch on a phone.
    post_ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    phone(&b);
    open(&b, &gui);
    b.tap_css("#btn-new");
    let t = b
        .wait_dialog(Duration::from_secs(3))
        .expect("a tap on New game asks");
    assert!(t.contains("not over"), "{t}");
    b.dismiss_dialog();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(moves_of(&gui), 1);
}

/// Bugs 2 and 3, items 2 and 6: Pause showed the clock as it was when the turn began; a change
/// of the clock's base reset both running clocks; while browsing the clocks gave no time of the
/// position shown; in a clock game Analyse and Hint helped. Now a paused clock shows what it
/// will charge (mouse and touch), the base changed mid-game is for the next game, each clock
/// has the time of the move shown beside it, and without help Analyse and Hint are off, saying
/// why.
#[test]
fn clocks_tell_the_truth() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"base": 60000, "inc": 0}}),
    );
    post_ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    open(&b, &gui);
    // Black thinks 2.2 s, then White 2.2 s and pauses.
    std::thread::sleep(Duration::from_millis(2200));
    post_ok(&gui, "/api/move", json!({"move": "f5f6f7"}));
    std::thread::sleep(Duration::from_millis(2200));
    b.hover_click_css("#btn-pause");
    let s = gui.wait_state(LONG, "the pause", |s| s["paused"] == true);
    b.wait_js("return state.paused", LONG, "the pause on the page");
    std::thread::sleep(Duration::from_millis(400));
    let white = clock_secs(&text_of(&b, "clock-white"));
    let server = s["clocks"][0].as_f64().unwrap() / 1000.0;
    assert!(white <= 58.0, "the paused clock shows {white} s");
    assert!(
        (white - server).abs() <= 1.0,
        "page {white} s, server {server} s"
    );
    // The clock's base changed mid-game: for the next game, and said so.
    b.clear_and_type(&b.find("#clock-base"), "300\u{E004}");
    let m = b.wait_js(
        "return /next game/.test(document.getElementById('message').textContent) && document.getElementById('message').textContent",
        LONG,
        "the message about the next game",
    );
    let s = gui.state();
    assert_eq!(s["time"]["base"], 60000, "{m}");
    assert!(s["clocks"][0].as_u64().unwrap() < 60000);
    assert!(clock_secs(&text_of(&b, "clock-white")) <= 58.0);
    assert_eq!(
        b.js("return document.getElementById('clock-base').value"),
        "300"
    );
    // Browsing: move 1 shown, Black's clock had 1:00 there and has 0:57 or so now.
    b.hover_click_css("#moves span[data-ply='1']");
    gui.wait_state(LONG, "move 1", |s| s["cursor"] == 1);
    let at = b.wait_js(
        "return state.cursor === 1 && document.getElementById('clock-at-black').textContent",
        LONG,
        "the clock at the move shown",
    );
    assert_eq!(at, "1:00", "Black's clock at move 1");
    assert!(clock_secs(&text_of(&b, "clock-black")) <= 58.0);
    let at_white = text_of(&b, "clock-at-white");
    assert_eq!(at_white, "1:00");
    b.hover_click_css("#moves span[data-ply='2']");
    b.wait_js(
        "return state.cursor === 2 && document.getElementById('clock-at-white').textContent === ''",
        LONG,
        "no second time at the end",
    );
    // No engine help in this clock game: Analyse and Hint are off, with the reason.
    let help = b.js(
        "const a = document.getElementById('btn-analyse'), h = document.getElementById('btn-hint'); \
         return [a.disabled, h.disabled, a.title]",
    );
    assert_eq!(help[0], true, "{help}");
    assert_eq!(help[1], true, "{help}");
    assert!(
        help[2].as_str().unwrap().contains("no engine help"),
        "{help}"
    );
    b.screenshot(&artifacts().join("20-clocks.png"));
    // On a phone: resumed, a tap on Pause shows the time used too.
    phone(&b);
    open(&b, &gui);
    b.tap_css("#btn-pause");
    gui.wait_state(LONG, "resumed", |s| s["paused"] == false);
    std::thread::sleep(Duration::from_millis(1500));
    b.tap_css("#btn-pause");
    let s = gui.wait_state(LONG, "paused again", |s| s["paused"] == true);
    b.wait_js("return state.paused", LONG, "the pause on the phone");
    let shown = clock_secs(&text_of(&b, "clock-white"));
    let server = s["clocks"][0].as_f64().unwrap() / 1000.0;
    assert!(
        (shown - server).abs() <= 1.0 && shown <= white - 1.0,
        "phone {shown} s, server {server} s, before {white} s"
    );
}

/// Bug 4: a click on a move made the status line wrap and the list (on a phone, the board)
/// move down a row, so that the next click hit the wrong move. Nothing moves now: clicks on
/// the list with a mouse, taps on the phone's strip and on ◀ ▶.
#[test]
fn browsing_moves_nothing_under_the_pointer() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(
        &gui,
        "/api/load",
        json!({"text": random_moves(21, 30, Variant::Standard).join(" ")}),
    );
    post_ok(&gui, "/api/setup", json!({"white": "human", "black": 0}));
    open(&b, &gui);
    let geometry = |b: &Browser| {
        [
            rect(b, "#board svg"),
            rect(b, "#moves"),
            rect(b, "#status"),
            rect(b, "#tools"),
        ]
    };
    let still = |b: &Browser, before: &[[f64; 4]; 4], what: &str| {
        let after = geometry(b);
        for (x, y) in before.iter().zip(&after) {
            for k in 0..4 {
                assert!(
                    (x[k] - y[k]).abs() < 0.6,
                    "{what}: the page moved: {before:?} -> {after:?}"
                );
            }
        }
    };
    let before = geometry(&b);
    for ply in [5, 17, 2, 30, 11] {
        let css = format!("#moves span[data-ply='{ply}']");
        b.hover_click_css(&css);
        b.wait_js(
            &format!("return state.cursor === {ply}"),
            LONG,
            "the move clicked",
        );
        still(&b, &before, &format!("laptop, move {ply}"));
    }
    post_ok(&gui, "/api/goto", json!({"ply": 30}));
    phone(&b);
    open(&b, &gui);
    b.wait_js("return innerWidth === 390", LONG, "the phone");
    let before = geometry(&b);
    for (css, ply) in [
        ("#tool-prev", 29),
        ("#tool-prev", 28),
        ("#tool-next", 29),
        ("#moves span[data-ply='27']", 27),
        ("#moves span[data-ply='28']", 28),
        ("#tool-prev", 27),
    ] {
        b.tap_css(css);
        b.wait_js(
            &format!("return state.cursor === {ply}"),
            LONG,
            "the move tapped",
        );
        still(&b, &before, &format!("phone, {css} to {ply}"));
    }
    assert_eq!(b.js("return window.scrollY"), 0);
}

/// Bug 5: a failed Load pasted the whole input into the message (a 1.4 MB move list made a
/// 490,000-px page). The message quotes a short excerpt and the page keeps its height.
#[test]
fn a_failed_load_keeps_the_page_small() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    open(&b, &gui);
    let measure = |b: &Browser| {
        b.js(
            "const m = document.getElementById('message'); \
             return [m.getBoundingClientRect().height, document.documentElement.scrollHeight, innerHeight, m.textContent.length]",
        )
    };
    let before: Vec<f64> = serde_json::from_value(measure(&b)).unwrap();
    b.js("document.getElementById('paste').value = 'c5c6d6 '.repeat(200000) + 'zz'; return 1");
    b.hover_click_css("#btn-load");
    b.wait_js(
        "return /neither a position/.test(document.getElementById('message').textContent)",
        LONG,
        "the load's error",
    );
    let after: Vec<f64> = serde_json::from_value(measure(&b)).unwrap();
    assert!(after[0] <= 100.0, "the message is {} px tall", after[0]);
    assert!(after[3] <= 500.0, "the message has {} characters", after[3]);
    assert!(
        after[1] <= before[1] + 60.0,
        "the page grew from {} to {} px",
        before[1],
        after[1]
    );
}

/// Bug 6 and item 4: the hint's tag hid a dot of the hinted piece when a dot sat just above its
/// PÜNCT (d6c5d7), and the PV's move numbers were small blue text on the pieces. Every tag
/// (hint, a PV's numbers on hover) now stands where it covers no dot of its own piece, and the
/// numbers are dark on a white tag.
#[test]
fn labels_hide_no_dot_of_their_piece() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    open(&b, &gui);
    // Every placement with its PÜNCT on g6 (all six directions), and d6c5d7 as the issue saw it.
    let placements: Vec<String> = {
        let s = gui.state();
        let mut v: Vec<String> = s["legal"]["drops"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|l| l.as_array().unwrap().clone())
            .filter_map(|p| p.as_str().map(str::to_string))
            .filter(|p| p.starts_with("g6"))
            .collect();
        v.push("d6c5d7".into());
        v
    };
    assert!(placements.len() > 6, "{placements:?}");
    // The tag's box and the dots of its piece, in the picture's units.
    let covered = "const g = document.querySelector(SEL); if (!g) return 'no tag'; \
        const r = g.querySelector('rect.label-tag').getBBox(); const cells = g.dataset.placement.match(/[a-q]\\d{1,2}/g); \
        const hits = cells.filter((c) => { const [x, y] = cellPos[c]; \
          const nx = Math.max(r.x, Math.min(x, r.x + r.width)), ny = Math.max(r.y, Math.min(y, r.y + r.height)); \
          return Math.hypot(x - nx, y - ny) < 11.2; }); return hits.join(' ')";
    for p in &placements {
        b.js(&format!(
            "render(Object.assign({{}}, state, {{version: state.version, hint: {{position: state.position, move: '{p}', score: '+0.10', depth: 5, engine: 'punct'}}}})); return 1"
        ));
        let hit = b.js(&covered.replace("SEL", "'#overlay .hint-piece'"));
        assert_eq!(hit, "", "the hint tag of {p} covers {hit}");
    }
    b.screenshot(&artifacts().join("21-hint-tag.png"));
    // A PV on hover (real mouse): numbered on white tags, no number over its own piece's dots.
    b.js("render(Object.assign({}, state, {version: state.version, hint: null})); return 1");
    let pv: Vec<Value> = placements.iter().take(1).map(|p| json!(p)).collect();
    let mut pv = pv;
    for p in ["m5m6n6", "p10p11q11", "e3e4f4"] {
        pv.push(json!(p));
    }
    b.js(&format!(
        "renderInfo({{cursor: state.cursor, search: 99, multipv: 1, depth: 6, score: {{cp: 12}}, pv: {}, \
          engine: 0, engine_name: 'punct', purpose: 'analysis', read_ms: Date.now()}}); return 1",
        json!(pv)
    ));
    b.hover_css("#info td.pv");
    b.wait_js(
        "return document.querySelectorAll('#overlay .ghost').length === 4",
        LONG,
        "the PV drawn on hover",
    );
    let tags = b.js(
        "return [...document.querySelectorAll('#overlay .ghost')].map((g) => { const t = g.querySelector('text.label'); \
           const r = g.querySelector('rect.label-tag'); \
           return {n: t && t.textContent, size: t && parseFloat(t.getAttribute('font-size')), fill: r && r.getAttribute('fill'), text: t && t.getAttribute('fill')}; })",
    );
    for (i, t) in tags.as_array().unwrap().iter().enumerate() {
        assert_eq!(t["n"], json!((i + 1).to_string()), "{tags}");
        assert!(t["size"].as_f64().unwrap() >= 14.0, "{tags}");
        assert_eq!(t["fill"], "#fff", "a number with no tag: {tags}");
        assert_ne!(t["text"], "#1f5fa8", "{tags}");
    }
    let hits = b.js(&format!(
        "return [...document.querySelectorAll('#overlay .ghost')].map((el, i) => {{ el.id = 'pv' + i; \
           return (() => {{ {} }})(); }})",
        covered.replace("SEL", "'#pv' + i")
    ));
    assert!(
        hits.as_array().unwrap().iter().all(|h| h == ""),
        "PV numbers over their own dots: {hits}"
    );
}

/// Bug 8: a PGN with several games silently loaded the first, and a 180-character player name
/// wrapped to 13 lines and pushed White's clock below the fold. The page offers the games of
/// the file, and cuts a long name with an ellipsis (in full on hover), on a laptop and a phone.
#[test]
fn a_pgn_of_several_games_and_a_long_name() {
    let long: String = "a-very-long-engine-name-".repeat(8)[..180].to_string();
    let Some((_one, gui, b)) =
        start(&["--engine", &format!("cmd={MOCK}"), &format!("name={long}")])
    else {
        return;
    };
    laptop(&b);
    humans(&gui);
    open(&b, &gui);
    let pgn = "[White \"a\"]\n[Black \"b\"]\n\n1. c5c6d6 f5f6f7 *\n\n\
               [White \"c\"]\n[Black \"d\"]\n\n1. m5m6n6 *\n\n\
               [White \"e\"]\n[Black \"f\"]\n\n1. c5c6d6 f5f6f7 2. m5m6n6 *\n";
    b.clear_and_type(&b.find("#paste"), pgn);
    b.hover_click_css("#btn-load");
    let n = b.wait_js(
        "const s = document.getElementById('pgn-games'); return !s.hidden && s.getClientRects().length && s.options.length",
        LONG,
        "the list of the PGN's games",
    );
    assert_eq!(n, 3);
    let m = text_of(&b, "message");
    assert!(m.contains("3 games"), "{m}");
    b.click(&b.find("#pgn-games"));
    b.click(&b.find("#pgn-games option[value='1']"));
    gui.wait_state(LONG, "game 2", |s| s["moves"] == json!(["m5m6n6"]));
    // The long name, seated as Black in a clock game.
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 1, "time": {"base": 60000, "inc": 0}}),
    );
    for (device, setup) in [("laptop", laptop as fn(&Browser)), ("phone", phone)] {
        setup(&b);
        open(&b, &gui);
        let v = b.js(
            "const n = document.querySelector('#player-black .name'); const w = document.querySelector('#player-black .who'); \
             const c = document.getElementById('clock-white').getBoundingClientRect(); \
             return {text: n.textContent, title: n.title, who: w.getBoundingClientRect().height, clock: c.bottom, ih: innerHeight}",
        );
        let text = v["text"].as_str().unwrap();
        assert!(text.ends_with("…)") && text.len() < 60, "{device}: {v}");
        assert!(
            v["title"].as_str().unwrap().contains(&long),
            "{device}: {v}"
        );
        assert!(v["who"].as_f64().unwrap() <= 80.0, "{device}: {v}");
        assert!(
            v["clock"].as_f64().unwrap() <= v["ih"].as_f64().unwrap(),
            "{device}: White's clock below the fold: {v}"
        );
    }
    b.screenshot(&artifacts().join("22-long-name-phone.png"));
}
