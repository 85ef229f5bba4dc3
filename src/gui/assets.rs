//! The page, embedded in the binary: no build step, nothing fetched from the network.
//!
//! The script is several files served as one (`/app.js`), in the order of `SCRIPT_PARTS`.
//! `PUNCT_GUI_ASSETS=DIR` serves the files of DIR instead of the embedded ones (a missing
//! script part is left out): for working on the page without a rebuild, and for running the
//! browser tests against an older page.

use std::borrow::Cow;

pub const INDEX: &str = include_str!("assets/index.html");
pub const STYLE: &str = include_str!("assets/style.css");
pub const APP_JS: &str = concat!(
    include_str!("assets/app.js"),
    "\n",
    include_str!("assets/review.js"),
    "\n",
    include_str!("assets/extras.js"),
    "\n",
    include_str!("assets/watch.js"),
    "\n",
    include_str!("assets/levels.js"),
    "\n",
    include_str!("assets/start.js"),
);
const SCRIPT_PARTS: [&str; 6] = [
    "app.js",
    "review.js",
    "extras.js",
    "watch.js",
    "levels.js",
    "start.js",
];

/// The text served for `name` (`index.html`, `app.js` or `style.css`).
pub fn served(name: &str) -> Cow<'static, str> {
    let embedded = match name {
        "index.html" => INDEX,
        "style.css" => STYLE,
        _ => APP_JS,
    };
    let Some(dir) = std::env::var_os("PUNCT_GUI_ASSETS") else {
        return Cow::Borrowed(embedded);
    };
    let dir = std::path::PathBuf::from(dir);
    if name == "app.js" {
        let parts: Vec<String> = SCRIPT_PARTS
            .iter()
            .filter_map(|p| std::fs::read_to_string(dir.join(p)).ok())
            .collect();
        return Cow::Owned(parts.join("\n"));
    }
    std::fs::read_to_string(dir.join(name)).map_or(Cow::Borrowed(embedded), Cow::Owned)
}
