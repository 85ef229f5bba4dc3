//! An SVG picture of SPSA paths: one panel per parameter, θ over the iterations.

use std::fmt::Write;

const WIDTH: f64 = 640.0;
const PANEL: f64 = 110.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 24.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `paths[i]` is parameter `names[i]`'s value after each iteration (`start[i]` before the first).
pub fn chart(names: &[String], start: &[f64], paths: &[Vec<f64>]) -> String {
    let height = TOP + PANEL * names.len() as f64 + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let iters = paths.iter().map(Vec::len).max().unwrap_or(0);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="15" font-size="13">SPSA: parameter values over {iters} iterations</text>"#
    );
    for (i, name) in names.iter().enumerate() {
        let y0 = TOP + PANEL * i as f64;
        let (ph, pw) = (PANEL - 30.0, WIDTH - LEFT - RIGHT);
        let values: Vec<f64> = std::iter::once(start[i])
            .chain(paths[i].iter().copied())
            .collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let span = if hi - lo > 1e-9 { hi - lo } else { 1.0 };
        let _ = writeln!(
            s,
            r##"<rect x="{LEFT}" y="{:.1}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>"##,
            y0 + 10.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}">{} (start {:.2}, now {:.2})</text>"#,
            LEFT + 4.0,
            y0 + 22.0,
            esc(name),
            start[i],
            values.last().copied().unwrap_or(start[i])
        );
        let _ = writeln!(s, r#"<text x="4" y="{:.1}">{hi:.2}</text>"#, y0 + 18.0);
        let _ = writeln!(s, r#"<text x="4" y="{:.1}">{lo:.2}</text>"#, y0 + 10.0 + ph);
        let n = values.len().max(2) - 1;
        let mut pts = String::new();
        for (j, v) in values.iter().enumerate() {
            let x = LEFT + pw * j as f64 / n as f64;
            let y = y0 + 10.0 + ph - ph * (v - lo) / span;
            let _ = write!(pts, "{x:.1},{y:.1} ");
        }
        let _ = writeln!(
            s,
            r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="1.2" points="{}"/>"##,
            pts.trim_end()
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="{:.1}">iteration 0 … {iters}</text>"#,
        height - 6.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_polyline_per_parameter_through_every_point() {
        let svg = chart(
            &["A<1>".into(), "B".into()],
            &[1.0, 5.0],
            &[vec![2.0, 3.0], vec![5.0, 4.0]],
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("A&lt;1&gt;"));
        let first = svg
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(first.split(' ').count(), 3);
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
