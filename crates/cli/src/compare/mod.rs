//! `sympathy compare`: runs every experiment in every language, then writes and prints the
//! side-by-side report.
//!
//! ```text
//! sympathy compare [--quick|--full] [--only queue,ping-pong,...] [--out DIR] [--baseline FILE]
//! sympathy compare --from results.jsonl [--from more.jsonl] [--baseline FILE]   # re-render only
//! ```
//!
//! The commands of each experiment and language are the table in [`runners`]; the report is
//! the `sympathy-report` crate.

mod orchestrate;
mod runners;
mod toolchain;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_report::{Merged, Report, baseline, read_jsonl};

use orchestrate::{Size, estimate, human, run_jobs};
use runners::{all_jobs, experiment_names};

/// `sympathy compare ...`
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Small sizes: the whole comparison in under 10 minutes on 2 cores (the default).
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
    #[arg(long = "from", conflicts_with_all = ["quick", "full", "only"])]
    from: Vec<PathBuf>,
    /// List the runs and the expected duration, then stop.
    #[arg(long)]
    dry_run: bool,
    /// Exit with success even if some runs failed (the report lists them either way).
    #[arg(long)]
    allow_failures: bool,
}

/// Runs the comparison.
pub fn run(args: CompareArgs) -> Result<()> {
    let (merged, failures) = if args.from.is_empty() {
        let Some(outcome) = run_experiments(&args)? else {
            return Ok(());
        };
        (Merged::from_streams(outcome.streams), outcome.failures)
    } else {
        let streams = args
            .from
            .iter()
            .map(|p| read_jsonl(p))
            .collect::<Result<Vec<_>, _>>()?;
        (Merged::from_streams(streams), Vec::new())
    };
    let mut report = Report::new(merged).with_failures(failures);
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
        bail!(
            "{failed} run(s) failed (listed above and in the report); --allow-failures to exit 0 anyway"
        );
    }
    Ok(())
}

/// Selects, announces and runs the jobs; `None` for `--dry-run`.
fn run_experiments(args: &CompareArgs) -> Result<Option<orchestrate::Outcome>> {
    let size = if args.full { Size::Full } else { Size::Quick };
    let jobs = all_jobs();
    let names = experiment_names(&jobs);
    for name in &args.only {
        if !names.contains(&name.as_str()) {
            bail!(
                "--only: unknown experiment `{name}`; the experiments are {}",
                names.join(", ")
            );
        }
    }
    let jobs: Vec<_> = jobs
        .into_iter()
        .filter(|j| args.only.is_empty() || args.only.iter().any(|o| o == j.experiment))
        .collect();
    let expected: std::time::Duration = jobs.iter().map(|j| estimate(j, size)).sum();
    eprintln!(
        "sympathy compare: {} run(s) at {} size, expected to take about {}{}",
        jobs.len(),
        if size == Size::Full {
            "full (the seeds')"
        } else {
            "quick"
        },
        human(expected),
        if size == Size::Full {
            " (several GiB of memory for struct-table and memory-walk)"
        } else {
            ""
        },
    );
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; its figures mean little (use `cargo run --release -- compare`)"
        );
    }
    if args.dry_run {
        for job in &jobs {
            eprintln!(
                "  {} [{}]  ~{}",
                job.experiment,
                job.label,
                human(estimate(job, size))
            );
        }
        return Ok(None);
    }
    std::fs::create_dir_all(args.out.join("logs"))
        .with_context(|| format!("creating {}", args.out.display()))?;
    let need_java = jobs.iter().any(|j| j.needs_java());
    if need_java {
        eprintln!(
            "preparing the Java side (ci/find-jdk, java/sidecar builds its jar if missing) ..."
        );
    }
    let root = toolchain::repo_root();
    let launcher = toolchain::RealLauncher::new(
        need_java,
        root.as_deref(),
        &args.out.join("logs/java-prepare.log"),
    )
    .map_err(anyhow::Error::msg)?;
    if let (true, Some(problem)) = (need_java, launcher.java_problem()) {
        eprintln!("warning: Java runs will fail: {problem}");
    }
    Ok(Some(run_jobs(
        &jobs,
        size,
        &launcher,
        &args.out,
        &mut std::io::stderr(),
    )))
}
