//! Names the commit a build came from, as `git describe` does, so `--version`, the engine's
//! `id name` and a match record say which code they ran: `0.3.0 (87eb082)`, with `-dirty`
//! when tracked files differed from the commit as the script ran (it runs again after a
//! commit, a checkout or a change under `src/`). Outside a git checkout (a tarball, `cargo
//! install`) the version is the package version alone.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    let package = std::env::var("CARGO_PKG_VERSION").expect("cargo sets it");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    // Only this package's own checkout counts, not a repository it happens to sit in.
    let own = git(&["rev-parse", "--show-toplevel"])
        .and_then(|top| Path::new(&top).canonicalize().ok())
        .is_some_and(|top| Path::new(&root).canonicalize().is_ok_and(|r| r == top));
    let describe = own
        .then(|| git(&["describe", "--tags", "--always", "--dirty", "--abbrev=7"]))
        .flatten();
    if own {
        // A commit or a checkout moves HEAD or the branch (and writes the reflog); a path that
        // does not exist would make cargo rerun this script, and rebuild the crate, each build.
        let branch = git(&["symbolic-ref", "-q", "HEAD"]);
        for name in ["HEAD", "logs/HEAD", "packed-refs"]
            .into_iter()
            .chain(branch.as_deref())
        {
            if let Some(path) = git(&["rev-parse", "--git-path", name]) {
                let path = Path::new(&root).join(path);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
    let version = match describe {
        Some(d) => format!("{package} ({d})"),
        None => package,
    };
    println!("cargo:rustc-env=PUNCT_VERSION={version}");
}
