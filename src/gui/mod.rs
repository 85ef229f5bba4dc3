//! `punct-gui`: a local browser GUI. It serves one page on `http://127.0.0.1:PORT`, keeps one
//! game that every open tab shows, and runs engines as child processes through the referee's
//! engine wrapper. See `docs/gui.md`.
//!
//! `args` (command line), `game` (moves, cursor, seats), `clock` (the clocks), `outcome` (how
//! a game ended), `engines` (one thread per engine process), `app` (the shared state),
//! `actions` (what the page asks), `state` (the state as JSON), `http` (requests and
//! connections), `server` (routes, event stream, safety checks), `records` (PGN), `info`
//! (engine lines as JSON), `levels` (strength levels of the engine seats), `review` (review and
//! hint), `assets` (the page).

pub mod actions;
pub mod app;
pub mod args;
pub mod assets;
pub mod clock;
pub mod engines;
pub mod game;
pub mod http;
pub mod info;
pub mod levels;
pub mod outcome;
pub mod records;
pub mod review;
pub mod server;
pub mod state;

use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::gui::app::App;
use crate::gui::args::GuiConfig;
use crate::gui::server::{allowed_hosts, Ctx};

/// A running GUI server.
pub struct Running {
    pub port: u16,
    bind: String,
    pub url: String,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

/// Binds the address and starts the server, the controller and the default engine.
pub fn start(cfg: GuiConfig) -> Result<Running, String> {
    let listener = match TcpListener::bind((cfg.bind.as_str(), cfg.port)) {
        Ok(l) => l,
        Err(e) if cfg.port_given => {
            return Err(format!("cannot listen on {}:{}: {e}", cfg.bind, cfg.port))
        }
        // The default port is taken (another GUI?): any free port will do.
        Err(_) => TcpListener::bind((cfg.bind.as_str(), 0))
            .map_err(|e| format!("cannot listen on {}: {e}", cfg.bind))?,
    };
    let port = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?
        .port();
    let (mut app, events) = App::new(cfg.engines, cfg.variant, cfg.results_dir);
    // The first engine starts at once, so that it is ready by the first move.
    app.start_engine(0);
    let app = Arc::new(Mutex::new(app));
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    {
        let (app, stop) = (app.clone(), stop.clone());
        threads.push(
            std::thread::Builder::new()
                .name("gui-controller".into())
                .spawn(move || app::run_controller(app, events, stop))
                .map_err(|e| format!("cannot start a thread: {e}"))?,
        );
    }
    let ctx = Ctx {
        app,
        hosts: Arc::new(allowed_hosts(&cfg.bind, port)),
        stop: stop.clone(),
    };
    {
        let stop = stop.clone();
        threads.push(
            std::thread::Builder::new()
                .name("gui-accept".into())
                .spawn(move || {
                    http::serve(listener, stop, move |req, stream| {
                        server::handle(req, stream, &ctx)
                    })
                })
                .map_err(|e| format!("cannot start a thread: {e}"))?,
        );
    }
    let host = if cfg.bind == "::1" {
        "[::1]".to_string()
    } else {
        cfg.bind.clone()
    };
    Ok(Running {
        port,
        url: format!("http://{host}:{port}/"),
        bind: cfg.bind,
        stop,
        threads,
    })
}

impl Running {
    /// Stops serving, quits the engines and waits for the threads.
    pub fn stop(self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag.
        let _ = TcpStream::connect((self.bind.as_str(), self.port));
        for t in self.threads {
            let _ = t.join();
        }
    }

    /// Serves until the process is ended.
    pub fn wait(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}
