//! Names the build: sets `PUNCT_VERSION`, which every binary's `--version`, the engine's
//! `id name` and the referee's records show, so a report says which build it measured.
//!
//! - From a checkout at the release tag `v<package version>`, with no edits: the package
//!   version alone ("0.3.0"): what a release archive's binaries say.
//! - From any other state of a checkout: the package version and what `git describe --tags
//!   --always --dirty` says of it ("0.3.0 (v0.3.0-14-g1a2b3c4-dirty)", or "0.3.0 (1a2b3c4)"
//!   where no tag is reachable).
//! - With no git, or not from a checkout of this package (a source archive, a vendored copy):
//!   the package version.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    let package = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo:rerun-if-changed=build.rs");
    let version = match describe(&dir) {
        Some(d) if d == format!("v{package}") => package,
        Some(d) => format!("{package} ({d})"),
        None => package,
    };
    println!("cargo:rustc-env=PUNCT_VERSION={version}");
}

/// What `git describe --tags --always --dirty` says of the checkout at `dir`, if `dir` is the
/// top of one. Also tells cargo what to watch so that a commit, a tag, a checkout or an edit of
/// the sources names the next build anew.
fn describe(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    // A package inside someone else's repository (vendored) is not built from its checkout.
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(dir).ok()? {
        return None;
    }
    let mut watched = vec!["HEAD".to_string(), "packed-refs".into(), "refs/tags".into()];
    watched.extend(git(dir, &["symbolic-ref", "-q", "HEAD"]));
    for name in &watched {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", name]) {
            // Cargo reruns a script whose watched path is missing on every build.
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let commit = git(
        dir,
        &[
            "describe",
            "--tags",
            "--always",
            "--abbrev=7",
            "--match",
            "v[0-9]*",
        ],
    )?;
    // `describe --dirty` would refresh and rewrite the index, which would make every later
    // build look stale; `status` with optional locks off looks without writing.
    let edited = git(dir, &["status", "--porcelain", "--untracked-files=no"]).is_some();
    Some(if edited {
        format!("{commit}-dirty")
    } else {
        commit
    })
}

/// The first line `git args` prints in `dir`, or None if git is missing, fails or prints
/// nothing.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_string())
}
