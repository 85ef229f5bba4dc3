//! The routes: the JSON API, the embedded page and the event stream (Server-Sent Events, on
//! the connection's own thread), over [`crate::gui::http`].
//!
//! Safety: requests whose `Host` is not this server's own address are refused (DNS
//! rebinding); a POST must be JSON and, when it has an `Origin`, come from this origin (a
//! foreign page cannot post a form here); no CORS header is ever sent; bodies are capped; no
//! request can name a program to run: engines come only from the command line.

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use serde_json::{json, Value};

use crate::gui::actions::NO_DRAW_BY_AGREEMENT;
use crate::gui::app::{lock, Shared};
use crate::gui::assets;
use crate::gui::http::{json_error, Outcome, Request, Response, COMMON_HEADERS};
use crate::gui::records;
use crate::gui::state::legal_json;
use crate::rules::notation::parse_cell;
use crate::rules::piece::Kind;

/// What a connection's handler needs.
#[derive(Clone)]
pub struct Ctx {
    pub app: Shared,
    /// `Host` values accepted: `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`.
    pub hosts: Arc<Vec<String>>,
    pub stop: Arc<AtomicBool>,
}

pub fn allowed_hosts(bind: &str, port: u16) -> Vec<String> {
    let mut h = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    let own = format!("{bind}:{port}");
    if !h.contains(&own) {
        h.push(own);
    }
    h
}

fn json_response(status: u16, v: &Value) -> Response {
    Response::new(status, "application/json", v.to_string().into_bytes())
}

/// Why a request is refused before it is looked at, if it is.
fn refusal(req: &Request, ctx: &Ctx) -> Option<(u16, String)> {
    let host = req.header("Host").unwrap_or("");
    if !ctx.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return Some((403, format!("Host '{host}' is not this server")));
    }
    if req.method == "POST" {
        if let Some(origin) = req.header("Origin") {
            let own = ctx
                .hosts
                .iter()
                .any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
            if !own {
                return Some((403, format!("Origin '{origin}' is not this server")));
            }
        }
        let ct = req.header("Content-Type").unwrap_or("");
        if !ct.to_ascii_lowercase().starts_with("application/json") {
            return Some((415, "POST bodies are application/json".into()));
        }
    }
    None
}

fn body_json(req: &Request) -> Result<Value, String> {
    if req.body.is_empty() {
        return Ok(json!({}));
    }
    serde_json::from_slice(&req.body).map_err(|e| format!("bad JSON: {e}"))
}

/// Answers one request (or keeps the connection for an event stream).
pub fn handle(req: Request, stream: &mut TcpStream, ctx: &Ctx) -> Outcome {
    if let Some((status, why)) = refusal(&req, ctx) {
        log::info!("refused {} {}: {why}", req.method, req.target);
        return Outcome::Respond(json_error(status, &why));
    }
    let page = |ct: &'static str, text: &str| {
        Outcome::Respond(Response::new(200, ct, text.as_bytes().to_vec()))
    };
    let r = match (req.method.as_str(), req.path()) {
        ("GET", "/") | ("GET", "/index.html") => {
            return page("text/html; charset=utf-8", &assets::served("index.html"))
        }
        ("GET", "/app.js") => {
            return page("text/javascript; charset=utf-8", &assets::served("app.js"))
        }
        ("GET", "/style.css") => {
            return page("text/css; charset=utf-8", &assets::served("style.css"))
        }
        ("GET", "/api/events") => return event_stream(stream, ctx),
        ("GET", "/api/state") => json_response(200, &lock(&ctx.app).state_json()),
        ("GET", "/api/board.svg") => {
            let key = if req.query("flip") == Some("1") {
                "svg_flipped"
            } else {
                "svg"
            };
            let v = lock(&ctx.app).state_json();
            let svg = v[key].as_str().unwrap_or("").as_bytes().to_vec();
            Response::new(200, "image/svg+xml", svg)
        }
        ("GET", "/api/targets") => targets(&req, ctx),
        ("GET", "/api/pgn") => {
            let text = lock(&ctx.app).pgn_text();
            let mut r = Response::new(
                200,
                "application/x-chess-pgn; charset=utf-8",
                text.into_bytes(),
            );
            r.headers.push((
                "Content-Disposition",
                "attachment; filename=\"punct-game.pgn\"".into(),
            ));
            r
        }
        ("GET", "/api/results") => {
            let dir = lock(&ctx.app).results_dir.clone();
            json_response(200, &records::list_results(&dir))
        }
        ("POST", p) if p.starts_with("/api/") => match body_json(&req) {
            Err(e) => json_error(400, &e),
            Ok(body) => match post(ctx, p, &body) {
                Ok(()) => json_response(200, &lock(&ctx.app).state_json()),
                Err((status, e)) => json_error(status, &e),
            },
        },
        ("GET", _) => json_error(404, "no such page"),
        _ => json_error(405, "method not allowed"),
    };
    Outcome::Respond(r)
}

/// The POST actions; errors are (status, message) with the rules library's reason for moves.
fn post(ctx: &Ctx, path: &str, body: &Value) -> Result<(), (u16, String)> {
    let bad = |e: String| (400, e);
    let text = |k: &str| -> Result<String, (u16, String)> {
        body.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| (400, format!("\"{k}\" is missing or not a string")))
    };
    let mut app = lock(&ctx.app);
    match path {
        "/api/new" => app.act_new(body).map_err(bad),
        "/api/setup" => app.act_setup(body).map_err(bad),
        "/api/playfrom" => app.act_play_from(body).map_err(bad),
        "/api/review" => {
            drop(app);
            crate::gui::review::start_review(&ctx.app, body).map_err(bad)
        }
        "/api/hint" => {
            drop(app);
            crate::gui::review::start_hint(&ctx.app, body).map_err(bad)
        }
        "/api/move" => app.act_move(&text("move")?).map_err(|e| (422, e)),
        "/api/goto" => {
            let ply = body
                .get("ply")
                .and_then(Value::as_u64)
                .ok_or((400, "\"ply\" is a number".to_string()))?;
            app.act_goto(ply as usize);
            Ok(())
        }
        "/api/undo" => app.act_undo().map_err(|e| (409, e)),
        "/api/resign" => app.act_resign(body).map_err(|e| (409, e)),
        "/api/abort" => app.act_abort().map_err(|e| (409, e)),
        "/api/draw" => Err((409, NO_DRAW_BY_AGREEMENT.to_string())),
        "/api/analysis" => app.act_analysis(body).map_err(bad),
        "/api/pause" => {
            let p = body
                .get("paused")
                .and_then(Value::as_bool)
                .ok_or((400, "\"paused\" is true or false".to_string()))?;
            app.act_pause(p);
            Ok(())
        }
        "/api/load" => {
            let index = body
                .get("index")
                .and_then(Value::as_u64)
                .map(|i| i as usize);
            app.act_load(&text("text")?, index).map_err(bad)
        }
        "/api/results/load" => {
            let index = body.get("index").and_then(Value::as_u64).unwrap_or(0);
            app.act_load_result(&text("file")?, index as usize)
                .map_err(bad)
        }
        "/api/engine/restart" => {
            let i = body
                .get("engine")
                .and_then(Value::as_u64)
                .ok_or((400, "\"engine\" is a number".to_string()))?;
            app.act_restart(i as usize).map_err(bad)
        }
        "/api/engine/start" => {
            let i = body
                .get("engine")
                .and_then(Value::as_u64)
                .ok_or((400, "\"engine\" is a number".to_string()))?;
            app.start_engine(i as usize);
            Ok(())
        }
        _ => Err((404, format!("no action {path}"))),
    }
}

/// `GET /api/targets?from=c5` (where the piece on c5 can go) or `?kind=T&cell=c5` (drops of
/// that kind with the PÜNCT on c5): the legal moves as text.
fn targets(req: &Request, ctx: &Ctx) -> Response {
    let pos = lock(&ctx.app).game.shown();
    let legal = legal_json(&pos);
    let cell = |k: &str| {
        req.query(k)
            .map(|c| parse_cell(c).map_err(|e| e.to_string()))
    };
    let list = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let moves: Vec<String> = if let Some(from) = cell("from") {
        let from = match from {
            Ok(c) => c.to_string(),
            Err(e) => return json_error(400, &e),
        };
        list(&legal["shifts"][&from])
            .into_iter()
            .map(|t| format!("{from}-{t}"))
            .collect()
    } else {
        let kind = req
            .query("kind")
            .and_then(|k| Kind::ALL.iter().find(|x| x.letter().to_string() == k));
        let (Some(kind), Some(at)) = (kind, cell("cell")) else {
            return json_error(400, "give from=CELL, or kind=T|S|C|A|L|R and cell=CELL");
        };
        let at = match at {
            Ok(c) => c,
            Err(e) => return json_error(400, &e),
        };
        list(&legal["drops"][kind.letter().to_string()])
            .into_iter()
            .filter(|p| crate::rules::notation::parse_placement(p).is_ok_and(|pl| pl.punct() == at))
            .collect()
    };
    json_response(200, &json!({ "moves": moves }))
}

/// The event stream of one tab, on its connection's thread until the tab goes away.
fn event_stream(stream: &mut TcpStream, ctx: &Ctx) -> Outcome {
    let Some(rx) = lock(&ctx.app).subscribe() else {
        return Outcome::Respond(json_error(503, "too many open tabs"));
    };
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n{COMMON_HEADERS}\r\n"
    );
    let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
    let mut ok = stream.write_all(head.as_bytes()).is_ok();
    while ok && !ctx.stop.load(Ordering::SeqCst) {
        let msg = match rx.recv_timeout(Duration::from_secs(2)) {
            Ok(m) => m,
            // A comment now and then finds closed tabs.
            Err(RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        ok = stream
            .write_all(msg.as_bytes())
            .and_then(|_| stream.flush())
            .is_ok();
    }
    Outcome::Taken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_hosts_only() {
        let h = allowed_hosts("127.0.0.1", 8080);
        assert!(h.contains(&"localhost:8080".to_string()));
        assert!(!h.contains(&"evil.example:8080".to_string()));
        assert_eq!(h.len(), 3);
        assert_eq!(allowed_hosts("::1", 1).len(), 4);
    }
}
