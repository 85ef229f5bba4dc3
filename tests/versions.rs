//! Versions: every binary's `--version` and the engine's `id name` carry the package version
//! (Cargo.toml) and, built from a checkout, the commit (`build.rs`), so a record or a bug
//! report names the build it came from.

use std::process::{Command, Stdio};

use crate::engine_common;
use engine_common::run_script;

const PACKAGE: &str = env!("CARGO_PKG_VERSION");
/// What the binaries print: the package version, and the commit when built from a checkout.
const VERSION: &str = punct::VERSION;

/// Runs `program --version` (or `-V`); returns its stdout, checking exit status 0 and no stderr.
fn version_of(program: &str, flag: &str) -> String {
    let out = Command::new(program)
        .arg(flag)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{program} {flag}: {:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{program} {flag} wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn the_package_version_is_a_release_number() {
    // Three dot-separated numbers; this round is 0.3.0.
    let parts: Vec<u32> = PACKAGE
        .split('.')
        .map(|p| p.parse().expect("a number"))
        .collect();
    assert_eq!(parts.len(), 3, "{PACKAGE}");
    assert_eq!(PACKAGE, "0.3.0");
}

/// Runs git in this package's own checkout; None outside one (or without git).
fn git_here(args: &[&str]) -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        out.status.success().then_some(text)
    };
    let top = std::path::PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    (top.canonicalize().ok()? == std::path::Path::new(root).canonicalize().ok()?)
        .then(|| git(args))
        .flatten()
}

#[test]
fn the_version_names_the_commit_when_built_from_a_checkout() {
    if git_here(&["rev-parse", "HEAD"]).is_none() {
        assert_eq!(VERSION, PACKAGE, "no checkout, no commit");
        return;
    }
    // `0.3.0 (87eb082)` or `0.3.0 (87eb082-dirty)`; with tags, `git describe`'s `v0.3.0-5-g87eb082`.
    let describe = (VERSION.strip_prefix(&format!("{PACKAGE} (")))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{VERSION:?} is not '{PACKAGE} (COMMIT)'"));
    let describe = describe.strip_suffix("-dirty").unwrap_or(describe);
    let hash = describe.rsplit("-g").next().unwrap();
    // The build's commit is HEAD when cargo built it; a commit made while the tests run moves
    // HEAD on, so the check is that the named commit is HEAD or one of its ancestors.
    let full = git_here(&["rev-parse", "--verify", &format!("{hash}^{{commit}}")]);
    assert!(
        hash.len() >= 7 && full.is_some(),
        "{VERSION:?} names no commit of this checkout"
    );
    assert!(
        git_here(&["merge-base", "--is-ancestor", hash, "HEAD"]).is_some(),
        "{VERSION:?} names a commit that is not HEAD or before it"
    );
}

#[test]
fn each_binary_answers_version_with_its_name_and_the_package_version() {
    for (program, name) in [
        (env!("CARGO_BIN_EXE_punct"), "punct"),
        (env!("CARGO_BIN_EXE_punct-gui"), "punct-gui"),
        (env!("CARGO_BIN_EXE_punct-tune"), "punct-tune"),
    ] {
        for flag in ["--version", "-V"] {
            assert_eq!(
                version_of(program, flag),
                format!("{name} {VERSION}\n"),
                "{name} {flag}"
            );
        }
    }
}

#[test]
fn the_engine_names_itself_with_the_package_version() {
    for handshake in ["uci", "ugi"] {
        let (status, text) = run_script(&[], &format!("{handshake}\nquit\n"));
        assert!(status.success());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.first().copied(),
            Some(&*format!("id name Punct {VERSION}"))
        );
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("id name")).count(),
            1,
            "{text}"
        );
        assert_eq!(
            lines.last().copied(),
            Some(&*format!("{handshake}ok")),
            "{text}"
        );
    }
}
