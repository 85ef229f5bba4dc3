//! The flags of `punct-tune`: `-name value...` groups, each flag taking the words up to the
//! next flag (a word starting with `-` that is not a number).

use std::str::FromStr;

use crate::engine::search::params::Params;
use crate::referee::cli::unknown_flag;

pub struct Args {
    groups: Vec<(String, Vec<String>)>,
    used: Vec<bool>,
    /// Every flag a command asked for: the known ones, offered for an unknown flag.
    asked: Vec<String>,
}

/// Whether the words of a command ask for its usage (`-h`, `-help`, `--help` anywhere).
pub fn wants_help(words: &[String]) -> bool {
    words
        .iter()
        .any(|w| matches!(w.as_str(), "-h" | "-help" | "--help"))
}

fn is_flag(t: &str) -> bool {
    t.starts_with('-')
        && t.len() > 1
        && !t[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

impl Args {
    pub fn parse(words: &[String]) -> Result<Args, String> {
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for w in words {
            if is_flag(w) {
                groups.push((w.clone(), Vec::new()));
            } else if let Some(g) = groups.last_mut() {
                g.1.push(w.clone());
            } else {
                return Err(format!("'{w}' is not a flag (flags start with -)"));
            }
        }
        let used = vec![false; groups.len()];
        Ok(Args {
            groups,
            used,
            asked: Vec::new(),
        })
    }

    /// Every occurrence of `flag`, with its words.
    pub fn all(&mut self, flag: &str) -> Vec<Vec<String>> {
        if !self.asked.iter().any(|f| f == flag) {
            self.asked.push(flag.to_string());
        }
        let mut out = Vec::new();
        for (i, (f, v)) in self.groups.iter().enumerate() {
            if f == flag {
                self.used[i] = true;
                out.push(v.clone());
            }
        }
        out
    }

    /// Whether a switch without value is there.
    pub fn switch(&mut self, flag: &str) -> Result<bool, String> {
        match self.all(flag).as_slice() {
            [] => Ok(false),
            [v] if v.is_empty() => Ok(true),
            _ => Err(format!("{flag} takes no value and is given once")),
        }
    }

    /// The single word of `flag`, if given.
    pub fn word(&mut self, flag: &str) -> Result<Option<String>, String> {
        match self.all(flag).as_slice() {
            [] => Ok(None),
            [v] if v.len() == 1 => Ok(Some(v[0].clone())),
            _ => Err(format!("{flag} takes one value and is given once")),
        }
    }

    pub fn num<T: FromStr>(&mut self, flag: &str) -> Result<Option<T>, String> {
        self.word(flag)?
            .map(|v| {
                v.parse::<T>()
                    .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
            })
            .transpose()
    }

    /// An error for any flag no one asked for, offering the nearest one asked for.
    pub fn finish(&self) -> Result<(), String> {
        match self.groups.iter().zip(&self.used).find(|(_, u)| !**u) {
            Some(((f, _), _)) => Err(unknown_flag(f, self.asked.iter().map(String::as_str))),
            None => Ok(()),
        }
    }
}

impl Args {
    /// Every occurrence of `flag` as command-line words (the flag, then its words), for
    /// passing on to the referee's parser.
    pub fn raw(&mut self, flag: &str) -> Vec<String> {
        self.all(flag)
            .into_iter()
            .flat_map(|v| std::iter::once(flag.to_string()).chain(v))
            .collect()
    }
}

impl Args {
    /// Applies every `-set NAME=VALUE` (engine options of `params.rs`) to `params`.
    pub fn set_params(&mut self, params: &mut Params) -> Result<(), String> {
        for kv in self.all("-set").concat() {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("-set: '{kv}' is not NAME=VALUE"))?;
            let v: i32 = v
                .parse()
                .map_err(|_| format!("-set: '{v}' is not a number"))?;
            params.set(k, v)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn an_unknown_flag_is_named_with_the_nearest_flag_asked_for() {
        let mut a = Args::parse(&words("-data x.bin -epoch 3")).unwrap();
        assert_eq!(a.word("-data").unwrap().as_deref(), Some("x.bin"));
        assert_eq!(a.num::<u32>("-epochs").unwrap(), None);
        assert_eq!(
            a.finish().unwrap_err(),
            "unknown flag '-epoch': did you mean '-epochs'? (see --help)"
        );
        let mut a = Args::parse(&words("-data x.bin -frobnicate")).unwrap();
        a.word("-data").unwrap();
        assert_eq!(
            a.finish().unwrap_err(),
            "unknown flag '-frobnicate' (see --help)"
        );
        assert!(wants_help(&words("-out f --help")) && wants_help(&words("-h")));
        assert!(!wants_help(&words("-out help")));
    }
}
