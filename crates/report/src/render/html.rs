//! `report.html`: one self-contained page (inline CSS, inline SVG charts, no script, no link).

use super::{
    BASELINE_HEADERS, LOAD_NOTE, MACHINE_HEADERS, ROW_HEADERS, Report, baseline_texts,
    machine_rows, metric_title, row_texts,
};
use crate::{chart, load_table};

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn table<const N: usize>(headers: [&str; N], numeric_from: usize, rows: &[[String; N]]) -> String {
    let mut out = String::from("<table>\n<tr>");
    for h in headers {
        out.push_str(&format!("<th>{}</th>", escape(h)));
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let class = if i >= numeric_from {
                " class=\"num\""
            } else {
                ""
            };
            out.push_str(&format!("<td{class}>{}</td>", escape(cell)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #ccc;padding:3px 8px;font-size:13px}\
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.failure{color:#a00}figure{margin:0 0 1.5em}";

pub(super) fn render(report: &Report) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>sympathy compare</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>sympathy compare: Rust and Java side by side</h1>\n\
         <p>Each cell is the median over the runs with the spread (min..max) in brackets. \
         Java/Rust is Java's median over Rust's. Bars: Rust orange, Java blue, C dark grey, \
         the seed's published figure light grey.</p>\n<h2>Machine</h2>\n"
    );
    out.push_str(&table(
        MACHINE_HEADERS,
        usize::MAX,
        &machine_rows(&report.merged.envs),
    ));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("<h2>{}</h2>\n", escape(&experiment.experiment)));
        for metric in &experiment.metrics {
            out.push_str(&format!("<h3>{}</h3>\n", escape(&metric_title(metric))));
            let rows: Vec<_> = metric.rows.iter().map(row_texts).collect();
            out.push_str(&table(ROW_HEADERS, 2, &rows));
            if let Some(svg) = chart::svg(&experiment.experiment, metric) {
                out.push_str("<figure>\n");
                out.push_str(&svg);
                out.push_str("\n</figure>\n");
            }
        }
        if experiment.experiment == load_table::EXPERIMENT {
            let points = load_table::load_points(&report.merged);
            if !points.is_empty() {
                out.push_str("<h3>latency vs load</h3>\n");
                out.push_str(&format!("<p>{}</p>\n", escape(LOAD_NOTE)));
                out.push_str(&table(load_table::HEADERS, 2, &load_table::texts(&points)));
                if let Some(svg) = chart::latency_vs_load_svg(&points) {
                    out.push_str("<figure>\n");
                    out.push_str(&svg);
                    out.push_str("\n</figure>\n");
                }
            }
        }
    }
    let figures = report.seed_figures_shown();
    if !figures.is_empty() {
        out.push_str("<h2>Seed figures</h2>\n<ul>\n");
        for shown in figures {
            let f = shown.figure;
            out.push_str(&format!(
                "<li>{} {} <code>{}</code>{}: {} {} ({}; {}) {}</li>\n",
                escape(shown.experiment),
                escape(&shown.variant_label()),
                escape(&f.metric),
                match shown.params_label() {
                    p if p.is_empty() => p,
                    p => format!(" at {}", escape(&p)),
                },
                escape(&sympathy_harness::format::value(f.value)),
                escape(&f.language),
                escape(&f.hardware),
                escape(&f.citation),
                escape(&f.note),
            ));
        }
        out.push_str("</ul>\n");
    }
    if let Some(b) = &report.baseline {
        out.push_str(&format!(
            "<h2>Against baseline <code>{}</code></h2>\n",
            escape(&b.name)
        ));
        out.push_str(&table(BASELINE_HEADERS, 5, &baseline_texts(b)));
    }
    if !report.failures.is_empty() {
        out.push_str("<h2>Failed runs</h2>\n<ul>\n");
        for f in &report.failures {
            out.push_str(&format!(
                "<li class=\"failure\">{} [{}]: {}</li>\n",
                escape(&f.experiment),
                escape(&f.label),
                escape(&f.reason)
            ));
        }
        out.push_str("</ul>\n");
    }
    let warnings = report.warnings();
    if !warnings.is_empty() {
        out.push_str("<h2>Warnings</h2>\n<ul>\n");
        for w in warnings {
            out.push_str(&format!("<li>{}</li>\n", escape(&w)));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
