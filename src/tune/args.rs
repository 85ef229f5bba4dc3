//! The flags of `punct-tune`: `-name value...` groups, each flag taking the words up to the
//! next flag (a word starting with `-` that is not a number).

use std::str::FromStr;

use crate::engine::search::params::Params;

pub struct Args {
    groups: Vec<(String, Vec<String>)>,
    used: Vec<bool>,
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
        Ok(Args { groups, used })
    }

    /// Every occurrence of `flag`, with its words.
    pub fn all(&mut self, flag: &str) -> Vec<Vec<String>> {
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

    /// An error for any flag no one asked for.
    pub fn finish(&self) -> Result<(), String> {
        match self.groups.iter().zip(&self.used).find(|(_, u)| !**u) {
            Some(((f, _), _)) => Err(format!("unknown flag '{f}' (see --help)")),
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
