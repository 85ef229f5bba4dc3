//! Versions: every binary's `--version` and the engine's `id name` carry the package version
//! (Cargo.toml), so a record or a bug report names the build it came from.

use std::process::{Command, Stdio};

use crate::engine_common;
use engine_common::run_script;

const VERSION: &str = env!("CARGO_PKG_VERSION");

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
