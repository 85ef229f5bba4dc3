//! Text and JSON Lines sample files, read line by line (the line format is the referee's
//! `-sample` format, `referee::records::sample`, versions 1 and 2).

use std::io::BufRead;

use crate::referee::records::sample::{parse_line, Sample, TEXT_HEADER};

/// The samples of a text or JSON Lines stream. A torn last line (no newline, unreadable: a
/// crash in the middle of a write) ends the stream; any other bad line is an error naming its
/// line number.
pub struct LineReader<R> {
    input: R,
    line: Vec<u8>,
    number: usize,
    name: String,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R, name: &str) -> LineReader<R> {
        LineReader {
            input,
            line: Vec::new(),
            number: 0,
            name: name.to_string(),
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = Result<Sample, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            self.line.clear();
            match self.input.read_until(b'\n', &mut self.line) {
                Ok(0) => self.done = true,
                Ok(_) => {
                    self.number += 1;
                    let torn = !self.line.ends_with(b"\n");
                    let text = String::from_utf8_lossy(&self.line);
                    match parse_line(&text) {
                        Ok(Some(s)) => return Some(Ok(s)),
                        Ok(None) => {}
                        Err(_) if torn => self.done = true,
                        Err(e) => {
                            self.done = true;
                            return Some(Err(format!("{} line {}: {e}", self.name, self.number)));
                        }
                    }
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(format!("{}: {e}", self.name)));
                }
            }
        }
        None
    }
}

/// The first line of a text file.
pub fn text_header() -> String {
    format!("{TEXT_HEADER}\n")
}
