//! `report.md`.

use super::{
    BASELINE_HEADERS, LOAD_NOTE, MACHINE_HEADERS, ROW_HEADERS, Report, baseline_texts,
    machine_rows, metric_title, row_texts,
};
use crate::load_table;

fn escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}

/// A Markdown table; the columns in `numeric` are right-aligned.
fn table<const N: usize>(
    headers: [&str; N],
    numeric: std::ops::Range<usize>,
    rows: &[[String; N]],
) -> String {
    let mut out = format!("| {} |\n|", headers.join(" | "));
    for i in 0..N {
        out.push_str(if numeric.contains(&i) {
            "---:|"
        } else {
            "---|"
        });
    }
    out.push('\n');
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

pub(super) fn render(report: &Report) -> String {
    let mut out = String::from("# sympathy compare: Rust and Java side by side\n\n");
    out.push_str(
        "Each cell is the median over the runs with the spread (min..max) in brackets. \
         Java/Rust is Java's median over Rust's: above 1 Java took longer (or, for rates, moved more). \
         See docs/report.md for how to read this report.\n\n",
    );
    out.push_str("## Machine\n\n");
    out.push_str(&table(
        MACHINE_HEADERS,
        0..0,
        &machine_rows(&report.merged.envs),
    ));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("\n## {}\n", experiment.experiment));
        for metric in &experiment.metrics {
            out.push_str(&format!("\n### {}\n\n", metric_title(metric)));
            let rows: Vec<_> = metric.rows.iter().map(row_texts).collect();
            out.push_str(&table(ROW_HEADERS, 2..6, &rows));
        }
        if experiment.experiment == load_table::EXPERIMENT {
            let points = load_table::load_points(&report.merged);
            if !points.is_empty() {
                out.push_str("\n### latency vs load\n\n");
                out.push_str(LOAD_NOTE);
                out.push_str("\n\n");
                out.push_str(&table(
                    load_table::HEADERS,
                    2..10,
                    &load_table::texts(&points),
                ));
            }
        }
    }
    let figures = report.seed_figures_shown();
    if !figures.is_empty() {
        out.push_str("\n## Seed figures\n\n");
        for shown in figures {
            let f = shown.figure;
            out.push_str(&format!(
                "- {} {} `{}`{}: {} {} ({}, {}){}\n",
                shown.experiment,
                shown.variant_label(),
                f.metric,
                match shown.params_label() {
                    p if p.is_empty() => p,
                    p => format!(" at {p}"),
                },
                sympathy_harness::format::value(f.value),
                f.language,
                f.hardware,
                f.citation,
                if f.note.is_empty() {
                    String::new()
                } else {
                    format!(". {}", f.note)
                },
            ));
        }
    }
    if let Some(b) = &report.baseline {
        out.push_str(&format!("\n## Against baseline `{}`\n\n", b.name));
        out.push_str(&table(BASELINE_HEADERS, 5..8, &baseline_texts(b)));
        for m in &b.missing {
            out.push_str(&format!(
                "\nNot in this run: {} {} {} {}\n",
                m.language, m.experiment, m.variant, m.metric
            ));
        }
    }
    if !report.failures.is_empty() {
        out.push_str("\n## Failed runs\n\n");
        for f in &report.failures {
            out.push_str(&format!("- {} [{}]: {}\n", f.experiment, f.label, f.reason));
        }
    }
    let warnings = report.warnings();
    if !warnings.is_empty() {
        out.push_str("\n## Warnings\n\n");
        for w in warnings {
            out.push_str(&format!("- {w}\n"));
        }
    }
    out
}
