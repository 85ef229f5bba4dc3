//! The engine's functional signature: `punct bench` searches a fixed set of positions to a
//! fixed depth and must visit exactly this many nodes. Every commit that changes the search's
//! behaviour updates `EXPECTED_BENCH_NODES` (and says `Bench: N` in its message); a commit
//! meant only to make the engine faster must leave it alone.

use std::process::Command;

const EXPECTED_BENCH_NODES: u64 = 284290;

#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisations")]
fn bench_node_count_is_the_signature() {
    let out = Command::new(env!("CARGO_BIN_EXE_punct"))
        .arg("bench")
        .output()
        .expect("the punct binary runs");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The last line has the OpenBench form `<nodes> nodes <nps> nps`.
    let last = stdout.lines().last().unwrap_or_default();
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{last:?}");
    assert_eq!(fields[1], "nodes", "{last:?}");
    let nodes: u64 = fields[0].parse().expect("a node count");
    assert_eq!(
        nodes, EXPECTED_BENCH_NODES,
        "bench signature changed: {last}"
    );
}
