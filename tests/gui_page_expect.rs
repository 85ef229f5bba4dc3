//! `punct-gui`'s page with what players expect of a board they trust (issue 46, "what players
//! expect" 3-8), in headless Chromium at laptop (1366x768, mouse) and phone (390x844, touch)
//! sizes: a game-over summary that hides nothing and the counted centre marked, readable
//! analysis lines, the engine seen thinking beside the board, and the leftovers (a review of
//! an earlier game, the phone's evaluation label, Pause and Hint after the game, Restart for a
//! healthy engine, a double click on Undo, the hand's letters, the rules within reach, a
//! 400-px window). Item 1 (the phone's game and review) is `gui_page_phone`; items 2 and 6
//! (clocks) are in `gui_page_trust::clocks_tell_the_truth`.
//!
//! Each test failed on the page before issue 46 (`PUNCT_GUI_ASSETS=DIR`).

use crate::gui_browser::{artifacts, click_a_drop, connection_game, open, random_game_ending};
use crate::gui_common::{Browser, MOCK};
use crate::gui_page::{humans, laptop, phone, post_ok, random_moves, start, text_of, LONG};
use crate::gui_page_trust::{overlap, rect};

use std::time::Duration;

use punct::{EndReason, Variant};
use serde_json::{json, Value};

/// A seeded random game of the standard variant that ends on the centre count: its moves and
/// the counts of its last position, by the rules library.
fn centre_count_game() -> (Vec<String>, [u8; 2]) {
    let (moves, p) = random_game_ending(Variant::Standard, 46, 500, |r| {
        matches!(r, EndReason::CentreCount { .. })
    })
    .expect("no random game ended on the centre count");
    (moves, p.centre_count())
}

/// Item 3: the game-over box covered the centre that decided the game, the counted dots were
/// not marked, and on a phone the centre-count line was below the fold. The box now stands
/// beside the board (laptop) or under it (phone), in view, and the counted dots are ringed.
#[test]
fn the_end_of_the_game_hides_nothing_and_the_counted_centre_is_marked() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    let (moves, [w, bl]) = centre_count_game();
    humans(&gui);
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    for device in ["laptop", "phone"] {
        if device == "laptop" {
            laptop(&b);
        } else {
            phone(&b);
        }
        open(&b, &gui);
        b.wait_js(
            "const e = document.getElementById('gameover'); return !e.hidden && e.getClientRects().length",
            LONG,
            "the game-over summary",
        );
        let marks = b.js(
            "return ['white', 'black'].map((s) => document.querySelectorAll(`#overlay .centre-mark[data-side='${s}']`).length)",
        );
        assert_eq!(marks, json!([w, bl]), "{device}: the counted dots ringed");
        let board = rect(&b, "#board svg");
        let summary = rect(&b, "#gameover");
        assert!(
            !overlap(board, summary),
            "{device}: the summary covers the board: {board:?} {summary:?}"
        );
        let ih = b.js("return innerHeight").as_f64().unwrap();
        assert!(
            summary[1] >= 0.0 && summary[3] <= ih + 0.5,
            "{device}: the summary is out of view: {summary:?} in {ih}"
        );
        let text = text_of(&b, "gameover");
        assert!(text.contains(&format!("{w} to {bl}")), "{device}: {text}");
        b.screenshot(&artifacts().join(format!("23-centre-count-{device}.png")));
    }
    // A connection: the summary leaves the board (and its chain) in view too.
    let (variant, moves) = connection_game();
    post_ok(&gui, "/api/new", json!({"variant": variant.name()}));
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    laptop(&b);
    open(&b, &gui);
    b.wait_js(
        "const e = document.getElementById('gameover'); return !e.hidden && e.getClientRects().length",
        LONG,
        "the summary of the connection",
    );
    assert!(!overlap(rect(&b, "#board svg"), rect(&b, "#gameover")));
}

/// Item 4: each analysis line wrapped to 6-7 lines in a narrow column on a laptop. The PV has
/// the width: two lines at most, nodes and speed on hover.
#[test]
fn analysis_lines_are_readable_on_a_laptop() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(
        &gui,
        "/api/load",
        json!({"text": random_moves(12, 10, Variant::Standard).join(" ")}),
    );
    open(&b, &gui);
    b.clear_and_type(&b.find("#ana-multipv"), "2");
    b.hover_click_css("#btn-analyse");
    b.wait_js(
        "const rows = document.querySelectorAll('#info tbody tr'); return rows.length === 2 && \
         [...rows].every((r) => r.querySelector('td.pv').textContent.split(' ').length >= 6)",
        Duration::from_secs(30),
        "two analysis lines of 6 moves or more",
    );
    let g = b.js(
        "const td = document.querySelector('#info td.pv'); const lh = parseFloat(getComputedStyle(td).lineHeight) || 16; \
         return {w: td.getBoundingClientRect().width, rows: [...document.querySelectorAll('#info tbody tr')].map((r) => r.getBoundingClientRect().height), lh: lh, title: document.querySelector('#info tbody tr').title}",
    );
    b.screenshot(&artifacts().join("24-analysis-laptop.png"));
    b.hover_click_css("#btn-analyse");
    let lh = g["lh"].as_f64().unwrap();
    eprintln!("analysis lines at 1366x768: {g}");
    // The PV gets the width the nodes and nps columns had (250 px before).
    assert!(g["w"].as_f64().unwrap() >= 380.0, "the PV column: {g}");
    for h in g["rows"].as_array().unwrap() {
        assert!(
            h.as_f64().unwrap() <= 2.0 * lh + 8.0,
            "a line of more than two lines: {g}"
        );
    }
    assert!(g["title"].as_str().unwrap().contains("nodes"), "{g}");
}

/// Item 5: the only sign of the engine thinking was in the engine box far down the right
/// column. Its own block, beside the board, says so while it thinks (laptop and phone).
#[test]
fn the_engine_is_seen_thinking_beside_the_board() {
    let Some((_one, gui, b)) = start(&[
        "--engine",
        &format!("cmd={MOCK}"),
        "name=slow",
        "arg=--mode",
        "arg=slow",
        "arg=--delay-ms",
        "arg=2500",
    ]) else {
        return;
    };
    let thinking = "const t = document.querySelector('#player-black .think'); const r = t.getBoundingClientRect(); \
        return t.classList.contains('on') && /thinking/.test(t.textContent) && r.top >= 0 && r.bottom <= innerHeight && r.width > 0";
    for device in ["laptop", "phone"] {
        post_ok(
            &gui,
            "/api/new",
            json!({"white": "human", "black": 1, "time": {"movetime": 3000}}),
        );
        if device == "laptop" {
            laptop(&b);
            open(&b, &gui);
            click_a_drop(&b, 3);
        } else {
            phone(&b);
            open(&b, &gui);
            b.tap_css("#hand-white button[data-kind='T']");
            let cell = b.wait_js(
                "return sel.kind && state.legal.drops.T[5].match(/[a-q]\\d{1,2}/g)[0]",
                LONG,
                "the kind tapped",
            );
            b.tap_css(&format!(
                "#board svg polygon[data-cell='{}']",
                cell.as_str().unwrap()
            ));
            b.wait_js(
                "return document.querySelector('#overlay .ghost')",
                LONG,
                "the piece shown",
            );
            b.tap_css("#btn-place");
        }
        b.wait_js(
            thinking,
            LONG,
            &format!("{device}: thinking in Black's block"),
        );
        let near = b.js(
            "const t = document.querySelector('#player-black .think').getBoundingClientRect(); \
             const bd = document.querySelector('#board svg').getBoundingClientRect(); \
             return Math.min(Math.abs(t.top - bd.bottom), Math.abs(t.bottom - bd.top), Math.abs(t.left - bd.right), Math.abs(t.right - bd.left))",
        );
        assert!(
            near.as_f64().unwrap() < 260.0,
            "{device}: far from the board: {near}"
        );
        b.screenshot(&artifacts().join(format!("25-thinking-{device}.png")));
        gui.wait_state(Duration::from_secs(15), "the reply", |s| {
            s["moves"].as_array().unwrap().len() == 2
        });
        b.wait_js(
            "return state.moves.length === 2 && !document.querySelector('#player-black .think').classList.contains('on')",
            LONG,
            "no thinking after the reply",
        );
    }
}

/// Item 7 and item 8: the leftovers. The review box's "an earlier game" stayed through later
/// games; the phone's evaluation label was a tiny clipped number; Pause and Hint stayed enabled
/// after the game; Restart was offered for a healthy engine; a double click on Undo took back
/// two moves; the hand's buttons had no letters; the rules were 1,000 px down; a 400-px desktop
/// window scrolled sideways.
#[test]
fn the_leftovers_are_gone() {
    let Some((_one, gui, b)) = start(&["--engine", "cmd=/nonexistent/engine", "name=broken"])
    else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(
        &gui,
        "/api/load",
        json!({"text": random_moves(4, 3, Variant::Standard).join(" ")}),
    );
    open(&b, &gui);
    // A review, then a new game: nothing of it stays.
    b.clear_and_type(&b.find("#review-time"), "0.05");
    b.hover_click_css("#btn-review");
    b.wait_js(
        "return state.review && !state.review.running && state.review.done === 4",
        Duration::from_secs(30),
        "the review",
    );
    b.hover_click_css("#btn-new");
    b.wait_js("return state.moves.length === 0", LONG, "the new game");
    post_ok(&gui, "/api/move", json!({"move": "c5c6d6"}));
    b.wait_js("return state.moves.length === 1", LONG, "a move");
    assert_eq!(
        text_of(&b, "review-info"),
        "",
        "the review of an earlier game stays"
    );
    // A double click on Undo takes back one move.
    for m in ["f5f6f7", "m5m6n6"] {
        post_ok(&gui, "/api/move", json!({ "move": m }));
    }
    b.wait_js("return state.moves.length === 3", LONG, "three moves");
    b.double_click_css("#btn-undo");
    std::thread::sleep(Duration::from_millis(900));
    assert_eq!(
        gui.state()["moves"].as_array().unwrap().len(),
        2,
        "a double click undid twice"
    );
    // Restart only for the engine that failed.
    post_ok(&gui, "/api/engine/start", json!({"engine": 1}));
    b.wait_js(
        "return state.engines[1].state === 'failed' && state.engines[0].state === 'ready'",
        LONG,
        "the broken engine failed",
    );
    let restarts = b.js(
        "return [...document.querySelectorAll('#engines .engine')].map((r) => !!r.querySelector('.restart'))",
    );
    assert_eq!(
        restarts,
        json!([false, true]),
        "Restart offered to: {restarts}"
    );
    // The hand's buttons carry their letters.
    let letters = b.js(
        "return [...document.querySelectorAll('#hand-white button')].map((e) => e.dataset.kind === e.querySelector('.k').textContent && e.textContent.startsWith(e.dataset.kind))",
    );
    assert_eq!(
        letters,
        json!([true, true, true, true, true, true]),
        "{letters}"
    );
    // After the game: no Pause, no Hint.
    let (variant, moves) = connection_game();
    post_ok(&gui, "/api/new", json!({"variant": variant.name()}));
    post_ok(&gui, "/api/load", json!({"text": moves.join(" ")}));
    post_ok(&gui, "/api/pause", json!({"paused": false}));
    b.wait_js(
        "return !!state.game_over && !state.paused",
        LONG,
        "the finished game",
    );
    let off = b.js(
        "return [document.getElementById('btn-pause').disabled, document.getElementById('btn-hint').disabled]",
    );
    assert_eq!(off, json!([true, true]), "Pause, Hint after the game");
    // The rules: a button in the first screen opens them over the page (laptop and phone).
    for device in ["laptop", "phone"] {
        if device == "phone" {
            phone(&b);
            open(&b, &gui);
            // The summary's sheet lies over the buttons until closed.
            b.tap_css("#gameover-close");
            b.tap_css("#btn-rules");
        } else {
            b.hover_click_css("#btn-rules");
        }
        let v = b.wait_js(
            "const d = document.getElementById('rules'); const r = d.getBoundingClientRect(); \
             return d.open && r.top >= 0 && r.top < innerHeight - 100 && /L-angular/.test(d.textContent) && r.height",
            LONG,
            "the rules open in view",
        );
        assert!(v.as_f64().unwrap() > 100.0, "{device}: {v}");
        if device == "phone" {
            b.tap_css("#rules-close");
        } else {
            b.hover_click_css("#rules-close");
        }
        b.wait_js(
            "return !document.getElementById('rules').open",
            LONG,
            "the rules closed",
        );
    }
    // The phone's evaluation: a readable label, not clipped.
    b.js("lastEval = {cp: -1234, text: '-12.34'}; document.getElementById('opt-evalbar').checked = true; renderEvalBar(); return 1");
    let label = b.js(
        "const t = document.getElementById('evalbar-text'); const r = t.getBoundingClientRect(); \
         const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); \
         return {size: parseFloat(getComputedStyle(t).fontSize), w: r.width, sw: t.scrollWidth, cw: t.clientWidth, \
                 seen: hit === t, inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0, text: t.textContent}",
    );
    b.screenshot(&artifacts().join("26-phone-eval.png"));
    assert!(label["size"].as_f64().unwrap() >= 12.0, "{label}");
    assert_eq!(
        label["seen"], true,
        "the label is hidden or clipped: {label}"
    );
    assert_eq!(label["inside"], true, "{label}");
    assert!(
        label["sw"].as_f64() <= label["cw"].as_f64().map(|c| c + 1.0),
        "{label}"
    );
    // A desktop window 400 px wide, with a classic scrollbar: no sideways scroll.
    let b2 = Browser::start(
        &crate::gui_browser::browser_programs().unwrap().0,
        &crate::gui_browser::browser_programs().unwrap().1,
    );
    b2.set_window(400, 800);
    open(&b2, &gui);
    b2.js(
        "const s = document.createElement('style'); s.textContent = '::-webkit-scrollbar { width: 15px; height: 15px; } ::-webkit-scrollbar-thumb { background: #999; }'; \
         document.head.appendChild(s); return 1",
    );
    std::thread::sleep(Duration::from_millis(300));
    let w = b2.js(
        "const d = document.documentElement; return [d.scrollWidth, d.clientWidth, innerWidth]",
    );
    let w: Vec<f64> = serde_json::from_value(w).unwrap();
    assert!(w[2] - w[1] >= 10.0, "no scrollbar to test with: {w:?}");
    assert!(w[0] <= w[1], "the page scrolls sideways: {w:?}");
}

/// Item 7, with bug 7 on the page: a mate allowed in a position lost already is said so, and
/// is no blunder.
#[test]
fn a_mate_allowed_in_a_lost_game_is_said_so() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    laptop(&b);
    humans(&gui);
    post_ok(
        &gui,
        "/api/load",
        json!({"text": random_moves(8, 4, Variant::Standard).join(" ")}),
    );
    open(&b, &gui);
    b.hover_click_css("#moves span[data-ply='3']");
    b.wait_js("return state.cursor === 3", LONG, "move 3");
    let evals: Vec<Value> = (0..5)
        .map(|i| match i {
            0..=2 => json!({"cp": -1211, "text": "-12.11", "depth": 5, "best": "c5c6d6"}),
            _ => json!({"cp": -9997, "text": "-M3", "depth": 5, "best": "c5c6d6"}),
        })
        .collect();
    let mut marks: Vec<Value> = (0..4)
        .map(|_| json!({"class": null, "drop": 0.0, "better": null}))
        .collect();
    marks[2] = json!({"class": "inaccuracy", "drop": 0.011, "better": "c5c6d6"});
    let review = json!({"current": true, "engine": "punct", "movetime": 50, "total": 5, "done": 5,
        "running": false, "error": null, "evals": evals, "marks": marks});
    b.js(&format!(
        "render(Object.assign({{}}, state, {{review: {review}}})); return 1"
    ));
    let note = b.wait_js(
        "const e = document.getElementById('review-note'); return !e.hidden && e.textContent",
        LONG,
        "the note",
    );
    let note = note.as_str().unwrap();
    assert!(
        note.contains("forced mate") && note.contains("lost already") && !note.contains("blunder"),
        "{note}"
    );
}
