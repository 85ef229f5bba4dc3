//! The plot of `-ratings -plot FILE.svg`: each claimed player's measured rating against its
//! claim, with its 95 % interval, the diagonal (measured = claimed) and the tolerance band
//! around it; anchors as labelled horizontal lines.

use std::fmt::Write;

use crate::referee::calibration::Row;

const W: f64 = 640.0;
const H: f64 = 520.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 52.0;

/// The SVG document.
pub fn svg(rows: &[Row], tolerance: f64) -> String {
    let points: Vec<(&Row, f64, f64, f64)> = (rows.iter())
        .filter_map(|r| Some((r, r.claimed?, r.measured?, r.error.unwrap_or(0.0))))
        .collect();
    let anchors: Vec<(&str, f64)> = (rows.iter())
        .filter(|r| r.anchor)
        .filter_map(|r| Some((r.name.as_str(), r.measured?)))
        .collect();
    let values = (points.iter())
        .flat_map(|&(_, c, m, e)| [c - tolerance, c + tolerance, m - e, m + e])
        .chain(anchors.iter().map(|a| a.1));
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = if lo < hi {
        ((lo / 100.0).floor() * 100.0, (hi / 100.0).ceil() * 100.0)
    } else {
        (0.0, 100.0)
    };
    let x = |v: f64| LEFT + (v - lo) / (hi - lo) * (W - LEFT - RIGHT);
    let y = |v: f64| H - BOTTOM - (v - lo) / (hi - lo) * (H - TOP - BOTTOM);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="13">Strength levels: measured Elo against claimed (95 % intervals, band ±{tolerance:.0})</text>"#,
        W / 2.0
    );
    // Grid and axes every 200 Elo.
    let step = if hi - lo > 1600.0 { 400.0 } else { 200.0 };
    let mut v = lo;
    while v <= hi + 1e-9 {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#eee"/><line x1="{3:.1}" y1="{4:.1}" x2="{5:.1}" y2="{4:.1}" stroke="#eee"/>"##,
            x(v),
            y(lo),
            y(hi),
            x(lo),
            y(v),
            x(hi)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{v:.0}</text><text x="{:.1}" y="{:.1}" text-anchor="end">{v:.0}</text>"#,
            x(v),
            y(lo) + 16.0,
            x(lo) - 6.0,
            y(v) + 4.0
        );
        v += step;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">claimed Elo</text><text x="14" y="{:.1}" text-anchor="middle" transform="rotate(-90 14 {:.1})">measured Elo</text>"#,
        x((lo + hi) / 2.0),
        H - 12.0,
        y((lo + hi) / 2.0),
        y((lo + hi) / 2.0)
    );
    // The tolerance band and the diagonal.
    let _ = writeln!(
        s,
        r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#e6f2e6"/>"##,
        x(lo),
        y(lo + tolerance),
        x(hi - tolerance),
        y(hi),
        x(hi),
        y(hi - tolerance),
        x(lo + tolerance),
        y(lo)
    );
    let _ = writeln!(
        s,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#7a7" stroke-dasharray="4 3"/>"##,
        x(lo),
        y(lo),
        x(hi),
        y(hi)
    );
    for (name, elo) in &anchors {
        let (x0, x1, ya) = (x(lo), x(hi), y(*elo));
        let _ = writeln!(
            s,
            r##"<line x1="{x0:.1}" y1="{ya:.1}" x2="{x1:.1}" y2="{ya:.1}" stroke="#c66" stroke-dasharray="2 3"/><text x="{:.1}" y="{:.1}" fill="#c44">{} = {elo:.0} (anchor)</text>"##,
            x0 + 4.0,
            ya - 4.0,
            escape(name)
        );
    }
    for &(r, c, m, e) in &points {
        let off = (m - c).abs() > tolerance;
        let colour = if off { "#c22" } else { "#225" };
        let _ = writeln!(
            s,
            r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{colour}"/><circle cx="{0:.1}" cy="{3:.1}" r="3" fill="{colour}"><title>{4}: claimed {c:.0}, measured {m:.0} ± {e:.0}</title></circle>"#,
            x(c),
            y(m - e),
            y(m + e),
            y(m),
            escape(&r.name)
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="9" fill="{colour}">{}</text>"#,
            x(c) + 5.0,
            y(m) + 12.0,
            escape(&r.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, claimed: Option<f64>, measured: f64, anchor: bool) -> Row {
        Row {
            name: name.into(),
            claimed,
            measured: Some(measured),
            error: Some(30.0),
            games: 10,
            score: 0.5,
            anchor,
        }
    }

    #[test]
    fn the_plot_has_a_point_per_claim_and_marks_the_ones_off() {
        let rows = [
            row("L0", Some(500.0), 520.0, false),
            row("greedy", None, 1000.0, true),
            row("L<1>", Some(700.0), 900.0, false),
        ];
        let svg = svg(&rows, 100.0);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("greedy = 1000 (anchor)"));
        assert!(svg.contains("L&lt;1&gt;: claimed 700, measured 900"));
        // The one 200 off is red, the other not.
        assert_eq!(svg.matches(r##"fill="#c22""##).count(), 2);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
    }
}
