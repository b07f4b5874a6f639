//! The terminal form: the banner and findings on top, then the machine and one aligned table
//! per experiment and metric.

use super::columns::{MARKS_LEGEND, TextTable, common_params_text, metric_columns};
use super::{
    BASELINE_HEADERS, MACHINE_HEADERS, Report, baseline_texts, contents, machine_rows, metric_title,
};
use crate::ends::{MATRIX_HEADERS, matrix_rows};
use crate::load_table;

/// Column-aligned text table, two spaces between columns, numbers right-aligned.
fn table(t: &TextTable) -> String {
    let mut widths: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
    for row in &t.rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let n = widths.len();
    let line = |cells: &[String], align: bool| {
        let mut s = String::from("  ");
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            if align && t.numeric[i] {
                s.push_str(&pad);
                s.push_str(cell);
            } else {
                s.push_str(cell);
                if i + 1 < n {
                    s.push_str(&pad);
                }
            }
            if i + 1 < n {
                s.push_str("  ");
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&t.headers, false);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out.push_str(&line(&rule, false));
    for row in &t.rows {
        out.push_str(&line(row, true));
    }
    out
}

pub(super) fn render(report: &Report) -> String {
    let mut out = format!("sympathy compare: {}\n", report.banner());
    for item in report.attention() {
        out.push_str(&format!("  ! {}\n", item.line()));
    }
    out.push_str("\n== the answer\n");
    for a in report.answers() {
        out.push_str(&format!("  {}: {}\n", a.experiment, a.sentence));
    }
    out.push_str("\n== the seeds' lessons\n");
    for f in report.findings() {
        out.push_str(&format!("  {}: {}\n", f.experiment, f.text()));
    }
    let titles: Vec<String> = contents(report).into_iter().map(|(t, _)| t).collect();
    out.push_str(&format!("\n== contents: {}\n", titles.join(", ")));
    out.push_str(&format!("  {MARKS_LEGEND}\n"));
    out.push_str("\n== machine\n");
    out.push_str(&table(&TextTable::fixed(
        MACHINE_HEADERS,
        0..0,
        machine_rows(&report.merged.envs),
    )));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("\n== {}\n", experiment.experiment));
        for metric in &experiment.metrics {
            match common_params_text(metric) {
                Some(params) => out.push_str(&format!(
                    "-- {}, every row {params}\n",
                    metric_title(metric)
                )),
                None => out.push_str(&format!("-- {}\n", metric_title(metric))),
            }
            out.push_str(&table(&metric_columns(metric)));
            let rows = matrix_rows(metric);
            if !rows.is_empty() {
                out.push_str("-- who sent what, each against Rust -> Rust\n");
                out.push_str(&table(&TextTable::fixed(MATRIX_HEADERS, 2..3, rows)));
            }
        }
        if experiment.experiment == load_table::EXPERIMENT {
            let points = load_table::load_points(&report.merged);
            if !points.is_empty() {
                out.push_str("-- latency vs load\n");
                out.push_str(&table(&TextTable::fixed(
                    load_table::HEADERS,
                    2..10,
                    load_table::texts(&points),
                )));
            }
        }
    }
    if let Some(b) = &report.baseline {
        out.push_str(&format!("\n== against baseline {}\n", b.name));
        out.push_str(&table(&TextTable::fixed(
            BASELINE_HEADERS,
            5..8,
            baseline_texts(b),
        )));
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
            out.push_str(&format!("  {f}\n"));
        }
    }
    for w in report.warnings() {
        out.push_str(&format!("warning: {w}\n"));
    }
    out
}
