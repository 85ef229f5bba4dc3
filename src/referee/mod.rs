//! The referee: plays PÜNCT engines against each other and reports results.

pub mod report;
pub mod sprt;
pub mod stats;
pub mod timecontrol;
