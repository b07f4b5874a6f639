//! Bar charts as inline SVG (plotters, SVG backend only).
//!
//! The SVG backend writes text as `<text>` elements and lays it out with plotters' built-in
//! estimate, so no font file is read: the charts render the same on any machine.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::format;
use crate::table::{LANGUAGES, MetricTable};

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
        let name = match row.key.params_label() {
            p if p.is_empty() => row.key.variant.clone(),
            p => format!("{} {p}", row.key.variant),
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
                label: format!("{name} | seed ({})", figure.language),
                value: figure.value,
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
            let caption = format!(
                "{experiment}: {} ({}, {} is better)",
                table.metric,
                table.unit,
                if table.higher_is_better {
                    "higher"
                } else {
                    "lower"
                }
            );
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
