//! A whole game on a phone (390x844, touch), played and then reviewed move by move, without
//! the board ever leaving the screen (issue 46, item 1 and its "done when"): ◀ ▶ under the
//! board, the moves as a strip there, the review's note, its graph and the analysis' best line
//! next to them; the page never scrolls.

use crate::gui_browser::{artifacts, open};
use crate::gui_common::Browser;
use crate::gui_page::{phone, post_ok, start, LONG};
use crate::gui_page_trust::{overlap, rect};

use std::time::Duration;

use serde_json::{json, Value};

/// A script that sets `view`: whether the board, and each element of `ids` shown now, lie
/// wholly in the window, which has not scrolled, and the current move of the strip is in its
/// box (and whether the review's note shows).
fn in_view_js(ids: &[&str]) -> String {
    format!(
        "const ih = innerHeight, iw = innerWidth; const inside = (r) => r.top >= -0.5 && r.bottom <= ih + 0.5 && r.left >= -0.5 && r.right <= iw + 0.5; \
         const bd = document.querySelector('#board svg').getBoundingClientRect(); \
         const out = {}.filter((id) => {{ const e = document.getElementById(id); return e && !e.hidden && e.getClientRects().length && !inside(e.getBoundingClientRect()); }}); \
         const m = document.getElementById('moves'), c = m.querySelector('.cur'); \
         const mr = m.getBoundingClientRect(), cr = c ? c.getBoundingClientRect() : null; \
         const view = {{y: scrollY, board: inside(bd), out: out, cur: !cr || (cr.left >= mr.left - 1 && cr.right <= mr.right + 1 && inside(cr)), \
           note: !document.getElementById('review-note').hidden}};",
        json!(ids)
    )
}

fn check_view(v: &Value, what: &str) {
    assert_eq!(v["y"], 0, "{what}: the page scrolled: {v}");
    assert_eq!(v["board"], true, "{what}: the board left the screen: {v}");
    assert_eq!(v["out"], json!([]), "{what}: out of view: {v}");
    assert_eq!(
        v["cur"], true,
        "{what}: the move shown is out of the strip: {v}"
    );
}

fn all_in_view(b: &Browser, ids: &[&str], what: &str) {
    check_view(&b.js(&format!("{} return view", in_view_js(ids))), what);
}

#[test]
fn on_a_phone_a_whole_game_is_played_and_reviewed_with_the_board_in_view() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 0, "variant": "standard", "time": {"movetime": 50}}),
    );
    phone(&b);
    open(&b, &gui);
    b.wait_js("return innerWidth === 390", LONG, "the phone");
    // Settings, not play: the review's time per position.
    b.js("document.getElementById('review-time').value = '0.05'; return 1");
    let play = [
        "status",
        "player-black",
        "player-white",
        "btn-place",
        "tool-prev",
        "tool-next",
    ];
    let mut human_moves = 0;
    for i in 0..40 {
        let s = b.wait_js(
            "return state && !window.punctPending && (state.game_over ? 'over' : state.at_end && state.can_move && state.side === 'white' ? 'move' : '')",
            Duration::from_secs(30),
            "the human's turn or the end",
        );
        if s == "over" {
            break;
        }
        // A kind, a green dot (the piece shows), ✓: all by taps.
        let pick = b.js(&format!(
            "const d = state.legal.drops; const ks = Object.keys(d).filter((k) => d[k].length); \
             const k = ks[{i} % ks.length]; const p = d[k][({i} * 31) % d[k].length]; return [k, p.match(/[a-q]\\d{{1,2}}/g)[0]]"
        ));
        let (kind, cell) = (pick[0].as_str().unwrap(), pick[1].as_str().unwrap());
        b.tap_css(&format!("#hand-white button[data-kind='{kind}']"));
        b.tap_css(&format!("#board svg polygon[data-cell='{cell}']"));
        let v = b.wait_js(
            &format!(
                "{} return document.querySelector('#overlay .ghost') && view",
                in_view_js(&play)
            ),
            LONG,
            "the piece shown",
        );
        check_view(&v, &format!("move {}", human_moves + 1));
        // ✓ sends the move; the next turn waits for its answer and the engine's reply.
        b.tap_css("#btn-place");
        human_moves += 1;
        if human_moves == 3 {
            b.screenshot(&artifacts().join("30-phone-play.png"));
        }
    }
    let s = gui.state();
    assert!(
        !s["game_over"].is_null(),
        "the game did not end in 40 moves"
    );
    let plies = s["moves"].as_array().unwrap().len();
    assert!(human_moves >= 3, "{human_moves} moves");
    // The end: the summary is in view under the board, and offers the review.
    b.wait_js(
        "const e = document.getElementById('gameover'); return !e.hidden && e.getClientRects().length",
        LONG,
        "the game-over summary",
    );
    all_in_view(&b, &["gameover", "gameover-review"], "the end");
    assert!(!overlap(rect(&b, "#board svg"), rect(&b, "#gameover")));
    b.screenshot(&artifacts().join("31-phone-over.png"));
    b.tap_css("#gameover-review");
    b.wait_js(
        &format!(
            "return state.review && !state.review.running && state.review.done === {}",
            plies + 1
        ),
        Duration::from_secs(60),
        "the review",
    );
    // Back to the first move: the strip swiped to its start, a tap on move 1.
    b.js("document.getElementById('moves').scrollLeft = 0; return 1");
    b.tap_css("#moves span[data-ply='1']");
    b.wait_js("return state.cursor === 1", LONG, "move 1");
    let review = ["tool-prev", "tool-next", "review-note", "graph", "status"];
    all_in_view(&b, &review, "move 1");
    let mut noted = 0;
    for ply in 2..=plies {
        b.tap_css("#tool-next");
        let v = b.wait_js(
            &format!(
                "{} return state.cursor === {ply} && view",
                in_view_js(&review)
            ),
            LONG,
            "the next move",
        );
        check_view(&v, &format!("review, move {ply}"));
        if v["note"] == true {
            noted += 1;
            if noted == 1 {
                b.screenshot(&artifacts().join("32-phone-review-note.png"));
            }
        }
        if ply == 4 {
            // The analysis' best line, under the board too.
            b.tap_css("#tool-analyse");
            b.wait_js(
                "const e = document.getElementById('ana-brief'); return !e.hidden && e.textContent.length > 5",
                Duration::from_secs(20),
                "the analysis line under the board",
            );
            all_in_view(&b, &["ana-brief", "tool-analyse"], "analysis");
            b.screenshot(&artifacts().join("33-phone-analysis.png"));
            b.tap_css("#tool-analyse");
            b.wait_js("return !state.analysis.on", LONG, "the analysis stopped");
        }
    }
    eprintln!("phone game: {plies} plies, {human_moves} by taps, {noted} moves with a review note");
}
