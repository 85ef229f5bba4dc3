//! What a run writes and reads back: the game record itself (`record`), PGN (`pgn`), the JSON
//! Lines log (`jsonl`) that is also the journal of `-resume` (`resume`), the positions of
//! `-sample` (`sample`), and runs split over machines (`shard`, `merge`).

pub mod jsonl;
pub mod merge;
pub mod pgn;
pub mod record;
pub mod resume;
pub mod sample;
pub mod shard;
