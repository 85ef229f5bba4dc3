//! The game review and the hint: an engine evaluates every position of the game, or the one
//! shown, on a thread of its own (the analysis itself is `referee::review`, shared with
//! `punct-referee review`); the results land in the shared [`App`](crate::gui::app::App).

/// Starts a review of the game (every position evaluated by engine `engine` for `movetime` ms)
/// in its own thread with its own engine process, or stops it (`"on": false`). Each evaluation
/// is pushed to the page as it comes.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::gui::app::{lock, Review, Shared};
use crate::rules::notation::position_to_string;

/// The message while a review runs.
fn a_message(engine: &str, movetime: u64) -> String {
    format!("reviewing the game with {engine} at {movetime} ms a position")
}

pub fn start_review(app: &Shared, req: &Value) -> Result<(), String> {
    let mut a = lock(app);
    if let Some(r) = &a.review {
        r.cancel.store(true, Ordering::SeqCst);
    }
    if req.get("on").and_then(Value::as_bool) == Some(false) {
        let mut done = None;
        if let Some(r) = &mut a.review {
            if r.running {
                done = Some((r.evals.len(), r.moves.len() + 1));
            }
            r.running = false;
        }
        if let Some((n, total)) = done {
            a.message = format!("review stopped after {n} of {total} positions");
        }
        a.changed_view();
        return Ok(());
    }
    if let Some(why) = a.help_refused() {
        return Err(why);
    }
    let engine = req.get("engine").and_then(Value::as_u64).unwrap_or(0) as usize;
    let cfg = a.full_strength_config(engine).ok_or("no such engine")?;
    let movetime = req.get("movetime").and_then(Value::as_u64).unwrap_or(500);
    if !(10..=600_000).contains(&movetime) {
        return Err("movetime is 10 ms .. 10 minutes".into());
    }
    let id = a.review.as_ref().map_or(1, |r| r.id + 1);
    let start = a.game.start_position().clone();
    let moves: Vec<String> = a.game.moves().iter().map(|m| m.to_string()).collect();
    let cancel = Arc::new(AtomicBool::new(false));
    a.review = Some(Review {
        id,
        start: position_to_string(&start),
        moves: moves.clone(),
        engine: cfg.name.clone(),
        movetime_ms: movetime,
        evals: Vec::new(),
        running: true,
        error: None,
        cancel: cancel.clone(),
    });
    a.message = a_message(&cfg.name, movetime);
    a.changed_view();
    drop(a);
    let app = app.clone();
    let review_message = a_message(&cfg.name, movetime);
    let with_review = move |f: &mut dyn FnMut(&mut Review)| {
        let mut a = lock(&app);
        if let Some(r) = a.review.as_mut().filter(|r| r.id == id) {
            f(r);
            // The message of a running review does not outlive it.
            if !r.running && a.message == review_message {
                let r = a.review.as_ref().expect("just seen");
                a.message = match &r.error {
                    Some(e) => format!("review stopped: {e}"),
                    None if r.evals.len() == r.moves.len() + 1 => {
                        format!("review done: {} positions", r.evals.len())
                    }
                    None => format!(
                        "review stopped after {} of {} positions",
                        r.evals.len(),
                        r.moves.len() + 1
                    ),
                };
            }
            a.changed_view();
        }
    };
    std::thread::Builder::new()
        .name("gui-review".into())
        .spawn(move || {
            let result = crate::referee::review::Analyser::start(&cfg).and_then(|mut an| {
                let r = crate::referee::review::review_game(
                    &mut an,
                    &start,
                    &moves,
                    Duration::from_millis(movetime),
                    &cancel,
                    |_, e| with_review(&mut |r| r.evals.push(e.clone())),
                );
                an.quit();
                r
            });
            with_review(&mut |r| {
                r.running = false;
                if let Err(e) = &result {
                    r.error = Some(e.clone());
                }
            });
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    Ok(())
}

/// The hint: engine `engine` searches the shown position for `movetime` ms in its own process;
/// its move goes into the state (`hint`), drawn on the board, not played.
pub fn start_hint(app: &Shared, req: &Value) -> Result<(), String> {
    let mut a = lock(app);
    if let Some(why) = a.help_refused() {
        return Err(why);
    }
    let engine = req
        .get("engine")
        .and_then(Value::as_u64)
        .map_or(a.analysis.engine, |e| e as usize);
    let cfg = a.full_strength_config(engine).ok_or("no such engine")?;
    let movetime = req.get("movetime").and_then(Value::as_u64).unwrap_or(1000);
    if !(10..=60_000).contains(&movetime) {
        return Err("movetime is 10 ms .. 1 minute".into());
    }
    let shown = a.game.shown();
    if shown.is_finished() {
        return Err("the game is over: no hint".into());
    }
    let start = a.game.start_position().clone();
    let moves: Vec<String> = a.game.moves()[..a.game.cursor()]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let position = position_to_string(&shown);
    a.hint = Some(json!({"position": position, "pending": true, "engine": cfg.name}));
    a.changed_view();
    drop(a);
    let app = app.clone();
    std::thread::Builder::new()
        .name("gui-hint".into())
        .spawn(move || {
            let r = crate::referee::review::Analyser::start(&cfg).and_then(|mut an| {
                let e = an.evaluate(&start, &moves, &shown, Duration::from_millis(movetime));
                an.quit();
                e
            });
            let mut a = lock(&app);
            let same = a
                .hint
                .as_ref()
                .is_some_and(|h| h["position"] == json!(position));
            if !same {
                return;
            }
            a.hint = Some(match r {
                Ok(e) => json!({"position": position, "move": e.best, "score": e.text,
                                "depth": e.depth, "engine": cfg.name}),
                Err(e) => json!({"position": position, "error": e, "engine": cfg.name}),
            });
            a.changed_view();
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    Ok(())
}
