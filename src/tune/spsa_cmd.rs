//! `punct-tune spsa`: SPSA over named spin options with games played in this process through
//! the referee library; log, resume, final report and chart.

use std::path::PathBuf;
use std::time::Instant;

use crate::engine::search::params::specs;
use crate::referee::cli::{parse_args, Command};
use crate::referee::signals;
use crate::tune::args::Args;
use crate::tune::games::IterationGames;
use crate::tune::output::{params_heading, params_lines, setoption_lines};
use crate::tune::spsa::{self, Spsa, SpsaLog, SpsaParam, SpsaSettings};
use crate::tune::svg::chart;

pub const HELP: &str = "\
punct-tune spsa -param SPEC [-param SPEC...] -iterations N -log FILE.jsonl
                -engine cmd=PROG nodes=N|st=S|tc=T [option.X=V ...] [flags]
  Tunes spin options by SPSA: each iteration plays -pairs openings twice (colours swapped)
  between the engine with θ+c·Δ and with θ−c·Δ, and moves θ by the result (fishtest's rule).
  -param NAME[,VALUE,MIN,MAX,C_END,R_END]   fishtest's fields; missing ones come from the
                    engine's option (value, min, max), c_end max(value/20, 0.5), r_end 0.002
  -iterations N     -pairs P (default 1)   -seed S (perturbations; default 1)
  -A X (default 0.1 N)  -alpha X (0.602)  -gamma X (0.101)
  -resume           continue the run in -log (same flags)     -overwrite  start afresh
  Referee flags passed on: -concurrency -random-openings -openings -variant -maxmoves -srand
                    -draw -resign -norepetition -watchdog-ms
  The log gets one JSON line per iteration; at the end (or on Ctrl-C) the tuned values are
  printed as setoption lines and FILE.svg shows each parameter's path.
";

const PASSED_ON: &[&str] = &[
    "-concurrency",
    "-random-openings",
    "-openings",
    "-variant",
    "-maxmoves",
    "-srand",
    "-draw",
    "-resign",
    "-norepetition",
    "-watchdog-ms",
];

/// Exit status after an interruption (as the referee's).
pub const EXIT_INTERRUPTED: u8 = 130;

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let defaults = |name: &str| {
        specs()
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| (s.default as f64, s.min as f64, s.max as f64))
    };
    let params: Vec<SpsaParam> = a
        .all("-param")
        .concat()
        .iter()
        .map(|p| SpsaParam::parse(p, defaults))
        .collect::<Result<_, _>>()?;
    if params.is_empty() {
        return Err(format!("at least one -param is needed\n{HELP}"));
    }
    let iterations = a
        .num::<u64>("-iterations")?
        .filter(|n| *n > 0)
        .ok_or("-iterations N (at least 1) is needed")?;
    let log_path = PathBuf::from(a.word("-log")?.ok_or("-log FILE is needed")?);
    let pairs = a.num::<u64>("-pairs")?.unwrap_or(1).max(1);
    let mut settings = SpsaSettings::new(iterations, a.num("-seed")?.unwrap_or(1));
    if let Some(x) = a.num("-A")? {
        settings.a = x;
    }
    if let Some(x) = a.num("-alpha")? {
        settings.alpha = x;
    }
    if let Some(x) = a.num("-gamma")? {
        settings.gamma = x;
    }
    let resume = a.switch("-resume")?;
    let overwrite = a.switch("-overwrite")?;
    if resume && overwrite {
        return Err("-resume and -overwrite: pick one".into());
    }
    let engine = a.all("-engine");
    if engine.len() != 1 {
        return Err("exactly one -engine is needed (it plays against itself)".into());
    }
    let mut referee_args = vec!["-each".to_string()];
    referee_args.extend(engine[0].iter().cloned());
    for n in ["plus", "minus"] {
        referee_args.extend(["-engine".to_string(), format!("name={n}")]);
    }
    for f in PASSED_ON {
        referee_args.extend(a.raw(f));
    }
    a.finish()?;
    let cfg = match parse_args(&referee_args)? {
        Command::Run(c) => *c,
        _ => return Err("the engine and game flags do not describe games".into()),
    };
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let games = IterationGames::new(cfg, pairs, names.clone())?;
    let mut state = Spsa::new(params, settings);
    let mut log = SpsaLog::open(&log_path, &mut state, resume, overwrite)?;
    if state.k > 0 {
        println!("Resuming after iteration {} of {iterations}", state.k);
    }
    let started = Instant::now();
    let first = state.k;
    let finished = spsa::run(
        &mut state,
        &mut log,
        |probe| games.play(probe),
        |s, rec| {
            let done = s.k - first;
            let el = started.elapsed().as_secs_f64();
            let eta = el / done as f64 * (s.settings.iterations - s.k) as f64;
            let theta: Vec<String> = names
                .iter()
                .zip(&s.theta)
                .map(|(n, t)| format!("{n}={t:.2}"))
                .collect();
            println!(
                "iter {}/{}  result {:+}  {}  [{:.0}s, ETA {:.0}s]",
                s.k,
                s.settings.iterations,
                rec.result,
                theta.join(" "),
                el,
                eta
            );
        },
    )?;
    signals::kill_all_groups();
    report(&state, &log_path)?;
    if finished {
        Ok(0)
    } else {
        println!(
            "Interrupted after iteration {}: continue with the same command plus -resume",
            state.k
        );
        Ok(EXIT_INTERRUPTED)
    }
}

/// Prints the tuned values and writes the chart next to the log.
fn report(state: &Spsa, log_path: &std::path::Path) -> Result<(), String> {
    let names: Vec<String> = state.params.iter().map(|p| p.name.clone()).collect();
    let values = state.values();
    println!(
        "\nSPSA after {} of {} iterations:",
        state.k, state.settings.iterations
    );
    for (p, v) in state.params.iter().zip(&values) {
        println!("  {:<16} {:>8} -> {:>8}", p.name, p.start, v);
    }
    println!("\n# setoption lines");
    for l in setoption_lines(&names, &values) {
        println!("{l}");
    }
    let pl = params_lines(&names, &values);
    if !pl.is_empty() {
        println!("{}", params_heading());
        for l in pl {
            println!("{l}");
        }
    }
    let svg_path = log_path.with_extension("svg");
    let starts: Vec<f64> = state.params.iter().map(|p| p.start).collect();
    let paths: Vec<Vec<f64>> = (0..names.len())
        .map(|i| state.history.iter().map(|r| r.theta[i]).collect())
        .collect();
    std::fs::write(&svg_path, chart(&names, &starts, &paths))
        .map_err(|e| format!("{}: {e}", svg_path.display()))?;
    println!("\nChart: {}", svg_path.display());
    Ok(())
}
