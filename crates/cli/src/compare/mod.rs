//! `sympathy compare`: runs every experiment in every language, then writes and prints the
//! side-by-side report.
//!
//! ```text
//! sympathy compare [--smoke|--quick|--full] [--only queue,ping-pong,...] [--out DIR] [--baseline FILE]
//!                  [--max-drift PCT] [--budget DURATION]
//! sympathy compare --from results.jsonl [--from more.jsonl] [--baseline FILE]   # re-render only
//! ```
//!
//! The runs, one per experiment and language, come from the experiment catalog ([`runners`]);
//! each runs in every round of `compare_rounds` (`experiments/common.toml`), the languages
//! alternating ([`schedule`]), with the machine's hop probed before and after it and written
//! into its results with what the run used ([`conditions`]); a run that failed because the
//! machine was busy, or whose hop drifted (with `--max-drift`, or by default for a
//! hop-dependent experiment within the budget), is run again ([`retry`]). After the base rounds,
//! experiments whose paired ratios are undecided get extra rounds while the budget allows
//! ([`rounds`], [`budget`]). Estimates are the times measured on this machine before
//! ([`timings`]), else the catalog's. `results.jsonl` starts with a `comparison` record
//! ([`summary`]). The report is the `sympathy-report` crate.

mod budget;
mod conditions;
mod orchestrate;
mod process;
mod retry;
mod rounds;
mod runners;
mod schedule;
mod summary;
mod timings;
mod toolchain;

#[cfg(test)]
use std::path::Path;
use std::path::PathBuf;

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::Preset;
use sympathy_harness::catalog::catalog;
use sympathy_harness::machine::Env;
use sympathy_report::{ComparisonRecord, Merged, Report, baseline, read_jsonl};

use budget::{Budget, default_budget, parse_duration};
use conditions::StoreReleaseProbe;
use orchestrate::{Plan, human, run_comparison, say, wrap};
use retry::{MAX_RETRIES, Retrying};
use rounds::ReportRule;
use runners::{all_jobs, preset_flag};
use schedule::schedule;
use timings::Timings;

/// `sympathy compare ...`
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Tiny sizes and one run each: checks the plumbing of every run, not the figures.
    #[arg(long, conflicts_with_all = ["quick", "full"])]
    smoke: bool,
    /// Small sizes, two base rounds and more within --budget (the default).
    #[arg(long, conflicts_with = "full")]
    quick: bool,
    /// The seeds' sizes (50M trades, a 2 GiB walk); prints the expected duration first.
    #[arg(long)]
    full: bool,
    /// Only these experiments (comma-separated), e.g. `--only queue,ping-pong`.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Folder for results.jsonl, report.md, report.html and the run logs.
    #[arg(long, default_value = "target/sympathy")]
    out: PathBuf,
    /// An older results.jsonl: print and render the ratio new/old of every result line.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Run nothing: build the report from these results files (repeatable).
    #[arg(long = "from", conflicts_with_all = ["smoke", "quick", "full", "only"])]
    from: Vec<PathBuf>,
    /// List the runs and the expected duration, then stop.
    #[arg(long)]
    dry_run: bool,
    /// Exit with success even if some runs failed (the report lists them either way).
    #[arg(long)]
    allow_failures: bool,
    /// Run a round again (up to twice, keeping the calmest attempt) when the machine's hop
    /// moved more than PCT percent between the probes before and after it.
    #[arg(long, value_name = "PCT", value_parser = positive_percent)]
    max_drift: Option<f64>,
    /// How long the runs may take (`5m`, `300s`, `1h`): the base rounds always run; extra
    /// rounds of experiments with undecided ratios, and re-takes of hop-dependent rounds whose
    /// hop drifted, run while they fit. Default: 5m for quick, none for smoke, no limit for
    /// full.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    budget: Option<Duration>,
}

/// `--max-drift`: a positive number of percent.
fn positive_percent(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 => Ok(p),
        _ => Err(format!(
            "`{text}` is not a positive percentage (e.g. --max-drift 25)"
        )),
    }
}

/// Runs the comparison.
pub fn run(args: CompareArgs) -> Result<()> {
    let merged = if args.from.is_empty() {
        let Some((outcome, comparison)) = run_experiments(&args)? else {
            return Ok(());
        };
        let mut merged = Merged::from_streams(outcome.streams);
        merged.failures.extend(outcome.failures);
        merged.comparison = Some(comparison);
        merged
    } else {
        let streams = args
            .from
            .iter()
            .map(|p| read_jsonl(p))
            .collect::<Result<Vec<_>, _>>()?;
        Merged::from_streams(streams)
    };
    let mut report = Report::new(merged);
    if let Some(path) = &args.baseline {
        let old = Merged::from_streams([read_jsonl(path)?]);
        let name = path.display().to_string();
        let compared = baseline::compare(&name, &report.merged, &old);
        report = report.with_baseline(compared);
    }
    let written = report
        .write(&args.out)
        .with_context(|| format!("writing the report into {}", args.out.display()))?;
    println!("{}", report.terminal());
    for path in written {
        println!("wrote {}", path.display());
    }
    let failed = report.failures.len();
    if failed > 0 && !args.allow_failures {
        let which: Vec<String> = report
            .failures
            .iter()
            .map(|f| format!("{} [{}] round {}", f.experiment, f.label, f.round))
            .collect();
        bail!(
            "{failed} run(s) failed: {} (listed above and in the report, with their logs). A run \
             that failed because the machine was busy was already retried up to {MAX_RETRIES} \
             times: rerun on a quieter machine, e.g. `sympathy compare --only <experiment>`; \
             --allow-failures to exit 0 anyway",
            which.join(", ")
        );
    }
    Ok(())
}

impl CompareArgs {
    /// The preset the flags select: `--quick` unless `--smoke` or `--full`.
    fn preset(&self) -> Preset {
        match (self.smoke, self.full) {
            (true, _) => Preset::Smoke,
            (_, true) => Preset::Full,
            _ => Preset::Quick,
        }
    }

    /// `--budget`, else the preset's default ([`default_budget`]).
    fn budget(&self) -> Option<Duration> {
        self.budget.or_else(|| default_budget(self.preset()))
    }
}

/// The lines that announce a comparison, each within the progress width.
fn announce(
    runs: usize,
    rounds: u32,
    preset: Preset,
    expected: Duration,
    budget: Option<Duration>,
    measured: usize,
) -> Vec<String> {
    let mut words: Vec<String> = format!(
        "sympathy compare: {runs} run(s), {} of each experiment with its languages alternating, \
         at the {} preset, expected to take about {} ({measured} of the runs' estimates measured \
         on this machine before, the others from the catalog){}.",
        if rounds == 1 {
            "1 base round".to_string()
        } else {
            format!("{rounds} base rounds")
        },
        if preset == Preset::Full {
            "full (the seeds' sizes)"
        } else {
            preset.name()
        },
        human(expected),
        if preset == Preset::Full {
            " (several GiB of memory for the largest tables and arrays)"
        } else {
            ""
        },
    )
    .split(' ')
    .map(str::to_string)
    .collect();
    let budget = match budget {
        Some(b) if b.is_zero() => "No extra rounds (budget 0).".to_string(),
        Some(b) => format!(
            "Budget {}: extra rounds for undecided ratios while they fit.",
            human(b)
        ),
        None => format!(
            "No budget limit: extra rounds for undecided ratios, up to {} rounds.",
            rounds::MAX_ROUNDS
        ),
    };
    words.extend(budget.split(' ').map(str::to_string));
    wrap("", &words)
}

/// Selects, announces and runs the jobs; their outcome and the `comparison` record, or `None`
/// for `--dry-run`.
fn run_experiments(args: &CompareArgs) -> Result<Option<(orchestrate::Outcome, ComparisonRecord)>> {
    let preset = args.preset();
    let names = catalog().names();
    for name in &args.only {
        if !names.contains(&name.as_str()) {
            bail!(
                "--only: unknown experiment `{name}`; the experiments are {}",
                names.join(", ")
            );
        }
    }
    let env = Env::collect();
    let cache = timings::default_path();
    let (mut timings, warning) = Timings::load(
        cache.as_deref(),
        &timings::machine_key(&env.cpu_model, env.cores),
    );
    let mut stderr = std::io::stderr();
    if let Some(warning) = warning {
        say(&mut stderr, &format!("warning: run timings: {warning}"));
    }
    let mut jobs = all_jobs(preset, &args.only);
    timings.apply(&mut jobs, preset);
    let measured = jobs
        .iter()
        .filter(|j| timings.get(j, preset).is_some())
        .count();
    let rounds = catalog().compare_rounds(preset);
    let slots = schedule(&jobs, rounds);
    let expected: Duration = slots.iter().map(|s| s.job.estimate).sum();
    for line in announce(
        slots.len(),
        rounds,
        preset,
        expected,
        args.budget(),
        measured,
    ) {
        say(&mut stderr, &line);
    }
    if cfg!(debug_assertions) {
        say(
            &mut stderr,
            "warning: this is a debug build; its figures mean little (use `cargo run --release -- compare`)",
        );
    }
    if args.dry_run {
        for slot in &slots {
            let line = format!(
                "  {} [{}] round {}/{}  ~{}  {}",
                slot.job.experiment,
                slot.job.label(),
                slot.round,
                slot.rounds,
                human(slot.job.estimate),
                slot.job.command_line()
            );
            say(&mut stderr, &line);
        }
        return Ok(None);
    }
    std::fs::create_dir_all(args.out.join("logs"))
        .with_context(|| format!("creating {}", args.out.display()))?;
    let need_java = jobs.iter().any(|j| j.needs_java());
    if need_java {
        say(
            &mut stderr,
            "preparing the Java side (ci/find-jdk, java/sidecar builds its jar if missing) ...",
        );
    }
    let root = crate::checkout::repo_root();
    let preparing = Instant::now();
    let launcher = toolchain::RealLauncher::new(
        need_java,
        root.as_deref(),
        &args.out.join("logs/java-prepare.log"),
    )
    .map_err(anyhow::Error::msg)?;
    if need_java {
        let line = format!(
            "Java side prepared in {} (not part of the runs' estimate, pace or budget)",
            human(preparing.elapsed())
        );
        say(&mut stderr, &line);
    }
    if let (true, Some(problem)) = (need_java, launcher.java_problem()) {
        say(
            &mut stderr,
            &format!("warning: Java runs will fail: {problem}"),
        );
    }
    let record = summary::start(
        &summary::Setup {
            preset,
            rounds,
            budget: args.budget(),
            root: root.as_deref(),
            java_home: launcher.java_home(),
        },
        // Collected again: `started` is when the runs start, after the Java build.
        &Env::collect(),
    );
    let probe = StoreReleaseProbe::new();
    let budget = Budget::new(args.budget());
    let retrying = Retrying {
        launcher: &launcher,
        probe: &probe,
        max_drift: args.max_drift,
        budget: &budget,
        busy_pause: retry::BUSY_PAUSE,
        heartbeat: process::HEARTBEAT,
    };
    let plan = Plan {
        jobs: &jobs,
        rounds,
        budget: &budget,
        rule: &ReportRule,
        preset_flag: preset_flag(preset).filter(|_| preset != Preset::Quick),
    };
    let outcome = run_comparison(&plan, &retrying, &args.out, &mut stderr);
    timings.record(outcome.walls.iter().map(|(job, wall)| (job, *wall)), preset);
    if let Some(Err(e)) = cache.as_deref().map(|path| timings.save(path)) {
        say(&mut stderr, &format!("warning: run timings not kept: {e}"));
    }
    let comparison = summary::finish(record, outcome.runs);
    Ok(Some((outcome, comparison)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: CompareArgs,
    }

    fn parse(args: &[&str]) -> Result<CompareArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("compare").chain(args.iter().copied())).map(|c| c.args)
    }

    #[test]
    fn only_takes_a_comma_separated_list_and_out_has_a_default() {
        let args = parse(&["--only", "queue,ping-pong"]).unwrap();
        assert_eq!(args.only, ["queue", "ping-pong"]);
        let repeated = parse(&["--only", "queue,ping-pong", "--only", "ipc"]).unwrap();
        assert_eq!(
            repeated.only,
            ["queue", "ping-pong", "ipc"],
            "repeated --only adds up"
        );
        assert_eq!(args.out, PathBuf::from("target/sympathy"));
        assert!(!args.full, "quick is the default");
        assert_eq!(args.preset(), Preset::Quick);
        assert_eq!(parse(&["--smoke"]).unwrap().preset(), Preset::Smoke);
        assert_eq!(parse(&["--full"]).unwrap().preset(), Preset::Full);
    }

    #[test]
    fn quick_and_full_exclude_each_other_and_from_excludes_running_flags() {
        assert!(parse(&["--quick", "--full"]).is_err());
        assert!(parse(&["--smoke", "--full"]).is_err());
        assert!(parse(&["--from", "a.jsonl", "--smoke"]).is_err());
        assert!(parse(&["--from", "a.jsonl", "--only", "queue"]).is_err());
        assert!(
            parse(&[
                "--from",
                "a.jsonl",
                "--from",
                "b.jsonl",
                "--baseline",
                "old.jsonl"
            ])
            .is_ok()
        );
    }

    #[test]
    fn an_unknown_experiment_in_only_is_an_error_naming_the_known_ones() {
        let args = parse(&["--only", "queue,nope", "--dry-run"]).unwrap();
        let err = run_experiments(&args).unwrap_err().to_string();
        assert!(err.contains("unknown experiment `nope`"), "{err}");
        assert!(err.contains("ping-pong"), "{err}");
    }

    #[test]
    fn budget_takes_a_duration_and_defaults_by_preset() {
        assert_eq!(
            parse(&["--budget", "10m"]).unwrap().budget(),
            Some(Duration::from_secs(600))
        );
        assert_eq!(parse(&[]).unwrap().budget(), Some(Duration::from_secs(300)));
        assert_eq!(parse(&["--full"]).unwrap().budget(), None, "no limit");
        assert_eq!(
            parse(&["--full", "--budget", "1h"]).unwrap().budget(),
            Some(Duration::from_secs(3600))
        );
        assert_eq!(parse(&["--smoke"]).unwrap().budget(), Some(Duration::ZERO));
        let err = parse(&["--budget", "soon"]).unwrap_err().to_string();
        assert!(err.contains("not a duration"), "{err}");
    }

    #[test]
    fn the_announcement_fits_in_the_progress_width() {
        for (preset, budget) in [
            (Preset::Full, None),
            (Preset::Quick, Some(Duration::from_secs(300))),
            (Preset::Smoke, Some(Duration::ZERO)),
        ] {
            let lines = announce(120, 3, preset, Duration::from_secs(36_000), budget, 7);
            let text = lines.join(" ");
            assert!(text.contains("expected to take about 600m00s"), "{text}");
            assert!(text.contains("7 of the runs' estimates measured"), "{text}");
            for line in &lines {
                assert!(line.chars().count() <= orchestrate::WIDTH, "{line}");
            }
        }
    }

    #[test]
    fn max_drift_takes_a_positive_percentage() {
        assert_eq!(parse(&["--max-drift", "25"]).unwrap().max_drift, Some(25.0));
        assert_eq!(
            parse(&["--max-drift", "7.5%"]).unwrap().max_drift,
            Some(7.5)
        );
        assert_eq!(parse(&[]).unwrap().max_drift, None);
        for bad in ["0", "-5", "fast", "NaN"] {
            let bad = &format!("--max-drift={bad}");
            let err = parse(&[bad]).unwrap_err().to_string();
            assert!(err.contains("positive percentage"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_from_file_with_a_failure_record_lists_the_failed_run_again() {
        let dir =
            std::env::temp_dir().join(format!("sympathy-from-failure-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let results = dir.join("results.jsonl");
        std::fs::write(
            &results,
            concat!(
                r#"{"kind":"comparison","preset":"quick","commit":"abc1234","dirty":false,"rounds":3}"#,
                "\n",
                r#"{"kind":"env","language":"rust"}"#,
                "\n",
                r#"{"kind":"result","experiment":"ping-pong","language":"rust","variant":"xadd","params":{},"metric":"ns_per_hop","value":64.0,"unit":"ns","check":"ok","conditions":{"round":1,"rounds":3,"hop_ns_before":50.0,"hop_ns_after":52.0,"retries":0}}"#,
                "\n",
                r#"{"kind":"failure","experiment":"back-pressure","label":"rust","round":2,"retries":2,"reason":"the generator was late (log: logs/back-pressure-rust-r2-retry2.stderr)"}"#,
                "\n"
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let (from, out_arg) = (results.display().to_string(), out.display().to_string());
        let err = run(parse(&["--from", &from, "--out", &out_arg]).unwrap()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("1 run(s) failed: back-pressure [rust] round 2"),
            "{message}"
        );
        assert!(message.contains("--allow-failures"), "{message}");
        assert!(message.contains("busy"), "{message}");
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(md.contains("Failed runs"), "{md}");
        assert!(md.contains("the generator was late"), "{md}");
        let written = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
        assert!(written.contains(r#""kind":"failure""#), "{written}");
        assert!(written.contains(r#""conditions":{"#), "{written}");
        assert!(
            written.starts_with(r#"{"kind":"comparison","preset":"quick","commit":"abc1234""#),
            "--from keeps the comparison record, first: {written}"
        );
        run(parse(&["--from", &from, "--out", &out_arg, "--allow-failures"]).unwrap()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn from_files_render_a_report_without_running_anything() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/tests/fixtures");
        let out =
            std::env::temp_dir().join(format!("sympathy-compare-from-{}", std::process::id()));
        let f = |n: &str| fixtures.join(n).display().to_string();
        let (rust, java, old) = (f("rust.jsonl"), f("java.jsonl"), f("baseline.jsonl"));
        let out_arg = out.display().to_string();
        let args = parse(&[
            "--from",
            &rust,
            "--from",
            &java,
            "--baseline",
            &old,
            "--out",
            &out_arg,
        ])
        .unwrap();
        run(args).unwrap();
        for file in sympathy_report::render::OUTPUT_FILES {
            assert!(
                std::fs::metadata(out.join(file)).unwrap().len() > 0,
                "{file}"
            );
        }
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(md.contains("Against baseline"));
        std::fs::remove_dir_all(&out).unwrap();
    }
}
