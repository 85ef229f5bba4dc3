//! Learning curves: a model's quality against the amount of training data, as a table (TSV)
//! and a picture (SVG, one panel per measure, data size on a log scale). `order-fit -sizes`
//! and `train-net -sizes` make them.

use std::fmt::Write;

/// One measure over the data sizes, with an optional horizontal reference line (for example
/// what the hand-written order or evaluation reaches).
pub struct Measure {
    pub name: String,
    pub values: Vec<f64>,
    pub reference: Option<(String, f64)>,
}

pub struct Curve {
    pub title: String,
    pub sizes: Vec<usize>,
    pub measures: Vec<Measure>,
}

/// `-sizes 10000,30000,...[,all]`: increasing positive sizes; `all` (last only) stands for
/// the whole training set ([`ALL`], resolved by [`resolve_sizes`]).
pub fn parse_sizes(text: &str) -> Result<Vec<usize>, String> {
    let sizes = (text.split(','))
        .map(|x| match x.trim() {
            "all" => Ok(ALL),
            t => match t.parse::<usize>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "-sizes: '{x}' is not a positive whole number or 'all'"
                )),
            },
        })
        .collect::<Result<Vec<_>, _>>()?;
    if sizes.windows(2).any(|w| w[0] >= w[1]) {
        return Err("-sizes must increase ('all' comes last)".to_string());
    }
    Ok(sizes)
}

/// `all` in `-sizes`.
pub const ALL: usize = usize::MAX;

/// The sizes a curve can have with `available` training positions: `all` becomes
/// `available` (unless a given size already is), and sizes beyond it are dropped with a
/// message on stderr (`tool`: the command's name). A curve with no point left is an error,
/// not an empty picture.
pub fn resolve_sizes(sizes: &[usize], available: usize, tool: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for &size in sizes {
        let size = if size == ALL { available } else { size };
        if size > available {
            eprintln!("{tool}: only {available} training positions: no point at {size}");
            break;
        }
        if out.last() != Some(&size) {
            out.push(size);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "no point of -sizes fits the {available} training positions: give sizes up to \
             {available} (or 'all'), or more data"
        ));
    }
    Ok(out)
}

impl Curve {
    pub fn tsv(&self) -> String {
        let mut s = format!("# {}\nsize", self.title);
        for m in &self.measures {
            let _ = write!(s, "\t{}", m.name);
        }
        s.push('\n');
        for (i, size) in self.sizes.iter().enumerate() {
            let _ = write!(s, "{size}");
            for m in &self.measures {
                let _ = write!(s, "\t{:.6}", m.values.get(i).copied().unwrap_or(f64::NAN));
            }
            s.push('\n');
        }
        for m in &self.measures {
            if let Some((name, v)) = &m.reference {
                let _ = writeln!(s, "# reference for {}: {name} {v:.6}", m.name);
            }
        }
        s
    }

    pub fn svg(&self) -> String {
        const WIDTH: f64 = 640.0;
        const PANEL: f64 = 150.0;
        const LEFT: f64 = 70.0;
        const RIGHT: f64 = 150.0;
        const TOP: f64 = 28.0;
        let height = TOP + PANEL * self.measures.len() as f64 + 24.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{LEFT}" y="16" font-size="13">{}</text>"#,
            esc(&self.title)
        );
        let (lo_x, hi_x) = match (self.sizes.first(), self.sizes.last()) {
            (Some(&a), Some(&b)) => ((a as f64).ln(), (b as f64).ln()),
            _ => return s + "</svg>\n",
        };
        let span_x = if hi_x - lo_x > 1e-9 { hi_x - lo_x } else { 1.0 };
        let pw = WIDTH - LEFT - RIGHT;
        let x_of = |n: usize| LEFT + ((n as f64).ln() - lo_x) / span_x * pw;
        for (k, m) in self.measures.iter().enumerate() {
            let y0 = TOP + PANEL * k as f64;
            let ph = PANEL - 40.0;
            let mut all: Vec<f64> = m.values.iter().copied().filter(|v| v.is_finite()).collect();
            all.extend(m.reference.iter().map(|r| r.1));
            let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (lo, hi) = if hi - lo > 1e-9 {
                (lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo))
            } else {
                (lo - 0.5, hi + 0.5)
            };
            let y_of = |v: f64| y0 + 10.0 + (hi - v) / (hi - lo) * ph;
            let _ = writeln!(
                s,
                r##"<rect x="{LEFT}" y="{}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>"##,
                y0 + 10.0
            );
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" font-size="12">{}</text>"#,
                LEFT + pw + 8.0,
                y0 + 24.0,
                esc(&m.name)
            );
            for v in [lo, hi] {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                    LEFT - 4.0,
                    y_of(v) + 4.0,
                    short(v)
                );
            }
            for &n in &self.sizes {
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                    x_of(n),
                    y0 + 10.0 + ph + 14.0,
                    size_label(n)
                );
            }
            if let Some((name, v)) = &m.reference {
                let y = y_of(*v);
                let _ = writeln!(
                    s,
                    r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#c33" stroke-dasharray="4 3"/>"##,
                    LEFT + pw
                );
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{:.1}" fill="#c33">{}</text>"##,
                    LEFT + pw + 8.0,
                    y + 4.0,
                    esc(name)
                );
            }
            let points: Vec<String> = (self.sizes.iter().zip(&m.values))
                .filter(|(_, v)| v.is_finite())
                .map(|(&n, &v)| format!("{:.1},{:.1}", x_of(n), y_of(v)))
                .collect();
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="#236" stroke-width="2"/>"##,
                points.join(" ")
            );
            for p in &points {
                let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
                let _ = writeln!(s, r##"<circle cx="{x}" cy="{y}" r="3" fill="#236"/>"##);
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{LEFT}" y="{}">training positions (log scale)</text>"#,
            height - 6.0
        );
        s.push_str("</svg>\n");
        s
    }

    /// Writes `PREFIX.tsv` and `PREFIX.svg`.
    pub fn write(&self, prefix: &str) -> Result<(), String> {
        for (ext, text) in [("tsv", self.tsv()), ("svg", self.svg())] {
            let path = format!("{prefix}.{ext}");
            std::fs::write(&path, text).map_err(|e| format!("{path}: {e}"))?;
        }
        println!("learning curve written to {prefix}.tsv and {prefix}.svg");
        Ok(())
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn short(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

fn size_label(n: usize) -> String {
    if n >= 1_000_000 && n.is_multiple_of(100_000) {
        format!("{}M", n as f64 / 1e6)
    } else if n >= 1000 {
        format!("{}k", (n as f64 / 1000.0).round())
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve() -> Curve {
        Curve {
            title: "t <x>".into(),
            sizes: vec![1000, 10000, 100000],
            measures: vec![
                Measure {
                    name: "loss".into(),
                    values: vec![3.0, 2.0, 1.5],
                    reference: Some(("hand".into(), 2.5)),
                },
                Measure {
                    name: "top 1".into(),
                    values: vec![0.1, 0.2, 0.25],
                    reference: None,
                },
            ],
        }
    }

    #[test]
    fn sizes_parse_and_must_increase() {
        assert_eq!(parse_sizes("10,300, 5000").unwrap(), vec![10, 300, 5000]);
        assert!(parse_sizes("10,10").is_err());
        assert!(parse_sizes("10,x").is_err());
        assert!(parse_sizes("0,5").is_err());
        assert_eq!(parse_sizes("10,all").unwrap(), vec![10, ALL]);
        assert!(parse_sizes("all,10").is_err());
    }

    #[test]
    fn all_becomes_the_training_set_and_larger_sizes_are_dropped() {
        assert_eq!(
            resolve_sizes(&[10, 50, ALL], 70, "t").unwrap(),
            vec![10, 50, 70]
        );
        assert_eq!(
            resolve_sizes(&[10, 70, ALL], 70, "t").unwrap(),
            vec![10, 70]
        );
        assert_eq!(resolve_sizes(&[10, 100, ALL], 70, "t").unwrap(), vec![10]);
        // The README's old command on too little data: no point, an error (it was an empty
        // curve and status 0).
        let none = resolve_sizes(&[10000, 30000, 60000], 5000, "t").unwrap_err();
        assert!(none.contains("5000 training positions"), "{none}");
    }

    #[test]
    fn table_has_a_row_per_size_and_the_references() {
        let t = curve().tsv();
        let rows: Vec<&str> = t.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows[0], "size\tloss\ttop 1");
        assert_eq!(rows[2], "10000\t2.000000\t0.200000");
        assert_eq!(rows.len(), 4);
        assert!(t.contains("# reference for loss: hand 2.500000"));
    }

    #[test]
    fn picture_has_a_point_per_size_on_a_log_scale() {
        let s = curve().svg();
        assert!(s.starts_with("<svg") && s.ends_with("</svg>\n"));
        assert_eq!(s.matches("<circle").count(), 6);
        assert!(s.contains("t &lt;x&gt;"));
        // Sizes 1k, 10k, 100k are evenly spaced on a log axis.
        let xs: Vec<f64> = (s.lines().filter(|l| l.starts_with("<circle")))
            .take(3)
            .map(|l| {
                l.split("cx=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(((xs[1] - xs[0]) - (xs[2] - xs[1])).abs() < 0.2, "{xs:?}");
        assert_eq!(s.matches("stroke-dasharray").count(), 1);
    }
}
