//! `sympathy run atomic-increment`: T pinned threads increment a shared counter to N, for each
//! thread count of the sweep, each variant and each kernel language.
//!
//! Per run a seed-style line (`0 - 9.31ns/op lock-xadd threads=2 ...`); per variant, language and
//! thread count the summary results `ns_per_op`, `thread_share` per thread and, for the kernels
//! that see the counter's value, `ops_per_handoff`.

use anyhow::{Result, bail};
use clap::Args;
use sympathy_harness::pin::available_cores;
use sympathy_harness::{Check, Measurement, Metric, Preset, Reporter, Stats};
use sympathy_lab::atomic_increment::{self, EXPERIMENT, Outcome, Variant};
use sympathy_lab::c_reference::Language;

use super::cores::{CoreList, parse_cores};
use super::{Common, reporter};

/// Flags of `sympathy run atomic-increment`.
#[derive(Args, Debug, Clone, Default)]
pub struct AtomicIncrementArgs {
    #[command(flatten)]
    pub common: Common,
    /// Thread counts to sweep, e.g. 1,2 [default: 1 up to the available cores].
    #[arg(long, value_delimiter = ',')]
    pub threads: Option<Vec<usize>>,
    /// Cores to pin the threads to, thread i on the i-th [default: every available core].
    #[arg(long, value_parser = parse_cores)]
    pub cores: Option<CoreList>,
    /// Increments per run (the seed: 500000000) [default: by scale].
    #[arg(long)]
    pub count: Option<u64>,
    /// Variants to run [default: all: lock-add, lock-xadd, cas-bool, cas-val, sharded].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
    /// Kernel languages to run (`c` runs the C references of the seed).
    #[arg(long, value_delimiter = ',', default_value = "rust,c")]
    pub languages: Vec<Language>,
}

/// The plan a set of flags resolves to.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    threads: Vec<usize>,
    cores: Vec<usize>,
    count: u64,
    runs: usize,
    variants: Vec<Variant>,
    languages: Vec<Language>,
    /// Whether the thread sweep defaulted to the available cores.
    scaled_to_cores: bool,
}

/// Increments per run at each scale: quick, default, the seed's 500M.
fn default_count(preset: Preset) -> u64 {
    preset.pick(2_000_000, 20_000_000, 500_000_000)
}

fn plan(args: &AtomicIncrementArgs, available: &[usize]) -> Result<Plan> {
    let cores = match args.cores.as_ref().map(|c| &c.0) {
        Some(cores) => {
            if let Some(core) = cores.iter().find(|c| !available.contains(c)) {
                bail!(
                    "--cores: core {core} is not available to this process (available: \
                     {available:?})"
                );
            }
            cores.clone()
        }
        None => available.to_vec(),
    };
    if cores.is_empty() {
        bail!("no cores to run on: pass --cores with at least one available core");
    }
    let (threads, scaled_to_cores) = match &args.threads {
        Some(threads) => (threads.clone(), false),
        None => ((1..=cores.len()).collect(), true),
    };
    if threads.is_empty() {
        bail!("--threads is empty: give thread counts such as 1,2");
    }
    if let Some(&t) = threads.iter().find(|&&t| t == 0 || t > cores.len()) {
        bail!(
            "--threads {t}: each thread needs its own core and {} are usable ({cores:?}); \
             use thread counts from 1 to {}",
            cores.len(),
            cores.len()
        );
    }
    let count = args
        .count
        .unwrap_or_else(|| default_count(args.common.preset()));
    if count == 0 {
        bail!("--count 0: the counter must be incremented at least once (e.g. --count 1000000)");
    }
    if args.languages.is_empty() {
        bail!("--languages is empty: use rust, c or rust,c");
    }
    Ok(Plan {
        threads,
        cores,
        count,
        runs: args.common.runs_or(3, 5, 5),
        variants: args
            .variants
            .clone()
            .unwrap_or_else(|| Variant::ALL.to_vec()),
        languages: args.languages.clone(),
        scaled_to_cores,
    })
}

/// `sympathy run atomic-increment ...`
pub fn run(args: AtomicIncrementArgs) -> Result<()> {
    let mut reporter = reporter(&args.common)?;
    measure(&args, &mut reporter)
}

/// The entry of `run all`: every default at the scale of `common`.
pub fn run_with(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = AtomicIncrementArgs {
        common: common.clone(),
        languages: Language::ALL.to_vec(),
        ..AtomicIncrementArgs::default()
    };
    measure(&args, reporter)
}

fn measure(args: &AtomicIncrementArgs, reporter: &mut Reporter) -> Result<()> {
    let plan = plan(args, &available_cores())?;
    let threads: Vec<String> = plan.threads.iter().map(|t| t.to_string()).collect();
    reporter.line(&format!(
        "# atomic-increment: count {} per run, threads {}{}, {} runs each",
        plan.count,
        threads.join(","),
        if plan.scaled_to_cores {
            format!(
                " (sweep scaled to the {} cores in use; pass --threads to choose)",
                plan.cores.len()
            )
        } else {
            String::new()
        },
        plan.runs
    ))?;
    for &language in &plan.languages {
        for &variant in plan.variants.iter().filter(|v| v.has(language)) {
            for &threads in &plan.threads {
                measure_one(&plan, variant, language, threads, reporter)?;
            }
        }
    }
    Ok(())
}

fn measure_one(
    plan: &Plan,
    variant: Variant,
    language: Language,
    threads: usize,
    reporter: &mut Reporter,
) -> Result<()> {
    let cores = &plan.cores[..threads];
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(plan.runs);
    for index in 0..plan.runs {
        let outcome = atomic_increment::run(variant, language, cores, plan.count)?;
        reporter.line(&seed_line(index, variant, language, threads, &outcome))?;
        outcomes.push(outcome);
    }
    let base = || {
        Measurement::new(EXPERIMENT, variant.name())
            .language(language.name())
            .param("threads", threads)
            .param("count", plan.count)
            .check(Check::Ok)
    };
    let ns: Vec<f64> = outcomes.iter().map(Outcome::ns_per_op).collect();
    reporter.result(base().stats(Metric::NsPerOp, stats(&ns)))?;
    for (thread, &core) in cores.iter().enumerate() {
        let shares: Vec<f64> = outcomes.iter().map(|o| o.shares()[thread]).collect();
        reporter.result(
            base()
                .param("thread", thread)
                .param("core", core)
                .stats(Metric::ThreadShare, stats(&shares)),
        )?;
    }
    if variant.witnesses_value() && threads > 1 {
        let held: Vec<f64> = outcomes
            .iter()
            .filter_map(Outcome::ops_per_handoff)
            .collect();
        reporter.result(base().stats(Metric::OpsPerHandoff, stats(&held)))?;
    }
    Ok(())
}

fn stats(samples: &[f64]) -> Stats {
    Stats::from_samples(samples).expect("at least one run, and times are never NaN")
}

/// One run, as the seed printed it: run index, time per op, what ran, and how the increments
/// were shared.
fn seed_line(
    index: usize,
    variant: Variant,
    language: Language,
    threads: usize,
    outcome: &Outcome,
) -> String {
    let shares: Vec<String> = outcome.shares().iter().map(|s| format!("{s:.3}")).collect();
    let held = outcome
        .ops_per_handoff()
        .map(|h| format!(" ops/handoff={h:.1}"))
        .unwrap_or_default();
    format!(
        "{index} - {:.2}ns/op {variant}{} threads={threads} counter={} shares={}{held}",
        outcome.ns_per_op(),
        if language == Language::Rust {
            String::new()
        } else {
            format!(" [{language}]")
        },
        outcome.final_count,
        shares.join("/"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(threads: Option<Vec<usize>>, count: Option<u64>) -> AtomicIncrementArgs {
        AtomicIncrementArgs {
            threads,
            count,
            languages: vec![Language::Rust],
            ..AtomicIncrementArgs::default()
        }
    }

    #[test]
    fn the_default_sweep_is_scaled_to_the_cores() {
        let plan = plan(&args(None, None), &[0, 1]).unwrap();
        assert_eq!(plan.threads, vec![1, 2]);
        assert!(plan.scaled_to_cores);
        assert_eq!(plan.count, 20_000_000);
        let plan = plan_of(Some(vec![2]), Some(10));
        assert!(!plan.scaled_to_cores);
    }

    fn plan_of(threads: Option<Vec<usize>>, count: Option<u64>) -> Plan {
        plan(&args(threads, count), &[0, 1]).unwrap()
    }

    #[test]
    fn bad_flags_are_clear_errors() {
        let err = |a: AtomicIncrementArgs| plan(&a, &[0, 1]).unwrap_err().to_string();
        assert!(err(args(Some(vec![0]), None)).contains("--threads 0"));
        assert!(err(args(Some(vec![3]), None)).contains("from 1 to 2"));
        assert!(err(args(None, Some(0))).contains("--count 0"));
        let mut missing_core = args(None, None);
        missing_core.cores = Some(CoreList(vec![7]));
        assert!(err(missing_core).contains("core 7 is not available"));
    }

    #[test]
    fn a_quick_run_reports_every_metric() {
        let cores = available_cores();
        let threads = cores.len().min(2);
        let mut a = args(Some(vec![threads]), Some(10_000));
        a.common.runs = Some(2);
        a.variants = Some(vec![Variant::LockXadd, Variant::Sharded]);
        a.languages = vec![Language::Rust, Language::C];
        let mut reporter =
            Reporter::to_writers(true, Box::new(std::io::sink()), Box::new(std::io::sink()));
        measure(&a, &mut reporter).unwrap();
        let lines: Vec<(String, String, &str)> = reporter
            .results()
            .iter()
            .map(|m| (m.variant.clone(), m.language.clone(), m.metric.name()))
            .collect();
        let expect = |v: &str, l: &str, m: &'static str| (v.to_string(), l.to_string(), m);
        let mut expected = Vec::new();
        for (variant, language) in [
            ("lock-xadd", "rust"),
            ("sharded", "rust"),
            ("lock-xadd", "c"),
        ] {
            expected.push(expect(variant, language, "ns_per_op"));
            for _ in 0..threads {
                expected.push(expect(variant, language, "thread_share"));
            }
            if variant == "lock-xadd" && threads > 1 {
                expected.push(expect(variant, language, "ops_per_handoff"));
            }
        }
        assert_eq!(lines, expected);
        assert_eq!(reporter.results()[1].params["core"], cores[0]);
        let shares: f64 = reporter.results()[1..=threads]
            .iter()
            .map(|m| m.value())
            .sum();
        assert!(
            (shares - 1.0).abs() < 1e-9,
            "median shares of a 2-run sample: {shares}"
        );
    }
}
