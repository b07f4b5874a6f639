//! Bar charts, and the back-pressure latency-vs-load line chart, as inline SVG (plotters, SVG
//! backend only).
//!
//! The SVG backend writes text as `<text>` elements and lays it out with plotters' built-in
//! estimate, so no font file is read: the charts render the same on any machine.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::load_table::LoadPoint;
use crate::merge::variant_label;
use crate::table::{LANGUAGES, MetricTable};
use sympathy_harness::format;

/// Colours of the bars, per language, then the seed.
const COLOURS: [RGBColor; 4] = [
    RGBColor(0xd3, 0x6b, 0x2c), // rust
    RGBColor(0x2f, 0x6d, 0xb5), // java
    RGBColor(0x55, 0x55, 0x55), // c
    RGBColor(0xb8, 0xb8, 0xb8), // seed
];

struct Bar {
    label: String,
    value: f64,
    colour: usize,
}

fn bars(table: &MetricTable) -> Vec<Bar> {
    let mut bars = Vec::new();
    for row in &table.rows {
        let variant = variant_label(&row.key.experiment, &row.key.variant);
        let name = match row.key.params_label() {
            p if p.is_empty() => variant,
            p => format!("{variant} {p}"),
        };
        for (i, lang) in LANGUAGES.iter().enumerate() {
            if let Some(cell) = &row.cells[i] {
                bars.push(Bar {
                    label: format!("{name} | {lang}"),
                    value: cell.value,
                    colour: i,
                });
            }
        }
        for figure in &row.seed {
            bars.push(Bar {
                label: format!("{name} | seed ({})", figure.figure.language),
                value: figure.figure.value,
                colour: 3,
            });
        }
    }
    bars
}

/// A horizontal bar chart of `table`, one bar per language per row (and the seed's figures),
/// as an `<svg>` element. `None` when the table has nothing to draw.
pub(crate) fn svg(experiment: &str, table: &MetricTable) -> Option<String> {
    let bars = bars(table);
    if bars.is_empty() {
        return None;
    }
    let max = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
    let x_max = if max > 0.0 { max * 1.18 } else { 1.0 };
    let height = 70 + 24 * bars.len() as u32;
    // Room for the longest bar label (about 6 px per character at the label size).
    let longest = bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let label_area = (longest * 6 + 16).clamp(120, 480);
    let width = label_area + 560;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        let drawn: Result<(), Box<dyn std::error::Error>> = (|| {
            root.fill(&WHITE)?;
            let caption = format!("{experiment}: {}", super::render::metric_title(table));
            let mut chart = ChartBuilder::on(&root)
                .caption(caption, ("sans-serif", 16))
                .margin(8)
                .x_label_area_size(28)
                .y_label_area_size(label_area)
                .build_cartesian_2d(0.0..x_max, (0..bars.len()).into_segmented())?;
            // Segment 0 is at the bottom: list the bars top-down in table order.
            let n = bars.len();
            let labels: Vec<&str> = bars.iter().rev().map(|b| b.label.as_str()).collect();
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(bars.len())
                .y_label_formatter(&|v| match v {
                    SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                        labels.get(*i).map(|s| s.to_string()).unwrap_or_default()
                    }
                    SegmentValue::Last => String::new(),
                })
                .x_label_formatter(&|v| format::value(*v))
                .x_desc(table.unit.as_str())
                .draw()?;
            chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
                let mut bar = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(n - 1 - i)),
                        (b.value, SegmentValue::Exact(n - i)),
                    ],
                    COLOURS[b.colour].filled(),
                );
                bar.set_margin(3, 3, 0, 0);
                bar
            }))?;
            chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
                Text::new(
                    format!(" {}", format::value(b.value)),
                    (b.value, SegmentValue::CenterOf(n - 1 - i)),
                    ("sans-serif", 12)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                )
            }))?;
            root.present()?;
            Ok(())
        })();
        // Drawing into a String cannot fail for I/O; a layout error leaves the chart out.
        drawn.ok()?;
    }
    Some(out)
}

/// Line colours of the latency-vs-load chart: per language, the unbounded queue in the
/// language's colour and the bounded one darker.
fn load_colour(language: &str, variant: &str) -> RGBColor {
    let i = LANGUAGES
        .iter()
        .position(|l| *l == language)
        .unwrap_or(2)
        .min(2);
    let RGBColor(r, g, b) = COLOURS[i];
    if variant == "bounded" {
        RGBColor(r / 2, g / 2, b / 2)
    } else {
        RGBColor(r, g, b)
    }
}

/// A line of the latency-vs-load chart: (variant, language); its points are (load, p99 ns).
type SeriesKey = (String, String);

/// The back-pressure chart: p99 latency (log scale) against offered load, one line per variant
/// and language, as an `<svg>` element. `None` when no point has a p99 latency.
pub(crate) fn latency_vs_load_svg(points: &[LoadPoint]) -> Option<String> {
    let mut series: Vec<(SeriesKey, Vec<(f64, f64)>)> = Vec::new();
    for p in points {
        let Some(p99) = p.metric("latency_p99_ns").filter(|v| *v > 0.0) else {
            continue;
        };
        let key = (p.variant.clone(), p.language.clone());
        match series.iter_mut().find(|(k, _)| *k == key) {
            Some((_, line)) => line.push((p.load, p99)),
            None => series.push((key, vec![(p.load, p99)])),
        }
    }
    let all = series.iter().flat_map(|(_, line)| line.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if series.is_empty() {
        return None;
    }
    let pad = ((x1 - x0) * 0.05).max(0.05);
    let (x0, x1, y0, y1) = (x0 - pad, x1 + pad, y0 / 2.0, y1 * 2.0);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (760, 420)).into_drawing_area();
        let drawn: Result<(), Box<dyn std::error::Error>> = (|| {
            root.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&root)
                .caption(
                    "back-pressure: p99 latency against offered load (log scale)",
                    ("sans-serif", 16),
                )
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d(x0..x1, (y0..y1).log_scale())?;
            chart
                .configure_mesh()
                .x_desc("offered load (fraction of capacity)")
                .y_desc("latency_p99_ns")
                .x_label_formatter(&|v| format::value(*v))
                .y_label_formatter(&|v| format::value(*v))
                .draw()?;
            for ((variant, language), line) in &series {
                let colour = load_colour(language, variant);
                chart
                    .draw_series(LineSeries::new(
                        line.iter().copied(),
                        colour.stroke_width(2),
                    ))?
                    .label(format!("{variant} | {language}"))
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                    });
                chart.draw_series(
                    line.iter()
                        .map(|&(x, y)| Circle::new((x, y), 3, colour.filled())),
                )?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
            root.present()?;
            Ok(())
        })();
        drawn.ok()?;
    }
    Some(out)
}
