//! Statistics of results: counts and Elo estimates (`elo`), the sequential probability ratio
//! test (`sprt`), ratings of many players on an anchored scale (`ratings`), the
//! cutechess/fastchess report lines (`report`), and long lists of per-move
//! figures with exact medians and percentiles in flat memory (`values`).

pub mod elo;
pub mod ratings;
pub mod report;
pub mod sprt;
pub mod values;
