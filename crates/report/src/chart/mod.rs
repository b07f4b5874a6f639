//! The report's charts as inline SVG written by hand: no script, no font file, no library.
//!
//! - [`bar_chart`]: a metric table as grouped bars, Rust, Java and C side by side per row (and
//!   the seed's published figure), min..max whiskers over the runs, a log axis when the figures
//!   span more than 20x.
//! - [`latency_vs_load`]: back-pressure's p99 latency against offered load, one line per
//!   variant and language, log scale.
//!
//! Every chart is 920 user units wide (`viewBox`) and scales down with the page (`width:100%`,
//! `max-width:920px`); text is 12 to 14 px at full width, laid out by a generous width
//! estimate; labels too long for their column wrap onto two lines, then are cut with `…` and
//! carry the whole text as a `<title>` tooltip.

mod axis;
mod bars;
mod forest;
mod labels;
mod lines;
mod svg;

pub(crate) use bars::bar_chart;
pub(crate) use forest::{ForestRow, forest_plot};
pub(crate) use labels::RowLabels;
pub(crate) use lines::latency_vs_load;
pub(crate) use svg::{FONT_STACK, escape};

use axis::Axis;
use svg::{Anchor, NOTE, Svg};
use sympathy_harness::format;

/// Display names of [`crate::LANGUAGES`], in column order.
pub(crate) const LANGUAGE_NAMES: [&str; 3] = ["Rust", "Java", "C"];

/// Fill colours: Rust, Java, C (in [`crate::LANGUAGES`] order), then the seed's figure.
pub(crate) const COLOURS: [&str; 4] = ["#d9661f", "#2f6db5", "#3d3d3d", "#b0b0b0"];

/// Index of the seed's colour in [`COLOURS`].
const SEED: usize = 3;

/// Colour of the "noisy" mark.
pub(crate) const NOISY_COLOUR: &str = "#b00020";

/// `lo..hi` in readable units, the unit said once when both ends share it: `6.5..15.0 ns`.
pub(crate) fn range_text(lo: f64, hi: f64, unit: &str) -> String {
    let (a, b) = (format::quantity(lo, unit), format::quantity(hi, unit));
    match (a.rsplit_once(' '), b.rsplit_once(' ')) {
        (Some((number, unit_a)), Some((_, unit_b))) if unit_a == unit_b => format!("{number}..{b}"),
        _ => format!("{a}..{b}"),
    }
}

/// A legend row from `at` (the baseline of its text): a swatch and a name per entry
/// (`(colour index, name)`), then, when asked, what a whisker and the "noisy" mark mean.
fn legend(
    out: &mut Svg,
    (x, y): (f64, f64),
    entries: &[(usize, String)],
    whisker: bool,
    noisy: bool,
) {
    let mut x = x;
    for (colour, name) in entries {
        out.rect((x, y - 10.0, 12.0, 12.0), COLOURS[*colour], None);
        out.text((x + 17.0, y), NOTE, Anchor::Start, name, None);
        x += 17.0 + svg::text_width(name, NOTE.size) + 14.0;
    }
    if whisker {
        let mid = y - 4.0;
        out.line((x, mid), (x + 22.0, mid), "#1a1a1a", 1.2, "");
        out.line((x, mid - 5.0), (x, mid + 5.0), "#1a1a1a", 1.2, "");
        out.line(
            (x + 22.0, mid - 5.0),
            (x + 22.0, mid + 5.0),
            "#1a1a1a",
            1.2,
            "",
        );
        let text = "min..max over the runs";
        out.text((x + 28.0, y), NOTE, Anchor::Start, text, None);
        x += 28.0 + svg::text_width(text, NOTE.size) + 14.0;
    }
    if noisy {
        let mark = svg::TextStyle {
            fill: NOISY_COLOUR,
            bold: true,
            ..NOTE
        };
        out.text((x, y), mark, Anchor::Start, "noisy", None);
        let x = x + svg::text_width("noisy", NOTE.size) + 4.0;
        out.text((x, y), NOTE, Anchor::Start, "= runs spread over 2x", None);
    }
}

/// The horizontal value axis under a plot spanning `top..bottom`: a gridline and a label in
/// readable units per tick, and the metric's name (saying when the scale is logarithmic).
fn value_axis(out: &mut Svg, axis: &Axis, unit: &str, (top, bottom): (f64, f64), metric: &str) {
    for tick in axis.ticks() {
        let x = axis.pos(tick);
        out.line((x, top), (x, bottom), "#d6d6d6", 1.0, "");
        let text = format::quantity(tick, unit);
        out.text((x, bottom + 17.0), NOTE, Anchor::Middle, &text, None);
    }
    out.line(
        (axis.base(), top),
        (axis.base(), bottom),
        "#8a8a8a",
        1.0,
        "",
    );
    let caption = if axis.is_log() {
        format!("{metric}, log scale: each gridline is 10x the one before")
    } else {
        metric.to_string()
    };
    let mid = (axis.pos(f64::MAX) + axis.base()) / 2.0;
    out.text((mid, bottom + 38.0), NOTE, Anchor::Middle, &caption, None);
}
