//! JUnit XML reports (`-junit FILE`), the format CI systems (GitHub Actions test reporters,
//! GitLab, Jenkins) read: one `<testsuite>` per suite file, one `<testcase>` per position, a
//! `<failure>` element for each position not solved.

use std::fmt::Write as _;

/// One test case.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub name: String,
    pub classname: String,
    pub seconds: f64,
    /// `(type, message, text)` of the failure, for a case that failed.
    pub failure: Option<(String, String, String)>,
}

/// One suite of cases.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    pub name: String,
    pub cases: Vec<Case>,
}

/// Text made safe for XML attribute values and character data: the five special characters
/// become entities, and characters XML 1.0 does not allow at all (control characters other
/// than tab, newline and carriage return, and U+FFFE/U+FFFF) become U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The report as a string.
pub fn to_xml(suites: &[Suite]) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let count = |s: &Suite| s.cases.iter().filter(|c| c.failure.is_some()).count();
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize = suites.iter().map(count).sum();
    let time = |s: &Suite| s.cases.iter().map(|c| c.seconds).sum::<f64>();
    let _ = writeln!(
        x,
        "<testsuites name=\"punct-referee\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" time=\"{:.3}\">",
        suites.iter().map(time).sum::<f64>()
    );
    for s in suites {
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3}\">",
            escape(&s.name),
            s.cases.len(),
            count(s),
            time(s)
        );
        for c in &s.cases {
            let _ = write!(
                x,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
                escape(&c.name),
                escape(&c.classname),
                c.seconds
            );
            match &c.failure {
                None => x.push_str("/>\n"),
                Some((kind, message, text)) => {
                    let _ = writeln!(
                        x,
                        ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
                        escape(kind),
                        escape(message),
                        escape(text)
                    );
                }
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_and_forbidden_characters_are_escaped() {
        assert_eq!(
            escape("a<b>&\"c'\u{0}\u{1b}\t\n"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}\u{FFFD}\t\n"
        );
    }

    #[test]
    fn counts_and_elements() {
        let x = to_xml(&[Suite {
            name: "s<1>".into(),
            cases: vec![
                Case {
                    name: "ok".into(),
                    classname: "s".into(),
                    seconds: 0.5,
                    failure: None,
                },
                Case {
                    name: "bad".into(),
                    classname: "s".into(),
                    seconds: 0.25,
                    failure: Some(("unsolved".into(), "played a&b".into(), "x".into())),
                },
            ],
        }]);
        assert!(x.contains("tests=\"2\" failures=\"1\""), "{x}");
        assert!(x.contains("name=\"s&lt;1&gt;\""), "{x}");
        assert!(
            x.contains("<testcase name=\"ok\" classname=\"s\" time=\"0.500\"/>"),
            "{x}"
        );
        assert!(
            x.contains("<failure type=\"unsolved\" message=\"played a&amp;b\">x</failure>"),
            "{x}"
        );
    }
}
