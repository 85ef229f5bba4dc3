//! Openings: the start positions of the game pairs. Opening `k` depends only on the source, the
//! seed and `k`, so a resumed run plays exactly the openings the interrupted one would have.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::referee::settings::{OpeningOrder, OpeningSource};
use crate::rules::notation::parse_position;
use crate::rules::position::{Position, Variant};

/// Random-opening attempts before giving up on finding an undecided one.
const MAX_TRIES: u32 = 1000;

pub struct Openings {
    source: OpeningSource,
    variant: Variant,
    seed: u64,
    /// Position strings of a file, in the order they are used.
    book: Vec<String>,
}

/// A 64-bit mix (splitmix64) for deriving independent seeds.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Openings {
    pub fn new(source: &OpeningSource, variant: Variant, seed: u64) -> Result<Openings, String> {
        let mut book = Vec::new();
        if let OpeningSource::File { path, order, start } = source {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("openings {}: {e}", path.display()))?;
            for (n, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let pos = parse_position(line, variant)
                    .map_err(|e| format!("openings {} line {}: {e}", path.display(), n + 1))?;
                if pos.is_finished() {
                    return Err(format!(
                        "openings {} line {}: the game is already over",
                        path.display(),
                        n + 1
                    ));
                }
                book.push(pos.to_string());
            }
            if book.is_empty() {
                return Err(format!("openings {}: no positions", path.display()));
            }
            if *order == OpeningOrder::Random {
                book.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ 0x0B0C)));
            }
            let s = (start - 1) % book.len();
            book.rotate_left(s);
        }
        Ok(Openings {
            source: source.clone(),
            variant,
            seed,
            book,
        })
    }

    /// The number of positions of an openings file (None for other sources).
    pub fn book_len(&self) -> Option<usize> {
        matches!(self.source, OpeningSource::File { .. }).then_some(self.book.len())
    }

    /// The position string of opening `k` (0-based).
    pub fn get(&self, k: u64) -> String {
        match &self.source {
            OpeningSource::StartPosition => Position::new(self.variant).to_string(),
            OpeningSource::File { .. } => self.book[(k % self.book.len() as u64) as usize].clone(),
            OpeningSource::RandomPlies { plies } => {
                random_opening(self.variant, *plies, mix(self.seed ^ mix(k)))
            }
        }
    }
}

/// `plies` random legal plies that leave an undecided game: not over, and the side to move
/// cannot end it with a win at once.
pub fn random_opening(variant: Variant, plies: u32, seed: u64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut best = Position::new(variant);
    'tries: for _ in 0..MAX_TRIES {
        let mut pos = Position::new(variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'tries;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
            if pos.is_finished() {
                continue 'tries;
            }
        }
        if !wins_at_once(&mut pos) {
            return pos.to_string();
        }
        best = pos;
    }
    log::warn!("no undecided random opening found; using a decided one");
    best.to_string()
}

/// Whether the side to move has a move that wins immediately.
pub fn wins_at_once(pos: &mut Position) -> bool {
    let me = pos.side_to_move();
    for mv in pos.legal_moves() {
        pos.make(mv);
        let win = pos.outcome().is_some_and(|o| o.winner == Some(me));
        pos.unmake();
        if win {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_undecided_and_varied() {
        let src = OpeningSource::RandomPlies { plies: 6 };
        let a = Openings::new(&src, Variant::Standard, 5).unwrap();
        let b = Openings::new(&src, Variant::Standard, 5).unwrap();
        let mut seen = std::collections::HashSet::new();
        for k in 0..8 {
            let s = a.get(k);
            assert_eq!(s, b.get(k));
            let mut pos = parse_position(&s, Variant::Standard).unwrap();
            assert_eq!(pos.ply(), 6);
            assert!(!pos.is_finished());
            assert!(!wins_at_once(&mut pos));
            seen.insert(s);
        }
        assert_eq!(seen.len(), 8);
        let c = Openings::new(&src, Variant::Standard, 6).unwrap();
        assert_ne!(a.get(0), c.get(0));
    }

    #[test]
    fn file_openings_sequential_with_start() {
        let dir = std::env::temp_dir().join(format!("referee-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.txt");
        std::fs::write(
            &path,
            "# two openings\nWc5c6d6 b 1\n\nWc5c6d6/Bf5f6f7 w 2\n",
        )
        .unwrap();
        let src = OpeningSource::File {
            path: path.clone(),
            order: OpeningOrder::Sequential,
            start: 2,
        };
        let o = Openings::new(&src, Variant::Standard, 1).unwrap();
        assert_eq!(o.get(0), "Wc5c6d6/Bf5f6f7 w 2");
        assert_eq!(o.get(1), "Wc5c6d6 b 1");
        assert_eq!(o.get(2), "Wc5c6d6/Bf5f6f7 w 2");
        std::fs::write(&path, "Wc5c6d6 b 1\nnot a position\n").unwrap();
        assert!(Openings::new(&src, Variant::Standard, 1).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
