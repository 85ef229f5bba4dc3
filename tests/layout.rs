//! The architecture as a test: no source file over 1,000 lines, and no import circle between
//! the modules of `src/` (every `crate::`, `super::` and `self::` path resolved to its file;
//! test modules and comments left out). Also checks that the checker sees a circle when there
//! is one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 1_000;

/// Module path (`["engine", "search", "tree"]`) of every `.rs` file under `src/` but `bin/`.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().unwrap() != "bin" || dir != src {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The code of a file without its `#[cfg(test)]` part and without comments.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path of the file that starts with `crate`, `super` or `self`, as segments, with
/// `use` groups (`a::{b, c::d}`) expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // `use` statements, groups expanded.
    for stmt in code.split(';') {
        let Some(i) = stmt.find("use ") else { continue };
        let s: String = stmt[i + 4..]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if s.starts_with("crate::") || s.starts_with("super::") || s.starts_with("self::") {
            expand(&s, &mut out);
        }
    }
    // Inline paths such as `crate::rules::svg::board_svg(...)`.
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    for root in ["crate::", "super::", "self::"] {
        for (at, _) in text.match_indices(root) {
            if at > 0 && (bytes[at - 1].is_alphanumeric() || bytes[at - 1] == '_') {
                continue;
            }
            let tail: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push(
                tail.split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            );
        }
    }
    out
}

fn expand(s: &str, out: &mut Vec<Vec<String>>) {
    let Some(open) = s.find('{') else {
        out.push(s.split("::").map(String::from).collect());
        return;
    };
    let base = &s[..open];
    let inner = &s[open + 1..s.rfind('}').unwrap_or(s.len())];
    let (mut depth, mut cur) = (0, String::new());
    for ch in inner.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&format!("{base}{cur}"), out);
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        expand(&format!("{base}{cur}"), out);
    }
}

/// The module graph: an edge from each module to every other module its paths name.
fn graph(mods: &BTreeMap<Vec<String>, PathBuf>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut edges = BTreeMap::new();
    for (m, file) in mods {
        let text = std::fs::read_to_string(file).unwrap();
        let mut out = BTreeSet::new();
        for p in paths(&code(&text)) {
            let (mut base, rest): (Vec<String>, &[String]) = match p[0].as_str() {
                "crate" => (Vec::new(), &p[1..]),
                first => {
                    // `self` is the module itself (in `x.rs` as in `x/mod.rs`).
                    let mut b = m.clone();
                    if first == "super" {
                        b.pop();
                    }
                    (b, &p[1..])
                }
            };
            let mut rest = rest.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest.remove(0);
            }
            base.extend(rest.into_iter().filter(|s| s != "self" && s != "*"));
            // The longest prefix that is a module.
            let target = (0..=base.len())
                .rev()
                .map(|k| base[..k].to_vec())
                .find(|k| mods.contains_key(k));
            if let Some(t) = target.filter(|t| !t.is_empty() && t != m) {
                out.insert(t);
            }
        }
        edges.insert(m.clone(), out);
    }
    edges
}

/// Strongly connected components with more than one module (Tarjan).
fn circles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in &s.edges[v] {
            let w = s.edges.get_key_value(w).unwrap().0;
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(w.join("/"));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_source_file_is_over_a_thousand_lines() {
    let mut big = Vec::new();
    for file in modules(&src()).values() {
        let n = std::fs::read_to_string(file).unwrap().lines().count();
        if n > MAX_LINES {
            big.push(format!("{} ({n} lines)", file.display()));
        }
    }
    assert!(big.is_empty(), "files over {MAX_LINES} lines: {big:?}");
}

#[test]
fn the_modules_of_src_import_each_other_without_circles() {
    let mods = modules(&src());
    assert!(mods.len() > 50, "found only {} modules", mods.len());
    let edges = graph(&mods);
    // The checker sees the edges it must: the search uses the rules.
    let tree = vec!["engine".into(), "search".into(), "tree".into()];
    let position = vec!["rules".into(), "position".into()];
    assert!(edges[&tree].contains(&position), "{:?}", edges[&tree]);
    assert_eq!(circles(&edges), Vec::<Vec<String>>::new());
}

#[test]
fn the_checker_finds_a_planted_circle() {
    let dir = std::env::temp_dir().join(format!("punct-layout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod a;\npub mod c;\n").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "pub mod b;\nuse self::b::X;\n").unwrap();
    std::fs::write(dir.join("a/b.rs"), "use crate::c::{Y, z::W};\n").unwrap();
    std::fs::write(
        dir.join("c.rs"),
        "// use crate::a::b;\nfn f() { super::a::b::g(); }\n",
    )
    .unwrap();
    let edges = graph(&modules(&dir));
    let found = circles(&edges);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![vec!["a/b".to_string(), "c".to_string()]]);
}
