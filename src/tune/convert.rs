//! `punct-tune convert`: sample files from one format to another (text, JSON Lines, binary),
//! several inputs merged into one output in the order given.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::rules::position::Variant;
use crate::tune::args::Args;
use crate::tune::data::{encode, header, read_samples, Format};

pub const HELP: &str = "\
punct-tune convert -in FILE [FILE...] -out FILE [-format text|jsonl|bin] [-variant V]
                   [-overwrite]
  Sample files (any format, told by their first bytes) into one file of another format
  (default by -out's extension: .bin, .jsonl, else text); several inputs are merged.
";

/// What a conversion did.
pub struct Converted {
    pub positions: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// Converts `inputs` into `out`. The variant is the binary inputs' (they must agree), else
/// `variant`.
pub fn convert(
    inputs: &[PathBuf],
    out: &Path,
    format: Format,
    variant: Option<Variant>,
) -> Result<Converted, String> {
    let t = Instant::now();
    let mut readers = Vec::new();
    let mut found: Option<Variant> = None;
    for p in inputs {
        let r = read_samples(p)?;
        if let Some(v) = r.variant() {
            if found.is_some_and(|f| f != v) || variant.is_some_and(|f| f != v) {
                return Err(format!("{}: a {} file among others", p.display(), v.name()));
            }
            found = Some(v);
        }
        readers.push(r);
    }
    let variant = found.or(variant).unwrap_or_default();
    let err = |e: std::io::Error| format!("{}: {e}", out.display());
    let mut w = BufWriter::with_capacity(1 << 20, File::create(out).map_err(err)?);
    let head = header(format, variant);
    w.write_all(&head).map_err(err)?;
    let mut bytes = head.len() as u64;
    let mut positions = 0;
    let mut buf = Vec::new();
    for r in readers {
        for s in r {
            let s = s?;
            buf.clear();
            encode(format, &s, &mut buf).map_err(|e| format!("game {}: {e}", s.game))?;
            w.write_all(&buf).map_err(err)?;
            bytes += buf.len() as u64;
            positions += 1;
        }
    }
    w.flush().map_err(err)?;
    Ok(Converted {
        positions,
        bytes,
        seconds: t.elapsed().as_secs_f64(),
    })
}

pub fn run(words: &[String]) -> Result<u8, String> {
    let mut a = Args::parse(words)?;
    let inputs: Vec<PathBuf> = a.all("-in").concat().iter().map(PathBuf::from).collect();
    if inputs.is_empty() {
        return Err(format!("-in FILE is needed\n{HELP}"));
    }
    let out = PathBuf::from(a.word("-out")?.ok_or("-out FILE is needed")?);
    let format = match a.word("-format")? {
        Some(f) => Format::parse(&f)?,
        None => Format::of_path(&out),
    };
    let variant = a
        .word("-variant")?
        .map(|v| Variant::from_name(&v).ok_or_else(|| format!("-variant: '{v}'?")))
        .transpose()?;
    let overwrite = a.switch("-overwrite")?;
    a.finish()?;
    if inputs.iter().any(|i| i == &out) {
        return Err("-out is one of the inputs".into());
    }
    if !overwrite && std::fs::metadata(&out).is_ok() {
        return Err(format!("{} exists (-overwrite replaces it)", out.display()));
    }
    let c = convert(&inputs, &out, format, variant).inspect_err(|_| {
        let _ = std::fs::remove_file(&out);
    })?;
    println!(
        "convert: {} positions from {} file(s) to {} ({}, {} bytes, {:.1} bytes/position) \
         in {:.1}s",
        c.positions,
        inputs.len(),
        out.display(),
        format.name(),
        c.bytes,
        c.bytes as f64 / c.positions.max(1) as f64,
        c.seconds
    );
    Ok(0)
}
