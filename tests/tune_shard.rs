//! `-shard I/N` + `-merge`: the shards of a match, merged, give the statistics of the match
//! played in one run (same games, same Elo, pentanomial and SPRT lines).

use crate::referee_common;

use std::path::Path;

use referee_common::*;

fn run(dir: &Path, name: &str, shard: Option<&str>) -> String {
    let mut c = random_match(30);
    c.args([
        "-random-openings",
        "plies=2",
        "-sprt",
        "elo0=0",
        "elo1=50",
        "-jsonl",
    ])
    .arg(dir.join(name));
    if let Some(s) = shard {
        c.args(["-shard", s]);
    }
    let (code, out, err) = output_of(&mut c);
    assert!(code.is_some_and(|c| c == 0 || c == 3), "{out}{err}");
    out
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = tmpdir("tune-shard");
    let single = statistics(&run(&dir, "all.jsonl", None));
    assert!(single.iter().any(|l| l.starts_with("Ptnml")), "{single:?}");
    assert!(single.iter().any(|l| l.starts_with("LLR")), "{single:?}");
    for count in [2, 3] {
        let mut files = Vec::new();
        let mut recorded = 0;
        for i in 0..count {
            let name = format!("s{i}of{count}.jsonl");
            run(&dir, &name, Some(&format!("{i}/{count}")));
            recorded += games(&read_jsonl(&dir.join(&name))).len();
            files.push(dir.join(name));
        }
        assert_eq!(recorded, 30, "shards are disjoint and cover the run");
        let (_, out, _) = output_of(
            referee()
                .arg("-merge")
                .args(&files)
                .args(["-sprt", "elo0=0", "elo1=50"]),
        );
        let merged = statistics(&out);
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
    let (code, _, err) = output_of(
        referee()
            .arg("-merge")
            .arg(dir.join("all.jsonl"))
            .arg(&other),
    );
    assert_eq!(code, Some(2), "{err}");
}
