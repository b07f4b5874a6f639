//! `report.md`.

use super::columns::{MARKS_LEGEND, TextTable, common_params_text, metric_columns};
use super::{
    ANSWER_NOTE, BASELINE_HEADERS, CONDITION_HEADERS, MACHINE_HEADERS, RUN_HEADERS, Report,
    TABLES_NOTE, baseline_missing, baseline_texts, baseline_title, condition_rows, contents,
    gaps_note, machine_rows, metric_title, run_rows,
};
use crate::ends::{MATRIX_HEADERS, matrix_rows};
use crate::load_table;

fn escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}

/// A Markdown table; numeric columns are right-aligned.
fn table(t: &TextTable) -> String {
    let mut out = format!("| {} |\n|", t.headers.join(" | "));
    for numeric in &t.numeric {
        out.push_str(if *numeric { "---:|" } else { "---|" });
    }
    out.push('\n');
    for row in &t.rows {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

pub(super) fn render(report: &Report) -> String {
    let mut out = String::from("# sympathy compare: Rust and Java side by side\n\n");
    out.push_str(&format!("**{}**\n\n", report.banner()));
    for item in report.attention() {
        out.push_str(&format!("- {}\n", item.line()));
    }
    out.push_str("\n## The answer\n\n");
    for a in report.answers() {
        out.push_str(&format!(
            "- **{}**: {}\n",
            a.experiment,
            escape(&a.sentence)
        ));
    }
    out.push_str(ANSWER_NOTE);
    out.push_str("\n\n## The seeds' lessons\n\n");
    for f in report.findings() {
        out.push_str(&format!("- **{}**: {}\n", f.experiment, escape(&f.text())));
    }
    out.push_str("\n## Conditions\n\n");
    out.push_str(&table(&TextTable::fixed(
        CONDITION_HEADERS,
        0..0,
        condition_rows(report),
    )));
    out.push_str("\n## Contents\n\n");
    for (title, anchor) in contents(report) {
        out.push_str(&format!("- [{title}](#{anchor})\n"));
    }
    out.push_str(&format!("\n{TABLES_NOTE} "));
    out.push_str(MARKS_LEGEND);
    out.push_str(" See docs/report.md for how to read this report.\n\n");
    out.push_str("## Machine\n\n");
    out.push_str(&table(&TextTable::fixed(
        MACHINE_HEADERS,
        0..0,
        machine_rows(&report.merged.envs),
    )));
    for experiment in &report.tables.experiments {
        out.push_str(&format!("\n## {}\n", experiment.experiment));
        for metric in &experiment.metrics {
            out.push_str(&format!("\n### {}\n\n", metric_title(metric)));
            if let Some(params) = common_params_text(metric) {
                out.push_str(&format!("Every row: {params}\n\n"));
            }
            out.push_str(&table(&metric_columns(metric)));
            let rows = matrix_rows(metric);
            if !rows.is_empty() {
                out.push_str("\nWho sent what, each against Rust -> Rust:\n\n");
                out.push_str(&table(&TextTable::fixed(MATRIX_HEADERS, 2..3, rows)));
            }
        }
        let gaps = crate::gaps::gaps(experiment);
        if !gaps.is_empty() {
            out.push_str(&format!("\n### why the gaps\n\n{}\n\n", gaps_note()));
            for gap in &gaps {
                out.push_str(&format!(
                    "- {}\n",
                    escape(&gap.line(&experiment.experiment))
                ));
            }
        }
        let runs = run_rows(report, &experiment.experiment);
        if !runs.is_empty() {
            out.push_str(
                "\n### runs\n\nWhat each run of the experiment cost (every row above comes from \
                 these runs; CPU counts its child processes):\n\n",
            );
            out.push_str(&table(&TextTable::fixed(RUN_HEADERS, 1..5, runs)));
        }
        if load_table::has_load_view(&experiment.experiment) {
            let points = load_table::load_points(&report.merged, &experiment.experiment);
            if !points.is_empty() {
                out.push_str("\n### latency vs load\n\n");
                if let Some(caption) = load_table::caption(&points) {
                    out.push_str(&caption);
                    out.push_str("\n\n");
                }
                out.push_str(&table(&TextTable::fixed(
                    load_table::HEADERS,
                    2..10,
                    load_table::texts(&points),
                )));
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
                sympathy_harness::format::quantity(
                    f.value,
                    sympathy_harness::catalog::catalog()
                        .metric(&f.metric)
                        .map_or("", |m| m.unit.as_str())
                ),
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
        out.push_str(&format!("\n## {}\n\n", baseline_title(b)));
        out.push_str(&table(&TextTable::fixed(
            BASELINE_HEADERS,
            5..8,
            baseline_texts(b),
        )));
        for missing in baseline_missing(b) {
            out.push_str(&format!("\nNot in this run: {missing}\n"));
        }
    }
    if !report.failures.is_empty() {
        out.push_str("\n## Failed runs\n\n");
        for f in &report.failures {
            out.push_str(&format!("- {f}\n"));
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
