//! Records stay exact through faults of the files and of the user (docs/referee.md,
//! "Reliability"): damage inside the journal, two outputs on one file, an openings file edited
//! between runs, two runs on one journal, a write error, control characters in names, an
//! unusable output path, and a schedule too large to build.

use crate::referee_common;

use std::path::Path;
use std::time::{Duration, Instant};

use referee_common::*;

fn game_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"type\":\"game\""))
        .count()
}

/// Games counted by the final `Score of a vs b: W - L - D  [s] N` line.
#[cfg(unix)] // used by the write-error test only
fn scored_games(stdout: &str) -> u64 {
    let line = &statistics(stdout)[0];
    line.split_whitespace().last().unwrap().parse().unwrap()
}

#[test]
fn damage_inside_the_journal_stops_resume_and_a_torn_last_line_is_cut() {
    let dir = tmpdir("journal-damage");
    let j = dir.join("g.jsonl");
    let (code, out, err) = output_of(random_match(6).arg("-jsonl").arg(&j));
    assert_eq!(code, Some(0), "{out}{err}");
    let text = std::fs::read_to_string(&j).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "start, 6 games, summary");
    // Garbage between two games: refused, naming the line, and the journal is left alone.
    let damaged = format!(
        "{}\n{}\n#garbage\n{}\n",
        lines[0],
        lines[1],
        lines[2..].join("\n")
    );
    std::fs::write(&j, &damaged).unwrap();
    let (code, out, err) = output_of(random_match(6).arg("-jsonl").arg(&j).arg("-resume"));
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("line 3"), "{err}");
    assert_eq!(std::fs::read_to_string(&j).unwrap(), damaged);
    // A torn last line (a crash mid-write) is cut, and only the missing games are played.
    let torn = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..40]);
    std::fs::write(&j, &torn).unwrap();
    let (code, out, err) = output_of(random_match(6).arg("-jsonl").arg(&j).arg("-resume"));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("Resuming: 4 of 6"), "{out}");
    assert_eq!(game_lines(&j), 6);
}

#[test]
fn two_outputs_on_one_file_are_refused() {
    let dir = tmpdir("same-output");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let (code, out, err) = output_of(
        random_match(2)
            .arg("-pgnout")
            .arg(dir.join("sub/../r.txt"))
            .arg("-jsonl")
            .arg(dir.join("./r.txt")),
    );
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("same file"), "{err}");
    assert!(!dir.join("r.txt").exists(), "nothing may be written");
}

#[test]
fn resume_after_the_openings_file_changed_is_refused() {
    let dir = tmpdir("openings-edited");
    let (book, j) = (dir.join("o.txt"), dir.join("g.jsonl"));
    std::fs::write(&book, "Wc5c6d6 b 1\nWc5c6d6/Bf5f6f7 w 2\n").unwrap();
    let openings = format!("file={}", book.display());
    let with_book = || {
        let mut c = random_match(4);
        c.args(["-openings", &openings, "order=sequential", "-jsonl"])
            .arg(&j);
        c
    };
    assert_eq!(output_of(&mut with_book()).0, Some(0));
    let (code, out, err) = output_of(with_book().arg("-resume"));
    assert_eq!(code, Some(0), "same book: resumes\n{out}{err}");
    std::fs::write(&book, "Wc5c6d6/Bf5f6f7 w 2\nWc5c6d6 b 1\n").unwrap();
    let (code, out, err) = output_of(with_book().arg("-resume"));
    assert_eq!(code, Some(2), "edited book: refused\n{out}{err}");
    assert!(err.contains("another configuration"), "{err}");
}

#[test]
fn a_second_run_on_a_journal_in_use_is_refused() {
    let dir = tmpdir("journal-lock");
    let t = tag("journal-lock");
    let j = dir.join("g.jsonl");
    let slow = || {
        let mut c = referee();
        c.args([
            "-engine",
            &format!("cmd={MOCK}"),
            "name=mock",
            &format!("args=--mode slow --after 0 --delay-ms 60 --tag {t}"),
            "tc=60",
            "-engine",
            "cmd=builtin:random",
            "-games",
            "2",
            "-maxmoves",
            "6",
            "-jsonl",
        ])
        .arg(&j);
        c
    };
    let mut first = slow().stdout(std::process::Stdio::null()).spawn().unwrap();
    let end = Instant::now() + Duration::from_secs(10);
    while std::fs::metadata(&j).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < end, "the first run did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    let (code, out, err) = output_of(slow().arg("-resume"));
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("in use"), "{err}");
    assert_eq!(first.wait().unwrap().code(), Some(0));
    assert_eq!(game_lines(&j), 2, "exactly the first run's games");
    assert!(leftovers(&t, Duration::from_secs(2)).is_empty());
}

#[cfg(unix)] // a file size limit (setrlimit) stands in for a full disk
#[test]
fn after_a_write_error_the_summary_counts_only_recorded_games() {
    use std::os::unix::process::CommandExt;
    let dir = tmpdir("write-error");
    let j = dir.join("g.jsonl");
    let mut c = random_match(40);
    c.arg("-concurrency").arg("2").arg("-jsonl").arg(&j);
    // A file size limit stands in for a full disk: writes past 12 KB fail (EFBIG).
    // SAFETY: setrlimit and signal are async-signal-safe.
    unsafe {
        c.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 12_000,
                rlim_max: 12_000,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let (code, out, err) = output_of(&mut c);
    assert_eq!(code, Some(5), "{out}{err}");
    assert!(out.contains("cannot write records"), "{out}");
    let recorded = game_lines(&j) as u64;
    assert!(recorded > 0 && recorded < 40, "{recorded} games recorded");
    assert_eq!(scored_games(&out), recorded, "{out}");
    // The journal is still good for a resume (its torn last line is cut).
    let (code, out, err) = output_of(random_match(40).arg("-jsonl").arg(&j).arg("-resume"));
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(&format!("Resuming: {recorded} of 40")),
        "{out}"
    );
    assert_eq!(game_lines(&j), 40);
}

#[test]
fn control_characters_in_names_are_refused_and_check_pgn_finds_a_broken_tag() {
    let dir = tmpdir("control-chars");
    let (code, _, err) = output_of(random_match(2).args(["-event", "two\nlines"]));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("control character"), "{err}");
    let pgn = dir.join("g.pgn");
    assert_eq!(
        output_of(random_match(2).arg("-pgnout").arg(&pgn)).0,
        Some(0)
    );
    let (code, out, _) = output_of(referee().arg("-check-pgn").arg(&pgn));
    assert_eq!(code, Some(0), "{out}");
    // A tag split over two lines, as a raw newline in a name used to make it.
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::write(&pgn, text.replacen("[White \"a\"]", "[White \"a\nb\"]", 1)).unwrap();
    let (code, out, _) = output_of(referee().arg("-check-pgn").arg(&pgn));
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("line 5: broken tag"), "{out}");
}

#[test]
fn an_unusable_output_path_is_a_record_error() {
    let dir = tmpdir("unusable-output");
    // A directory where the PGN file should be; a journal under a file (nothing can be made there).
    let (code, _, err) = output_of(random_match(2).arg("-pgnout").arg(&*dir));
    assert_eq!(code, Some(5), "{err}");
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let (code, _, err) = output_of(random_match(2).arg("-jsonl").arg(file.join("g.jsonl")));
    assert_eq!(code, Some(5), "{err}");
}

#[test]
fn a_huge_game_count_is_scheduled_lazily() {
    let t = tag("huge-schedule");
    let mut c = referee();
    c.args([
        "-engine",
        &format!("cmd={MOCK}"),
        "name=bad",
        &format!("args=--mode illegal --after 0 --tag {t}"),
        "tc=10",
        "-engine",
        "cmd=builtin:random",
        "-games",
        "100000000",
        "-strict",
    ]);
    let m = run_measured(&mut c, Duration::from_secs(20));
    assert_eq!(m.code, Some(4), "stops at the first failure\n{}", m.stdout);
    assert!(m.stdout.contains("of 100000000"), "{}", m.stdout);
    assert!(
        m.max_rss_kb < 50_000,
        "referee peak RSS {} KB",
        m.max_rss_kb
    );
    assert!(leftovers(&t, Duration::from_secs(2)).is_empty());
}
