//! `punct-tune gen`: a data set from self-play. By default in this process (`genrun`,
//! `selfplay`: the search library on every core, fixed nodes per move, fewer where no position
//! is sampled, text, JSON Lines or binary output); with `-engine` through the referee (any
//! engine process, `-sample` on), as before.

use std::path::PathBuf;

use crate::engine::search::params::Params;
use crate::referee::cli::{parse_args, Command};
use crate::referee::runner;
use crate::referee::settings::Shard;
use crate::rules::position::Variant;
use crate::tune::args::Args;
use crate::tune::data::Format;
use crate::tune::genrun::{journal_path, GenRun};
use crate::tune::selfplay::GenSettings;

pub const HELP: &str = "\
punct-tune gen -out FILE -games N [flags]
  Self-play in this process on every core, sampled positions with their labels (result,
  score, depth, best move) written to FILE (docs/tuning.md).
  -nodes N          nodes per move in a sampled position (default 2000)
  -playnodes N      nodes per move elsewhere (default: -nodes)
  -threads N        games at a time, one per thread (default: all cores)
  -format text|jsonl|bin   (default by FILE's extension: .bin, .jsonl, else text)
  -plies N   random opening plies (4)    -freq P   share of positions kept (0.5)
  -skipplies N  skip plies < N (4)       -quiet false   keep positions with a one-move win
  -srand S (1)   -variant V   -maxmoves N (draw after N moves, 300)   -norepetition
  -hash MB (16 per thread)    -set NAME=V ...   engine options (spin options)
  -shard I/N        this machine's games (game g is shard (g-1)%N's; merge: cat the files)
  -resume | -overwrite       the journal is FILE.gen.jsonl     -progress S  (10 s)
punct-tune gen -engine cmd=PROG [option.X=V ...] -out FILE -games N [flags]
  The same through the referee with engine processes (text or jsonl; its journal is
  FILE.games.jsonl): -nodes -plies -freq -skipplies -quiet -format -srand -variant -shard
  -maxmoves -resume -overwrite as above, and -concurrency N.
";

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let engine = a.all("-engine");
    match engine.len() {
        0 => run_inprocess(a),
        1 => run_referee(a, &engine[0]),
        _ => Err(format!("at most one -engine\n{HELP}")),
    }
}

fn run_inprocess(mut a: Args) -> Result<u8, String> {
    let out = PathBuf::from(a.word("-out")?.ok_or("-out FILE is needed")?);
    let games = a.num::<u64>("-games")?.ok_or("-games N is needed")?;
    let nodes = a.num::<u64>("-nodes")?.unwrap_or(2000);
    let play_nodes = a.num::<u64>("-playnodes")?.unwrap_or(nodes);
    if nodes == 0 || play_nodes == 0 {
        return Err("-nodes and -playnodes must be at least 1".into());
    }
    let threads = a
        .num::<usize>("-threads")?
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let format = match a.word("-format")? {
        Some(f) => Format::parse(&f)?,
        None => Format::of_path(&out),
    };
    let freq = a.num::<f64>("-freq")?.unwrap_or(0.5);
    if !(0.0..=1.0).contains(&freq) {
        return Err("-freq must lie in [0, 1]".into());
    }
    let quiet = match a.word("-quiet")?.as_deref() {
        None | Some("true") => true,
        Some("false") => false,
        Some(v) => return Err(format!("-quiet: '{v}' is not true or false")),
    };
    let variant = match a.word("-variant")? {
        Some(v) => Variant::from_name(&v).ok_or_else(|| format!("-variant: '{v}'?"))?,
        None => Variant::Standard,
    };
    let shard = a.word("-shard")?.map(|s| Shard::parse(&s)).transpose()?;
    let mut params = Params::default();
    a.set_params(&mut params)?;
    let settings = GenSettings {
        variant,
        nodes,
        play_nodes,
        plies: a.num("-plies")?.unwrap_or(4),
        freq,
        skip_plies: a.num("-skipplies")?.unwrap_or(4),
        quiet,
        srand: a.num("-srand")?.unwrap_or(1),
        max_moves: a.num("-maxmoves")?.unwrap_or(300),
        repetition: !a.switch("-norepetition")?,
        hash_mb: a.num("-hash")?.unwrap_or(16),
        params,
    };
    let run = GenRun {
        settings,
        out: out.clone(),
        format,
        games,
        shard,
        threads,
        resume: a.switch("-resume")?,
        overwrite: a.switch("-overwrite")?,
        progress_s: a.num("-progress")?.unwrap_or(10.0),
    };
    a.finish()?;
    println!(
        "gen: {games} games{}, {nodes} nodes per sampled move, {play_nodes} elsewhere, \
         {threads} thread(s), {} to {} (journal {})",
        shard.map_or(String::new(), |s| format!(
            " (shard {}/{})",
            s.index, s.count
        )),
        format.name(),
        out.display(),
        journal_path(&out).display()
    );
    let r = crate::tune::genrun::run(&run)?;
    let positions = r.kept_positions + r.positions;
    println!(
        "gen {}: {} games, {} positions in {:.1}s ({:.1} positions/s, {:.0} nodes/s){}; {} \
         holds {positions} positions in {} bytes ({:.1} bytes/position)",
        if r.interrupted {
            "interrupted"
        } else {
            "finished"
        },
        r.games,
        r.positions,
        r.seconds,
        r.positions as f64 / r.seconds.max(1e-9),
        r.nodes as f64 / r.seconds.max(1e-9),
        if r.kept_games > 0 {
            format!(" (+{} games kept from before)", r.kept_games)
        } else {
            String::new()
        },
        out.display(),
        r.bytes,
        r.bytes as f64 / positions.max(1) as f64
    );
    if r.games > 0 && r.positions == 0 && !r.interrupted {
        // Not an error (the games are recorded), but almost surely not what was wanted.
        eprintln!(
            "gen: warning: no position of {} games was labelled: with -nodes {nodes} no sampled \
             search completed an iteration (use 1000 or more), or -freq/-skipplies leave none",
            r.games
        );
    }
    Ok(if r.interrupted { 130 } else { 0 })
}

fn run_referee(mut a: Args, engine: &[String]) -> Result<u8, String> {
    let out = a.word("-out")?.ok_or("-out FILE is needed")?;
    let games = a.num::<u64>("-games")?.ok_or("-games N is needed")?;
    let nodes = a.num::<u64>("-nodes")?.unwrap_or(2000);
    let plies = a.num::<u32>("-plies")?.unwrap_or(4);
    let freq = a.word("-freq")?.unwrap_or_else(|| "0.5".into());
    let skip = a.num::<u32>("-skipplies")?.unwrap_or(4);
    let quiet = a.word("-quiet")?.unwrap_or_else(|| "true".into());
    let format = a.word("-format")?.unwrap_or_else(|| "text".into());
    if Format::parse(&format) == Ok(Format::Bin) {
        return Err(
            "-format bin is for the in-process generator (no -engine); convert a referee \
             data set with punct-tune convert"
                .into(),
        );
    }
    let mut args: Vec<String> = vec!["-each".into(), format!("nodes={nodes}")];
    args.extend(engine.iter().cloned());
    args.extend(["-engine", "name=a", "-engine", "name=b", "-games"].map(String::from));
    args.push(games.to_string());
    args.extend(["-random-openings".into(), format!("plies={plies}")]);
    args.extend([
        "-sample".into(),
        format!("file={out}"),
        format!("freq={freq}"),
        format!("skipplies={skip}"),
        format!("quiet={quiet}"),
        format!("format={format}"),
    ]);
    args.extend(["-jsonl".into(), format!("{out}.games.jsonl")]);
    args.extend([
        "-ratinginterval".into(),
        "20".into(),
        "-event".into(),
        "punct-tune gen".into(),
    ]);
    for f in ["-concurrency", "-srand", "-variant", "-shard", "-maxmoves"] {
        args.extend(a.raw(f));
    }
    for f in ["-resume", "-overwrite"] {
        if a.switch(f)? {
            args.push(f.into());
        }
    }
    a.finish()?;
    match parse_args(&args)? {
        Command::Run(cfg) => Ok(runner::run(&cfg)),
        _ => Err("the flags do not describe games".into()),
    }
}
