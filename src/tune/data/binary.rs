//! The compact binary sample format (`-format bin`, `.bin`): fixed-size little-endian blocks
//! of [`BLOCK`] bytes, a header block first, then one block per position. The layout, byte by
//! byte, is in docs/tuning.md ("Binary format"); this file is its reference implementation.
//!
//! A block whose first 8 bytes are [`MAGIC`] is a header (a record never starts so: byte 6 of a
//! record is its flags byte, whose top three bits are zero, and the magic's byte 6 is `M`,
//! 0x4D). Headers may recur at any block boundary, so shard files concatenate with `cat`.

use crate::referee::players::player::Score;
use crate::referee::records::sample::Sample;
use crate::rules::cell::Cell;
use crate::rules::moves::Move;
use crate::rules::notation::parse_placement;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::{Variant, MAX_PIECES};

pub const MAGIC: [u8; 8] = *b"PUNCTSMP";
/// The version of the labels (the text format's version); the header's bytes 8-9.
pub const VERSION: u16 = 2;
/// Size of every block, header or record.
pub const BLOCK: usize = 88;
/// Where the pieces start in a record.
const PIECES_AT: usize = 16;
/// An unused piece slot.
const NO_PIECE: u16 = 0xFFFF;

/// The header block of a file of `variant`.
pub fn header(variant: Variant) -> [u8; BLOCK] {
    let mut b = [0u8; BLOCK];
    b[..8].copy_from_slice(&MAGIC);
    b[8..10].copy_from_slice(&VERSION.to_le_bytes());
    b[10..12].copy_from_slice(&(BLOCK as u16).to_le_bytes());
    b[12] = variant_code(variant);
    b
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Standard => 0,
        Variant::Basic => 1,
    }
}

pub fn is_header(block: &[u8]) -> bool {
    block.len() >= 8 && block[..8] == MAGIC
}

/// The variant of a header block, checking version and block size.
pub fn read_header(b: &[u8]) -> Result<Variant, String> {
    if !is_header(b) || b.len() < 13 {
        return Err("not a punct-sample binary header".into());
    }
    let version = u16::from_le_bytes([b[8], b[9]]);
    let size = u16::from_le_bytes([b[10], b[11]]) as usize;
    if version != VERSION || size != BLOCK {
        return Err(format!(
            "binary format version {version} with {size}-byte records; this build reads \
             version {VERSION} with {BLOCK}-byte records"
        ));
    }
    match b[12] {
        0 => Ok(Variant::Standard),
        1 => Ok(Variant::Basic),
        v => Err(format!("unknown variant code {v} in the header")),
    }
}

/// A placement as 15 bits: kind (3) | PÜNCT grid index `17 x + y` (9) | orientation (3).
fn placement_code(p: Placement) -> u16 {
    ((p.kind().index() as u16) << 12) | ((p.punct().index() as u16) << 3) | p.orientation() as u16
}

fn placement_of(code: u16) -> Result<Placement, String> {
    let kind = Kind::ALL
        .get((code >> 12 & 7) as usize)
        .ok_or_else(|| format!("bad piece kind in code {code:#06x}"))?;
    let cell = Cell::from_index((code >> 3 & 0x1FF) as usize)
        .ok_or_else(|| format!("bad cell in code {code:#06x}"))?;
    Placement::new(*kind, cell, (code & 7) as u8)
        .ok_or_else(|| format!("no placement for code {code:#06x}"))
}

/// A move as 32 bits: type (bits 30-31: 1 drop, 2 shift, 3 pass), the shift's origin grid
/// index (bits 16-24), the placement (bits 0-14); 0 is no move.
pub fn move_code(m: Option<Move>) -> u32 {
    match m {
        None => 0,
        Some(Move::Drop(p)) => 1 << 30 | placement_code(p) as u32,
        Some(Move::Shift { from, to }) => {
            2 << 30 | (from.index() as u32) << 16 | placement_code(to) as u32
        }
        Some(Move::Pass) => 3 << 30,
    }
}

pub fn move_of(code: u32) -> Result<Option<Move>, String> {
    let bad = || format!("bad move code {code:#010x}");
    let placement = || placement_of((code & 0x7FFF) as u16).map_err(|_| bad());
    let unused = code & (0x3E00_0000 | 0x8000);
    match code >> 30 {
        _ if unused != 0 => Err(bad()),
        0 if code == 0 => Ok(None),
        1 if code >> 16 & 0x1FF == 0 => Ok(Some(Move::Drop(placement()?))),
        2 => {
            let from = Cell::from_index((code >> 16 & 0x1FF) as usize).ok_or_else(bad)?;
            Ok(Some(Move::Shift {
                from,
                to: placement()?,
            }))
        }
        3 if code == 3 << 30 => Ok(Some(Move::Pass)),
        _ => Err(bad()),
    }
}

/// One sample as a record block.
pub fn encode(s: &Sample) -> Result<[u8; BLOCK], String> {
    let mut b = [0u8; BLOCK];
    let game = u32::try_from(s.game).map_err(|_| format!("game {} is over 2^32", s.game))?;
    let ply = u16::try_from(s.ply)
        .ok()
        .filter(|&p| p < 0x8000)
        .ok_or_else(|| format!("ply {} is over 32767", s.ply))?;
    let result = match s.result.as_str() {
        "1/2-1/2" => 0,
        "1-0" => 1,
        "0-1" => 2,
        r => return Err(format!("result '{r}'")),
    };
    let (kind, score) = match s.score {
        None => (0, 0),
        Some(Score::Cp(v)) => (1, v),
        Some(Score::Mate(v)) => (2, v),
    };
    let score = i16::try_from(score)
        .map_err(|_| format!("score {score} does not fit the binary format (16 bits)"))?;
    let depth = match s.depth {
        None => 255,
        Some(d) if d < 255 => d as u8,
        Some(d) => return Err(format!("depth {d} does not fit the binary format (< 255)")),
    };
    b[0..4].copy_from_slice(&game.to_le_bytes());
    b[4..6].copy_from_slice(&ply.to_le_bytes());
    b[6] = (s.side == Colour::Black) as u8 | result << 1 | kind << 3;
    b[7] = depth;
    b[8..10].copy_from_slice(&score.to_le_bytes());
    b[12..16].copy_from_slice(&move_code(s.best).to_le_bytes());
    let pieces = s.position.split_whitespace().next().unwrap_or("-");
    let mut n = 0;
    if pieces != "-" {
        for piece in pieces.split('/') {
            if n == MAX_PIECES {
                return Err(format!("more than {MAX_PIECES} pieces"));
            }
            let colour = match piece.as_bytes().first() {
                Some(b'W' | b'w') => 0,
                Some(b'B' | b'b') => 1,
                _ => return Err(format!("piece '{piece}' has no colour")),
            };
            let p = parse_placement(&piece[1..]).map_err(|e| format!("piece '{piece}': {e}"))?;
            let code = colour << 15 | placement_code(p);
            b[PIECES_AT + 2 * n..PIECES_AT + 2 * n + 2].copy_from_slice(&code.to_le_bytes());
            n += 1;
        }
    }
    for slot in n..MAX_PIECES {
        b[PIECES_AT + 2 * slot..PIECES_AT + 2 * slot + 2].copy_from_slice(&NO_PIECE.to_le_bytes());
    }
    b[10] = n as u8;
    Ok(b)
}

/// A record block as a sample; any field out of its range is an error.
pub fn decode(b: &[u8]) -> Result<Sample, String> {
    if b.len() != BLOCK {
        return Err(format!("a record is {BLOCK} bytes, not {}", b.len()));
    }
    let game = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
    let ply = u16::from_le_bytes([b[4], b[5]]) as u32;
    let flags = b[6];
    if flags >> 5 != 0 || ply >= 0x8000 || b[11] != 0 {
        return Err(format!("reserved bits set (flags {flags:#04x}, ply {ply})"));
    }
    let side = if flags & 1 == 1 {
        Colour::Black
    } else {
        Colour::White
    };
    let result = match flags >> 1 & 3 {
        0 => "1/2-1/2",
        1 => "1-0",
        2 => "0-1",
        _ => return Err(format!("bad result in flags {flags:#04x}")),
    };
    let value = i16::from_le_bytes([b[8], b[9]]) as i32;
    let score = match flags >> 3 & 3 {
        0 if value == 0 => None,
        1 => Some(Score::Cp(value)),
        2 => Some(Score::Mate(value)),
        _ => return Err(format!("bad score (flags {flags:#04x}, value {value})")),
    };
    let depth = (b[7] != 255).then_some(b[7] as u32);
    let best = move_of(u32::from_le_bytes([b[12], b[13], b[14], b[15]]))?;
    let n = b[10] as usize;
    if n > MAX_PIECES {
        return Err(format!("{n} pieces (at most {MAX_PIECES})"));
    }
    let mut text = String::with_capacity(12 * n + 8);
    for i in 0..MAX_PIECES {
        let code = u16::from_le_bytes([b[PIECES_AT + 2 * i], b[PIECES_AT + 2 * i + 1]]);
        if i >= n {
            if code != NO_PIECE {
                return Err(format!("piece slot {i} is used beyond the count {n}"));
            }
            continue;
        }
        if i > 0 {
            text.push('/');
        }
        let colour = if code >> 15 == 1 {
            Colour::Black
        } else {
            Colour::White
        };
        text.push(colour.letter());
        text.push_str(&placement_of(code & 0x7FFF)?.to_string());
    }
    if n == 0 {
        text.push('-');
    }
    let side_letter = if side == Colour::White { 'w' } else { 'b' };
    Ok(Sample {
        position: format!("{text} {side_letter} {ply}"),
        side,
        ply,
        score,
        depth,
        result: result.to_string(),
        game,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;

    #[test]
    fn moves_round_trip_and_bad_codes_are_refused() {
        for m in ["c5c6d6", "c5-f5f6g6", "pass"] {
            let mv = parse_move(m).unwrap();
            assert_eq!(move_of(move_code(Some(mv))).unwrap(), Some(mv), "{m}");
        }
        assert_eq!(move_of(0).unwrap(), None);
        for bad in [1, 3 << 30 | 1, 1 << 30, 0x7FFF | 1 << 30, 1 << 25 | 1 << 30] {
            assert!(move_of(bad).is_err(), "{bad:#x}");
        }
    }

    #[test]
    fn a_header_is_never_a_record() {
        let h = header(Variant::Basic);
        assert_eq!(read_header(&h), Ok(Variant::Basic));
        assert!(decode(&h).is_err());
        assert_eq!(MAGIC[6] >> 5, 2);
    }
}
