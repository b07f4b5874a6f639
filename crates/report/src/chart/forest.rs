//! The forest plot the report opens with: every paired row's cost ratio (Java over Rust, Rust
//! over C; above 1 the first is slower) on one log axis, a dot at the estimate and a line over
//! its 95% interval, grouped by experiment, the parity band shaded. A filled dot has a verdict;
//! a hollow one is inconclusive.

use super::COLOURS;
use super::bars::{PAD, WIDTH};
use super::svg::{self, Anchor, LABEL, NOTE, Svg, TITLE};
use crate::stats::{RatioInterval, Verdict, parity_bound};
use crate::words::interval_text;
use sympathy_harness::format;

/// One line of the plot.
#[derive(Debug, Clone)]
pub(crate) struct ForestRow {
    /// The experiment it belongs to (a group heading when it changes).
    pub group: String,
    /// The row: `p1c1 placement=cross-core (Java/Rust)`.
    pub label: String,
    /// Index into the chart colours of the subject language (Rust 0, Java 1).
    pub colour: usize,
    /// The cost ratio (above 1: the subject is slower).
    pub ratio: RatioInterval,
}

const ROW_H: f64 = 17.0;
const TOP: f64 = 58.0;
const LABEL_W: f64 = 330.0;
const PLOT_X0: f64 = PAD + LABEL_W + 16.0;
const PLOT_X1: f64 = WIDTH - PAD - 10.0;

/// Round tick values of a ratio axis.
const TICKS: [f64; 19] = [
    0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
    1000.0, 0.25, 4.0,
];

/// The forest plot of `rows`, or `None` without rows.
pub(crate) fn forest_plot(title: &str, rows: &[ForestRow]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let ends = rows
        .iter()
        .flat_map(|r| [r.ratio.low, r.ratio.high, r.ratio.estimate])
        .filter(|v| v.is_finite() && *v > 0.0);
    let (mut lo, mut hi) = ends.fold((1.0f64 / 1.5, 1.5f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    lo = lo.max(1e-3) / 1.1;
    hi = hi.min(1e3) * 1.1;
    let x = |v: f64| {
        let v = v.clamp(lo, hi);
        PLOT_X0 + (v.ln() - lo.ln()) / (hi.ln() - lo.ln()) * (PLOT_X1 - PLOT_X0)
    };
    let groups = rows.windows(2).filter(|w| w[0].group != w[1].group).count() + 1;
    let bottom = TOP + (rows.len() + groups) as f64 * ROW_H + 6.0;
    let height = bottom + 64.0;
    let mut out = Svg::new(WIDTH, height, title);
    out.text((PAD, 22.0), TITLE, Anchor::Start, title, None);
    out.text(
        (PAD, 42.0),
        NOTE,
        Anchor::Start,
        "dot: the ratio (geometric mean over the rounds); line: its 95% interval; hollow: no verdict",
        None,
    );
    // The parity band and the line at 1.
    let band = parity_bound();
    out.rect(
        (x(1.0 / band), TOP, x(band) - x(1.0 / band), bottom - TOP),
        "#e8eef5",
        None,
    );
    let mut ticks: Vec<f64> = TICKS
        .iter()
        .copied()
        .filter(|t| *t >= lo && *t <= hi)
        .collect();
    ticks.sort_by(f64::total_cmp);
    let mut last_x = f64::NEG_INFINITY;
    for tick in ticks {
        let tx = x(tick);
        out.line((tx, TOP), (tx, bottom), "#d6d6d6", 1.0, "");
        let text = format!("{}x", format::ratio_figure(tick));
        if tx - last_x > svg::text_width(&text, NOTE.size) + 6.0 {
            out.text((tx, bottom + 17.0), NOTE, Anchor::Middle, &text, None);
            last_x = tx;
        }
    }
    out.line((x(1.0), TOP), (x(1.0), bottom), "#5a5a5a", 1.2, "");
    let mid = (PLOT_X0 + PLOT_X1) / 2.0;
    out.text(
        (mid, bottom + 38.0),
        NOTE,
        Anchor::Middle,
        "cost ratio, log scale: left of 1 the first language is faster, right of 1 slower",
        None,
    );
    let max_chars = (LABEL_W / (NOTE.size * 0.62)) as usize;
    let mut y = TOP;
    let mut group = "";
    for row in rows {
        if row.group != group {
            group = &row.group;
            y += ROW_H;
            out.text((PAD, y - 4.0), LABEL, Anchor::Start, group, None);
        }
        y += ROW_H;
        let cy = y - 8.0;
        let label: String = if row.label.chars().count() > max_chars {
            let keep: String = row.label.chars().take(max_chars - 1).collect();
            format!("{keep}…")
        } else {
            row.label.clone()
        };
        let tip = format!(
            "{} {}: {}x ({}, {} rounds)",
            row.group,
            row.label,
            format::ratio_figure(row.ratio.estimate),
            interval_text(&row.ratio),
            row.ratio.pairs
        );
        out.text(
            (PAD + 12.0, y - 4.0),
            NOTE,
            Anchor::Start,
            &label,
            Some(&tip),
        );
        let colour = COLOURS[row.colour];
        if row.ratio.interval().is_some() {
            out.line(
                (x(row.ratio.low), cy),
                (x(row.ratio.high), cy),
                colour,
                2.0,
                "",
            );
        }
        let fill = if row.ratio.verdict() == Verdict::Inconclusive {
            "#ffffff"
        } else {
            colour
        };
        out.raw(&format!(
            "<circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"4.5\" fill=\"{fill}\" stroke=\"{colour}\" \
             stroke-width=\"1.6\"><title>{}</title></circle>\n",
            x(row.ratio.estimate),
            svg::escape(&tip)
        ));
    }
    Some(out.finish())
}
