//! `punct-mock-engine`: a test engine for the referee. It plays legal moves chosen by a hash of
//! the position (so games repeat exactly) and, when asked, misbehaves after `--after N` moves of
//! each game:
//!
//! `--mode random` (default, protocol compliant: go infinite/ponder/stop/ponderhit, isready),
//! `crash` (exits mid-game), `hang` (stops reading and answering), `no-readyok` (never answers
//! isready), `slow-start` (waits `--delay-ms` before reading anything), `illegal` (plays `pass`
//! while moves exist), `garbage` (junk lines, then an unparsable bestmove), `slow` (answers after
//! `--delay-ms`, or `--delay-us`; with `--sweep-us N` an info line comes at once and the
//! bestmove after the delay and 10 µs more each time up to N µs more, then again, so that
//! answers fall on every instant of a reader's poll: a reply at a poll's deadline must not be
//! lost), `flood` (prints `info` lines without end and never answers; with
//! `--flood-mb N` it stops after N MB and answers), `deaf` (answers the handshake, then never
//! reads its input again), `sleep` (just sleeps: used as a grandchild by `--spawn-child`).
//! `--spawn-child` starts a sleeping copy of itself in the same process group, to check that
//! the referee kills whole groups; with `--child-keeps-pipe` that child inherits the engine's
//! output pipe (so the pipe stays open after the engine exits); with `--child-breaks-away` that
//! child leaves the engine's process group (Unix) or job (Windows) and lives `--child-ms` (a
//! program the referee cannot reach: it must not hold the referee's own output either).
//! `--tag X` marks the command line for tests (on Windows, where tests cannot read command
//! lines, the process also holds `punct-tag-X-PID` open in the temporary folder, without delete
//! sharing, while it lives); `--mark FILE` creates FILE when the engine starts.

use std::io::{BufRead, Write};
use std::process::exit;
use std::time::Duration;

use punct::{parse_move, parse_position, Position, Variant};

const USAGE: &str = "\
usage: punct-mock-engine [--mode MODE] [--after N] [--delay-ms MS | --delay-us US]
                         [--sweep-us N] [--flood-mb N] [--seed S] [--variant standard|basic]
                         [--spawn-child [--child-keeps-pipe]] [--tag X]
       punct-mock-engine --version | --help
A protocol engine for the referee's tests: legal moves chosen by a hash of the position, and
after N moves of each game (--after) the misbehaviour of MODE:
  random (default: compliant)  crash  hang  no-readyok  slow-start  illegal  garbage
  slow (answers after the delay; --sweep-us N moves the answer over a reader's poll)
  flood (info lines without end; --flood-mb N: then answers)  deaf (stops reading)  sleep
--spawn-child starts a sleeping copy in the same process group (--child-keeps-pipe: holding
the output pipe); --tag X only marks the command line.
";

struct Opts {
    mode: String,
    after: u32,
    delay: Duration,
    sweep_us: u64,
    seed: u64,
    variant: Variant,
    spawn_child: bool,
    child_keeps_pipe: bool,
    child_breaks_away: bool,
    child_ms: u64,
    flood_mb: Option<u64>,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        mode: "random".into(),
        after: 0,
        delay: Duration::from_millis(0),
        sweep_us: 0,
        seed: 0,
        variant: Variant::Standard,
        spawn_child: false,
        child_keeps_pipe: false,
        child_breaks_away: false,
        child_ms: 20_000,
        flood_mb: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--version" | "-V" => {
                println!("punct-mock-engine {}", punct::VERSION);
                exit(0);
            }
            "-h" | "--help" | "help" => {
                print!("{USAGE}");
                exit(0);
            }
            "--mode" => o.mode = v,
            "--after" => o.after = v.parse().unwrap_or(0),
            "--delay-ms" => o.delay = Duration::from_millis(v.parse().unwrap_or(0)),
            "--delay-us" => o.delay = Duration::from_micros(v.parse().unwrap_or(0)),
            "--sweep-us" => o.sweep_us = v.parse().unwrap_or(0),
            "--seed" => o.seed = v.parse().unwrap_or(0),
            "--variant" => o.variant = Variant::from_name(&v).unwrap_or_default(),
            "--tag" => mark_tag(&v),
            "--mark" => {
                let _ = std::fs::write(&v, b"started\n");
            }
            "--child-ms" => o.child_ms = v.parse().unwrap_or(o.child_ms),
            "--child-breaks-away" => {
                o.child_breaks_away = true;
                i += 1;
                continue;
            }
            "--flood-mb" => o.flood_mb = v.parse().ok(),
            "--child-keeps-pipe" => {
                o.child_keeps_pipe = true;
                i += 1;
                continue;
            }
            "--spawn-child" => {
                o.spawn_child = true;
                i += 1;
                continue;
            }
            other => {
                eprintln!("punct-mock-engine: unknown flag '{other}' (see --help)");
                exit(2);
            }
        }
        i += 2;
    }
    o
}

/// Windows: holds `punct-tag-TAG-PID` open for the life of this process, without delete
/// sharing, so that a test sees the process live as long as the file cannot be removed.
#[cfg(windows)]
fn mark_tag(tag: &str) {
    use std::os::windows::fs::OpenOptionsExt;
    let path = std::env::temp_dir().join(format!("punct-tag-{tag}-{}", std::process::id()));
    // FILE_SHARE_READ only: no FILE_SHARE_DELETE.
    if let Ok(f) = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .share_mode(1)
        .open(path)
    {
        std::mem::forget(f);
    }
}

/// Unix: tests read the tag from the command line (`/proc`).
#[cfg(not(windows))]
fn mark_tag(_tag: &str) {}

/// Makes `cmd` start outside the engine's process group (Unix) or job (Windows).
fn break_away(cmd: &mut std::process::Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        const CREATE_BREAKAWAY_FROM_JOB: u32 = 0x0100_0000;
        cmd.creation_flags(CREATE_BREAKAWAY_FROM_JOB);
    }
}

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

/// A move chosen by the position's hash and the seed: the same position gives the same move.
fn choose(pos: &Position, seed: u64) -> String {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return "(none)".into();
    }
    let mut h = pos.hash() ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    moves[(h % moves.len() as u64) as usize].to_string()
}

fn set_position(words: &[&str], variant: Variant) -> Result<Position, String> {
    let (mut pos, rest) = match words.get(1) {
        Some(&"startpos") => (Position::new(variant), &words[2..]),
        Some(&"fen") if words.len() >= 5 => (
            parse_position(&words[2..5].join(" "), variant).map_err(|e| e.to_string())?,
            &words[5..],
        ),
        _ => return Err("bad position command".into()),
    };
    if rest.first() == Some(&"moves") {
        for m in &rest[1..] {
            let mv = parse_move(m).map_err(|e| e.to_string())?;
            pos.play(mv).map_err(|e| e.to_string())?;
        }
    }
    Ok(pos)
}

fn main() {
    let o = parse_opts();
    if o.mode == "sleep" {
        if o.delay > Duration::ZERO {
            std::thread::sleep(o.delay);
            return;
        }
        sleep_forever();
    }
    if o.spawn_child {
        if let Ok(exe) = std::env::current_exe() {
            // Only the tag is passed on: the child must not read the other flags.
            let args: Vec<String> = std::env::args().collect();
            let tag: Vec<String> = args
                .windows(2)
                .filter(|w| w[0] == "--tag")
                .flat_map(|w| w.to_vec())
                .collect();
            let mut cmd = std::process::Command::new(exe);
            cmd.args(["--mode", "sleep"])
                .args(tag)
                .stdin(std::process::Stdio::null());
            if !o.child_keeps_pipe {
                cmd.stdout(std::process::Stdio::null());
            }
            if o.child_breaks_away {
                cmd.args(["--delay-ms", &o.child_ms.to_string()]);
                break_away(&mut cmd);
            }
            let _ = cmd.spawn();
        }
    }
    if o.mode == "slow-start" {
        std::thread::sleep(o.delay);
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let out = std::io::stdout();
    let mut out = out.lock();
    let mut pos = Position::new(o.variant);
    let mut moves_this_game = 0u32;
    // Answers delayed so far (for --sweep-us).
    let mut delayed = 0u64;
    // A search held until stop/ponderhit (go infinite / go ponder).
    let mut pending = false;
    let mut buf = Vec::new();
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(out, $($t)*);
            let _ = out.flush();
        }};
    }
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") | Some("ugi") => {
                say!("id name mock-{}", o.mode);
                say!("id author punct tests");
                say!("option name Hash type spin default 16 min 1 max 1024");
                say!("option name Ponder type check default false");
                say!("{}ok", words[0]);
                if o.mode == "deaf" {
                    sleep_forever();
                }
            }
            Some("isready") if o.mode != "no-readyok" => say!("readyok"),
            Some("ucinewgame") | Some("uginewgame") => moves_this_game = 0,
            Some("position") => match set_position(&words, o.variant) {
                Ok(p) => pos = p,
                Err(e) => say!("info string error: {e}"),
            },
            Some("go") => {
                let misbehave = o.mode != "random" && moves_this_game >= o.after;
                moves_this_game += 1;
                if misbehave {
                    match o.mode.as_str() {
                        "crash" => std::process::exit(3),
                        "hang" => sleep_forever(),
                        "illegal" if !pos.legal_moves().is_empty() => {
                            say!("bestmove pass");
                            continue;
                        }
                        "garbage" => {
                            let _ = out.write_all(b"\xff\xfe junk \x00 bytes\n");
                            say!("{}", "x".repeat(100_000));
                            say!("info depth banana score cp");
                            say!("bestmove @@garbage@@");
                            continue;
                        }
                        "slow" if o.sweep_us > 0 => {
                            // Its info line first, as engines do: the bestmove alone comes at
                            // the end of the delay.
                            say!(
                                "info depth 1 score cp 0 nodes 1 time 0 pv {}",
                                choose(&pos, o.seed)
                            );
                            let extra = (delayed * 10) % (o.sweep_us + 10);
                            delayed += 1;
                            std::thread::sleep(o.delay + Duration::from_micros(extra));
                            say!("bestmove {}", choose(&pos, o.seed));
                            continue;
                        }
                        "slow" => std::thread::sleep(o.delay),
                        "flood" => {
                            // About 1 KB per line; the pipe holds the writer back when full.
                            let pv = choose(&pos, o.seed);
                            let line = format!(
                                "info depth 1 score cp 0 nodes 1 pv {}\n",
                                format!("{pv} ").repeat(1000 / (pv.len() + 1))
                            );
                            let mut written = 0u64;
                            while o.flood_mb.is_none_or(|mb| written < mb << 20) {
                                if out.write_all(line.as_bytes()).is_err() {
                                    return;
                                }
                                written += line.len() as u64;
                            }
                            let _ = out.flush();
                        }
                        _ => {}
                    }
                }
                if words.contains(&"infinite") || words.contains(&"ponder") {
                    pending = true;
                    continue;
                }
                say!(
                    "info depth 1 score cp 0 nodes 1 time 0 pv {}",
                    choose(&pos, o.seed)
                );
                say!("bestmove {}", choose(&pos, o.seed));
            }
            Some("stop") | Some("ponderhit") if pending => {
                pending = false;
                say!("info depth 1 score cp 0 nodes 1 time 0");
                say!("bestmove {}", choose(&pos, o.seed));
            }
            Some("quit") => return,
            _ => {}
        }
    }
}
