//! Tuned values as text: `setoption` lines for an engine or referee, and lines of the
//! `params!` list in [`PARAMS_FILE`] to paste as new defaults.

use crate::engine::search::params::{specs, Group};

/// The file of the `params!` list, as the tuners name it in their output.
pub const PARAMS_FILE: &str = "src/engine/search/params.rs";

/// The heading over the `params!` lines of a tuner's output.
pub fn params_heading() -> String {
    format!("\n# params! defaults ({PARAMS_FILE})")
}

/// `PathWeight` → `path_weight` (the field names of `params!`).
pub fn snake_case(name: &str) -> String {
    let mut s = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.push(ch.to_ascii_lowercase());
        } else {
            s.push(ch);
        }
    }
    s
}

pub fn setoption_lines(names: &[String], values: &[i64]) -> Vec<String> {
    names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("setoption name {n} value {v}"))
        .collect()
}

/// `field "Name" Group = value in min..=max;` for each tunable that `params!` declares.
pub fn params_lines(names: &[String], values: &[i64]) -> Vec<String> {
    names
        .iter()
        .zip(values)
        .filter_map(|(n, v)| {
            let s = specs().iter().find(|s| s.name.eq_ignore_ascii_case(n))?;
            let group = match s.group {
                Group::Eval => "Eval",
                Group::Search => "Search",
            };
            Some(format!(
                "    {} \"{}\" {group} = {v} in {}..={};",
                snake_case(s.name),
                s.name,
                s.min,
                s.max
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lines() {
        assert_eq!(snake_case("OppCoverCost"), "opp_cover_cost");
        assert_eq!(snake_case("Tempo"), "tempo");
        let s = &specs()[0];
        let lines = params_lines(&[s.name.to_string()], &[7]);
        assert_eq!(
            lines,
            vec![format!(
                "    {} \"{}\" {:?} = 7 in {}..={};",
                snake_case(s.name),
                s.name,
                s.group,
                s.min,
                s.max
            )]
        );
        assert_eq!(
            setoption_lines(&["A".into()], &[-3]),
            vec!["setoption name A value -3"]
        );
    }

    /// The tuners once named `src/engine/params.rs`, a file that is not there.
    #[test]
    fn the_file_named_in_the_output_holds_the_params_list() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PARAMS_FILE);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let first = specs()[0].name;
        assert!(
            text.contains("params!") && text.contains(&format!("\"{first}\"")),
            "{path:?}"
        );
        assert!(params_heading().contains(PARAMS_FILE));
    }
}
