//! Values of flags: numbers within their ranges, words split as a shell would, `key=value`
//! tokens, and the `-sample` flag's keys.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::referee::settings::{SampleConfig, SampleFormat};

/// Splits `args="a 'b c'"` into words, honouring single and double quotes.
pub fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for ch in s.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                any = true;
            }
            None if ch.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(ch),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

pub(super) fn parse_num<T: FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

/// Longest time any flag may give, in seconds (about 11 days): far beyond any real game, and
/// far from the overflow of deadline arithmetic.
pub const MAX_SECONDS: u64 = 1_000_000;
/// The same in milliseconds, for the `-ms` flags and `timemargin`.
pub(super) const MAX_MS: u64 = MAX_SECONDS * 1000;
/// Most games played at once (each is two engine processes and a thread).
pub const MAX_CONCURRENCY: usize = 256;
/// Most random opening plies, move counts and scores (centipawns) a flag may give.
pub(super) const MAX_PLIES: u32 = 1000;
pub(super) const MAX_MOVES: u32 = 1_000_000;
pub(super) const MAX_SCORE: i32 = 1_000_000;
/// Largest |Elo| of an SPRT hypothesis.
pub(super) const MAX_ELO: f64 = 2000.0;

pub(super) fn parse_secs(flag: &str, v: &str) -> Result<Duration, String> {
    let s: f64 = parse_num(flag, v)?;
    if !(s.is_finite() && s >= 0.0) {
        return Err(format!("{flag}: '{v}' is not a valid number of seconds"));
    }
    if s > MAX_SECONDS as f64 {
        return Err(format!("{flag}: '{v}' is more than {MAX_SECONDS} seconds"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// A number within `lo..=hi` (NaN is not).
pub(super) fn in_range<T: FromStr + PartialOrd + std::fmt::Display>(
    flag: &str,
    v: &str,
    lo: T,
    hi: T,
) -> Result<T, String> {
    let n: T = parse_num(flag, v)?;
    if !(n >= lo && n <= hi) {
        return Err(format!("{flag}: '{v}' must be in {lo}..={hi}"));
    }
    Ok(n)
}

pub(super) fn split_kv<'a>(flag: &str, token: &'a str) -> Result<(&'a str, &'a str), String> {
    token
        .split_once('=')
        .ok_or_else(|| format!("{flag}: expected key=value, got '{token}'"))
}

/// The error for `word` where a flag was expected: "unknown flag", with the nearest of
/// `known` when one is close (the tuner's flags say it the same way).
pub fn unknown_flag<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match nearest(word, known) {
        Some(k) => format!("unknown flag '{word}': did you mean '{k}'? (see --help)"),
        None => format!("unknown flag '{word}' (see --help)"),
    }
}

/// The word of `known` nearest to `word` by edit distance, when at most a third of its length
/// (at least 2) apart; a known word that starts with `word` counts as near (`-conc`).
pub fn nearest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let bare = word.trim_start_matches('-');
    let best = (known.into_iter())
        .map(|k| {
            let kb = k.trim_start_matches('-');
            let d = if bare.len() >= 3 && kb.starts_with(bare) {
                1
            } else {
                edit_distance(bare, kb)
            };
            (d, k)
        })
        .min_by_key(|&(d, _)| d)?;
    (best.0 <= (bare.chars().count() / 3).max(2)).then_some(best.1)
}

/// Levenshtein distance (insertions, deletions and substitutions of one character each).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A flag token: `-name` but not a negative number.
pub(super) fn is_flag(t: &str) -> bool {
    t.starts_with('-') && t.len() > 1 && !t[1..].starts_with(|c: char| c.is_ascii_digit())
}

pub(super) fn positive<T: FromStr + PartialOrd + Default>(
    flag: &str,
    v: &str,
) -> Result<T, String> {
    let n: T = parse_num(flag, v)?;
    if n <= T::default() {
        return Err(format!("{flag}: '{v}' must be at least 1"));
    }
    Ok(n)
}

/// Parses the `key=value` tokens of `-sample`.
pub fn parse_sample_flag(kv: &[String]) -> Result<SampleConfig, String> {
    let mut c = SampleConfig {
        path: PathBuf::new(),
        freq: 1.0,
        format: SampleFormat::Text,
        skip_plies: 0,
        quiet: false,
    };
    let mut file = false;
    for t in kv {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| format!("-sample: '{t}' is not key=value"))?;
        match k {
            "file" => {
                c.path = PathBuf::from(v);
                file = true;
            }
            "freq" => {
                c.freq = v
                    .parse::<f64>()
                    .ok()
                    .filter(|f| *f > 0.0 && *f <= 1.0)
                    .ok_or_else(|| format!("-sample: freq '{v}' must lie in (0, 1]"))?
            }
            "format" => {
                c.format = match v {
                    "text" | "txt" => SampleFormat::Text,
                    "jsonl" | "json" => SampleFormat::Jsonl,
                    _ => return Err(format!("-sample: format '{v}' is not text or jsonl")),
                }
            }
            "skipplies" | "skip" => {
                c.skip_plies = v
                    .parse()
                    .map_err(|_| format!("-sample: skipplies '{v}' is not a number"))?
            }
            "quiet" => {
                c.quiet = match v {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => return Err(format!("-sample: quiet '{v}' is not true or false")),
                }
            }
            _ => return Err(format!("-sample: unknown key '{k}'")),
        }
    }
    if !file {
        return Err("-sample: file= is missing".into());
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_nearest_known_flag_is_offered() {
        let known = [
            "-games",
            "-rounds",
            "-debug",
            "-concurrency",
            "-pgnout",
            "-jsonl",
        ];
        assert_eq!(nearest("-debugg", known), Some("-debug"));
        assert_eq!(nearest("--games", known), Some("-games"));
        assert_eq!(nearest("-conc", known), Some("-concurrency"));
        assert_eq!(nearest("-pgn", known), Some("-pgnout"));
        assert_eq!(nearest("-GAMES", known), Some("-games"));
        assert_eq!(nearest("-frobnicate", known), None);
        assert_eq!(nearest("-x", known), None);
        assert_eq!(
            unknown_flag("-debg", known),
            "unknown flag '-debg': did you mean '-debug'? (see --help)"
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn sample_flag_keys_and_errors() {
        let c = parse_sample_flag(&kv(
            "file=a.txt freq=0.25 format=jsonl skipplies=4 quiet=true",
        ))
        .unwrap();
        assert_eq!(c.path, PathBuf::from("a.txt"));
        assert_eq!(
            (c.freq, c.format, c.skip_plies, c.quiet),
            (0.25, SampleFormat::Jsonl, 4, true)
        );
        for bad in [
            "freq=0.5",
            "file=a freq=0",
            "file=a freq=2",
            "file=a format=csv",
            "file=a x=1",
        ] {
            assert!(parse_sample_flag(&kv(bad)).is_err(), "{bad}");
        }
    }
}
