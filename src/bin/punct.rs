//! `punct`: the PÜNCT engine. With no command it runs the engine protocol on stdin/stdout
//! (`protocol.md`); with a command (`perft`, `moves`, `bench`) it runs that and exits.

use std::process::ExitCode;

use punct::engine::cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    cli::run(&args)
}
