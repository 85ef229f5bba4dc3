//! Sample files (positions with their labels) in the three formats: text and JSON Lines
//! (`text`, the referee's `-sample` lines, versions 1 and 2) and the compact binary format
//! (`binary`). [`read_samples`] opens any of them (the format is told by the file's first
//! bytes) and streams its samples; [`encode`] and [`header`] write them.
//!
//! ```no_run
//! for s in punct::tune::data::read_samples("gen1.bin".as_ref())? {
//!     let s = s?; // position, side, ply, score, depth, result, game, best
//!     println!("{} {:?} {}", s.position, s.best, s.result_for_side());
//! }
//! # Ok::<(), String>(())
//! ```

pub mod binary;
pub mod text;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

pub use crate::referee::records::sample::Sample;
use crate::referee::settings::SampleFormat;
use crate::rules::position::Variant;

/// A sample file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Jsonl,
    Bin,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "text" | "txt" => Ok(Format::Text),
            "jsonl" | "json" => Ok(Format::Jsonl),
            "bin" | "binary" => Ok(Format::Bin),
            _ => Err(format!("format '{s}' is not text, jsonl or bin")),
        }
    }

    /// By the file name: `.bin`, `.jsonl` (or `.json`), anything else text.
    pub fn of_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => Format::Bin,
            Some("jsonl" | "json") => Format::Jsonl,
            _ => Format::Text,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Jsonl => "jsonl",
            Format::Bin => "bin",
        }
    }
}

/// What a new file of `format` starts with.
pub fn header(format: Format, variant: Variant) -> Vec<u8> {
    match format {
        Format::Text => text::text_header().into_bytes(),
        Format::Jsonl => Vec::new(),
        Format::Bin => binary::header(variant).to_vec(),
    }
}

/// Appends `s` in `format` to `out`.
pub fn encode(format: Format, s: &Sample, out: &mut Vec<u8>) -> Result<(), String> {
    match format {
        Format::Bin => out.extend_from_slice(&binary::encode(s)?),
        Format::Text | Format::Jsonl => {
            let f = if format == Format::Text {
                SampleFormat::Text
            } else {
                SampleFormat::Jsonl
            };
            out.extend_from_slice(s.to_line(f).as_bytes());
            out.push(b'\n');
        }
    }
    Ok(())
}

/// The samples of one file, streamed.
pub struct SampleReader {
    inner: Inner,
    format: Format,
    variant: Option<Variant>,
}

enum Inner {
    Lines(text::LineReader<BufReader<File>>),
    Bin(BinReader),
}

impl SampleReader {
    /// Text or JSON Lines (the first line tells which: the reader takes both anyway) or bin.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The variant a binary file's header names (text files do not say).
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }
}

impl Iterator for SampleReader {
    type Item = Result<Sample, String>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.inner {
            Inner::Lines(r) => r.next(),
            Inner::Bin(r) => r.next(),
        }
    }
}

/// Opens a sample file of any format; its samples come from the iterator, an unreadable one
/// as an `Err` (after which the iterator ends).
pub fn read_samples(path: &Path) -> Result<SampleReader, String> {
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let start = input.fill_buf().map_err(|e| format!("{name}: {e}"))?;
    // "PUNC": a binary file (a short one is reported as a truncated header).
    if start.starts_with(&binary::MAGIC[..4]) {
        let mut first = [0u8; binary::BLOCK];
        read_block(&mut input, &mut first, &name)?
            .ok_or_else(|| format!("{name}: truncated binary header"))?;
        let variant = binary::read_header(&first).map_err(|e| format!("{name}: {e}"))?;
        return Ok(SampleReader {
            inner: Inner::Bin(BinReader {
                input,
                name,
                variant,
                index: 1,
                done: false,
            }),
            format: Format::Bin,
            variant: Some(variant),
        });
    }
    let format = if start.starts_with(b"{") {
        Format::Jsonl
    } else {
        Format::Text
    };
    Ok(SampleReader {
        inner: Inner::Lines(text::LineReader::new(input, &name)),
        format,
        variant: None,
    })
}

/// Every sample of `paths`, in order, in memory.
pub fn read_all(paths: &[impl AsRef<Path>]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for p in paths {
        for s in read_samples(p.as_ref())? {
            out.push(s?);
        }
    }
    Ok(out)
}

/// Reads one whole block: `Ok(None)` at the end of the file, an error for a partial block.
fn read_block(input: &mut impl Read, buf: &mut [u8], name: &str) -> Result<Option<()>, String> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(format!(
                    "{name}: truncated: {got} bytes after the last whole {}-byte block",
                    buf.len()
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
    Ok(Some(()))
}

struct BinReader {
    input: BufReader<File>,
    name: String,
    variant: Variant,
    /// Blocks read, the first header included.
    index: u64,
    done: bool,
}

impl BinReader {
    fn next_sample(&mut self) -> Result<Option<Sample>, String> {
        let mut block = [0u8; binary::BLOCK];
        loop {
            if read_block(&mut self.input, &mut block, &self.name)?.is_none() {
                return Ok(None);
            }
            let at = self.index * binary::BLOCK as u64;
            self.index += 1;
            if binary::is_header(&block) {
                // A concatenated file: the same kind of data, or an error.
                let v = binary::read_header(&block)
                    .map_err(|e| format!("{}: block at byte {at}: {e}", self.name))?;
                if v != self.variant {
                    return Err(format!(
                        "{}: block at byte {at}: a header of another variant",
                        self.name
                    ));
                }
                continue;
            }
            return binary::decode(&block)
                .map(Some)
                .map_err(|e| format!("{}: record at byte {at}: {e}", self.name));
        }
    }
}

impl Iterator for BinReader {
    type Item = Result<Sample, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.next_sample().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
}
