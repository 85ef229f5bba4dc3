//! The page, embedded in the binary: no build step, nothing fetched from the network.

pub const INDEX: &str = include_str!("assets/index.html");
pub const APP_JS: &str = include_str!("assets/app.js");
pub const STYLE: &str = include_str!("assets/style.css");
