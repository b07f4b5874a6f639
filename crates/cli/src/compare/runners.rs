//! The runs of `sympathy compare`, derived from the experiment catalog
//! (`sympathy_harness::catalog`, `experiments/*.toml`): for every experiment, in catalog order,
//! one [`Job`] per language that implements one of its variants:
//!
//! - Rust: `sympathy run <experiment> --json [--smoke|--quick|--full]`, which also runs the C
//!   reference variants (their results say `"language":"c"`);
//! - Java: `java/sidecar run <experiment> --json [...]`, which hands the command to the JMH
//!   runner `java/jmh/run`.
//!
//! Each job's expected duration is the catalog's `estimate_s` for its language and preset.
//!
//! ```text
//! $ sympathy compare --dry-run --only ping-pong
//!   ping-pong [rust]  ~5.0s  sympathy run ping-pong --json --quick
//!   ping-pong [java]  ~15.0s  java/sidecar run ping-pong --json --quick
//! ```

use std::time::Duration;

use sympathy_harness::Preset;
use sympathy_harness::catalog::{ExperimentSpec, Language, catalog};

/// The program a job runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// The running `sympathy` executable.
    Sympathy,
    /// The Java launcher `java/sidecar` of the checkout (run with `JAVA_HOME` from
    /// `ci/find-jdk`).
    Sidecar,
}

/// One run: an experiment in one language, a process whose stdout is results-schema JSON Lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Experiment name, as in the results and `--only`.
    pub experiment: String,
    /// The language that runs it (Rust's run carries the C variants too).
    pub language: Language,
    /// What runs.
    pub program: Program,
    /// Its arguments.
    pub args: Vec<String>,
    /// How long it is expected to take: measured on this machine by an earlier comparison
    /// (`timings`), else the catalog's estimate.
    pub estimate: Duration,
    /// The catalog's `estimate_s` (the deadline is three times the longer of the two).
    pub catalog_estimate: Duration,
    /// Its figures move with the cross-core hop (`hop_dependent` in its catalog entry): a round
    /// whose hop drifted is re-taken while the budget allows.
    pub hop_dependent: bool,
}

/// Seconds expected of a run whose catalog entry gives its language no `estimate_s`: a
/// cautious guess, so that a new experiment is not killed before its first estimate.
const UNKNOWN_ESTIMATE_S: u32 = 300;

/// Arguments of `java/sidecar` run once before the Java jobs; the launcher builds the jar
/// when it is missing, so this is where a missing or broken Java build shows up.
pub const SIDECAR_PREPARE_ARGS: &[&str] = &["--help"];

/// Arguments of `java/jmh/run` run once before the Java jobs, after the sidecar's: it builds
/// the JMH jar when it is missing or stale (which would otherwise be timed inside the first
/// JMH run) and prints the plan, running nothing.
pub const JMH_PREPARE_ARGS: &[&str] = &["run", "all", "--plan", "--smoke"];

impl Job {
    /// The job of `language` for `experiment` at `preset`.
    pub fn new(experiment: &ExperimentSpec, language: Language, preset: Preset) -> Job {
        let program = match language {
            Language::Java => Program::Sidecar,
            Language::Rust | Language::C => Program::Sympathy,
        };
        let mut args = vec!["run".to_string(), experiment.name.clone(), "--json".into()];
        args.extend(preset_flag(preset));
        let seconds = experiment
            .estimate_s
            .get(&language)
            .map_or(UNKNOWN_ESTIMATE_S, |s| s.at(preset));
        let estimate = Duration::from_secs(u64::from(seconds));
        Job {
            experiment: experiment.name.clone(),
            language,
            program,
            args,
            estimate,
            catalog_estimate: estimate,
            hop_dependent: experiment.hop_dependent,
        }
    }

    /// The side that runs it, for progress and failures: `rust` or `java`.
    pub fn label(&self) -> &'static str {
        self.language.name()
    }

    /// `<experiment>-<language>`: the stem of its log files.
    pub fn log_stem(&self) -> String {
        format!("{}-{}", self.experiment, self.label())
    }

    /// The command as a user would type it: `sympathy run ping-pong --json --quick`.
    pub fn command_line(&self) -> String {
        let program = match self.program {
            Program::Sympathy => "sympathy",
            Program::Sidecar => "java/sidecar",
        };
        format!("{program} {}", self.args.join(" "))
    }

    /// Whether it needs the Java side.
    pub fn needs_java(&self) -> bool {
        self.program == Program::Sidecar
    }
}

/// The flag that selects `preset` in both languages' `run` (none for the default preset).
pub fn preset_flag(preset: Preset) -> Option<String> {
    (preset != Preset::Default).then(|| format!("--{}", preset.name()))
}

/// The jobs of `experiment`: Rust when it has Rust or C variants, then Java when it has Java
/// variants.
pub fn jobs_of(experiment: &ExperimentSpec, preset: Preset) -> Vec<Job> {
    let runs = |language| !experiment.variants_at(language, preset).is_empty();
    let mut jobs = Vec::new();
    if runs(Language::Rust) || runs(Language::C) {
        jobs.push(Job::new(experiment, Language::Rust, preset));
    }
    if runs(Language::Java) {
        jobs.push(Job::new(experiment, Language::Java, preset));
    }
    jobs
}

/// Every job at `preset`, in the order `compare` runs them (the catalog's): of every
/// experiment, or of the `compare_default` ones when `only` is empty.
pub fn all_jobs(preset: Preset, only: &[String]) -> Vec<Job> {
    catalog()
        .experiments
        .iter()
        .filter(|e| {
            if only.is_empty() {
                e.compare_default
            } else {
                only.contains(&e.name)
            }
        })
        .flat_map(|e| jobs_of(e, preset))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::catalog::Catalog;

    #[test]
    fn quick_base_rounds_stay_within_ten_minutes() {
        // The catalog's quick estimates are the runs measured on the 2-core machine (a compare
        // of 2026-11-27): its two base rounds took 9.4 minutes of runs, over the 5-minute
        // budget, which then buys no extra round (docs/report.md). This keeps them from growing
        // unnoticed: a new experiment's runs, or longer ones, must be paid for elsewhere.
        let rounds = catalog().compare_rounds(Preset::Quick);
        let jobs = all_jobs(Preset::Quick, &[]);
        let total: Duration = crate::compare::schedule::schedule(&jobs, rounds)
            .iter()
            .map(|s| s.job.estimate)
            .sum();
        assert!(
            total <= Duration::from_secs(600),
            "quick runs ({rounds} rounds) are expected to take {total:?}; they took 9.4 minutes"
        );
    }

    #[test]
    fn every_experiment_runs_in_each_of_its_languages_with_the_preset_flag() {
        for experiment in &catalog().experiments {
            let jobs = jobs_of(experiment, Preset::Quick);
            let programs: Vec<Program> = jobs.iter().map(|j| j.program).collect();
            assert_eq!(
                programs,
                [Program::Sympathy, Program::Sidecar],
                "{}",
                experiment.name
            );
            for job in &jobs {
                assert_eq!(job.args, ["run", &experiment.name, "--json", "--quick"]);
                assert!(
                    experiment.estimate_s.contains_key(&job.language),
                    "{}: no estimate_s for {}",
                    experiment.name,
                    job.label()
                );
            }
        }
        let ipc = catalog().experiment("ipc").unwrap();
        let job = &jobs_of(ipc, Preset::Default)[1];
        assert_eq!(job.command_line(), "java/sidecar run ipc --json");
        assert_eq!(job.log_stem(), "ipc-java");
    }

    #[test]
    fn the_table_of_runs_in_docs_report_matches_the_catalog() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/report.md");
        let doc = std::fs::read_to_string(path).unwrap();
        for experiment in &catalog().experiments {
            let jobs = jobs_of(experiment, Preset::Quick);
            let quick = |language| {
                jobs.iter()
                    .find(|j| j.language == language)
                    .map_or("-".to_string(), |j| format!("{} s", j.estimate.as_secs()))
            };
            let (rust, java) = (quick(Language::Rust), quick(Language::Java));
            let row = format!("| {} | {rust} | {java} |", experiment.name);
            assert!(
                doc.lines().any(|l| l == row),
                "docs/report.md should list `{row}`"
            );
        }
    }

    #[test]
    fn an_experiment_off_the_default_run_runs_only_when_named() {
        let named = |jobs: &[Job], name: &str| jobs.iter().any(|j| j.experiment == name);
        assert!(!catalog().experiment("offheap-map").unwrap().compare_default);
        let default = all_jobs(Preset::Quick, &[]);
        assert!(named(&default, "queue") && !named(&default, "offheap-map"));
        let only = all_jobs(Preset::Quick, &["offheap-map".to_string()]);
        assert!(named(&only, "offheap-map") && !named(&only, "queue"));
        assert_eq!(only.len(), 2, "Rust and Java");
    }

    #[test]
    fn each_job_has_its_own_logs() {
        let jobs = all_jobs(Preset::Full, &[]);
        let mut stems: Vec<_> = jobs.iter().map(Job::log_stem).collect();
        stems.sort();
        stems.dedup();
        assert_eq!(stems.len(), jobs.len());
    }

    #[test]
    fn a_language_without_variants_gets_no_job_and_a_missing_estimate_a_cautious_one() {
        let common = "runner_params = []\ncompare_rounds = { smoke = 1, quick = 1, default = 1, full = 1 }\n[[metrics]]\nname = \"ns_per_op\"\nunit = \"ns\"\nbetter = \"lower\"\ndoes = \"x\"\n";
        let toy = "name = \"toy\"\npurpose = \"x\"\nmetrics = [\"ns_per_op\"]\nruns = { smoke = 1, quick = 1, default = 1, full = 1 }\n[[variants]]\nname = \"plain\"\ndoes = \"x\"\nlanguages = [\"c\"]\n[estimate_s]\nrust = { smoke = 1, quick = 2, default = 3, full = 4 }\n";
        let catalog = Catalog::parse(&[("common.toml", common), ("toy.toml", toy)]).unwrap();
        let jobs = jobs_of(&catalog.experiments[0], Preset::Full);
        assert_eq!(jobs.len(), 1, "C runs inside the Rust run; no Java job");
        assert_eq!(jobs[0].command_line(), "sympathy run toy --json --full");
        assert_eq!(jobs[0].estimate, Duration::from_secs(4));
        let java = Job::new(&catalog.experiments[0], Language::Java, Preset::Smoke);
        assert_eq!(
            java.estimate,
            Duration::from_secs(u64::from(UNKNOWN_ESTIMATE_S))
        );
    }
}
