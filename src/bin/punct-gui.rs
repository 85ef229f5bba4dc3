//! `punct-gui`: the PÜNCT board in the browser (see `docs/gui.md`).

use std::process::ExitCode;

use punct::gui::{self, args};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if matches!(argv.first().map(String::as_str), Some("--version" | "-V")) {
        println!("punct-gui {}", env!("PUNCT_VERSION"));
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
        // The URL is our own.
        let opener = args::browser_opener();
        if let Err(e) = std::process::Command::new(&opener)
            .arg(&running.url)
            .spawn()
        {
            eprintln!(
                "punct-gui: cannot start {opener}: {e}; open {} yourself",
                running.url
            );
        }
    }
    running.wait();
    ExitCode::SUCCESS
}
