//! The grouped bar chart of a metric table: one group per row (variant and the params that
//! tell it apart), one bar per language side by side (Rust, Java, C, then the seed's published
//! figure), a min..max whisker over the runs, the value in readable units at the bar's end.

use super::axis::Axis;
use super::labels::RowLabels;
use super::svg::{self, Anchor, LABEL, NOTE, Svg, TITLE};
use super::{COLOURS, LANGUAGE_NAMES, SEED, legend, value_axis};
use crate::table::MetricTable;
use sympathy_harness::format;

/// Width of the view box; the chart is at most this wide on the page, narrower if need be.
pub(super) const WIDTH: f64 = 920.0;
/// Outer padding.
pub(super) const PAD: f64 = 12.0;
const BAR_H: f64 = 16.0;
const BAR_GAP: f64 = 3.0;
const GROUP_PAD: f64 = 14.0;
const LINE_H: f64 = 16.0;
/// The widest the label column gets; longer labels wrap onto two lines, then are cut.
const LABEL_MAX: f64 = 300.0;
/// The mark after a noisy figure's value.
const NOISY: &str = "noisy";

struct Bar {
    colour: usize,
    who: String,
    value: f64,
    range: Option<(f64, f64)>,
    noisy: bool,
}

struct Group {
    name: Vec<String>,
    params: Vec<String>,
    full: String,
    cut: bool,
    bars: Vec<Bar>,
}

impl Group {
    fn height(&self) -> f64 {
        let n = self.bars.len() as f64;
        let bars = n * BAR_H + (n - 1.0) * BAR_GAP;
        let lines = (self.name.len() + self.params.len()) as f64 * LINE_H;
        bars.max(lines) + GROUP_PAD
    }
}

fn groups(table: &MetricTable) -> Vec<Group> {
    let labels = RowLabels::of(&table.rows);
    let room = LABEL_MAX - 2.0 * PAD;
    let mut groups = Vec::new();
    for (row, (variant, params)) in table.rows.iter().zip(labels.rows) {
        let mut bars = Vec::new();
        for (i, cell) in row.cells.iter().enumerate() {
            let Some(cell) = cell else { continue };
            let range = cell
                .spread()
                .filter(|s| s.runs > 1 && s.min < s.max)
                .map(|s| (s.min, s.max));
            bars.push(Bar {
                colour: i,
                who: LANGUAGE_NAMES[i].to_string(),
                value: cell.value,
                range,
                noisy: cell.noisy(),
            });
        }
        for figure in &row.seed {
            bars.push(Bar {
                colour: SEED,
                who: format!(
                    "seed ({}, {})",
                    figure.figure.language, figure.figure.hardware
                ),
                value: figure.figure.value,
                range: None,
                noisy: false,
            });
        }
        if bars.is_empty() {
            continue;
        }
        let (name, name_cut) = svg::wrap(&variant, LABEL.size, room, 2);
        let (params_lines, params_cut) = svg::wrap(&params, NOTE.size, room, 2);
        groups.push(Group {
            name,
            params: params_lines,
            full: format!("{variant} {params}").trim().to_string(),
            cut: name_cut || params_cut,
            bars,
        });
    }
    groups
}

fn value_text(value: f64, unit: &str) -> String {
    format::quantity(value, unit)
}

/// The grouped bar chart of `table` titled `title`, as an `<svg>` element; `None` when the
/// table has no figure to draw.
pub(crate) fn bar_chart(title: &str, table: &MetricTable) -> Option<String> {
    let groups = groups(table);
    if groups.is_empty() {
        return None;
    }
    let all_bars = || groups.iter().flat_map(|g| &g.bars);
    let widest_label = groups
        .iter()
        .flat_map(|g| {
            let name = g.name.iter().map(|l| svg::text_width(l, LABEL.size));
            name.chain(g.params.iter().map(|l| svg::text_width(l, NOTE.size)))
        })
        .fold(0.0, f64::max);
    let label_w = (widest_label + 2.0 * PAD).clamp(140.0, LABEL_MAX);
    let noisy_w = svg::text_width(NOISY, NOTE.size) + 6.0;
    let widest_value = all_bars()
        .map(|b| {
            let mark = if b.noisy { noisy_w } else { 0.0 };
            svg::text_width(&value_text(b.value, &table.unit), NOTE.size) + mark
        })
        .fold(0.0, f64::max);
    let value_w = (widest_value + PAD + 8.0).clamp(80.0, 240.0);
    let values: Vec<f64> = all_bars().map(|b| b.value).collect();
    let extremes: Vec<f64> = all_bars()
        .filter_map(|b| b.range)
        .flat_map(|(lo, hi)| [lo, hi])
        .collect();
    let axis = Axis::fit(&values, &extremes, label_w, WIDTH - value_w);

    // Header: title, then the params every row shares, then the legend.
    let (common, common_cut) = svg::wrap(
        &RowLabels::of(&table.rows).common,
        NOTE.size,
        WIDTH - 2.0 * PAD,
        2,
    );
    let header_h = 30.0 + common.len() as f64 * 16.0 + 26.0;
    let plot_top = header_h;
    let plot_h: f64 = groups.iter().map(Group::height).sum();
    let plot_bottom = plot_top + plot_h;
    let height = plot_bottom + 50.0;
    let mut out = Svg::new(WIDTH, height, title);
    out.text((PAD, 20.0), TITLE, Anchor::Start, title, None);
    let common_full = format!("params of every bar: {}", common.join(" "));
    for (i, line) in common.iter().enumerate() {
        let text = if i == 0 {
            format!("params of every bar: {line}")
        } else {
            line.clone()
        };
        let tip = common_cut.then_some(common_full.as_str());
        out.text(
            (PAD, 38.0 + i as f64 * 16.0),
            NOTE,
            Anchor::Start,
            &text,
            tip,
        );
    }
    let mut present: Vec<(usize, String)> = Vec::new();
    for bar in all_bars() {
        let name = if bar.colour == SEED {
            "seed's figure".to_string()
        } else {
            bar.who.clone()
        };
        if !present.iter().any(|(c, _)| *c == bar.colour) {
            present.push((bar.colour, name));
        }
    }
    present.sort_by_key(|(c, _)| *c);
    let noisy = all_bars().any(|b| b.noisy);
    legend(
        &mut out,
        (PAD, header_h - 12.0),
        &present,
        !extremes.is_empty(),
        noisy,
    );

    // Stripes, grid and axis.
    let mut y = plot_top;
    for (i, g) in groups.iter().enumerate() {
        if i % 2 == 0 {
            out.rect((0.0, y, WIDTH, g.height()), "#f4f5f7", None);
        }
        y += g.height();
    }
    value_axis(
        &mut out,
        &axis,
        &table.unit,
        (plot_top, plot_bottom),
        &table.metric,
    );

    // Groups.
    let mut y = plot_top;
    for g in &groups {
        let top = y + GROUP_PAD / 2.0;
        let tip = g.cut.then_some(g.full.as_str());
        let mut line_y = top + 12.0;
        for line in &g.name {
            out.text((PAD, line_y), LABEL, Anchor::Start, line, tip);
            line_y += LINE_H;
        }
        for line in &g.params {
            out.text((PAD, line_y), NOTE, Anchor::Start, line, tip);
            line_y += LINE_H;
        }
        for (j, bar) in g.bars.iter().enumerate() {
            let bar_y = top + j as f64 * (BAR_H + BAR_GAP);
            let mid = bar_y + BAR_H / 2.0;
            let (x0, x1) = (axis.base(), axis.pos(bar.value));
            let value = value_text(bar.value, &table.unit);
            let spread = bar
                .range
                .map(|(lo, hi)| format!(", runs {}", super::range_text(lo, hi, &table.unit)))
                .unwrap_or_default();
            let tip = format!("{} · {}: {value}{spread}", g.full, bar.who);
            out.rect(
                (x0, bar_y, (x1 - x0).max(1.5), BAR_H),
                COLOURS[bar.colour],
                Some(&tip),
            );
            let mut end = x1;
            if let Some((lo, hi)) = bar.range {
                let (a, b) = (axis.pos(lo), axis.pos(hi));
                out.line((a, mid), (b, mid), "#1a1a1a", 1.2, "");
                out.line((a, mid - 5.0), (a, mid + 5.0), "#1a1a1a", 1.2, "");
                out.line((b, mid - 5.0), (b, mid + 5.0), "#1a1a1a", 1.2, "");
                end = end.max(b);
            }
            out.text(
                (end + 6.0, mid + 4.0),
                NOTE,
                Anchor::Start,
                &value,
                Some(&tip),
            );
            if bar.noisy {
                let x = end + 6.0 + svg::text_width(&value, NOTE.size) + 4.0;
                let mark = super::svg::TextStyle {
                    fill: super::NOISY_COLOUR,
                    bold: true,
                    ..NOTE
                };
                out.text((x, mid + 4.0), mark, Anchor::Start, NOISY, Some(&tip));
            }
        }
        y += g.height();
    }
    Some(out.finish())
}
