//! `-shard I/N` + `-merge`: the shards of a match, merged, give the statistics of the match
//! played in one run (same games, same Elo, pentanomial and SPRT lines).

mod referee_common;

use std::path::Path;

use referee_common::*;

fn run(dir: &Path, name: &str, shard: Option<&str>) -> String {
    let mut c = referee();
    c.args([
        "-engine",
        "cmd=builtin:random",
        "name=a",
        "-engine",
        "cmd=builtin:random",
        "name=b",
    ]);
    c.args([
        "-games",
        "30",
        "-random-openings",
        "plies=2",
        "-srand",
        "3",
        "-ratinginterval",
        "0",
    ]);
    c.args(["-sprt", "elo0=0", "elo1=50", "-jsonl"])
        .arg(dir.join(name));
    if let Some(s) = shard {
        c.args(["-shard", s]);
    }
    let out = c.output().unwrap();
    assert!(out.status.code().is_some_and(|c| c == 0 || c == 3));
    String::from_utf8(out.stdout).unwrap()
}

/// The statistics block a run ends with: from the last "Score of" line, without timing lines.
fn statistics(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("Score of"))
        .unwrap();
    lines[start..]
        .iter()
        .take_while(|l| {
            !l.starts_with("Referee overhead")
                && !l.starts_with("Played")
                && !l.starts_with("Finished")
        })
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = tmpdir("tune-shard");
    let single = statistics(&run(&dir, "all.jsonl", None));
    assert!(single.iter().any(|l| l.starts_with("Ptnml")), "{single:?}");
    assert!(single.iter().any(|l| l.starts_with("LLR")), "{single:?}");
    for count in [2, 3] {
        let mut files = Vec::new();
        let mut games = 0;
        for i in 0..count {
            let name = format!("s{i}of{count}.jsonl");
            run(&dir, &name, Some(&format!("{i}/{count}")));
            games += read_jsonl(&dir.join(&name))
                .iter()
                .filter(|v| v["type"] == "game")
                .count();
            files.push(dir.join(name));
        }
        assert_eq!(games, 30, "shards are disjoint and cover the run");
        let out = referee()
            .arg("-merge")
            .args(&files)
            .args(["-sprt", "elo0=0", "elo1=50"])
            .output()
            .unwrap();
        let merged = statistics(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(merged, single, "{count} shards");
    }
    // The same game recorded differently (another run) is refused.
    let other = dir.join("other.jsonl");
    let text = std::fs::read_to_string(dir.join("all.jsonl")).unwrap();
    std::fs::write(
        &other,
        text.replace("\"result\":\"1-0\"", "\"result\":\"0-1\""),
    )
    .unwrap();
    let out = referee()
        .arg("-merge")
        .arg(dir.join("all.jsonl"))
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
