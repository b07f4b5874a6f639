//! `sympathy run atomic-increment`: T pinned threads increment a shared counter to N, for each
//! thread count of the sweep, each variant and each kernel language.
//!
//! The languages of a variant at a thread count alternate run by run (Rust then C, then C then
//! Rust, ...). Per run a seed-style line (`0 - 9.31ns/op lock-xadd threads=2 ...`), per round the
//! Rust/C ratio (`0 - cas-bool threads=2: ns/op rust/c=1.012 ops/handoff rust/c=0.97`); per
//! variant, language and thread count the summary results `ns_per_op`, `thread_share` per
//! thread and, for the kernels that see the counter's value, `ops_per_handoff`.

use anyhow::{Result, bail};
use clap::Args;
use sympathy_harness::catalog::Language as CatalogLanguage;
use sympathy_harness::pin::available_cores;
use sympathy_harness::{Check, Metric, Preset, Reporter, Stats};
use sympathy_lab::atomic_increment::{self, EXPERIMENT, Outcome, Variant};
use sympathy_lab::c_reference::Language;

use crate::experiment::catalog::{spec, u64_or, u64s_at, variant_parser};
use crate::experiment::cores::{CoreList, parse_cores};
use crate::experiment::{Case, Common, Experiment};

/// Flags of `sympathy run atomic-increment`.
#[derive(Args, Debug, Clone)]
pub struct AtomicIncrementArgs {
    /// Thread counts to sweep, e.g. 1,2 [default: threads of experiments/atomic-increment.toml
    /// at the preset, up to the cores in use].
    #[arg(long, value_delimiter = ',')]
    pub threads: Option<Vec<usize>>,
    /// Cores to pin the threads to, thread i on the i-th [default: every available core].
    #[arg(long, value_parser = parse_cores)]
    pub cores: Option<CoreList>,
    /// Increments per run (the seed: 500000000) [default: count of
    /// experiments/atomic-increment.toml at the preset].
    #[arg(long)]
    pub count: Option<u64>,
    /// Variants to run [default: every variant of experiments/atomic-increment.toml that the
    /// language implements].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Kernel languages to run (`c` runs the C references of the seed).
    #[arg(long, value_delimiter = ',', default_value = "rust,c")]
    pub languages: Vec<Language>,
}

impl Default for AtomicIncrementArgs {
    fn default() -> Self {
        AtomicIncrementArgs {
            threads: None,
            cores: None,
            count: None,
            variants: None,
            languages: Language::ALL.to_vec(),
        }
    }
}

/// What a set of flags resolves to, shared by the cases and the run's header.
#[derive(Debug, PartialEq, Eq)]
struct Setup {
    threads: Vec<usize>,
    cores: Vec<usize>,
    count: u64,
    /// Thread counts of the catalog left out because they exceed the cores in use.
    skipped: Vec<usize>,
}

/// One measured group: a kernel and how many threads run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contention {
    variant: Variant,
    language: Language,
    threads: usize,
}

/// The catalog's name for a kernel language.
fn catalog_language(language: Language) -> CatalogLanguage {
    match language {
        Language::Rust => CatalogLanguage::Rust,
        Language::C => CatalogLanguage::C,
    }
}

fn setup(args: &AtomicIncrementArgs, preset: Preset, available: &[usize]) -> Result<Setup> {
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
    let (threads, skipped) = match &args.threads {
        Some(threads) => (threads.clone(), Vec::new()),
        None => u64s_at(EXPERIMENT, "threads", preset)?
            .into_iter()
            .map(|t| t as usize)
            .partition(|&t| t <= cores.len()),
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
    let count = u64_or(args.count, EXPERIMENT, "count", preset)?;
    if count == 0 {
        bail!("--count 0: the counter must be incremented at least once (e.g. --count 1000000)");
    }
    if args.languages.is_empty() {
        bail!("--languages is empty: use rust, c or rust,c");
    }
    Ok(Setup {
        threads,
        cores,
        count,
        skipped,
    })
}

/// The cases in measuring order: per variant and thread count, one case per language, so that
/// [`measure_paired`] can alternate the languages run by run.
fn cases_on(
    args: &AtomicIncrementArgs,
    preset: Preset,
    available: &[usize],
) -> Result<Vec<Case<Contention>>> {
    let setup = setup(args, preset, available)?;
    let spec = spec(EXPERIMENT)?;
    let implemented = |v: Variant, language: Language| {
        spec.variant(v.name())
            .is_some_and(|s| s.languages.contains(&catalog_language(language)))
    };
    // named ones as asked; by default those the catalog runs at the preset, in any language
    let variants: Vec<Variant> = match &args.variants {
        Some(v) => v.clone(),
        None => Variant::ALL
            .iter()
            .copied()
            .filter(|v| spec.variant(v.name()).is_some_and(|s| s.runs_at(preset)))
            .collect(),
    };
    let mut cases = Vec::new();
    for variant in variants {
        for &threads in &setup.threads {
            for &language in &args.languages {
                if !implemented(variant, language) {
                    continue;
                }
                let work = Contention {
                    variant,
                    language,
                    threads,
                };
                cases.push(
                    Case::new(work, variant.name(), language.name())
                        .param("threads", threads)
                        .param("count", setup.count),
                );
            }
        }
    }
    Ok(cases)
}

impl Experiment for AtomicIncrementArgs {
    type Work = Contention;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<Contention>>> {
        cases_on(self, common.preset(), &available_cores())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Contention>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let setup = setup(self, common.preset(), &available_cores())?;
        let runs = common.runs(Self::NAME)?;
        let threads: Vec<String> = setup.threads.iter().map(|t| t.to_string()).collect();
        let skipped: Vec<String> = setup.skipped.iter().map(|t| t.to_string()).collect();
        reporter.line(&format!(
            "# atomic-increment: count {} per run, threads {}{}, {runs} runs each",
            setup.count,
            threads.join(","),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} skipped: more threads than the {} cores in use; pass --threads to choose)",
                    skipped.join(","),
                    setup.cores.len()
                )
            },
        ))?;
        let contention = |c: &Case<Contention>| (c.work.variant, c.work.threads);
        for group in cases.chunk_by(|a, b| contention(a) == contention(b)) {
            measure_paired(&setup.cores, setup.count, runs, group, reporter)?;
        }
        Ok(())
    }
}

/// Measures one variant at one thread count in every language of `group`, alternating the
/// languages run by run (run 0: Rust then C, run 1: C then Rust, ...), so that each language's
/// run i meets the same machine: on a shared VM the cost of moving the counter's line between
/// cores changes over seconds, which one-language-after-the-other runs turned into a difference
/// between the languages. After each round a `rust/c` line gives that round's ratios.
fn measure_paired(
    cores: &[usize],
    count: u64,
    runs: usize,
    group: &[Case<Contention>],
    reporter: &mut Reporter,
) -> Result<()> {
    let mut outcomes: Vec<Vec<Outcome>> = vec![Vec::with_capacity(runs); group.len()];
    for index in 0..runs {
        for step in 0..group.len() {
            let slot = (index + step) % group.len();
            let Contention {
                variant,
                language,
                threads,
            } = group[slot].work;
            let outcome = atomic_increment::run(variant, language, &cores[..threads], count)
                .map_err(crate::classified)?;
            reporter.line(&seed_line(index, variant, language, threads, &outcome))?;
            outcomes[slot].push(outcome);
        }
        if let Some(line) = round_line(index, group, &outcomes) {
            reporter.line(&line)?;
        }
    }
    for (case, outcomes) in group.iter().zip(&outcomes) {
        report_case(cores, case, outcomes, reporter)?;
    }
    Ok(())
}

/// Round `index`'s Rust/C ratios of ns per op and of ops per handoff, when `group` has both.
fn round_line(
    index: usize,
    group: &[Case<Contention>],
    outcomes: &[Vec<Outcome>],
) -> Option<String> {
    let of = |language: Language| {
        let slot = group.iter().position(|c| c.work.language == language)?;
        outcomes[slot].get(index)
    };
    let (rust, c) = (of(Language::Rust)?, of(Language::C)?);
    let held = match (rust.ops_per_handoff(), c.ops_per_handoff()) {
        (Some(r), Some(c)) if group[0].work.threads > 1 => {
            format!(" ops/handoff rust/c={:.2}", r / c)
        }
        _ => String::new(),
    };
    Some(format!(
        "{index} - {} threads={}: ns/op rust/c={:.3}{held}",
        group[0].work.variant,
        group[0].work.threads,
        rust.ns_per_op() / c.ns_per_op()
    ))
}

/// The summary results of one case's runs: ns per op, each thread's share and, for the kernels
/// that see the counter's value, ops per handoff.
fn report_case(
    cores: &[usize],
    case: &Case<Contention>,
    outcomes: &[Outcome],
    reporter: &mut Reporter,
) -> Result<()> {
    let Contention {
        variant, threads, ..
    } = case.work;
    let cores = &cores[..threads];
    let base = || case.measurement(EXPERIMENT).check(Check::Ok);
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
    fn the_default_sweep_is_the_catalogs_up_to_the_cores() {
        let setup = setup(&args(None, None), Preset::Default, &[0, 1]).unwrap();
        assert_eq!(setup.threads, vec![1, 2]);
        assert_eq!(setup.skipped, vec![4]);
        assert_eq!(setup.count, 20_000_000);
        let setup = setup_of(Some(vec![2]), Some(10));
        assert!(setup.skipped.is_empty());
    }

    fn setup_of(threads: Option<Vec<usize>>, count: Option<u64>) -> Setup {
        setup(&args(threads, count), Preset::Default, &[0, 1]).unwrap()
    }

    #[test]
    fn bad_flags_are_clear_errors() {
        let err =
            |a: AtomicIncrementArgs| setup(&a, Preset::Default, &[0, 1]).unwrap_err().to_string();
        assert!(err(args(Some(vec![0]), None)).contains("--threads 0"));
        assert!(err(args(Some(vec![3]), None)).contains("from 1 to 2"));
        assert!(err(args(None, Some(0))).contains("--count 0"));
        let mut missing_core = args(None, None);
        missing_core.cores = Some(CoreList(vec![7]));
        assert!(err(missing_core).contains("core 7 is not available"));
    }

    #[test]
    fn the_c_references_cover_what_the_catalog_says_and_the_kernels_have() {
        let mut a = args(Some(vec![1]), Some(10));
        a.languages = Language::ALL.to_vec();
        let cases = cases_on(&a, Preset::Default, &[0, 1]).unwrap();
        for case in &cases {
            assert!(case.work.variant.has(case.work.language), "{case:?}");
        }
        let c: Vec<&str> = cases
            .iter()
            .filter(|c| c.language == "c")
            .map(|c| c.variant)
            .collect();
        assert_eq!(c, ["lock-add", "lock-xadd", "cas-bool", "cas-val"]);
        assert_eq!(cases.len(), Variant::ALL.len() + c.len());
    }

    #[test]
    fn a_quick_run_reports_every_metric() {
        let cores = available_cores();
        let threads = cores.len().min(2);
        let mut a = args(Some(vec![threads]), Some(10_000));
        let common = Common {
            runs: Some(2),
            ..Common::default()
        };
        a.variants = Some(vec![Variant::LockXadd, Variant::Sharded]);
        a.languages = vec![Language::Rust, Language::C];
        let mut reporter =
            Reporter::to_writers(true, Box::new(std::io::sink()), Box::new(std::io::sink()));
        a.measure(&common, &a.cases(&common).unwrap(), &mut reporter)
            .unwrap();
        let lines: Vec<(String, String, &str)> = reporter
            .results()
            .iter()
            .map(|m| (m.variant.clone(), m.language.clone(), m.metric.name()))
            .collect();
        let expect = |v: &str, l: &str, m: &'static str| (v.to_string(), l.to_string(), m);
        let mut expected = Vec::new();
        for (variant, language) in [
            ("lock-xadd", "rust"),
            ("lock-xadd", "c"),
            ("sharded", "rust"),
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
