//! The command line of `punct-gui`.

use std::net::IpAddr;
use std::path::PathBuf;

use crate::referee::cli::build_engine;
use crate::referee::settings::EngineConfig;
use crate::rules::position::Variant;

/// The port tried first (any free port when it is taken).
pub const DEFAULT_PORT: u16 = 8317;

pub const USAGE: &str = "usage: punct-gui [--port N] [--open] [--variant standard|basic]
                 [--engine cmd=PROGRAM [name=NAME] [arg=ARG] [option.NAME=VALUE] [proto=uci|ugi]]...
                 [--no-default-engine] [--results DIR] [--bind 127.0.0.1|::1]

Serves the PÜNCT board on http://127.0.0.1:PORT (printed on start; port 8317 unless taken or
--port is given, --port 0 picks a free one). --open starts the system browser on it.
Engines: the bundled `punct` next to this program, then every --engine (the referee's syntax);
the page chooses one per side. --results is the folder of PGN records offered for replay
(default tournaments/results). --version prints the version. See docs/gui.md.";

#[derive(Clone, Debug)]
pub struct GuiConfig {
    pub bind: String,
    pub port: u16,
    /// The port was chosen on the command line (then it must be that one).
    pub port_given: bool,
    pub open: bool,
    pub engines: Vec<EngineConfig>,
    pub variant: Variant,
    pub results_dir: PathBuf,
}

/// What the command line asks for.
pub enum Parsed {
    Help,
    Run(GuiConfig),
}

/// The bundled engine: `punct` (`punct.exe` on Windows) in the folder of this program, if it is
/// there.
pub fn bundled_engine() -> Option<EngineConfig> {
    let exe = std::env::current_exe().ok()?;
    let path = exe
        .parent()?
        .join(format!("punct{}", std::env::consts::EXE_SUFFIX));
    if !path.is_file() {
        return None;
    }
    build_engine(
        &[],
        &[format!("cmd={}", path.display()), "name=punct".into()],
        "punct",
    )
    .ok()
}

/// The system's program that opens a URL in the browser (`--open` uses `$BROWSER` first):
/// Explorer on Windows, `open` on macOS, `xdg-open` elsewhere.
pub fn browser_opener() -> String {
    let system = if cfg!(windows) {
        "explorer"
    } else if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    system.to_string()
}

pub fn parse_args(args: &[String]) -> Result<Parsed, String> {
    let mut cfg = GuiConfig {
        bind: "127.0.0.1".into(),
        port: DEFAULT_PORT,
        port_given: false,
        open: false,
        engines: Vec::new(),
        variant: Variant::Standard,
        results_dir: PathBuf::from("tournaments/results"),
    };
    let mut default_engine = true;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        let mut value = || -> Result<String, String> {
            let v = args.get(i).ok_or_else(|| format!("{flag} needs a value"))?;
            i += 1;
            Ok(v.clone())
        };
        match flag {
            "-h" | "--help" | "help" => return Ok(Parsed::Help),
            "--open" => cfg.open = true,
            "--no-default-engine" => default_engine = false,
            "--port" => {
                let v = value()?;
                cfg.port = v
                    .parse()
                    .map_err(|_| format!("--port: '{v}' is not a port number"))?;
                cfg.port_given = true;
            }
            "--bind" => {
                let v = value()?;
                let ip: IpAddr = v
                    .parse()
                    .map_err(|_| format!("--bind: '{v}' is not an IP address"))?;
                // It starts processes: only this machine may talk to it.
                if !ip.is_loopback() {
                    return Err(format!("--bind: {v} is not a loopback address"));
                }
                cfg.bind = v;
            }
            "--variant" => {
                let v = value()?;
                cfg.variant = Variant::from_name(&v)
                    .ok_or_else(|| format!("--variant: '{v}' is not standard or basic"))?;
            }
            "--results" => cfg.results_dir = PathBuf::from(value()?),
            "--engine" => {
                let start = i;
                while i < args.len() && !args[i].starts_with("--") {
                    i += 1;
                }
                let e = build_engine(&[], &args[start..i], "--engine")?;
                if e.is_builtin() {
                    return Err(
                        "--engine: built-in players are for the referee; give a program".into(),
                    );
                }
                cfg.engines.push(e);
            }
            other => return Err(format!("unknown argument '{other}' (see --help)")),
        }
    }
    if default_engine {
        match bundled_engine() {
            Some(e) => cfg.engines.insert(0, e),
            None => log::warn!("no bundled punct engine next to punct-gui"),
        }
    }
    for n in 1..cfg.engines.len() {
        if cfg.engines[..n]
            .iter()
            .any(|e| e.name == cfg.engines[n].name)
        {
            cfg.engines[n].name = format!("{}-{}", cfg.engines[n].name, n + 1);
        }
    }
    Ok(Parsed::Run(cfg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engines_use_the_referees_syntax() {
        let Ok(Parsed::Run(c)) = parse_args(&words(
            "--no-default-engine --port 0 --engine cmd=/bin/a name=x option.Hash=8 --engine cmd=/bin/a name=x --open",
        )) else {
            panic!("parses");
        };
        assert_eq!(c.port, 0);
        assert!(c.port_given && c.open);
        assert_eq!(c.engines.len(), 2);
        assert_eq!(
            c.engines[0].options,
            vec![("Hash".to_string(), "8".to_string())]
        );
        assert_eq!(c.engines[1].name, "x-2");
    }

    #[test]
    fn bad_arguments_are_named() {
        for (args, want) in [
            ("--port x", "--port"),
            ("--bind 0.0.0.0", "loopback"),
            ("--engine name=x", "cmd="),
            ("--engine cmd=builtin:random", "built-in"),
            ("--frob", "--frob"),
            ("--variant", "needs a value"),
        ] {
            match parse_args(&words(args)) {
                Err(e) => assert!(e.contains(want), "{args}: {e}"),
                Ok(_) => panic!("{args} accepted"),
            }
        }
    }
}
