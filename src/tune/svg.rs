//! The chart of a tuning run: theta of every parameter against the game pairs played, one
//! panel per parameter, as a hand-written SVG (no plotting dependency for a few polylines).

use std::fmt::Write as _;

use super::spsa::SpsaState;

const WIDTH: f64 = 720.0;
const PANEL: f64 = 160.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const GAP: f64 = 30.0;
/// At most this many points per line: a long run is thinned, its ends kept.
const MAX_POINTS: usize = 1000;

/// The SVG of `state`'s path.
pub fn path_chart(state: &SpsaState) -> String {
    let params = &state.spec.params;
    let height = TOP + params.len() as f64 * (PANEL + GAP) + 10.0;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="18" font-size="14">gpn tune {}: {}, {}</text><text x="{LEFT}" y="36">{} of {} game pairs; the plus side W {} D {} L {}</text>"#,
        escape(&state.spec.game),
        escape(&state.spec.base),
        escape(&state.spec.budget),
        state.pairs_done,
        state.spec.pairs,
        state.total.wins,
        state.total.draws,
        state.total.losses
    );
    let mut points: Vec<(f64, &[f64])> = vec![(0.0, &state.start)];
    points.extend(
        state
            .path
            .iter()
            .map(|r| (r.iteration as f64, r.theta.as_slice())),
    );
    let stride = points.len().div_ceil(MAX_POINTS).max(1);
    let last = points.len() - 1;
    let kept: Vec<&(f64, &[f64])> = points
        .iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0 || *i == last)
        .map(|(_, p)| p)
        .collect();
    let x_max = (state.spec.pairs as f64).max(1.0);
    let plot_w = WIDTH - LEFT - RIGHT;
    for (i, p) in params.iter().enumerate() {
        let top = TOP + i as f64 * (PANEL + GAP);
        // The panel spans the values the path took, padded, within the tuning range.
        let values = kept.iter().map(|(_, t)| t[i]);
        let lo = values.clone().fold(f64::INFINITY, f64::min);
        let hi = values.fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.1).max(p.c_end);
        let (lo, hi) = ((lo - pad).max(p.min), (hi + pad).min(p.max));
        let span = (hi - lo).max(1e-12);
        let x = |k: f64| LEFT + plot_w * k / x_max;
        let y = |v: f64| top + PANEL * (1.0 - (v - lo) / span);
        let _ = writeln!(
            svg,
            r##"<rect x="{LEFT}" y="{top}" width="{plot_w}" height="{PANEL}" fill="none" stroke="#999"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            LEFT + 6.0,
            top + 14.0,
            escape(&p.key)
        );
        for v in [lo, (lo + hi) / 2.0, hi] {
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
                LEFT - 4.0,
                y(v) + 4.0,
                short(v)
            );
        }
        let start = state.start[i];
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" x2="{}" y1="{:.1}" y2="{:.1}" stroke="#bbb" stroke-dasharray="4 3"/>"##,
            LEFT + plot_w,
            y(start),
            y(start)
        );
        let line: Vec<String> = kept
            .iter()
            .map(|(k, t)| format!("{:.1},{:.1}", x(*k), y(t[i])))
            .collect();
        let _ = writeln!(
            svg,
            r##"<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{}"/>"##,
            line.join(" ")
        );
    }
    let axis_y = TOP + params.len() as f64 * (PANEL + GAP) - GAP + 16.0;
    let _ = writeln!(
        svg,
        r#"<text x="{LEFT}" y="{axis_y}">0</text><text x="{}" y="{axis_y}" text-anchor="end">{} game pairs</text>"#,
        WIDTH - RIGHT,
        state.spec.pairs
    );
    svg.push_str("</svg>\n");
    svg
}

/// A tick label: four significant digits at most.
fn short(v: f64) -> String {
    let text = format!("{v:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text.is_empty() || text == "-" {
        "0".into()
    } else {
        text.to_string()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::super::spsa::{Param, RunSpec, SpsaState, StepResult};
    use super::*;

    #[test]
    fn the_chart_has_a_line_per_parameter() {
        let param = |key: &str| Param {
            key: key.into(),
            int: false,
            min: 0.0,
            max: 5.0,
            c_end: 0.1,
            r_end: 0.002,
        };
        let spec = RunSpec {
            game: "cfour".into(),
            base: "default <x>".into(),
            budget: "iterations:10".into(),
            openings: 2,
            pairs: 3000,
            pairs_per_step: 1,
            seed: 1,
            params: vec![param("c"), param("c_pn")],
        };
        let mut state = SpsaState::new(spec, vec![1.0, 2.0]);
        for _ in 0..2500 {
            let plan = state.plan();
            state.apply(
                &plan,
                1,
                StepResult {
                    wins: 1,
                    draws: 0,
                    losses: 1,
                },
            );
        }
        let svg = path_chart(&state);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("default &lt;x&gt;"));
        let longest = svg
            .lines()
            .filter(|l| l.starts_with("<polyline"))
            .map(|l| l.matches(',').count())
            .max()
            .unwrap();
        assert!(longest <= MAX_POINTS + 1, "{longest}");
        assert_eq!(short(1.5), "1.5");
        assert_eq!(short(0.0), "0");
    }
}
