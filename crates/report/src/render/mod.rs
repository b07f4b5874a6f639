//! The report in its three forms (terminal, Markdown, HTML) and the files `sympathy compare`
//! writes.

pub(crate) mod columns;
mod html;
mod markdown;
mod terminal;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::answer::{Answer, answers};
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

    /// The answer, per experiment and language pair ([`answers`]).
    pub fn answers(&self) -> Vec<Answer> {
        answers(&self.tables)
    }

    /// The seeds' lessons, one per experiment that states one ([`findings`]).
    pub fn findings(&self) -> Vec<Finding> {
        findings(&self.tables)
    }

    /// The banner over the report in one line: `1 failed run, 2 drifted rows, 14 of 120
    /// ratios inconclusive`, and the results that were retried, when any were.
    pub fn banner(&self) -> String {
        let items = self.attention();
        let mut parts: Vec<String> = items.iter().map(Attention::summary).collect();
        if parts.is_empty() {
            parts.push("every run succeeded, no row drifted, every ratio has a verdict".into());
        }
        parts.join(", ")
    }

    /// What a reader must know before trusting the tables, each with the rows it concerns
    /// (named once each, with their params) and what to run about it.
    pub(crate) fn attention(&self) -> Vec<Attention> {
        let mut items = Vec::new();
        let failed: Vec<String> = self
            .failures
            .iter()
            .map(|f| format!("{} [{}] round {}", f.experiment, f.label, f.round))
            .collect();
        let failed_experiments = distinct(self.failures.iter().map(|f| f.experiment.clone()));
        items.push(Attention {
            count: failed.len(),
            total: None,
            noun: ("failed run", "failed runs"),
            why: "their reasons are under Failed runs",
            names: failed,
            advice: rerun_advice(&failed_experiments, ""),
        });
        let unpaired: Vec<&Row> = self
            .rows()
            .filter(|r| {
                crate::table::COMPARED
                    .into_iter()
                    .any(|(num, den)| r.parity_conflict(num, den).is_some())
            })
            .collect();
        items.push(Attention {
            count: unpaired.len(),
            total: None,
            noun: ("row not paired", "rows not paired"),
            why: "their languages reported different parity facts (pinning, page backing, \
                  inputs, what the timer holds): not the same work, so no ratio; each row names \
                  the fact",
            names: distinct(unpaired.iter().map(|r| row_name(r))),
            advice: None,
        });
        let compiling: Vec<&Row> = self
            .rows()
            .filter(|r| r.jit_compiled_ms().is_some())
            .collect();
        items.push(Attention {
            count: compiling.len(),
            total: None,
            noun: (
                "row measured while the JIT compiled",
                "rows measured while the JIT compiled",
            ),
            why: "a measured Java iteration spent 5 ms or more compiling, so part of it ran slower \
                  code than the loop's compiled one: more warm-up (a larger preset) keeps it out",
            names: distinct(compiling.iter().map(|r| row_name(r))),
            advice: None,
        });
        let drifted: Vec<&Row> = self.rows().filter(|r| r.drifted()).collect();
        items.push(Attention {
            count: drifted.len(),
            total: None,
            noun: ("drifted row", "drifted rows"),
            why: "the cross-core hop moved more than 25% during a run of the row, so the machine \
                  changed under it",
            names: distinct(drifted.iter().map(|r| row_name(r))),
            advice: rerun_advice(
                &distinct(drifted.iter().map(|r| r.key.experiment.clone())),
                " --max-drift 25",
            ),
        });
        // The ratios that can have a verdict ([`Row::ranks`]).
        let ratios: Vec<(&Row, bool)> = self
            .rows()
            .filter(|r| r.ranks())
            .flat_map(|r| {
                r.compared_pairs()
                    .map(move |(_, _, ratio)| (r, ratio.verdict() == crate::Verdict::Inconclusive))
            })
            .collect();
        let undecided: Vec<&Row> = ratios.iter().filter(|(_, u)| *u).map(|(r, _)| *r).collect();
        let wanting: Vec<&Row> = undecided
            .iter()
            .copied()
            .filter(|r| r.needs_more_rounds())
            .collect();
        items.push(Attention {
            count: undecided.len(),
            total: Some(ratios.len()),
            noun: ("ratio inconclusive", "ratios inconclusive"),
            why: "their 95% interval reaches into the parity band, so they get no verdict word",
            names: distinct(undecided.iter().map(|r| row_name(r))),
            advice: rerun_advice(
                &distinct(wanting.iter().map(|r| r.key.experiment.clone())),
                " --budget 10m",
            ),
        });
        let retried: Vec<String> = distinct(
            self.rows()
                .filter(|r| r.present_cells().any(|(_, c)| c.retries() > 0))
                .map(row_name),
        );
        items.push(Attention {
            count: retried.len(),
            total: None,
            noun: ("row kept after a retry", "rows kept after a retry"),
            why: "a run was repeated: the machine was busy, or its hop drifted and the calmest attempt was kept",
            names: retried,
            advice: None,
        });
        let unexplained: Vec<String> = self
            .tables
            .experiments
            .iter()
            .flat_map(|e| {
                crate::gaps::gaps(e)
                    .into_iter()
                    .filter(|g| g.cause.is_none())
                    .map(|g| format!("{} {}", e.experiment, g.row))
                    .collect::<Vec<_>>()
            })
            .collect();
        items.push(Attention {
            count: unexplained.len(),
            total: None,
            noun: ("large gap without a cause", "large gaps without a cause"),
            why: "one side is behind past the report's large-gap bound over the whole interval, \
                  and the catalog records no cause for it (each is listed under its experiment's \
                  why the gaps)",
            names: distinct(unexplained.into_iter()),
            advice: None,
        });
        items.retain(|i| i.count > 0);
        items
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

/// One thing the banner says: how many of what, why it matters, which rows (or runs), and
/// the command that would settle it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Attention {
    /// How many.
    pub count: usize,
    /// Out of how many, where that says something (ratios).
    pub total: Option<usize>,
    /// The noun, singular and plural.
    pub noun: (&'static str, &'static str),
    /// Why it matters, one clause.
    pub why: &'static str,
    /// The rows or runs, each once: `queue p1c1 placement=cross-core`.
    pub names: Vec<String>,
    /// What to run: `sympathy compare --only queue,ipc --max-drift 25`.
    pub advice: Option<String>,
}

impl Attention {
    /// `3 drifted rows`, `14 of 120 ratios inconclusive`.
    pub fn summary(&self) -> String {
        // `1 failed run`, but `1 of 2 ratios inconclusive`: out of a total, the noun is plural.
        let noun = if self.count == 1 && self.total.is_none_or(|t| t == 1) {
            self.noun.0
        } else {
            self.noun.1
        };
        match self.total {
            Some(total) => format!("{} of {total} {noun}", self.count),
            None => format!("{} {noun}", self.count),
        }
    }

    /// The whole item as text: `3 drifted rows (why): a, b. To settle them: `cmd``.
    pub fn line(&self) -> String {
        self.line_naming(&self.names.join(", "))
    }

    /// The item with its names counted per experiment (a name's first word), for the terminal:
    /// `88 drifted rows (why): queue 68, messaging 9. To settle them: `cmd``.
    pub fn brief_line(&self) -> String {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for name in &self.names {
            let experiment = name.split(' ').next().unwrap_or_default();
            match counts.iter_mut().find(|(e, _)| *e == experiment) {
                Some((_, n)) => *n += 1,
                None => counts.push((experiment, 1)),
            }
        }
        let counted: Vec<String> = counts.iter().map(|(e, n)| format!("{e} {n}")).collect();
        self.line_naming(&counted.join(", "))
    }

    fn line_naming(&self, names: &str) -> String {
        let mut line = format!("{} ({}): {names}", self.summary(), self.why);
        if let Some(advice) = &self.advice {
            line.push_str(&format!(". To settle them: `{advice}`"));
        }
        line
    }
}

/// `experiment variant params`: a row as the banner names it (its metric left out, so the
/// rows of one run's metrics are named once).
fn row_name(row: &Row) -> String {
    match row.key.params_label() {
        p if p.is_empty() => format!("{} {}", row.key.experiment, row.key.variant),
        p => format!("{} {} {p}", row.key.experiment, row.key.variant),
    }
}

/// `items` in order, each once.
fn distinct(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// `sympathy compare --only a,b<flags>`, or `None` without experiments.
fn rerun_advice(experiments: &[String], flags: &str) -> Option<String> {
    (!experiments.is_empty())
        .then(|| format!("sympathy compare --only {}{flags}", experiments.join(",")))
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
            // The compiler, and the vector instructions it could use: Rust's build and the
            // JVM's C2 may differ (the default Rust build targets x86-64's SSE2 baseline).
            let toolchain = |e: &EnvRecord| {
                let name = ["rustc", "java", "cc", "tool"]
                    .iter()
                    .map(|k| e.field(k))
                    .find(|s| !s.is_empty())
                    .unwrap_or_default();
                match e.field("vector_isa") {
                    isa if isa.is_empty() || name.is_empty() => name,
                    isa => format!("{name} [vectors: {isa}]"),
                }
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

/// The conditions of the comparison, as (what, value) rows: the preset, the commit (and whether
/// the tree was dirty), when, the CPU and its frequency, cores, RAM, kernel, the JDK and the
/// JVM flags, the rounds (base, and the most any experiment ran), the budget and the runs' wall
/// time; from the `comparison` record `compare` writes, else (an older results file) from the
/// `env` records.
pub(crate) fn condition_rows(report: &Report) -> Vec<[String; 2]> {
    let mut rows: Vec<[String; 2]> = Vec::new();
    let mut add = |what: &str, value: String| {
        if !value.is_empty() {
            rows.push([what.to_string(), value]);
        }
    };
    let rounds_run = report
        .merged
        .results
        .iter()
        .filter_map(|r| r.conditions.rounds)
        .max();
    let Some(c) = &report.merged.comparison else {
        add(
            "preset",
            "not recorded (results written before the comparison record)".into(),
        );
        if let Some(env) = report.merged.envs.first() {
            add("cpu", env.field("cpu_model"));
            add("cores", env.field("cores"));
            add("kernel", env.field("kernel"));
        }
        if let Some(n) = rounds_run {
            add("rounds", n.to_string());
        }
        return rows;
    };
    add("preset", c.field("preset"));
    let commit = c.field("commit");
    add(
        "commit",
        match c.raw.get("dirty").and_then(|d| d.as_bool()) {
            Some(true) => format!("{commit} (the tree had uncommitted changes)"),
            _ => commit,
        },
    );
    add("started", c.field("started"));
    let mhz = c
        .raw
        .get("cpu_mhz")
        .and_then(|v| v.as_f64())
        .map(|m| format!(" at {:.2} GHz", m / 1000.0))
        .unwrap_or_default();
    add("cpu", format!("{}{mhz}", c.field("cpu_model")));
    add("cores", c.field("cores"));
    add(
        "ram",
        c.raw
            .get("ram_bytes")
            .and_then(|v| v.as_u64())
            .map(|b| format::quantity(b as f64, "bytes"))
            .unwrap_or_default(),
    );
    add("kernel", c.field("kernel"));
    add("jdk", c.field("jdk"));
    let flags = |key: &str| {
        c.raw
            .get("jvm_flags")
            .and_then(|f| f.get(key))
            .and_then(|f| f.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    };
    add("jvm flags (every JVM)", flags("launcher"));
    add("jvm flags (latency runs)", flags("latency"));
    let base = c.field("rounds");
    add(
        "rounds",
        match rounds_run {
            Some(n) if n.to_string() != base => {
                format!("{base} per experiment, up to {n} where more pairs were needed")
            }
            _ => format!("{base} per experiment"),
        },
    );
    let seconds = |key: &str| {
        c.raw
            .get(key)
            .and_then(|v| v.as_f64())
            .map(|s| format::quantity(s * 1e3, "ms"))
    };
    add(
        "budget",
        seconds("budget_s").unwrap_or_else(|| "none".into()),
    );
    add("runs took", seconds("runs_s").unwrap_or_default());
    rows
}

/// Headers of [`condition_rows`].
pub(crate) const CONDITION_HEADERS: [&str; 2] = ["condition", "value"];

/// Every run of `experiment` with what it cost: per language and round, its wall time, CPU
/// time (its child processes included) and peak RSS, from the results' `conditions`. The C
/// variants run inside the Rust run, so their results add no row.
pub(crate) fn run_rows(report: &Report, experiment: &str) -> Vec<[String; 5]> {
    let mut seen: Vec<(String, u32)> = Vec::new();
    let mut rows = Vec::new();
    for r in report
        .merged
        .results
        .iter()
        .filter(|r| r.experiment == experiment && r.language != "c")
    {
        let key = (r.language.clone(), r.conditions.round());
        let c = &r.conditions;
        if seen.contains(&key) || (c.wall_s.is_none() && c.peak_rss_bytes.is_none()) {
            continue;
        }
        seen.push(key);
        let seconds = |s: Option<f64>| s.map_or("-".into(), |s| format::quantity(s * 1e3, "ms"));
        rows.push([
            crate::table::language_title(&r.language).to_string(),
            c.round().to_string(),
            seconds(c.wall_s),
            seconds(c.cpu_s),
            c.peak_rss_bytes
                .map_or("-".into(), |b| format::quantity(b as f64, "bytes")),
        ]);
    }
    rows.sort_by(|a, b| {
        (a[0].clone(), a[1].parse::<u32>().ok()).cmp(&(b[0].clone(), b[1].parse::<u32>().ok()))
    });
    rows
}

/// Headers of [`run_rows`].
pub(crate) const RUN_HEADERS: [&str; 5] = ["language", "round", "wall", "CPU", "peak RSS"];

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

/// How the answer is made, under it.
pub(crate) const ANSWER_NOTE: &str = "\nEach sentence reads the experiment's headline metric: per \
round, the geometric mean over its rows of the cost ratio (a time over a time, or a rate's \
reciprocal: above 1 the first language is slower), and a 95% Student-t interval over the \
rounds. A verdict word only when the whole interval lies outside the parity band (+-5%), \
\"on par\" only when it lies inside it, otherwise \"inconclusive\". Rows measured between two \
languages (a Java producer feeding a Rust consumer) do not count in the sentence: their cells \
name both ends.";

/// What a "why the gaps" list is.
pub(crate) fn gaps_note() -> String {
    format!(
        "Every row whose 95% interval puts one side more than {}x behind the other, and every \
         row the catalog explains whose interval agrees: why, what the slower loop does that the \
         other does not, and the figures that show it (instructions per message under callgrind, \
         counted the same way in both languages; bytes allocated per message from JMH -prof gc; \
         or another measured figure with its command). The causes live in the catalog \
         (experiments/<experiment>.toml, [[gaps]]); docs/report.md says how to read them.",
        crate::gaps::LARGE_GAP
    )
}

/// How to read a metric table, over the tables.
pub(crate) const TABLES_NOTE: &str = "Each cell is the median over the rounds with the spread of \
every run (min..max) in brackets. Java vs Rust is Java/Rust taken round by round (each round \
runs both languages back to back): the geometric mean of the per-round ratios with its 95% \
interval, in words that follow the metric's direction, the interval in the same sense as the \
word; a word only when the interval lies outside the +-5% parity band, else \"inconclusive\". \
Rust vs C likewise (Rust/C). A cell measured between two processes of two languages names its \
ends (producer -> consumer). hop is the one-way hop between two cores probed before and after \
each run (min..max), shown for experiments whose figures move with it.";

/// The baseline lines as text: language, experiment, variant, params, metric, old, new, new/old.
pub(crate) fn baseline_texts(b: &Baseline) -> Vec<[String; 8]> {
    b.lines
        .iter()
        .map(|l| {
            let params = l
                .new
                .params
                .iter()
                .map(|(k, v)| crate::merge::param_text(k, v))
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

/// What the baseline had that this run lacks, one `language experiment variant metric` each.
pub(crate) fn baseline_missing(b: &Baseline) -> impl Iterator<Item = String> + '_ {
    b.missing
        .iter()
        .map(|m| format!("{} {} {} {}", m.language, m.experiment, m.variant, m.metric))
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
