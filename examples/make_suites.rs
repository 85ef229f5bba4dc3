//! Writes the test suites of `tournaments/suites/` (docs/referee.md, "Test suites"):
//!
//! - `wins-in-one.epd`: the side to move wins at once; `bm` is every winning move. Positions
//!   whose wins include a shift, and a bridge (a shift landing as a bridge), are taken first;
//! - `blocks.epd`: the side to move cannot win at once and the opponent threatens to connect
//!   next move; `bm` is every move after which the opponent has no winning reply;
//! - `centre-race.epd`: standard game, a player with at most two pieces in hand: wins at once
//!   (often the last drop on a centre-count lead) or moves that do not lose at once.
//!
//! Every answer comes from trying every legal move with the rules library (and, for moves that
//! do not win, every reply), never from an engine. Positions come from games of the built-in
//! greedy player from seeded random openings.
//!
//! ```sh
//! cargo run --release --features tools --example make_suites [OUT_DIR]    # default tournaments/suites
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use punct::referee::players::greedy;
use punct::rules::moves::Move;
use punct::rules::notation::position_to_string;
use punct::rules::piece::Colour;
use punct::rules::position::{EndReason, Position, Variant};

/// Most moves a `bm` or `am` list may hold (longer lines are not useful tests).
const MAX_LIST: usize = 40;

/// The same for a win in the centre race: a last drop on a centre-count lead wins wherever it
/// goes, so every legal drop is in the list.
const MAX_RACE_WIN_LIST: usize = 400;

/// Whether the side to move wins by playing `m`.
fn wins(pos: &mut Position, m: Move) -> Option<EndReason> {
    let me = pos.side_to_move();
    pos.make(m);
    let r = pos
        .outcome()
        .filter(|o| o.winner == Some(me))
        .map(|o| o.reason);
    pos.unmake();
    r
}

/// Every winning move of the side to move, with how it wins.
fn winning_moves(pos: &mut Position) -> Vec<(Move, EndReason)> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        if let Some(r) = wins(pos, m) {
            out.push((m, r));
        }
    }
    out
}

/// Whether the side to move has a winning move; `killers` (moves that won elsewhere) are tried
/// first, then every legal move.
fn has_win(pos: &mut Position, killers: &mut Vec<Move>) -> bool {
    for &k in killers.iter() {
        if pos.check_move(k).is_ok() && wins(pos, k).is_some() {
            return true;
        }
    }
    for m in pos.legal_moves() {
        if wins(pos, m).is_some() {
            killers.push(m);
            return true;
        }
    }
    false
}

/// The moves after which the opponent has no winning reply, or None when more than
/// `MAX_LIST` do (every one of them costs a scan of every reply).
fn safe_moves(pos: &mut Position) -> Option<(Vec<Move>, usize)> {
    let moves = pos.legal_moves();
    let mut killers = Vec::new();
    let mut safe = Vec::new();
    for &m in &moves {
        pos.make(m);
        let lost = !pos.is_finished() && has_win(pos, &mut killers);
        let ends = pos.is_finished();
        pos.unmake();
        if ends {
            // The move ends the game without a win (a draw): it does not lose at once.
            safe.push(m);
        } else if !lost {
            safe.push(m);
        }
        if safe.len() > MAX_LIST {
            return None;
        }
    }
    Some((safe, moves.len()))
}

/// Whether `m` (legal in `pos`) lands as a bridge: a shift whose middle dot has a gap under it.
fn is_bridge(pos: &mut Position, m: Move) -> bool {
    let Move::Shift { to, .. } = m else {
        return false;
    };
    let Some(mid) = to.middle() else { return false };
    pos.make(m);
    let cells = to.cells();
    let end = cells[to.end_cells()[0]];
    let level = pos.top_piece(end).map(|i| pos.piece(i).level);
    let under_mid = pos.stack(cells[mid]).len();
    pos.unmake();
    level.is_some_and(|l| l > 0 && under_mid < usize::from(l) + 1)
}

/// Whether the opponent could win at once if it were its turn (a pass hands it the move).
fn opponent_threatens(pos: &mut Position) -> bool {
    pos.make(Move::Pass);
    let t = !pos.is_finished() && !winning_moves(pos).is_empty();
    pos.unmake();
    t
}

fn in_race(pos: &Position) -> bool {
    pos.variant() == Variant::Standard
        && (pos.hand_total(Colour::White) <= 2 || pos.hand_total(Colour::Black) <= 2)
}

fn list(ms: &[Move]) -> String {
    let mut v: Vec<String> = ms.iter().map(|m| m.to_string()).collect();
    v.sort();
    v.join(" ")
}

struct Found {
    text: String,
    kind: &'static str,
}

/// The suite line of `pos` and its category, if it makes a test.
fn classify(pos: &mut Position) -> Option<Found> {
    let fen = position_to_string(pos);
    let race = in_race(pos);
    let w = winning_moves(pos);
    if !w.is_empty() {
        let total = pos.legal_moves().len();
        let good: Vec<Move> = w.iter().map(|(m, _)| *m).collect();
        if good.len() == total {
            return None;
        }
        let shift = good.iter().any(|m| matches!(m, Move::Shift { .. }));
        let bridge = good.iter().any(|&m| is_bridge(pos, m));
        let centre = w
            .iter()
            .any(|(_, r)| matches!(r, EndReason::CentreCount { .. }));
        let kind = if race {
            "race-win"
        } else if bridge {
            "win-bridge"
        } else if shift {
            "win-shift"
        } else {
            "win-drop"
        };
        let note = match (centre, bridge, shift) {
            (true, _, _) => "wins on the centre count",
            (_, true, _) => "a bridge wins",
            (_, _, true) => "a shift wins",
            _ => "a drop wins",
        };
        let max = if race { MAX_RACE_WIN_LIST } else { MAX_LIST };
        let answer = if good.len() <= max {
            format!("bm {}", list(&good))
        } else {
            let rest: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| !good.contains(m))
                .collect();
            if rest.len() > max {
                return None;
            }
            format!("am {}", list(&rest))
        };
        return Some(Found {
            text: format!(
                "{fen} {answer}; c0 \"{note}, {} of {total} moves\";",
                good.len()
            ),
            kind,
        });
    }
    if !opponent_threatens(pos) {
        return None;
    }
    let (safe, total) = safe_moves(pos)?;
    if safe.is_empty() || safe.len() == total {
        return None;
    }
    let kind = if race { "race" } else { "block" };
    Some(Found {
        text: format!(
            "{fen} bm {}; c0 \"{} of {total} moves stop the threat\";",
            list(&safe),
            safe.len()
        ),
        kind,
    })
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tournaments/suites".into());
    std::fs::create_dir_all(&out).expect("output folder");
    let want = [
        ("win-drop", 12),
        ("win-shift", 12),
        ("win-bridge", 12),
        ("block", 36),
        ("race-win", 10),
        ("race", 20),
    ];
    let mut found: Vec<(&str, Vec<String>)> = want.iter().map(|(k, _)| (*k, Vec::new())).collect();
    let mut seen = HashSet::new();
    let full =
        |f: &Vec<(&str, Vec<String>)>| want.iter().zip(f).all(|((_, n), (_, v))| v.len() >= *n);
    let mut games = 0;
    for seed in 1u64.. {
        if full(&found) || seed > 3000 {
            break;
        }
        games += 1;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = Position::new(Variant::Standard);
        let plies = rng.gen_range(2..8);
        while !pos.is_finished() && pos.ply() < 200 {
            let m = if pos.ply() < plies {
                let ms = pos.legal_moves();
                ms[rng.gen_range(0..ms.len())]
            } else {
                greedy::choose(&mut pos, &mut rng, Duration::from_secs(1)).mv
            };
            pos.make(m);
            if pos.is_finished() || pos.ply() < 8 || !seen.insert(pos.hash()) {
                continue;
            }
            if let Some(f) = classify(&mut pos) {
                let slot = found.iter_mut().find(|(k, _)| *k == f.kind).expect("kind");
                let limit = want.iter().find(|(k, _)| *k == f.kind).expect("kind").1;
                if slot.1.len() < limit {
                    eprintln!("{} {}: {}", f.kind, slot.1.len() + 1, f.text);
                    slot.1.push(f.text);
                }
            }
        }
    }
    let take = |kinds: &[&str]| -> Vec<String> {
        found
            .iter()
            .filter(|(k, _)| kinds.contains(k))
            .flat_map(|(_, v)| v.clone())
            .collect()
    };
    let files = [
        (
            "wins-in-one.epd",
            "wins",
            "The side to move wins at once (connection or centre count); bm is every winning move.\n\
             # Wins by drops, by shifts, and by shifts landing as bridges.",
            take(&["win-drop", "win-shift", "win-bridge"]),
        ),
        (
            "blocks.epd",
            "block",
            "The side to move cannot win at once; the opponent threatens to connect next move.\n\
             # bm is every move after which the opponent has no winning reply.",
            take(&["block"]),
        ),
        (
            "centre-race.epd",
            "race",
            "Standard game, a player with at most two pieces in hand (the centre race): bm is every\n\
             # winning move when there is one, else every move after which the opponent cannot win.",
            take(&["race-win", "race"]),
        ),
    ];
    for (name, prefix, about, lines) in files {
        let mut text = String::new();
        let _ = writeln!(text, "# {about}");
        let _ = writeln!(
            text,
            "# Made by `cargo run --release --example make_suites` from {games} games of builtin:greedy;\n\
             # every answer found by trying every legal move (and every reply) with the rules library.\n\
             # Checked by tests/referee_suite.rs. Format: docs/referee.md, \"Test suites\"."
        );
        for (i, l) in lines.iter().enumerate() {
            let (head, tail) = l.split_once(" c0 ").expect("c0");
            let _ = writeln!(text, "{head} id \"{prefix}-{:02}\"; c0 {tail}", i + 1);
        }
        let path = format!("{out}/{name}");
        std::fs::write(&path, text).expect("write suite");
        println!("{path}: {} positions", lines.len());
    }
}
