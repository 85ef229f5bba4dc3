//! `punct-tune gen`: a data set for Texel tuning from self-play at a fixed node count, played
//! by the referee (seeded random openings, concurrency, resume, shards) with `-sample` on.

use crate::referee::cli::{parse_args, Command};
use crate::referee::runner;
use crate::tune::args::Args;

pub const HELP: &str = "\
punct-tune gen -engine cmd=PROG [option.X=V ...] -out FILE -games N [flags]
  Self-play at a fixed node count with sampled positions written to FILE (docs/tuning.md).
  -nodes N          nodes per move (default 2000)     -plies N   random opening plies (4)
  -freq P           share of positions kept (default 0.5)   -skipplies N  skip plies < N (4)
  -quiet false      keep positions with a one-move threat (default: skipped)
  -format text|jsonl (default text)   -concurrency N   -srand S (default 1)   -variant V
  -shard I/N        this machine's part (merge: cat the sample files)
  -resume | -overwrite                the games' journal is FILE.games.jsonl
  Progress: a line every 20 games with positions, positions/s and ETA.
";

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let engine = a.all("-engine");
    if engine.len() != 1 {
        return Err(format!("exactly one -engine is needed\n{HELP}"));
    }
    let out = a.word("-out")?.ok_or("-out FILE is needed")?;
    let games = a.num::<u64>("-games")?.ok_or("-games N is needed")?;
    let nodes = a.num::<u64>("-nodes")?.unwrap_or(2000);
    let plies = a.num::<u32>("-plies")?.unwrap_or(4);
    let freq = a.word("-freq")?.unwrap_or_else(|| "0.5".into());
    let skip = a.num::<u32>("-skipplies")?.unwrap_or(4);
    let quiet = a.word("-quiet")?.unwrap_or_else(|| "true".into());
    let format = a.word("-format")?.unwrap_or_else(|| "text".into());
    let mut args: Vec<String> = vec!["-each".into(), format!("nodes={nodes}")];
    args.extend(engine[0].iter().cloned());
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
