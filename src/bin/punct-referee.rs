//! `punct-referee`: plays PÜNCT engines against each other (cutechess/fastchess style).

use std::process::ExitCode;

use punct::referee::cli::{parse_args, Command};
use punct::referee::{calibration, compliance, exit, records, runner, suite};

const HELP: &str = "\
punct-referee: matches and tournaments between PÜNCT engines (cutechess/fastchess style)

usage: punct-referee -engine cmd=PROG [KEY=VALUE]... -engine ... [FLAGS]
       punct-referee -config tournaments/NAME.toml [FLAGS]
       punct-referee -compliance cmd=PROG [KEY=VALUE]...
       punct-referee -check-pgn FILE [-variant basic]
       punct-referee -merge FILE... [-sprt ...]   statistics of shards' -jsonl logs as one run
       punct-referee -ratings FILE... -anchor NAME=ELO [-claims FILE] [-table F] [-plot F.svg]
                     ratings of many players on an anchored scale (-ratings --help)
       punct-referee -suite FILE -engine cmd=PROG depth=N|nodes=N|st=S [-concurrency N]
                     [-junit FILE] [-suite-min N]   test positions (bm/am) for CI
       punct-referee --version

Engine keys (-engine, or -each for all engines; an engine's own keys win):
  cmd=PROG | cmd=builtin:random   program, or the built-in uniform random mover (seeded)
  cmd=builtin:safe                built-in: wins at once, else a random move giving no win away
  cmd=builtin:greedy              built-in one-ply player: wins, blocks, else connects/centre
  name=NAME  dir=DIR  args=\"A B\"  arg=A (repeatable)  proto=uci|ugi
  option.NAME=VALUE               setoption sent after the handshake
  tc=[MOVES/]TIME[+INC]           clock (seconds, or m:s); tc=inf for none
  st=SECONDS  depth=N  nodes=N    fixed time per move, depth, nodes
  timemargin=MS                   grace before a late move loses (default 50)

Flags:
  -tournament match|gauntlet|round-robin   (default: match for 2 engines, else round-robin)
  -games N         games per encounter per round (default 2; pairs of colour-swapped games)
  -rounds N        (default 1)     -repeat   accepted: openings are always played twice
  -concurrency N   games at once (default 1)
  -variant standard|basic
  -openings file=FILE order=random|sequential start=N   position strings, one per line
  -random-openings plies=N         seeded random legal plies, never a decided position
  -srand N         seed of openings and built-in players (default 1)
  -maxmoves N      draw after N full moves     -norepetition   no draw on 3-fold repetition
  -draw movenumber=N movecount=N score=CP      -resign movecount=N score=CP   (off by default)
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]
  -pgnout FILE     game records        -jsonl FILE   JSON Lines log (also the resume journal)
  -svgout DIR      each game's final position as DIR/game-NNNN.svg
  -ratinginterval N   score lines every N games (default 10; 0: off)
  -sample file=F [freq=P] [format=text|jsonl] [skipplies=N] [quiet=true]
                   write sampled positions with score, depth and result (docs/tuning.md)
  -shard I/N       play only shard I (0-based) of N: game pairs p with (p-1) % N == I
  -resume          continue the run recorded in -jsonl FILE (same flags)
  -overwrite       start afresh, replacing the records of an earlier run
  -recover         accepted: crashed engines are always restarted for the next game
  -strict          stop at the first engine failure (exit 4)
  -event NAME  -startup-ms MS (10000)  -ping-ms MS (10000)  -watchdog-ms MS (60000, moves
               without a clock)
  -config FILE     TOML file with the same settings (see docs/referee.md)

Test suites (docs/referee.md, \"Test suites\"):
  -suite FILE      EPD-style lines: PIECES SIDE PLY bm MOVE...; am MOVE...; id \"name\";
                   (repeatable; checked with the rules before any engine starts)
  -junit FILE      JUnit XML report, one testcase per position
  -suite-min N     pass with at least N solved (default: all)

Exit status: 0 finished (SPRT H1 or no SPRT; suite passed), 1 compliance step failed or
suite not passed, 2 bad arguments or suite file,
3 SPRT accepted H0, 4 engine failure under -strict, 5 referee error (records), 130 interrupted
(continue with -resume).
";

fn main() -> ExitCode {
    if let Some(code) = punct::referee::review::dispatch() {
        return ExitCode::from(code);
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match calibration::parse(&args) {
        Some(Ok(Some(cfg))) => return ExitCode::from(calibration::run(&cfg)),
        Some(Ok(None)) => {
            print!("{}", calibration::HELP);
            return ExitCode::from(exit::EXIT_OK);
        }
        Some(Err(e)) => {
            eprintln!("punct-referee: {e}");
            eprintln!("try: punct-referee -ratings --help");
            return ExitCode::from(exit::EXIT_BAD_ARGS);
        }
        None => {}
    }
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("punct-referee: {e}");
            eprintln!("try: punct-referee --help");
            return ExitCode::from(exit::EXIT_BAD_ARGS);
        }
    };
    punct::referee::signals::install();
    let code = match command {
        Command::Help => {
            print!("{HELP}");
            exit::EXIT_OK
        }
        Command::Run(cfg) => runner::run(&cfg),
        Command::Compliance(engine, variant) => compliance::run(&engine, variant),
        Command::CheckPgn(files, variant) => compliance::check_pgn(&files, variant),
        Command::Merge(files, sprt) => records::merge::run(&files, sprt),
        Command::Suite(cfg) => suite::run(&cfg),
        Command::Version => {
            println!("punct-referee {}", env!("PUNCT_VERSION"));
            exit::EXIT_OK
        }
    };
    ExitCode::from(code)
}
