//! The terminal form: machine info on top, then one aligned table per experiment and metric.

use super::{
    BASELINE_HEADERS, MACHINE_HEADERS, ROW_HEADERS, Report, baseline_texts, machine_rows,
    metric_title, row_texts,
};
use crate::load_table;

/// Column-aligned text table, two spaces between columns.
fn table<const N: usize>(headers: [&str; N], rows: &[[String; N]]) -> String {
    let mut widths = headers.map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::from("  ");
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            s.push_str(cell);
            if i + 1 < N {
                s.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(headers.to_vec());
    out.push_str(&line(
        widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .iter()
            .map(String::as_str)
            .collect(),
    ));
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

pub(super) fn render(report: &Report) -> String {
    let mut out = String::from("== machine\n");
    out.push_str(&table(MACHINE_HEADERS, &machine_rows(&report.merged.envs)));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("\n== {}\n", experiment.experiment));
        for metric in &experiment.metrics {
            out.push_str(&format!("-- {}\n", metric_title(metric)));
            let rows: Vec<_> = metric.rows.iter().map(row_texts).collect();
            out.push_str(&table(ROW_HEADERS, &rows));
        }
        if experiment.experiment == load_table::EXPERIMENT {
            let points = load_table::load_points(&report.merged);
            if !points.is_empty() {
                out.push_str("-- latency vs load\n");
                out.push_str(&table(load_table::HEADERS, &load_table::texts(&points)));
            }
        }
    }
    if let Some(b) = &report.baseline {
        out.push_str(&format!("\n== against baseline {}\n", b.name));
        out.push_str(&table(BASELINE_HEADERS, &baseline_texts(b)));
        for m in &b.missing {
            out.push_str(&format!(
                "  not in this run: {} {} {} {}\n",
                m.language, m.experiment, m.variant, m.metric
            ));
        }
    }
    if !report.failures.is_empty() {
        out.push_str(&format!("\n== {} run(s) failed\n", report.failures.len()));
        for f in &report.failures {
            out.push_str(&format!("  {} [{}]: {}\n", f.experiment, f.label, f.reason));
        }
    }
    for w in report.warnings() {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
