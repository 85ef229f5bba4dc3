//! What differs between platforms, checked on each (the Windows side under Wine, by
//! `.ci/windows-test.sh`): the GUI's bundled engine, how a bare engine name is found, and that
//! no program an engine starts holds the referee's own output open. (`-sample` with `-resume`
//! on Windows: `tune_sample::resume_after_a_crash_loses_and_doubles_nothing`.)

use crate::gui_common::Gui;
use crate::referee_common::{self, output_of, procs_with_tag, tag, tmpdir, MOCK, REFEREE};

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = std::env::consts::EXE_SUFFIX;

#[test]
fn the_gui_lists_its_bundled_engine_first() {
    // `punct` (`punct.exe`) sits next to `punct-gui` in the build folder.
    let gui = Gui::start(&[]);
    let s = gui.wait_state(Duration::from_secs(30), "the bundled engine", |s| {
        s["engines"][0]["state"] == "ready"
    });
    assert_eq!(s["engines"][0]["name"], "punct", "{}", s["engines"]);
}

/// Copies `from` to `dir/name` (with the platform's `.exe`); returns the copy.
fn copy_as(from: &str, dir: &Path, name: &str) -> std::path::PathBuf {
    let to = dir.join(format!("{name}{EXE}"));
    std::fs::copy(from, &to).unwrap();
    to
}

/// A two-game match of the engine `cmd` against builtin:random, run in folder `cwd`.
fn match_in(referee: &Path, cwd: &Path, cmd: &str) -> (Option<i32>, String, String) {
    output_of(
        Command::new(referee)
            .env("RUST_LOG", "error")
            .current_dir(cwd)
            .args(["-engine", &format!("cmd={cmd}"), "tc=10", "-engine"])
            .args(["cmd=builtin:random", "-games", "2"]),
    )
}

#[test]
fn a_bare_engine_name_is_looked_up_as_the_platform_does() {
    let dir = tmpdir("bare-name");
    let here = dir.join("here");
    let bin = dir.join("bin");
    let elsewhere = dir.join("elsewhere");
    for d in [&here, &bin, &elsewhere] {
        std::fs::create_dir_all(d).unwrap();
    }
    // Names found on no PATH: only the folder searched can find them.
    copy_as(MOCK, &here, "engine-here");
    let referee = copy_as(REFEREE, &bin, "referee");
    copy_as(MOCK, &bin, "engine-beside");
    let cases = [
        // In the current folder, with and without `.exe`.
        (&here, "engine-here".to_string()),
        (&here, format!("engine-here{EXE}")),
        // In the referee's own folder.
        (&elsewhere, "engine-beside".to_string()),
    ];
    for (cwd, cmd) in cases {
        let (code, out, err) = match_in(&referee, cwd, &cmd);
        if cfg!(windows) {
            assert_eq!(code, Some(0), "{cmd}: {out}{err}");
            assert!(out.contains("Finished match"), "{cmd}: {out}");
        } else {
            // Unix: a bare name is looked up on PATH only (as execvp does).
            assert_eq!(code, Some(2), "{cmd}: {out}{err}");
            assert!(err.contains("not found or not executable"), "{cmd}: {err}");
        }
    }
    // A path is a path everywhere.
    let (code, out, err) = match_in(&referee, &here, &format!("./engine-here{EXE}"));
    assert_eq!(code, Some(0), "{out}{err}");
    // And a name found nowhere is an error before any game.
    let (code, _, err) = match_in(&referee, &here, "no-such-engine");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not found or not executable"), "{err}");
}

#[test]
fn a_program_that_outlives_its_engine_does_not_hold_the_referees_output() {
    // The engine crashes after a move, leaving a child that left its process group (job) and
    // lives 30 s: out of the referee's reach (a known limit), but it must not keep the
    // referee's own output open, or `punct-referee ... | cat` never ends.
    let t = tag("outlives");
    let child_ms = 30_000;
    let started = Instant::now();
    let mut referee = referee_common::referee()
        .args([
            "-engine",
            &format!("cmd={MOCK}"),
            &format!(
                "args=--mode crash --after 1 --spawn-child --child-breaks-away \
                 --child-ms {child_ms} --tag {t}"
            ),
            "tc=10",
            "-engine",
            "cmd=builtin:random",
            "-games",
            "2",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = referee.stdout.take().unwrap();
    let mut err = referee.stderr.take().unwrap();
    let (tx, rx) = crossbeam_channel::bounded(2);
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        let _ = tx.send(("stdout", s));
    });
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        let _ = tx2.send(("stderr", s));
    });
    // Two games take a second or two; the bound is a third of the child's life, so a slow
    // process start (Wine) cannot fail it, while a held output (which ends with the child) can.
    let bound = Duration::from_millis(child_ms / 3);
    let mut stdout = String::new();
    for _ in 0..2 {
        let (which, text) = rx
            .recv_timeout(bound.saturating_sub(started.elapsed()))
            .unwrap_or_else(|_| {
                let _ = referee.kill();
                panic!("the referee's output was still open after {bound:?}")
            });
        if which == "stdout" {
            stdout = text;
        }
    }
    assert!(referee.wait().unwrap().success(), "{stdout}");
    assert!(stdout.contains("Finished match"), "{stdout}");
    // The test is only worth something if the children did outlive the referee (they end by
    // themselves after `child_ms`).
    assert!(
        !procs_with_tag(&t).is_empty(),
        "no engine child outlived the referee"
    );
}
