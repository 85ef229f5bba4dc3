//! An engine's `info` line as JSON for the page.

use serde_json::{json, Map, Value};

/// The fields of an `info` line: numbers as numbers, `score` as `{"cp": n}` or `{"mate": n}`
/// (with `"bound"` when it is one), `pv` as a list of moves, `string` as the rest of the line;
/// the line itself is kept as `line`.
pub fn parse_info(line: &str) -> Value {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Map::new();
    out.insert("line".into(), json!(line));
    let mut i = 1;
    while i < words.len() {
        let key = words[i];
        let next = words.get(i + 1).copied();
        match key {
            "string" => {
                out.insert("string".into(), json!(words[i + 1..].join(" ")));
                break;
            }
            "pv" => {
                out.insert("pv".into(), json!(words[i + 1..]));
                break;
            }
            "score" => {
                let mut score = Map::new();
                let mut j = i + 1;
                while j < words.len() {
                    match words[j] {
                        k @ ("cp" | "mate") => {
                            if let Some(v) = words.get(j + 1).and_then(|v| v.parse::<i64>().ok()) {
                                score.insert(k.into(), json!(v));
                            }
                            j += 2;
                        }
                        b @ ("lowerbound" | "upperbound") => {
                            score.insert("bound".into(), json!(b));
                            j += 1;
                        }
                        _ => break,
                    }
                }
                out.insert("score".into(), Value::Object(score));
                i = j;
                continue;
            }
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull" => {
                if let Some(n) = next.and_then(|v| v.parse::<u64>().ok()) {
                    out.insert(key.into(), json!(n));
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_score_and_pv() {
        let v = parse_info(
            "info depth 7 seldepth 9 multipv 2 score cp -15 upperbound nodes 52096 nps 106277 \
             time 490 hashfull 19 pv a5a6b6 c7d7e7",
        );
        assert_eq!(v["depth"], 7);
        assert_eq!(v["multipv"], 2);
        assert_eq!(v["score"]["cp"], -15);
        assert_eq!(v["score"]["bound"], "upperbound");
        assert_eq!(v["nodes"], 52096);
        assert_eq!(v["nps"], 106277);
        assert_eq!(v["pv"], json!(["a5a6b6", "c7d7e7"]));
        let m = parse_info("info score mate -3 depth x string hello world");
        assert_eq!(m["score"]["mate"], -3);
        assert!(m.get("depth").is_none());
        assert_eq!(m["string"], "hello world");
        assert_eq!(parse_info("info")["line"], "info");
    }
}
