//! `punct-gui`: the PÜNCT board in the browser (see `docs/gui.md`).

use std::process::ExitCode;

use punct::gui::{self, args};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if matches!(argv.first().map(String::as_str), Some("--version" | "-V")) {
        println!("punct-gui {}", punct::VERSION);
        return ExitCode::SUCCESS;
    }
    let cfg = match args::parse_args(&argv) {
        Ok(args::Parsed::Help) => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(args::Parsed::Run(c)) => c,
        Err(e) => {
            eprintln!("punct-gui: {e}");
            return ExitCode::from(2);
        }
    };
    let open = cfg.open;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let running = match gui::start(cfg) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("punct-gui: {e}");
            return ExitCode::from(1);
        }
    };
    println!(
        "punct-gui: serving {} (engines: {}); Ctrl-C to stop",
        running.url,
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    );
    if open {
        open_browser(&running.url);
    }
    running.wait();
    ExitCode::SUCCESS
}

/// Starts the system's browser opener (`$BROWSER`, else `xdg-open`) on `url`, its own output
/// kept off the terminal; when there is no desktop, or it fails, one line says so.
fn open_browser(url: &str) {
    let browser = std::env::var("BROWSER").ok().filter(|b| !b.is_empty());
    let desktop = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if browser.is_none() && cfg!(all(unix, not(target_os = "macos"))) && !desktop {
        eprintln!("punct-gui: no desktop here (no DISPLAY): open {url} in a browser");
        return;
    }
    let opener = browser.unwrap_or_else(args::browser_opener);
    let started = std::process::Command::new(&opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match started {
        Ok(mut child) => {
            std::thread::spawn(move || {
                // Explorer exits with status 1 when it has opened the address.
                if !child.wait().is_ok_and(|s| s.success() || cfg!(windows)) {
                    eprintln!("punct-gui: {opener} could not open a browser: open {url} yourself");
                }
            });
        }
        Err(e) => eprintln!("punct-gui: cannot start {opener} ({e}): open {url} yourself"),
    }
}
