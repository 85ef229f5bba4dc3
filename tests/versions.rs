//! Versions: every binary's `--version` and the engine's `id name` carry the package version
//! (Cargo.toml) and, built from a checkout, the commit as `git describe` names it (build.rs), so
//! a record or a bug report names the build it came from.

#[cfg(unix)]
use std::path::Path;
use std::process::{Command, Stdio};

use crate::engine_common;
use engine_common::run_script;

const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The build's name (build.rs): "0.3.0" at the release tag, else e.g. "0.3.0 (v0.3.0-2-g1a2b3c4)".
const BUILD: &str = env!("PUNCT_VERSION");

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
    let parts: Vec<u32> = VERSION
        .split('.')
        .map(|p| p.parse().expect("a number"))
        .collect();
    assert_eq!(parts.len(), 3, "{VERSION}");
    assert_eq!(VERSION, "0.3.0");
}

#[test]
fn each_binary_answers_version_with_its_name_and_the_build() {
    assert!(BUILD.starts_with(VERSION), "{BUILD}");
    for (program, name) in [
        (env!("CARGO_BIN_EXE_punct"), "punct"),
        (env!("CARGO_BIN_EXE_punct-gui"), "punct-gui"),
        (env!("CARGO_BIN_EXE_punct-tune"), "punct-tune"),
    ] {
        for flag in ["--version", "-V"] {
            assert_eq!(
                version_of(program, flag),
                format!("{name} {BUILD}\n"),
                "{name} {flag}"
            );
        }
    }
}

#[test]
fn the_engine_names_itself_with_the_build() {
    for handshake in ["uci", "ugi"] {
        let (status, text) = run_script(&[], &format!("{handshake}\nquit\n"));
        assert!(status.success());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.first().copied(),
            Some(&*format!("id name Punct {BUILD}"))
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

/// `git args` in `dir` (no user or system configuration); its output, trimmed.
#[cfg(unix)]
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .stdin(Stdio::null())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[cfg(unix)] // git and the host's rustc; the logic is the host's (build.rs runs at build time)
#[test]
fn this_build_is_named_by_its_commit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join(".git").exists() {
        // Built from a source archive: the package version alone.
        assert_eq!(BUILD, VERSION);
        return;
    }
    let commit = git(
        root,
        &[
            "describe",
            "--tags",
            "--always",
            "--abbrev=7",
            "--match",
            "v[0-9]*",
        ],
    );
    if commit == format!("v{VERSION}") && !BUILD.contains('(') {
        return; // the release tag, clean
    }
    // "-dirty" may differ: a file outside the sources edited since the build.
    assert!(
        BUILD.starts_with(&format!("{VERSION} ({commit}")),
        "{BUILD} against {commit}"
    );
}

#[cfg(unix)] // git and the host's rustc
#[test]
fn build_rs_names_a_build_by_git_describe_and_needs_no_git() {
    let dir = crate::referee_common::tmpdir("build-rs");
    let script = dir.join("build-script");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let built = Command::new(rustc)
        .args(["--edition", "2021", "-o"])
        .arg(&script)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("build.rs"))
        .output()
        .expect("rustc runs");
    assert!(built.status.success(), "{built:?}");
    let path = std::env::var("PATH").unwrap();
    // The version build.rs gives a package at `manifest` with PATH `path`.
    let name = |manifest: &Path, path: &str| {
        let out = Command::new(&script)
            .current_dir(manifest)
            .env("CARGO_PKG_VERSION", "0.3.0")
            .env("CARGO_MANIFEST_DIR", manifest)
            .env("PATH", path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", manifest)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let version = text
            .lines()
            .find_map(|l| l.strip_prefix("cargo:rustc-env=PUNCT_VERSION="))
            .unwrap_or_else(|| panic!("no PUNCT_VERSION in {text}"))
            .to_string();
        (version, text)
    };
    let pkg = dir.join("pkg");
    std::fs::create_dir_all(pkg.join("src")).unwrap();
    std::fs::write(pkg.join("Cargo.toml"), "[package]\n").unwrap();
    std::fs::write(pkg.join("src/lib.rs"), "").unwrap();
    // No checkout; then no git at all.
    assert_eq!(name(&pkg, &path).0, "0.3.0");
    assert_eq!(name(&pkg, "").0, "0.3.0");
    git(&pkg, &["init", "-q"]);
    git(&pkg, &["add", "."]);
    git(&pkg, &["commit", "-q", "-m", "one"]);
    let first = git(&pkg, &["rev-parse", "--short=7", "HEAD"]);
    let (version, text) = name(&pkg, &path);
    assert_eq!(version, format!("0.3.0 ({first})"));
    assert!(text.contains("cargo:rerun-if-changed=src"), "{text}");
    // A checkout without git to ask: the package version.
    assert_eq!(name(&pkg, "").0, "0.3.0");
    // The release tag says the release; an edit, a later commit say so.
    git(&pkg, &["tag", "v0.3.0"]);
    assert_eq!(name(&pkg, &path).0, "0.3.0");
    std::fs::write(pkg.join("src/lib.rs"), "// edited").unwrap();
    assert_eq!(name(&pkg, &path).0, "0.3.0 (v0.3.0-dirty)");
    git(&pkg, &["commit", "-q", "-am", "two"]);
    let second = git(&pkg, &["rev-parse", "--short=7", "HEAD"]);
    assert_eq!(name(&pkg, &path).0, format!("0.3.0 (v0.3.0-1-g{second})"));
    // An untracked file is no edit; a package inside another repository is not its checkout.
    std::fs::write(pkg.join("notes.txt"), "").unwrap();
    assert_eq!(name(&pkg, &path).0, format!("0.3.0 (v0.3.0-1-g{second})"));
    let vendored = pkg.join("vendor");
    std::fs::create_dir_all(&vendored).unwrap();
    assert_eq!(name(&vendored, &path).0, "0.3.0");
}
