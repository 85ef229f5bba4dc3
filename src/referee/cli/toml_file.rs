//! TOML configuration files, turned into the same flag tokens as the command line, in place of
//! `-config FILE`, so both share one parser and later flags override the file. Format:
//!
//! ```toml
//! tournament = "match"            # -tournament match
//! games = 2                       # -games 2
//! rounds = 10                     # -rounds 10
//! concurrency = 2                 # -concurrency 2
//! norepetition = false            # booleans: true gives the bare flag, false nothing
//! pgnout = "tournaments/results/smoke.pgn"
//! random-openings = { plies = 4 } # tables give key=value tokens: -random-openings plies=4
//! sprt = { elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05 }
//!
//! [each]                          # -each tc=1+0.01
//! tc = "1+0.01"
//!
//! [[engine]]                      # -engine cmd=target/release/punct name=punct option.Hash=16
//! cmd = "target/release/punct"
//! name = "punct"
//! options = { Hash = 16 }         # option.<Name>=<value>
//! args = ["--flag", "two words"]  # or a string split at spaces; an array keeps each item whole
//! ```

/// Replaces each `-config FILE` by the flags the file holds.
pub(super) fn expand_configs(args: &[String], depth: u32) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "-config" {
            let path = args.get(i + 1).ok_or("-config needs a file")?;
            if depth > 4 {
                return Err("-config nested too deeply".into());
            }
            let text = std::fs::read_to_string(path).map_err(|e| format!("-config {path}: {e}"))?;
            let inner = toml_to_args(&text).map_err(|e| format!("-config {path}: {e}"))?;
            out.extend(expand_configs(&inner, depth + 1)?);
            i += 2;
        } else {
            out.push(args[i].clone());
            i += 1;
        }
    }
    Ok(out)
}

fn toml_scalar(key: &str, v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        _ => Err(format!("'{key}' must be a string, number or boolean")),
    }
}

/// `key=value` tokens of one table (engine, each, openings, draw, ...).
fn toml_table_tokens(table: &toml::Table) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (k, v) in table {
        match (k.as_str(), v) {
            ("options", toml::Value::Table(opts)) => {
                for (name, value) in opts {
                    out.push(format!("option.{name}={}", toml_scalar(name, value)?));
                }
            }
            ("args", toml::Value::Array(items)) => {
                for item in items {
                    out.push(format!("arg={}", toml_scalar("args", item)?));
                }
            }
            _ => out.push(format!("{k}={}", toml_scalar(k, v)?)),
        }
    }
    Ok(out)
}

/// Flags without a value: `true` in a file gives the bare flag, `false` nothing.
const BOOL_FLAGS: &[&str] = &[
    "-norepetition",
    "-resume",
    "-overwrite",
    "-strict",
    "-recover",
    "-repeat",
    "-debug",
];

/// Flags that may repeat: a list in a file gives the flag once per item.
const LIST_FLAGS: &[&str] = &["-check-pgn"];

/// The flag tokens a TOML configuration stands for. A value of the wrong type (a list or a
/// boolean where one value is expected) is an error, not a guess.
pub fn toml_to_args(text: &str) -> Result<Vec<String>, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let mut out = Vec::new();
    let mut engines = Vec::new();
    for (key, value) in &table {
        let flag = format!("-{}", key.replace('_', "-"));
        match value {
            toml::Value::Array(items) if key == "engine" || key == "engines" => {
                for item in items {
                    let t = item.as_table().ok_or("each [[engine]] must be a table")?;
                    engines.push("-engine".to_string());
                    engines.extend(toml_table_tokens(t)?);
                }
            }
            toml::Value::Table(t) => {
                out.push(flag);
                out.extend(toml_table_tokens(t)?);
            }
            toml::Value::Integer(n) if key == "random-openings" || key == "random_openings" => {
                out.push(flag);
                out.push(format!("plies={n}"));
            }
            toml::Value::Boolean(b) if BOOL_FLAGS.contains(&flag.as_str()) => {
                if *b {
                    out.push(flag);
                }
            }
            v if BOOL_FLAGS.contains(&flag.as_str()) => {
                return Err(format!("'{key}' must be true or false, not {v}"));
            }
            toml::Value::Boolean(b) => {
                return Err(format!("'{key}' needs a value, not {b}"));
            }
            toml::Value::Array(_) if !LIST_FLAGS.contains(&flag.as_str()) => {
                return Err(format!("'{key}' takes one value, not a list"));
            }
            toml::Value::Array(items) => {
                // A list value (e.g. check-pgn files): repeat the flag per item.
                for item in items {
                    out.push(flag.clone());
                    out.push(toml_scalar(key, item)?);
                }
            }
            v => {
                out.push(flag);
                out.push(toml_scalar(key, v)?);
            }
        }
    }
    // Engines last keeps their order; top-level order does not matter to the parser.
    out.extend(engines);
    Ok(out)
}
