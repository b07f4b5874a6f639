//! The report in its three forms (terminal, Markdown, HTML) and the files `sympathy compare`
//! writes.

pub(crate) mod columns;
mod html;
mod markdown;
mod terminal;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::baseline::Baseline;
use crate::findings::{Finding, findings};
use crate::merge::Merged;
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
        self.tables.rows()
    }

    /// The findings, one per experiment ([`findings`]).
    pub fn findings(&self) -> Vec<Finding> {
        findings(&self.tables)
    }

    /// The banner over the report: `1 failed run, 2 noisy rows, 1 drifted row`, and the
    /// results that were retried, when any were.
    pub fn banner(&self) -> String {
        let count = |n: usize, what: &str| match n {
            1 => format!("1 {what}"),
            n => format!("{n} {what}s"),
        };
        let noisy = self.rows().filter(|r| r.noisy()).count();
        let drifted = self.rows().filter(|r| r.drifted()).count();
        let mut parts = vec![
            count(self.failures.len(), "failed run"),
            count(noisy, "noisy row"),
            count(drifted, "drifted row"),
        ];
        let retried = self
            .rows()
            .flat_map(|r| r.present_cells())
            .filter(|(_, c)| c.retries() > 0)
            .count();
        if retried > 0 {
            parts.push(format!("{} after retries", count(retried, "result")));
        }
        parts.join(", ")
    }

    /// Lines warning about results that could not be placed in the tables.
    pub(crate) fn warnings(&self) -> Vec<String> {
        self.tables
            .unplaced
            .iter()
            .map(|r| {
                format!(
                    "{}: language `{}` has no column (expected rust, java or c)",
                    r.source, r.language
                )
            })
            .collect()
    }
}

/// The report's sections after the findings, as (title, anchor): the machine, each
/// experiment, the seed figures, the baseline, failed runs and warnings, those that are shown.
pub(crate) fn contents(report: &Report) -> Vec<(String, String)> {
    let mut titles = vec!["Machine".to_string()];
    titles.extend(
        report
            .tables
            .experiments
            .iter()
            .map(|e| e.experiment.clone()),
    );
    if !report.seed_figures_shown().is_empty() {
        titles.push("Seed figures".into());
    }
    if let Some(b) = &report.baseline {
        titles.push(baseline_title(b));
    }
    if !report.failures.is_empty() {
        titles.push("Failed runs".into());
    }
    if !report.warnings().is_empty() {
        titles.push("Warnings".into());
    }
    titles
        .into_iter()
        .map(|t| {
            let anchor = anchor(&t);
            (t, anchor)
        })
        .collect()
}

/// The title of the baseline section: ``Against baseline `old.jsonl` ``.
pub(crate) fn baseline_title(b: &Baseline) -> String {
    format!("Against baseline `{}`", b.name)
}

/// The anchor a Markdown renderer (GitHub's) gives a heading: lower case, spaces as `-`,
/// other punctuation but `-` and `_` left out.
fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The fields that tell one machine from another (the toolchain and time aside).
const MACHINE_FIELDS: [&str; 6] = [
    "cpu_model",
    "cores",
    "caches",
    "thp",
    "kernel",
    "virtualized",
];

/// The machine table: one row per distinct machine, with the languages that ran on it (C with
/// Rust, whose run measures it) and each language's toolchain.
pub(crate) fn machine_rows(envs: &[EnvRecord]) -> Vec<[String; 8]> {
    let identity = |e: &EnvRecord| MACHINE_FIELDS.map(|k| e.field(k));
    let mut machines: Vec<Vec<&EnvRecord>> = Vec::new();
    for e in envs {
        match machines.iter_mut().find(|m| identity(m[0]) == identity(e)) {
            Some(m) => m.push(e),
            None => machines.push(vec![e]),
        }
    }
    machines
        .into_iter()
        .map(|m| {
            let e = m[0];
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
            let toolchain = |e: &EnvRecord| {
                ["rustc", "java", "cc", "tool"]
                    .iter()
                    .map(|k| e.field(k))
                    .find(|s| !s.is_empty())
                    .unwrap_or_default()
            };
            let mut languages: Vec<String> = Vec::new();
            let mut toolchains: Vec<String> = Vec::new();
            for env in &m {
                if !languages.contains(&env.language) {
                    languages.push(env.language.clone());
                }
                let t = toolchain(env);
                if !t.is_empty() && !toolchains.contains(&t) {
                    toolchains.push(t);
                }
            }
            let measured = m
                .iter()
                .map(|e| e.field("timestamp"))
                .min()
                .unwrap_or_default();
            [
                languages.join(", "),
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
                toolchains.join("; "),
                measured,
            ]
        })
        .collect()
}

/// Headers of [`machine_rows`].
pub(crate) const MACHINE_HEADERS: [&str; 8] = [
    "languages",
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

/// What the back-pressure latency-vs-load table shows.
pub(crate) const LOAD_NOTE: &str = "Each row is one variant and language at one offered load \
(fraction of capacity), medians over the runs. Below capacity both queues answer in about one \
service time; above it the unbounded queue's latency grows with the backlog while the bounded \
queue keeps it near its Little's-law bound and rejects the excess.";

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
                l.old
                    .map(|v| format::quantity(v, &l.new.unit))
                    .unwrap_or_else(|| "-".into()),
                format::quantity(l.new.value, &l.new.unit),
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
