//! Back-pressure's latency-vs-load chart: p99 latency (log scale) against offered load, one
//! line per variant and language (the language's colour; the bounded queue dashed).

use super::axis::Axis;
use super::bars::{PAD, WIDTH};
use super::svg::{Anchor, NOTE, Svg, TITLE};
use super::{COLOURS, LANGUAGE_NAMES};
use crate::load_table::LoadPoint;
use crate::table::LANGUAGES;
use sympathy_harness::format;

const HEIGHT: f64 = 440.0;
const LEFT: f64 = 86.0;
const TOP: f64 = 76.0;
const BOTTOM: f64 = 380.0;

/// A line: variant, language, points (load, p99 ns).
struct Series {
    variant: String,
    language: String,
    points: Vec<(f64, f64)>,
}

impl Series {
    fn colour(&self) -> &'static str {
        let i = LANGUAGES.iter().position(|l| *l == self.language);
        COLOURS[i.unwrap_or(2)]
    }

    fn dash(&self) -> &'static str {
        if self.variant == "bounded" { "7 4" } else { "" }
    }

    fn name(&self) -> String {
        let i = LANGUAGES.iter().position(|l| *l == self.language);
        let language = i.map_or(self.language.as_str(), |i| LANGUAGE_NAMES[i]);
        format!("{} · {language}", self.variant)
    }
}

fn series(points: &[LoadPoint]) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for p in points {
        let Some(p99) = p.metric("latency_p99_ns").filter(|v| *v > 0.0) else {
            continue;
        };
        match series
            .iter_mut()
            .find(|s| s.variant == p.variant && s.language == p.language)
        {
            Some(s) => s.points.push((p.load, p99)),
            None => series.push(Series {
                variant: p.variant.clone(),
                language: p.language.clone(),
                points: vec![(p.load, p99)],
            }),
        }
    }
    series
}

/// The chart as an `<svg>` element; `None` when no point has a p99 latency.
pub(crate) fn latency_vs_load(experiment: &str, points: &[LoadPoint]) -> Option<String> {
    let series = series(points);
    if series.is_empty() {
        return None;
    }
    let all = || series.iter().flat_map(|s| s.points.iter().copied());
    let loads: Vec<f64> = all().map(|(x, _)| x).collect();
    let p99s: Vec<f64> = all().map(|(_, y)| y).collect();
    let x = Axis::fit(&loads, &[], LEFT, WIDTH - 2.0 * PAD);
    // Always log: latency grows by orders of magnitude past capacity.
    let low = p99s.iter().copied().fold(f64::INFINITY, f64::min);
    let high = p99s.iter().copied().fold(0.0, f64::max);
    let y = Axis::log(low, high, BOTTOM, TOP);
    let title = format!("{experiment}: p99 latency against offered load");
    let mut out = Svg::new(WIDTH, HEIGHT, &title);
    out.text((PAD, 20.0), TITLE, Anchor::Start, &title, None);
    // Legend, one entry per line.
    let mut lx = PAD;
    for s in &series {
        out.line((lx, 44.0), (lx + 26.0, 44.0), s.colour(), 2.5, s.dash());
        let name = s.name();
        out.text((lx + 32.0, 48.0), NOTE, Anchor::Start, &name, None);
        lx += 32.0 + super::svg::text_width(&name, NOTE.size) + 16.0;
    }
    for tick in y.ticks() {
        let py = y.pos(tick);
        out.line((LEFT, py), (WIDTH - 2.0 * PAD, py), "#d6d6d6", 1.0, "");
        let text = format::quantity(tick, "ns");
        out.text((LEFT - 6.0, py + 4.0), NOTE, Anchor::End, &text, None);
    }
    for tick in x.ticks() {
        let px = x.pos(tick);
        out.line((px, TOP), (px, BOTTOM), "#e6e6e6", 1.0, "");
        let text = format::value(tick);
        out.text((px, BOTTOM + 17.0), NOTE, Anchor::Middle, &text, None);
    }
    out.line(
        (LEFT, BOTTOM),
        (WIDTH - 2.0 * PAD, BOTTOM),
        "#8a8a8a",
        1.0,
        "",
    );
    let caption = "offered load (fraction of capacity); p99 latency on a log scale";
    let mid = (LEFT + WIDTH - 2.0 * PAD) / 2.0;
    out.text((mid, BOTTOM + 40.0), NOTE, Anchor::Middle, caption, None);
    for s in &series {
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(lx, ly)| format!("{:.1},{:.1}", x.pos(lx), y.pos(ly)))
            .collect();
        let dash = match s.dash() {
            "" => String::new(),
            d => format!(" stroke-dasharray=\"{d}\""),
        };
        out.raw(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"{dash}/>\n",
            path.join(" "),
            s.colour()
        ));
        for &(lx, ly) in &s.points {
            let tip = format!(
                "{}: load {}, p99 {}",
                s.name(),
                format::value(lx),
                format::quantity(ly, "ns")
            );
            out.raw(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>{}</title></circle>\n",
                x.pos(lx),
                y.pos(ly),
                s.colour(),
                super::escape(&tip)
            ));
        }
    }
    Some(out.finish())
}
