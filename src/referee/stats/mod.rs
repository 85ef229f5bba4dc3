//! Statistics of results: counts and Elo estimates (`elo`), the sequential probability ratio
//! test (`sprt`), and the cutechess/fastchess report lines (`report`).

pub mod elo;
pub mod report;
pub mod sprt;
