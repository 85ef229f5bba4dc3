//! `punct-tune`: data generation, Texel and SPSA tuning (docs/tuning.md).

use std::process::ExitCode;

use punct::tune::{convert, gen, net_train, order_fit, order_label, spsa_cmd, texel_cmd};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let help = format!(
        "punct-tune: tune PÜNCT's options (docs/tuning.md); --version prints the version\n\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
        gen::HELP,
        convert::HELP,
        order_label::HELP,
        order_fit::HELP,
        texel_cmd::HELP,
        spsa_cmd::HELP,
        net_train::HELP
    );
    let Some(cmd) = args.first() else {
        eprint!("{help}");
        return ExitCode::from(2);
    };
    punct::referee::signals::install();
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "--version" | "-V" => {
            println!("punct-tune {}", env!("PUNCT_VERSION"));
            Ok(0)
        }
        "gen" => gen::run(rest),
        "convert" => convert::run(rest),
        "order-label" => order_label::run(rest),
        "order-fit" => order_fit::run(rest),
        "texel" => texel_cmd::run(rest).map(|()| 0),
        "spsa" => spsa_cmd::run(rest),
        "train-net" => net_train::run(rest),
        "-h" | "-help" | "--help" | "help" => {
            print!("{help}");
            Ok(0)
        }
        other => Err(format!(
            "unknown command '{other}': gen, convert, order-label, order-fit, texel, spsa or train-net"
        )),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("punct-tune: {e}");
            ExitCode::from(2)
        }
    }
}
