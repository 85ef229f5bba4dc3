//! The engine keys of `-engine` and `-each` (`cmd=`, `name=`, `tc=`, `option.NAME=`, ...).

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::referee::cli::values::{
    in_range, parse_num, parse_secs, split_kv, split_words, MAX_MS, MAX_SECONDS,
};
use crate::referee::players::builtin::BUILTINS;
use crate::referee::settings::{EngineConfig, Proto, DEFAULT_TIMEMARGIN};
use crate::referee::timecontrol::TimeControl;

/// Applies engine `key=value` tokens on top of `e`.
fn apply_engine_tokens(e: &mut EngineConfig, tokens: &[String], flag: &str) -> Result<(), String> {
    for t in tokens {
        let (k, v) = split_kv(flag, t)?;
        if let Some(name) = k.strip_prefix("option.") {
            if name.is_empty() {
                return Err(format!("{flag}: option without a name in '{t}'"));
            }
            e.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            e.options.push((name.to_string(), v.to_string()));
            continue;
        }
        match k {
            "cmd" => e.cmd = v.to_string(),
            "name" => e.name = v.to_string(),
            "dir" => e.dir = Some(PathBuf::from(v)),
            "args" => e.args = split_words(v),
            "arg" => e.args.push(v.to_string()),
            "tc" => {
                if v == "inf" || v.is_empty() {
                    e.tc = None;
                } else {
                    let t =
                        TimeControl::from_str(v).map_err(|err| format!("{flag} tc={v}: {err}"))?;
                    let max = Duration::from_secs(MAX_SECONDS);
                    if t.base > max || t.increment > max {
                        return Err(format!(
                            "{flag} tc={v}: times must be at most {MAX_SECONDS} seconds"
                        ));
                    }
                    e.tc = Some(v.to_string());
                }
            }
            "st" => e.st = Some(parse_secs(&format!("{flag} st"), v)?),
            "nodes" => e.nodes = Some(parse_num(&format!("{flag} nodes"), v)?),
            "depth" | "plies" => e.depth = Some(parse_num(&format!("{flag} depth"), v)?),
            "timemargin" => {
                e.timemargin =
                    Duration::from_millis(in_range(&format!("{flag} timemargin"), v, 0, MAX_MS)?)
            }
            "proto" => {
                e.proto = match v {
                    "uci" => Proto::Uci,
                    "ugi" => Proto::Ugi,
                    _ => return Err(format!("{flag}: proto must be uci or ugi, not '{v}'")),
                }
            }
            // Accepted for cutechess compatibility; the referee always restarts after a fault.
            "restart" => {}
            _ => return Err(format!("{flag}: unknown key '{k}'")),
        }
    }
    Ok(())
}

fn blank_engine() -> EngineConfig {
    EngineConfig {
        name: String::new(),
        cmd: String::new(),
        dir: None,
        args: Vec::new(),
        options: Vec::new(),
        tc: None,
        st: None,
        nodes: None,
        depth: None,
        timemargin: DEFAULT_TIMEMARGIN,
        proto: Proto::Uci,
    }
}

/// Builds one engine from `-each` tokens then its own (its own win).
pub fn build_engine(each: &[String], own: &[String], flag: &str) -> Result<EngineConfig, String> {
    let mut e = blank_engine();
    apply_engine_tokens(&mut e, each, "-each")?;
    apply_engine_tokens(&mut e, own, flag)?;
    if e.cmd.is_empty() {
        return Err(format!("{flag}: cmd= is missing"));
    }
    if e.is_builtin() && !BUILTINS.iter().any(|(c, _)| *c == e.cmd) {
        return Err(format!(
            "{flag}: unknown built-in player '{}' ({})",
            e.cmd,
            BUILTINS.map(|(c, _)| c).join(", ")
        ));
    }
    if e.name.is_empty() {
        e.name = std::path::Path::new(&e.cmd)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| e.cmd.clone());
    }
    Ok(e)
}
