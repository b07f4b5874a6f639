//! The report in its three forms (terminal, Markdown, HTML) and the files `sympathy compare`
//! writes.

mod html;
mod markdown;
mod terminal;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::baseline::Baseline;
use crate::merge::{Merged, variant_label};
use crate::record::EnvRecord;
use crate::seed_figures::SeedFigure;
use crate::table::{Row, Tables};
use sympathy_harness::format;

pub use crate::failure::RunFailure;

/// Everything one report shows.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The merged results.
    pub merged: Merged,
    /// Their paired view.
    pub tables: Tables,
    /// Runs that failed.
    pub failures: Vec<RunFailure>,
    /// The comparison with an older results file, if one was given.
    pub baseline: Option<Baseline>,
}

/// The files [`Report::write`] creates in its folder.
pub const OUTPUT_FILES: [&str; 3] = ["results.jsonl", "report.md", "report.html"];

impl Report {
    /// A report of `merged`, listing its failed runs, with no baseline.
    pub fn new(merged: Merged) -> Report {
        let tables = Tables::build(&merged);
        let failures = merged.failures.clone();
        Report {
            merged,
            tables,
            failures,
            baseline: None,
        }
    }

    /// Adds failed runs (to the list and to the results the report writes).
    pub fn with_failures(mut self, failures: Vec<RunFailure>) -> Report {
        self.merged.failures.extend(failures.iter().cloned());
        self.failures.extend(failures);
        self
    }

    /// Adds the comparison with an older results file.
    pub fn with_baseline(mut self, baseline: Baseline) -> Report {
        self.baseline = Some(baseline);
        self
    }

    /// The terminal tables (machine info on top).
    pub fn terminal(&self) -> String {
        terminal::render(self)
    }

    /// `report.md`.
    pub fn markdown(&self) -> String {
        markdown::render(self)
    }

    /// `report.html`: self-contained (inline CSS and SVG charts, no external resource).
    pub fn html(&self) -> String {
        html::render(self)
    }

    /// Writes [`OUTPUT_FILES`] into `dir` (created if needed) and returns their paths.
    ///
    /// # Errors
    /// The I/O error of the first file that could not be written, naming it.
    pub fn write(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        fs::create_dir_all(dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let contents = [self.merged.to_jsonl(), self.markdown(), self.html()];
        let mut written = Vec::new();
        for (name, text) in OUTPUT_FILES.iter().zip(contents) {
            let path = dir.join(name);
            fs::write(&path, text)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            written.push(path);
        }
        Ok(written)
    }

    /// Every distinct seed figure shown in the tables, in order of appearance.
    pub(crate) fn seed_figures_shown(&self) -> Vec<SeedFigure> {
        let mut shown: Vec<SeedFigure> = Vec::new();
        for row in self.rows() {
            for f in &row.seed {
                if !shown.iter().any(|s| s.is(f)) {
                    shown.push(*f);
                }
            }
        }
        shown
    }

    fn rows(&self) -> impl Iterator<Item = &Row> {
        self.tables
            .experiments
            .iter()
            .flat_map(|e| &e.metrics)
            .flat_map(|m| &m.rows)
    }

    /// Lines warning about results that could not be placed in the tables.
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = self
            .tables
            .duplicates()
            .map(|r| {
                format!(
                    "{}: a second {} result for {} {} {} was left out of the tables (the first is shown)",
                    r.source, r.language, r.experiment, r.variant, r.metric
                )
            })
            .collect();
        w.extend(self.tables.unplaced.iter().map(|r| {
            format!(
                "{}: language `{}` has no column (expected rust, java or c)",
                r.source, r.language
            )
        }));
        w
    }
}

/// The columns of the machine table, as (header, env field(s) joined).
pub(crate) fn machine_rows(envs: &[EnvRecord]) -> Vec<[String; 8]> {
    envs.iter()
        .map(|e| {
            let caches = match e.raw.get("caches").and_then(|c| c.as_object()) {
                Some(c) => ["l1d", "l2", "l3"]
                    .iter()
                    .filter_map(|k| {
                        c.get(*k)
                            .and_then(|v| v.as_u64())
                            .map(|b| format!("{k} {}", format::bytes(b)))
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                None => String::new(),
            };
            let toolchain = ["rustc", "java", "cc", "tool"]
                .iter()
                .map(|k| e.field(k))
                .find(|s| !s.is_empty())
                .unwrap_or_default();
            [
                e.language.clone(),
                e.field("cpu_model"),
                e.field("cores"),
                caches,
                e.field("thp"),
                format!(
                    "{}{}",
                    e.field("kernel"),
                    if e.field("virtualized") == "true" {
                        " (VM)"
                    } else {
                        ""
                    }
                ),
                toolchain,
                e.field("timestamp"),
            ]
        })
        .collect()
}

/// Headers of [`machine_rows`].
pub(crate) const MACHINE_HEADERS: [&str; 8] = [
    "language",
    "cpu",
    "cores",
    "caches",
    "thp",
    "kernel",
    "toolchain",
    "measured",
];

/// The table header of a metric: `ns_per_hop (ns, lower is better)`, or `thread_share (ratio)`
/// for a metric that has no better direction.
pub(crate) fn metric_title(metric: &crate::table::MetricTable) -> String {
    match metric.better.phrase() {
        Some(phrase) => format!("{} ({}, {phrase})", metric.metric, metric.unit),
        None => format!("{} ({})", metric.metric, metric.unit),
    }
}

/// The cells of a row as text: variant, params, rust, java, c, java/rust, seed.
pub(crate) fn row_texts(row: &Row) -> [String; 7] {
    let cell = |lang: &str| {
        row.cell(lang)
            .map(|c| c.text())
            .unwrap_or_else(|| "-".into())
    };
    [
        variant_label(&row.key.experiment, &row.key.variant),
        row.key.params_label(),
        cell("rust"),
        cell("java"),
        cell("c"),
        row.java_over_rust()
            .map(format::ratio)
            .unwrap_or_else(|| "-".into()),
        if row.seed.is_empty() {
            "-".into()
        } else {
            row.seed_text()
        },
    ]
}

/// What the back-pressure latency-vs-load table shows.
pub(crate) const LOAD_NOTE: &str = "Each row is one variant and language at one offered load \
(fraction of capacity), medians over the runs. Below capacity both queues answer in about one \
service time; above it the unbounded queue's latency grows with the backlog while the bounded \
queue keeps it near its Little's-law bound and rejects the excess.";

/// Headers of [`row_texts`].
pub(crate) const ROW_HEADERS: [&str; 7] = [
    "variant",
    "params",
    "Rust",
    "Java",
    "C",
    "Java/Rust",
    "seed (hardware)",
];

/// The baseline lines as text: language, experiment, variant, params, metric, old, new, new/old.
pub(crate) fn baseline_texts(b: &Baseline) -> Vec<[String; 8]> {
    b.lines
        .iter()
        .map(|l| {
            let params = l
                .new
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            [
                l.new.language.clone(),
                l.new.experiment.clone(),
                l.new.variant.clone(),
                params,
                l.new.metric.clone(),
                l.old.map(format::value).unwrap_or_else(|| "-".into()),
                format::value(l.new.value),
                l.ratio().map(format::ratio).unwrap_or_else(|| "new".into()),
            ]
        })
        .collect()
}

/// Headers of [`baseline_texts`].
pub(crate) const BASELINE_HEADERS: [&str; 8] = [
    "language",
    "experiment",
    "variant",
    "params",
    "metric",
    "old",
    "new",
    "new/old",
];
