//! The level picker on the page (issue 45, item 4): on a laptop with a mouse, Black's block
//! opens punct's levels (each with the Elo punct announces), a whole game is played by clicks
//! against the lowest, the block shows the level, the PGN claims its Elo, and a reload keeps
//! it; on a phone the picker opens by a tap inside the screen; an engine without the options
//! offers no choice and says why.
//!
//! `PUNCT_GUI_ASSETS=DIR` runs these against another page (the page before the picker has no
//! `.level` button: they fail).

use crate::gui_browser::{artifacts, click_a_drop, open};
use crate::gui_common::{Browser, MOCK};
use crate::gui_page::{laptop, phone, post_ok, start, LONG};

use std::time::Duration;

use serde_json::{json, Value};

const BLACK_LEVEL: &str = "#player-black .level";

/// The level button of Black's block: shown, its text and whether it offers a choice.
fn black_button(b: &Browser) -> Value {
    b.js(&format!(
        "const e = document.querySelector('{BLACK_LEVEL}'); \
         return {{shown: !e.hidden && e.getClientRects().length > 0, text: e.textContent, \
                  shown_text: e.innerText, fits: e.scrollWidth <= e.clientWidth, disabled: e.getAttribute('aria-disabled'), title: e.title}}"
    ))
}

/// The menu's choices as shown: `[step, text]`, strongest first; and whether it lies wholly
/// inside the window.
fn menu(b: &Browser) -> Value {
    b.wait_js(
        "const m = document.getElementById('level-menu'); if (m.hidden) return null; \
         const r = m.getBoundingClientRect(); \
         return {inside: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth, \
                 items: [...m.querySelectorAll('button')].map((x) => [x.dataset.step, x.textContent])}",
        LONG,
        "the level menu",
    )
}

#[test]
fn a_game_against_a_low_level_chosen_with_the_mouse_and_kept_on_reload() {
    let Some((_one, gui, b)) = start(&[]) else {
        return;
    };
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 0, "variant": "standard", "time": {"movetime": 50}}),
    );
    let levels = gui.wait_state(LONG, "punct's options", |s| {
        s["engines"][0]["options_known"] == true
    })["engines"][0]["levels"]
        .clone();
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), 8, "{levels:?}");
    laptop(&b);
    open(&b, &gui);
    let v = black_button(&b);
    assert_eq!(v["shown"], true, "{v}");
    // At laptop size the button has room for the level in full.
    assert_eq!(v["shown_text"], "full strength ▾", "{v}");
    assert_eq!(v["fits"], true, "{v}");
    // White is a person: no level there.
    assert_eq!(
        b.js("return document.querySelector('#player-white .level').hidden"),
        true
    );
    b.hover_click_css(BLACK_LEVEL);
    let m = menu(&b);
    assert_eq!(m["inside"], true, "{m}");
    // Full strength, then the eight levels from the top, each with the Elo punct announced.
    let items = m["items"].as_array().unwrap();
    assert_eq!(items.len(), 9, "{m}");
    assert_eq!(items[0][0], "full");
    for (item, level) in items[1..].iter().zip(levels.iter().rev()) {
        assert_eq!(item[0], level["step"].to_string(), "{m}");
        let text = item[1].as_str().unwrap();
        let (name, elo) = (
            level["name"].as_str().unwrap(),
            level["elo"].as_i64().unwrap(),
        );
        assert!(
            text.contains(name) && text.contains(&format!("Elo {elo}")),
            "{text}"
        );
    }
    b.screenshot(&artifacts().join("40-levels-menu.png"));
    b.hover_click_css(&format!("{} button[data-step='1']", "#level-menu"));
    let lowest = &levels[0];
    let label = lowest["label"].as_str().unwrap().to_string();
    gui.wait_state(LONG, "the level chosen", |s| {
        s["levels"] == json!([null, 1])
    });
    b.wait_js(
        &format!(
            "return document.querySelector('{BLACK_LEVEL}').textContent.startsWith({}) && document.getElementById('level-menu').hidden",
            json!(label)
        ),
        LONG,
        "the level in Black's block",
    );
    // A whole game by clicks against it.
    for i in 0..60 {
        let s = b.wait_js(
            "return state && !window.punctPending && (state.game_over ? 'over' : state.at_end && state.can_move && state.side === 'white' ? 'move' : '')",
            Duration::from_secs(30),
            "White's turn or the end",
        );
        if s == "over" {
            break;
        }
        click_a_drop(&b, i);
    }
    let s = gui.state();
    assert!(
        !s["game_over"].is_null(),
        "the game did not end in 60 moves"
    );
    let elo = lowest["elo"].as_i64().unwrap();
    let pgn = gui.get("/api/pgn").text();
    assert!(
        pgn.contains(&format!(
            "[BlackElo \"{elo}\"]\n[BlackLevel \"UCI_Elo {elo}\"]"
        )),
        "{pgn}"
    );
    // A reload keeps it, and so does the next game.
    open(&b, &gui);
    let v = black_button(&b);
    assert!(v["text"].as_str().unwrap().starts_with(&label), "{v}");
    post_ok(&gui, "/api/new", json!({}));
    assert_eq!(gui.state()["levels"], json!([null, 1]));
    // The page remembers it for a server started again (which has full strength).
    assert_eq!(
        b.js("return localStorage.getItem('punct-levels')"),
        json!("[null,1]")
    );
}

#[test]
fn on_a_phone_the_levels_open_by_a_tap_and_an_engine_without_them_says_why() {
    let Some((_one, gui, b)) = start(&["--engine", &format!("cmd={MOCK}"), "name=mock"]) else {
        return;
    };
    post_ok(
        &gui,
        "/api/new",
        json!({"white": "human", "black": 0, "time": {"movetime": 50}}),
    );
    gui.wait_state(LONG, "punct's options", |s| {
        s["engines"][0]["options_known"] == true
    });
    phone(&b);
    open(&b, &gui);
    b.wait_js("return innerWidth === 390", LONG, "the phone");
    b.tap_css(BLACK_LEVEL);
    let m = menu(&b);
    assert_eq!(m["inside"], true, "the menu leaves the screen: {m}");
    // Each choice is finger-sized.
    let small = b.js(
        "return [...document.querySelectorAll('#level-menu button')].filter((x) => x.getBoundingClientRect().height < 40).length",
    );
    assert_eq!(small, 0);
    b.screenshot(&artifacts().join("41-phone-levels.png"));
    // On a phone the button names the step alone, and all of it fits.
    let v = black_button(&b);
    assert_eq!(v["shown_text"], "Full ▾", "{v}");
    assert_eq!(v["fits"], true, "{v}");
    b.tap_css("#level-menu button[data-step='3']");
    gui.wait_state(LONG, "the level tapped", |s| {
        s["levels"] == json!([null, 3])
    });
    let label = gui.state()["level_labels"][1].as_str().unwrap().to_string();
    b.wait_js(
        &format!(
            "return document.querySelector('{BLACK_LEVEL}').textContent.startsWith({})",
            json!(label)
        ),
        LONG,
        "the level in Black's block",
    );
    let v = black_button(&b);
    let name = label.split(" · ").next().unwrap();
    assert_eq!(v["shown_text"], format!("{name} ▾"), "{v}");
    assert_eq!(v["fits"], true, "{v}");
    // It plays at it: the engine's reply comes.
    click_a_drop(&b, 4);
    gui.wait_state(Duration::from_secs(30), "the reply", |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    // The mock engine has no level options: no choice, and a tap says why.
    post_ok(&gui, "/api/new", json!({"white": "human", "black": 1}));
    gui.wait_state(LONG, "the mock's options", |s| {
        s["engines"][1]["options_known"] == true
    });
    b.wait_js(
        &format!("return document.querySelector('{BLACK_LEVEL}').getAttribute('aria-disabled') === 'true'"),
        LONG,
        "no levels for the mock",
    );
    let v = black_button(&b);
    assert!(
        v["title"].as_str().unwrap().contains("no strength levels"),
        "{v}"
    );
    b.tap_css(BLACK_LEVEL);
    b.wait_js(
        "return document.getElementById('level-menu').hidden && /no strength levels/.test(document.body.textContent)",
        LONG,
        "why the mock has no levels",
    );
}
