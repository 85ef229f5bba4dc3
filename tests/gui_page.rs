//! `punct-gui`'s page as a player meets it (issue 35), in headless Chromium: a laptop window
//! (1366x768) and a phone (390x844, touch emulation through Chromium's DevTools). The page
//! must stay still on a phone, keep a piece pending for ↻ and ✓ with a mouse, show whose move
//! it is and the names in full, sum up the end of the game, give the board the space, explain
//! its messages, mark the review's moves without hover, number moves as players do, and offer
//! resign/abort/draw, the your-move signals, low-time warning, a turned board for Black, move
//! confirmation, keyboard shortcuts, a dark theme and the rules.
//!
//! `PUNCT_GUI_ASSETS=DIR` (see `src/gui/assets.rs`) runs these against another page, e.g. the
//! page before issue 35, to see them fail.

use crate::gui_browser::{
    artifacts, browser_programs, click_a_drop, connection_game, open, ONE_AT_A_TIME,
};
use crate::gui_common::{Browser, Gui, MOCK};

use std::sync::MutexGuard;
use std::time::Duration;

use punct::{Position, Variant};
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

pub(crate) const LONG: Duration = Duration::from_secs(20);

/// The lock, a GUI with `args` and a browser; None when Chromium is missing (skipped).
pub(crate) fn start(args: &[&str]) -> Option<(MutexGuard<'static, ()>, Gui, Browser)> {
    let one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (chromium, driver) = browser_programs()?;
    let gui = Gui::start(args);
    let b = Browser::start(&chromium, &driver);
    Some((one, gui, b))
}

/// Both seats human (no engine moves by itself after a load).
pub(crate) fn humans(gui: &Gui) {
    post_ok(
        gui,
        "/api/setup",
        json!({"white": "human", "black": "human"}),
    );
}

pub(crate) fn post_ok(gui: &Gui, path: &str, body: Value) -> Value {
    let r = gui.post(path, &body);
    assert_eq!(r.status, 200, "{path} {body}: {}", r.text());
    r.json()
}

/// A Chromium DevTools command through chromedriver.
pub(crate) fn cdp(b: &Browser, cmd: &str, params: Value) {
    b.call(
        "POST",
        &format!("/session/{}/goog/cdp/execute", b.session()),
        &json!({"cmd": cmd, "params": params}),
    );
}

/// A phone: 390x844 CSS pixels, a touch screen (coarse pointer, no hover).
pub(crate) fn phone(b: &Browser) {
    cdp(
        b,
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true}),
    );
    cdp(
        b,
        "Emulation.setTouchEmulationEnabled",
        json!({"enabled": true, "maxTouchPoints": 5}),
    );
}

pub(crate) fn laptop(b: &Browser) {
    b.set_window(1366, 768);
}

/// The first `n` moves of a seeded random game (not finished by then).
pub(crate) fn random_moves(seed: u64, n: usize, variant: Variant) -> Vec<String> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    'game: loop {
        let mut p = Position::new(variant);
        let mut moves = Vec::new();
        while moves.len() < n {
            if p.is_finished() {
                continue 'game;
            }
            let legal = p.legal_moves();
            let m = legal[rng.gen_range(0..legal.len())];
            moves.push(m.to_string());
            p.make(m);
        }
        if !p.is_finished() {
            return moves;
        }
    }
}

pub(crate) const GHOST: &str =
    "const g = document.querySelector('#overlay .ghost'); return g && g.dataset.placement";

/// A space where the selected kind has more than one legal placement.
pub(crate) const TURNABLE: &str = "if (!sel.kind) return null; const by = {}; \
    for (const p of state.legal.drops[sel.kind]) { const c = p.match(/[a-q]\\d{1,2}/g)[0]; by[c] = (by[c] || 0) + 1; } \
    return Object.keys(by).find((c) => by[c] > 1)";

pub(crate) fn cell_css(cell: &Value) -> String {
    format!("#board svg polygon[data-cell='{}']", cell.as_str().unwrap())
}

pub(crate) fn text_of(b: &Browser, id: &str) -> String {
    b.js(&format!(
        "const e = document.getElementById('{id}'); return e ? e.textContent : ''"
    ))
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Is the element shown (laid out, not hidden)?
pub(crate) fn shown(b: &Browser, id: &str) -> bool {
    b.js(&format!(
        "const e = document.getElementById('{id}'); return !!e && !e.hidden && e.getClientRects().length > 0"
    )) == Value::Bool(true)
}

// ----- item 4 and 9: the phone -----

#[test]
fn on_a_phone_the_page_stays_still_and_play_stays_in_sight() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    let moves = random_moves(7, 24, Variant::Standard);
    // Engine help in this clock game: the analysis is looked at below (issue 46).
    post_ok(&gui, "/api/new", json!({"help": true}));
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    post_ok(
        &gui,
        "/api/setup",
        json!({"white": "human", "black": 0, "time": {"base": 60000, "inc": 0}}),
    );
    phone(&b);
    open(&b, &gui);
    b.wait_js(
        "return innerWidth === 390 && state.moves.length === 24",
        LONG,
        "the phone",
    );
    assert_eq!(b.js("return window.scrollY"), 0);
    // A drop by taps: the kind, a green dot, ✓.
    b.tap_css("#hand-white button[data-kind='T']");
    let cell = b.wait_js(TURNABLE, LONG, "the kind picked by touch");
    // A finger near a green dot, on a space with no placement of its own, counts for the dot.
    let near = b.js(
        "const ok = new Set(state.legal.drops.T.map((p) => p.match(/[a-q]\\d{1,2}/g)[0])); \
         const box = (c) => document.querySelector(`#board svg polygon[data-cell='${c}']`); \
         for (const x of Object.keys(cellPos)) { if (ok.has(x) || state.legal.movable[x]) continue; \
           for (const y of ok) { const a = box(x).getBoundingClientRect(), b = box(y).getBoundingClientRect(); \
             const dx = (b.x + b.width / 2) - (a.x + a.width / 2), dy = (b.y + b.height / 2) - (a.y + a.height / 2); \
             if (Math.hypot(dx, dy) < a.width * 1.2) return [x, y, Math.round(dx * 0.4), Math.round(dy * 0.4)]; } } \
         return null",
    );
    let (x, y) = (near[0].as_str().unwrap(), near[1].as_str().unwrap());
    let origin = json!({"element-6066-11e4-a52e-4f735466cecf": b.find(&format!("#board svg polygon[data-cell='{x}']"))});
    b.call(
        "POST",
        &format!("/session/{}/actions", b.session()),
        &json!({"actions": [{"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": origin, "x": near[2], "y": near[3]},
                {"type": "pointerDown", "button": 0}, {"type": "pause", "duration": 30},
                {"type": "pointerUp", "button": 0}]}]}),
    );
    let _ = b.try_call(
        "DELETE",
        &format!("/session/{}/actions", b.session()),
        &json!({}),
    );
    let snapped = b.wait_js(GHOST, LONG, "the piece shown at the dot near the finger");
    assert!(
        snapped.as_str().unwrap().starts_with(y),
        "a tap on {x} near {y} showed {snapped}"
    );
    b.tap_css(&cell_css(&cell));
    b.wait_js(GHOST, LONG, "the piece shown after a tap");
    b.tap_css("#btn-place");
    gui.wait_state(Duration::from_secs(60), "the engine's reply", |s| {
        s["moves"].as_array().unwrap().len() == 26
    });
    b.wait_js(
        "return state.moves.length === 26",
        LONG,
        "the reply on the page",
    );
    let g = b.js(
        "const m = document.getElementById('moves'); const c = m.querySelector('.cur').getBoundingClientRect(); \
         const r = m.getBoundingClientRect(); \
         return {y: window.scrollY, top: m.scrollTop + m.scrollLeft, inside: c.top >= r.top - 1 && c.bottom <= r.bottom + 1 && c.left >= r.left - 1 && c.right <= r.right + 1}",
    );
    b.screenshot(&artifacts().join("10-phone.png"));
    assert_eq!(g["y"], 0, "the page scrolled by itself: {g}");
    assert!(
        g["top"].as_f64().unwrap() > 0.0,
        "the move list did not scroll: {g}"
    );
    assert_eq!(
        g["inside"], true,
        "the last move is out of the list's view: {g}"
    );
    // New game, Undo, both clocks and the status line are in sight while playing.
    for id in [
        "btn-new",
        "btn-undo",
        "clock-white",
        "clock-black",
        "status",
    ] {
        let r = b.js(&format!(
            "const r = document.getElementById('{id}').getBoundingClientRect(); return [r.top, r.bottom, r.height, innerHeight]"
        ));
        let r: Vec<f64> = serde_json::from_value(r).unwrap();
        assert!(
            r[0] >= 0.0 && r[1] <= r[3] && r[2] > 0.0,
            "{id} is out of sight on a phone: {r:?}"
        );
    }
    // Every button shown is at least 40 px tall.
    let small = b.js(
        "return [...document.querySelectorAll('button')].filter((e) => e.getClientRects().length && \
         e.getBoundingClientRect().height < 40).map((e) => (e.id || e.textContent) + ' ' + e.getBoundingClientRect().height)",
    );
    assert_eq!(small, json!([]), "buttons below finger size");
    // The guidance speaks of taps, not of the wheel, R or Esc.
    let hint = text_of(&b, "hint");
    assert!(
        !hint.contains("wheel") && !hint.contains("Esc") && !hint.contains(" R "),
        "{hint}"
    );
    // The analysis' PV column is readable.
    b.js("document.getElementById('btn-analyse').click(); return 1");
    b.wait_js(
        "const td = document.querySelector('#info td.pv'); return td && td.textContent.length > 0",
        LONG,
        "an analysis line",
    );
    let w = b.js("return document.querySelector('#info td.pv').getBoundingClientRect().width");
    b.js("document.getElementById('btn-analyse').click(); return 1");
    b.wait_js("return !state.analysis.on", LONG, "the analysis to stop");
    // A tap on a line draws its PV on the board.
    b.js("document.getElementById('info').scrollIntoView(); return 1");
    b.tap_css("#info td.pv");
    b.wait_js(
        "return pvShown !== null && document.querySelectorAll('#overlay .ghost').length >= 1",
        LONG,
        "the PV drawn after a tap",
    );
    assert!(w.as_f64().unwrap() >= 150.0, "PV column {w} px");
}

// ----- item 5: ↻ and ✓ with a mouse -----

#[test]
fn rotate_and_place_work_with_a_mouse() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human"}),
    );
    laptop(&b);
    open(&b, &gui);
    b.click(&b.find("#hand-white button[data-kind='T']"));
    let cell = b.wait_js(TURNABLE, LONG, "the kind picked");
    b.hover_css(&cell_css(&cell));
    let first = b.wait_js(GHOST, LONG, "the ghost");
    // The mouse goes to ↻: the piece stays pending and turns.
    b.hover_click_css("#btn-rotate");
    let turned = b.wait_js(
        &format!("const g = document.querySelector('#overlay .ghost'); return g && g.dataset.placement !== {first} && g.dataset.placement"),
        LONG,
        "the piece turned by ↻ with the mouse",
    );
    b.hover_click_css("#btn-place");
    let s = gui.wait_state(LONG, "the piece placed by ✓", |s| {
        !s["moves"].as_array().unwrap().is_empty()
    });
    assert_eq!(s["moves"][0], turned);
    // Esc lets go of a pending piece.
    b.wait_js(
        "return state.side === 'black' && state.can_move",
        LONG,
        "Black's turn",
    );
    b.click(&b.find("#hand-black button[data-kind='T']"));
    let cell = b.wait_js(TURNABLE, LONG, "the kind picked");
    b.hover_css(&cell_css(&cell));
    b.wait_js(GHOST, LONG, "the ghost");
    b.hover_css("#btn-rotate");
    assert!(b.js(GHOST).is_string(), "the piece left when the mouse did");
    b.key("\u{E00C}");
    b.wait_js(
        "return !document.querySelector('#overlay .ghost') && document.getElementById('btn-place').disabled",
        LONG,
        "Esc to let go of the piece",
    );
}

// ----- item 6: the side to move and the names -----

#[test]
fn the_hands_show_the_side_to_move_and_names_in_full() {
    let name = "mock-engine-with-a-long-name";
    let Some((_one, gui, b)) =
        start(&["--engine", &format!("cmd={MOCK}"), &format!("name={name}")])
    else {
        return;
    };
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 1, "time": {"movetime": 50}}),
    );
    let check = |what: &str| {
        let v = b.js(
            "const w = [...document.querySelectorAll('.who')].filter((e) => e.getClientRects().length); \
             return {cut: w.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent), \
                     text: w.map((e) => e.textContent).join(' | '), \
                     toMove: [...document.querySelectorAll('.to-move')].map((e) => e.textContent).join(' ')}",
        );
        assert_eq!(v["cut"], json!([]), "{what}: names cut: {v}");
        let text = v["text"].as_str().unwrap();
        assert!(text.contains(name), "{what}: {v}");
        assert!(text.contains("you"), "{what}: which side is you? {v}");
        let to_move = v["toMove"].as_str().unwrap();
        assert!(
            to_move.contains("White") && !to_move.contains("Black"),
            "{what}: side to move: {v}"
        );
    };
    laptop(&b);
    open(&b, &gui);
    check("laptop");
    phone(&b);
    b.wait_js("return innerWidth === 390", LONG, "the phone");
    check("phone");
}

// ----- item 7: the end of the game -----

#[test]
fn the_game_over_summary_is_full_and_can_be_closed() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    let (variant, moves) = connection_game();
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "variant": variant.name()}),
    );
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    open(&b, &gui);
    let s = gui.state();
    let over = if s["game_over"].is_null() {
        &s["outcome"]
    } else {
        &s["game_over"]
    };
    let path: Vec<String> = serde_json::from_value(over["path"].clone()).unwrap();
    assert!(!path.is_empty());
    b.wait_js(
        "const e = document.getElementById('gameover'); return !!e && !e.hidden",
        LONG,
        "the game-over summary",
    );
    let text = text_of(&b, "gameover");
    assert!(text.contains("connection"), "{text}");
    for c in &path {
        assert!(text.contains(c.as_str()), "{c} missing from '{text}'");
    }
    let clipped = b.js(
        "const s = document.getElementById('status'); return s.scrollWidth > s.clientWidth + 1",
    );
    assert_eq!(clipped, false, "the status line is cut");
    b.screenshot(&artifacts().join("11-game-over.png"));
    b.click(&b.find("#gameover-close"));
    assert!(!shown(&b, "gameover"), "× closes the summary");
    b.click(&b.find("#status"));
    assert!(shown(&b, "gameover"), "the status line opens it again");
    b.key("\u{E00C}");
    assert!(!shown(&b, "gameover"), "Esc closes it");

    // A loss on time: said so, with no centre count.
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"base": 300, "inc": 0}}),
    );
    let s = gui.state();
    let drop = s["legal"]["drops"]["T"][0].as_str().unwrap().to_string();
    post_ok(&gui, "/api/move", json!({ "move": drop }));
    gui.wait_state(LONG, "the loss on time", |s| {
        s["game_over"]["reason"] == "time" || s["outcome"]["reason"] == "time"
    });
    b.wait_js(
        "const e = document.getElementById('gameover'); return !!e && !e.hidden && /time/.test(e.textContent)",
        LONG,
        "the summary of a loss on time",
    );
    let status = text_of(&b, "status");
    let summary = text_of(&b, "gameover");
    let centre = b.js(
        "const e = document.getElementById('centre'); return e && e.getClientRects().length ? e.textContent : ''",
    );
    assert!(
        !status.contains("Centre") && !summary.contains("Centre") && centre == "",
        "a centre count after a loss on time: '{status}' '{summary}' {centre}"
    );
}

// ----- item 8: the laptop -----

#[test]
fn on_a_laptop_the_board_gets_the_space_and_stays_still() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    humans(&gui);
    let moves = random_moves(5, 7, Variant::Standard);
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    laptop(&b);
    open(&b, &gui);
    let geometry = "const r = document.querySelector('#board svg > rect').getBoundingClientRect(); \
        const h = document.getElementById('hint').getBoundingClientRect(); \
        const e = document.getElementById('evalbar'); const er = e.getBoundingClientRect(); \
        return {w: r.width, left: r.left, hint: h.bottom, ih: innerHeight, iw: innerWidth, \
                bar: !e.hidden && !e.classList.contains('off') && er.width > 0, barRight: er.right}";
    let before = b.js(geometry);
    eprintln!("laptop before the review: {before}");
    let w = before["w"].as_f64().unwrap();
    assert!(w >= 480.0, "the board is {w} px wide: {before}");
    assert!(
        before["hint"].as_f64().unwrap() <= before["ih"].as_f64().unwrap(),
        "the guidance line is below the fold: {before}"
    );
    b.clear_and_type(&b.find("#review-time"), "0.05");
    b.click(&b.find("#btn-review"));
    b.wait_js(
        "return state.review && !state.review.running && state.review.done === 8 && \
         document.getElementById('graph').getClientRects().length > 0 && \
         document.getElementById('graph').getBoundingClientRect().height > 0",
        Duration::from_secs(60),
        "the review and its graph",
    );
    let after = b.js(geometry);
    eprintln!("laptop after the review: {after}");
    b.screenshot(&artifacts().join("12-laptop-review.png"));
    assert!(
        (after["w"].as_f64().unwrap() - w).abs() <= 1.0
            && (after["left"].as_f64().unwrap() - before["left"].as_f64().unwrap()).abs() <= 1.0,
        "the board moved or shrank: {before} -> {after}"
    );
    assert_eq!(after["bar"], true, "the eval bar shows the review: {after}");
    let gap = after["left"].as_f64().unwrap() - after["barRight"].as_f64().unwrap();
    assert!(
        (0.0..=8.0).contains(&gap),
        "the eval bar is {gap} px from the board"
    );
}

// ----- item 10: the review -----

#[test]
fn the_review_shows_the_better_move_and_keeps_its_marks() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    let moves = random_moves(9, 12, Variant::Standard);
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    open(&b, &gui);
    b.clear_and_type(&b.find("#review-time"), "0.05");
    b.click(&b.find("#btn-review"));
    b.wait_js(
        "return state.review && !state.review.running && state.review.done === 13",
        Duration::from_secs(60),
        "the review",
    );
    // Play from here at ply 10: moves 1-10 keep their marks and evaluations.
    b.click(&b.find("#moves span[data-ply='10']"));
    gui.wait_state(LONG, "move 10", |s| s["cursor"] == 10);
    b.click(&b.find("#btn-playfrom"));
    b.accept_dialog();
    gui.wait_state(LONG, "play from here", |s| {
        s["moves"].as_array().unwrap().len() == 10
    });
    b.wait_js(
        "return state.moves.length === 10 && \
         [...document.querySelectorAll('#moves span[data-ply]')].filter((s) => s.title).length === 10",
        LONG,
        "the marks of moves 1-10 after Play from here",
    );
    // A blunder with its better move: said in words at the move, drawn on the board.
    let mut p = Position::new(Variant::Standard);
    for m in &moves[..2] {
        p.make(punct::parse_move(m).unwrap());
    }
    let better = p
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != moves[2] && !m.contains('-'))
        .unwrap();
    b.click(&b.find("#moves span[data-ply='3']"));
    gui.wait_state(LONG, "move 3", |s| s["cursor"] == 3);
    b.wait_js("return state.cursor === 3", LONG, "move 3 on the page");
    let evals: Vec<Value> = (0..11)
        .map(|i| json!({"cp": if i < 3 { 20 } else { -300 }, "text": if i < 3 { "+0.20" } else { "-3.00" }, "depth": 5, "best": better}))
        .collect();
    let mut marks: Vec<Value> = (0..10)
        .map(|_| json!({"class": null, "drop": 0.0, "better": null}))
        .collect();
    marks[2] = json!({"class": "blunder", "drop": 0.42, "better": better});
    let review = json!({"current": true, "engine": "punct", "movetime": 50, "total": 11, "done": 11,
        "running": false, "error": null, "evals": evals, "marks": marks});
    b.js(&format!(
        "render(Object.assign({{}}, state, {{review: {review}}})); return 1"
    ));
    let note = b.wait_js(
        "const e = document.getElementById('review-note'); return e && !e.hidden && e.getClientRects().length && e.textContent",
        LONG,
        "the review's note on the move",
    );
    let note = note.as_str().unwrap();
    assert!(
        note.contains("??")
            && note.contains("blunder")
            && note.contains(&better)
            && note.contains("42 %"),
        "{note}"
    );
    let drawn = b.js(
        "const g = document.querySelector('#overlay .better-piece'); return g && g.dataset.placement",
    );
    assert_eq!(drawn, json!(better), "the better move on the board");
    let mark = b.js("const s = document.querySelector(\"#moves span[data-ply='3']\"); return [s.className, s.textContent]");
    assert!(
        mark[0].as_str().unwrap().contains("blunder") && mark[1].as_str().unwrap().ends_with("??"),
        "{mark}"
    );
    b.screenshot(&artifacts().join("13-review-better.png"));
}

// ----- item 11: messages -----

#[test]
fn messages_are_explained_and_cleared() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "variant": "standard"}),
    );
    open(&b, &gui);
    // A drop on a centre space: no drop is allowed there.
    b.click(&b.find("#hand-white button[data-kind='T']"));
    b.hover_click_css("#board svg polygon[data-cell='i9']");
    let m = b.wait_js(
        "return document.getElementById('message').textContent",
        LONG,
        "the message",
    );
    let m = m.as_str().unwrap();
    assert!(
        m.contains("central hexagon") && m.contains("no drop"),
        "{m}"
    );
    // Esc clears it; so does a new selection.
    b.key("\u{E00C}");
    assert_eq!(text_of(&b, "message"), "", "Esc leaves the message");
    b.click(&b.find("#hand-white button[data-kind='T']"));
    b.hover_click_css("#board svg polygon[data-cell='i9']");
    b.wait_js(
        "return document.getElementById('message').textContent",
        LONG,
        "the message again",
    );
    b.click(&b.find("#hand-white button[data-kind='S']"));
    assert_eq!(
        text_of(&b, "message"),
        "",
        "a new selection leaves the message"
    );
    b.key("\u{E00C}");
    // An empty time field is explained in words.
    b.clear_and_type(&b.find("#movetime"), "\u{E004}");
    let m = b.wait_js(
        "return document.getElementById('message').textContent",
        LONG,
        "the time message",
    );
    let m = m.as_str().unwrap().to_string();
    assert!(!m.contains('{') && m.contains("seconds"), "{m}");
    // A field being typed never changes under the cursor: the base is changed, and the
    // server's (slow) answer arrives while the increment is being typed.
    b.click(&b.find("#time-mode"));
    b.click(&b.find("#time-mode option[value='clock']"));
    gui.wait_state(LONG, "the clock", |s| s["time"]["base"].is_u64());
    b.wait_js(
        "return state.time.base !== undefined",
        LONG,
        "the clock on the page",
    );
    b.network_latency(800);
    b.clear_and_type(&b.find("#clock-base"), "120\u{E004}");
    b.wait_js(
        "return document.activeElement.id === 'clock-inc'",
        LONG,
        "the increment field focused",
    );
    b.key("\u{E010}");
    for _ in 0..4 {
        b.key("\u{E003}");
    }
    b.key("5");
    b.wait_js(
        "return state.time.base === 120000",
        LONG,
        "the server's answer to the base",
    );
    let inc =
        b.js("return [document.getElementById('clock-inc').value, document.activeElement.id]");
    b.network_latency(0);
    assert_eq!(
        inc,
        json!(["5", "clock-inc"]),
        "the field changed under the cursor"
    );
    // "reviewing the game …" goes when the review is over.
    post_ok(
        &gui,
        "/api/load",
        json!({"text": random_moves(3, 3, Variant::Standard).join(" ")}),
    );
    b.clear_and_type(&b.find("#review-time"), "0.05");
    b.click(&b.find("#btn-review"));
    gui.wait_state(Duration::from_secs(60), "the review", |s| {
        s["review"]["done"] == 4 && s["review"]["running"] == false
    });
    b.wait_js(
        "return state.review && !state.review.running && !/reviewing/.test(document.getElementById('message').textContent)",
        LONG,
        "the review's message to go",
    );
}

// ----- item 12: the hint -----

#[test]
fn the_hint_piece_is_plain_with_a_readable_label() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(&gui, "/api/load", json!({"text": "Wc5c6d6/Bf5f6f7 w 2"}));
    open(&b, &gui);
    b.click(&b.find("#btn-hint"));
    let v = b.wait_js(
        "const g = document.querySelector('#overlay .hint-piece'); if (!g) return null; \
         const t = g.querySelector('text'); \
         return {opacity: parseFloat(g.getAttribute('opacity') || '1'), size: parseFloat(t.getAttribute('font-size')), \
                 tag: !!g.querySelector('rect'), label: t.textContent}",
        LONG,
        "the hint on the board",
    );
    b.screenshot(&artifacts().join("14-hint.png"));
    assert!(v["opacity"].as_f64().unwrap() >= 0.9, "a faint hint: {v}");
    assert!(v["size"].as_f64().unwrap() >= 14.0, "a tiny label: {v}");
    assert_eq!(v["tag"], true, "the label has no background: {v}");
    assert_eq!(v["label"], "hint");
}

// ----- item 14: move numbers -----

#[test]
fn moves_are_numbered_as_players_do() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(&gui, "/api/load", json!({"text": "c5c6d6 f5f6f7 m5m6n6"}));
    open(&b, &gui);
    let geo = |ply: u32| -> Vec<f64> {
        serde_json::from_value(b.js(&format!(
            "const r = document.querySelector(\"#moves span[data-ply='{ply}']\").getBoundingClientRect(); return [r.left, r.top]"
        )))
        .unwrap()
    };
    b.wait_js(
        "return document.querySelector(\"#moves span[data-ply='3']\")",
        LONG,
        "the moves",
    );
    let (a, c) = (geo(1), geo(2));
    assert!((a[1] - c[1]).abs() < 2.0, "1. White Black on one line");
    let text = b.js("return document.getElementById('moves').innerText");
    assert!(
        text.as_str().unwrap().trim_start().starts_with("1."),
        "{text}"
    );
    // From a position with Black to move: "1… Black", then "2. White Black".
    post_ok(&gui, "/api/load", json!({"text": "Wc5c6d6 b 1"}));
    for m in ["f5f6f7", "m5m6n6", "p10p11q11"] {
        post_ok(&gui, "/api/move", json!({ "move": m }));
    }
    b.wait_js(
        "return state.moves.length === 3 && document.querySelector(\"#moves span[data-ply='3']\")",
        LONG,
        "the moves from Black's start",
    );
    let (b1, w2, b2) = (geo(1), geo(2), geo(3));
    assert!(
        (b1[0] - b2[0]).abs() < 2.0 && b1[0] > w2[0] + 10.0,
        "Black's moves in Black's column: {b1:?} {w2:?} {b2:?}"
    );
    assert!((w2[1] - b2[1]).abs() < 2.0, "2. White Black on one line");
    let text = b.js("return document.getElementById('moves').innerText");
    let text = text.as_str().unwrap().trim_start().to_string();
    assert!(text.starts_with("1…") && text.contains("2."), "{text}");
}

// ----- what players expect -----

#[test]
fn resign_abort_and_the_draw_rule_from_the_page() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 0, "time": {"movetime": 50}}),
    );
    open(&b, &gui);
    // Abort before the second move.
    b.wait_js(
        "return !document.getElementById('btn-abort').disabled",
        LONG,
        "Abort enabled",
    );
    b.click(&b.find("#btn-abort"));
    gui.wait_state(LONG, "the abort", |s| s["game_over"]["reason"] == "aborted");
    b.wait_js(
        "const e = document.getElementById('gameover'); return !e.hidden && /abort/i.test(e.textContent)",
        LONG,
        "the aborted game on the page",
    );
    // Resign after a few moves.
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 0, "time": {"movetime": 50}}),
    );
    click_a_drop(&b, 1);
    gui.wait_state(LONG, "the reply", |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    b.wait_js(
        "return !document.getElementById('btn-resign').disabled && document.getElementById('btn-abort').hidden",
        LONG,
        "Resign enabled, Abort gone",
    );
    // The draw rule: PÜNCT has no draw by agreement; the page says why.
    b.click(&b.find("#btn-draw"));
    b.wait_js(
        "return /draw by agreement/.test(document.getElementById('message').textContent)",
        LONG,
        "the draw rule",
    );
    b.click(&b.find("#btn-resign"));
    b.accept_dialog();
    let s = gui.wait_state(LONG, "the resignation", |s| {
        s["game_over"]["reason"] == "resignation"
    });
    assert_eq!(s["game_over"]["winner"], "black");
    b.wait_js(
        "const e = document.getElementById('gameover'); return !e.hidden && /resign/.test(e.textContent)",
        LONG,
        "the resignation on the page",
    );
}

#[test]
fn your_move_is_signalled_black_is_turned_and_low_time_warned() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human"}),
    );
    open(&b, &gui);
    // The human sits down with Black against the engine: the board turns, and the engine's
    // first move makes it "your move" with a tone.
    post_ok(
        &gui,
        "/api/new",
        json!({"white": 0, "black": "human", "time": {"movetime": 50}}),
    );
    b.wait_js(
        "return state.moves.length === 1 && document.title === '● Your move — PÜNCT'",
        LONG,
        "the title on your move",
    );
    assert_eq!(
        b.js("return [document.querySelector('#board svg').dataset.flipped, document.getElementById('player-black').classList.contains('bottom')]"),
        json!(["true", true]),
        "the board turned for Black"
    );
    assert_eq!(b.js("return window.punctSounds.includes('move')"), true);
    // Low time: the clock turns red and a tone plays, once.
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human", "time": {"base": 8000, "inc": 0}}),
    );
    let s = gui.state();
    let drop = s["legal"]["drops"]["T"][0].as_str().unwrap().to_string();
    post_ok(&gui, "/api/move", json!({ "move": drop }));
    b.wait_js(
        "return document.getElementById('clock-black').classList.contains('low') && window.punctSounds.includes('low')",
        LONG,
        "the low-time warning",
    );
    assert_eq!(b.js("return document.title"), "PÜNCT");
}

#[test]
fn confirmation_shortcuts_dark_theme_and_rules() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": "human"}),
    );
    open(&b, &gui);
    // With "confirm moves", a click shows the move and ✓ plays it.
    b.click(&b.find("#opt-confirm"));
    let mv = click_a_drop(&b, 2);
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(
        gui.state()["moves"],
        json!([]),
        "a click played with confirmation on"
    );
    assert_eq!(b.js(GHOST), json!(mv), "the move waits for ✓");
    b.hover_click_css("#btn-place");
    gui.wait_state(LONG, "the confirmed move", |s| s["moves"] == json!([mv]));
    b.click(&b.find("#opt-confirm"));
    // Keys: F flips, U undoes, N starts a new game (asking while one is going on).
    let flipped = "return document.querySelector('#board svg').dataset.flipped";
    b.js("document.activeElement.blur(); return 1");
    b.key("f");
    b.wait_js(&format!("{flipped} === 'true'"), LONG, "F to flip");
    b.key("f");
    b.wait_js(&format!("{flipped} === 'false'"), LONG, "F to flip back");
    b.key("u");
    gui.wait_state(LONG, "U to undo", |s| s["moves"] == json!([]));
    let s = gui.state();
    let drop = s["legal"]["drops"]["T"][0].as_str().unwrap().to_string();
    post_ok(&gui, "/api/move", json!({ "move": drop }));
    b.wait_js(
        "return state.moves.length === 1",
        LONG,
        "the move on the page",
    );
    b.key("n");
    b.accept_dialog();
    gui.wait_state(LONG, "N for a new game", |s| s["moves"] == json!([]));
    let keys = text_of(&b, "keys-help");
    assert!(
        keys.contains("F flips") && keys.contains("U undoes") && keys.contains("N starts"),
        "{keys}"
    );
    // The rules and the pieces, L and R explained.
    let rules = text_of(&b, "rules-body");
    assert!(
        rules.contains("L-angular")
            && rules.contains("mirror")
            && rules.contains("central hexagon"),
        "{rules}"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#rules-body svg').length"),
        6
    );
    // The dark theme: a toggle, remembered; by default it follows the system's choice.
    b.click(&b.find("#btn-theme"));
    let dark = "return document.body.classList.contains('dark')";
    assert_eq!(b.js(dark), true);
    open(&b, &gui);
    assert_eq!(b.js(dark), true, "the theme is remembered");
    b.screenshot(&artifacts().join("15-dark.png"));
    b.js("localStorage.removeItem('punct-theme'); return 1");
    for (scheme, want) in [("dark", true), ("light", false)] {
        cdp(
            &b,
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
        );
        open(&b, &gui);
        assert_eq!(b.js(dark), want, "prefers-color-scheme: {scheme}");
    }
}
