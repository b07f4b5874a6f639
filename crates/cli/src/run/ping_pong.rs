//! `sympathy run ping-pong`: two pinned threads bounce a counter; the one-way latency of a
//! cache-line handoff between two cores.
//!
//! Per run a seed-style line (`0 - 64.21ns/hop xadd cores=0,1 ...`), per variant and language the
//! summary results `ns_per_hop` and `hops_per_sec`. `--matrix` measures every ordered pair of
//! distinct cores: a CSV matrix of median ns/hop in human mode, result lines per pair in JSON.

use anyhow::{Result, bail};
use clap::Args;
use sympathy_harness::format;
use sympathy_harness::pin::available_cores;
use sympathy_harness::{Check, Metric, Preset, Reporter, Stats};
use sympathy_lab::c_reference::Language;
use sympathy_lab::ping_pong::{self, EXPERIMENT, Outcome, Variant, core_pairs};

use crate::experiment::catalog::{spec, u64_or, variant_parser};
use crate::experiment::cores::{CoreList, parse_cores};
use crate::experiment::{Case, Common, Experiment};

/// Flags of `sympathy run ping-pong`.
#[derive(Args, Debug, Clone)]
pub struct PingPongArgs {
    /// The two cores: ping on the first, pong on the second [default: the first two available];
    /// with --matrix, the cores whose pairs are measured [default: every available core].
    #[arg(long, value_parser = parse_cores)]
    pub cores: Option<CoreList>,
    /// Round trips per run, each two one-way hops (the seed: 500000000) [default: iterations
    /// of experiments/ping-pong.toml at the preset].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Measure every ordered pair of distinct cores and print a matrix.
    #[arg(long)]
    pub matrix: bool,
    /// Variants to run [default: every variant of experiments/ping-pong.toml that the language
    /// implements; with --matrix: xadd].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Kernel languages to run (`c` runs the C references of the seed).
    #[arg(long, value_delimiter = ',', default_value = "rust,c")]
    pub languages: Vec<Language>,
}

impl Default for PingPongArgs {
    fn default() -> Self {
        PingPongArgs {
            cores: None,
            iterations: None,
            matrix: false,
            variants: None,
            languages: Language::ALL.to_vec(),
        }
    }
}

/// One measured group: a kernel bouncing between two cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounce {
    variant: Variant,
    language: Language,
    /// (ping core, pong core).
    pair: (usize, usize),
    iterations: u64,
}

/// The core pairs a set of flags resolves to.
fn pairs(args: &PingPongArgs, available: &[usize]) -> Result<Vec<(usize, usize)>> {
    let given = args.cores.as_ref().map(|c| c.0.clone());
    if let Some(core) = given.iter().flatten().find(|c| !available.contains(c)) {
        bail!("--cores: core {core} is not available to this process (available: {available:?})");
    }
    if args.matrix {
        let cores = given.clone().unwrap_or_else(|| available.to_vec());
        let pairs = core_pairs(&cores);
        if pairs.is_empty() {
            bail!("--matrix needs at least two different cores, got {cores:?}");
        }
        return Ok(pairs);
    }
    match given.as_deref() {
        Some(&[a, b]) if a != b => Ok(vec![(a, b)]),
        Some(cores) => bail!(
            "--cores {}: ping-pong needs exactly two different cores, e.g. --cores 0,1",
            cores
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        None => match available {
            [a, b, ..] => Ok(vec![(*a, *b)]),
            _ => bail!("ping-pong needs two cores and this process may use only {available:?}"),
        },
    }
}

fn cases_on(args: &PingPongArgs, preset: Preset, available: &[usize]) -> Result<Vec<Case<Bounce>>> {
    let pairs = pairs(args, available)?;
    let iterations = u64_or(args.iterations, EXPERIMENT, "iterations", preset)?;
    if iterations == 0 {
        bail!("--iterations 0: at least one round trip is needed (e.g. --iterations 1000000)");
    }
    if args.languages.is_empty() {
        bail!("--languages is empty: use rust, c or rust,c");
    }
    let spec = spec(EXPERIMENT)?;
    let chosen = match (&args.variants, args.matrix) {
        (Some(v), _) => v.clone(),
        (None, true) => vec![Variant::Xadd],
        (None, false) => Variant::ALL.to_vec(),
    };
    let mut cases = Vec::new();
    for &language in &args.languages {
        let in_catalog = match language {
            Language::Rust => spec.variants_at(sympathy_harness::catalog::Language::Rust, preset),
            Language::C => spec.variants_at(sympathy_harness::catalog::Language::C, preset),
        };
        for &variant in chosen.iter().filter(|v| in_catalog.contains(&v.name())) {
            for &pair in &pairs {
                let work = Bounce {
                    variant,
                    language,
                    pair,
                    iterations,
                };
                cases.push(
                    Case::new(work, variant.name(), language.name())
                        .param("iterations", iterations),
                );
            }
        }
    }
    Ok(cases)
}

impl Experiment for PingPongArgs {
    type Work = Bounce;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<Bounce>>> {
        cases_on(self, common.preset(), &available_cores())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Bounce>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs(Self::NAME)?;
        reporter.line(&format!(
            "# ping-pong: {runs} runs of each kernel on each pair"
        ))?;
        // The cases come kernel by kernel, each over every pair.
        let kernel = |c: &Case<Bounce>| (c.work.variant, c.work.language);
        for group in cases.chunk_by(|a, b| kernel(a) == kernel(b)) {
            let mut medians = Vec::with_capacity(group.len());
            for case in group {
                medians.push(measure_pair(runs, case, reporter)?);
            }
            if self.matrix && !reporter.is_json() {
                let (variant, language) = kernel(&group[0]);
                let pairs: Vec<_> = group.iter().map(|c| c.work.pair).collect();
                for line in matrix_csv(variant, language, &pairs, &medians) {
                    reporter.line(&line)?;
                }
            }
        }
        Ok(())
    }
}

/// Measures one pair `runs` times and reports it; returns the median ns/hop.
fn measure_pair(runs: usize, case: &Case<Bounce>, reporter: &mut Reporter) -> Result<f64> {
    let Bounce {
        variant,
        language,
        pair: (ping, pong),
        iterations,
    } = case.work;
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(runs);
    for index in 0..runs {
        let outcome = ping_pong::run(variant, language, (ping, pong), iterations)
            .map_err(crate::classified)?;
        reporter.line(&format!(
            "{index} - {:.2}ns/hop {variant}{} cores={ping},{pong} hops/s={} ping={iterations} \
             pong={iterations}",
            outcome.ns_per_hop(),
            if language == Language::Rust {
                String::new()
            } else {
                format!(" [{language}]")
            },
            format::value(outcome.hops_per_sec()),
        ))?;
        outcomes.push(outcome);
    }
    let base = || {
        case.measurement(EXPERIMENT)
            .param("cores", format!("{ping},{pong}"))
            .check(Check::Ok)
    };
    let ns = stats(&outcomes.iter().map(Outcome::ns_per_hop).collect::<Vec<_>>());
    let rate = stats(
        &outcomes
            .iter()
            .map(Outcome::hops_per_sec)
            .collect::<Vec<_>>(),
    );
    reporter.result(base().stats(Metric::NsPerHop, ns))?;
    reporter.result(base().stats(Metric::HopsPerSec, rate))?;
    Ok(ns.median)
}

fn stats(samples: &[f64]) -> Stats {
    Stats::from_samples(samples).expect("at least one run, and times are never NaN")
}

/// The matrix as CSV: rows are ping cores, columns pong cores, cells median ns/hop (empty on
/// the diagonal), after one `#` comment line naming what it shows.
fn matrix_csv(
    variant: Variant,
    language: Language,
    pairs: &[(usize, usize)],
    medians: &[f64],
) -> Vec<String> {
    let mut cores: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    cores.sort_unstable();
    cores.dedup();
    let header: Vec<String> = cores.iter().map(|c| c.to_string()).collect();
    let mut lines = vec![
        format!(
            "# ping-pong {variant} [{language}]: median ns per one-way hop, rows ping core, columns pong core"
        ),
        format!("ping\\pong,{}", header.join(",")),
    ];
    for &row in &cores {
        let cells: Vec<String> = cores
            .iter()
            .map(|&col| {
                pairs
                    .iter()
                    .position(|&p| p == (row, col))
                    .map(|i| format!("{:.2}", medians[i]))
                    .unwrap_or_default()
            })
            .collect();
        lines.push(format!("{row},{}", cells.join(",")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cores: Option<Vec<usize>>, matrix: bool) -> PingPongArgs {
        PingPongArgs {
            cores: cores.map(CoreList),
            matrix,
            languages: vec![Language::Rust],
            ..PingPongArgs::default()
        }
    }

    #[test]
    fn defaults_take_the_first_two_cores_or_every_pair() {
        let cases = cases_on(&args(None, false), Preset::Default, &[0, 1, 2]).unwrap();
        assert!(cases.iter().all(|c| c.work.pair == (0, 1)));
        let variants: Vec<Variant> = cases.iter().map(|c| c.work.variant).collect();
        assert_eq!(variants, Variant::ALL.to_vec());
        assert_eq!(cases[0].params["iterations"], 10_000_000);
        let matrix = cases_on(&args(None, true), Preset::Default, &[0, 1]).unwrap();
        let pairs: Vec<_> = matrix.iter().map(|c| c.work.pair).collect();
        assert_eq!(pairs, vec![(0, 1), (1, 0)]);
        assert!(matrix.iter().all(|c| c.work.variant == Variant::Xadd));
    }

    #[test]
    fn the_c_references_are_the_catalogs_and_the_kernels() {
        let mut a = args(None, false);
        a.languages = Language::ALL.to_vec();
        let cases = cases_on(&a, Preset::Default, &[0, 1]).unwrap();
        assert!(cases.iter().all(|c| c.work.variant.has(c.work.language)));
        let c: Vec<&str> = cases
            .iter()
            .filter(|c| c.language == "c")
            .map(|c| c.variant)
            .collect();
        assert_eq!(c, ["xadd", "store-release"]);
    }

    #[test]
    fn bad_flags_are_clear_errors() {
        let err = |a: PingPongArgs| {
            cases_on(&a, Preset::Default, &[0, 1])
                .unwrap_err()
                .to_string()
        };
        assert!(err(args(Some(vec![0, 5]), false)).contains("core 5 is not available"));
        assert!(err(args(Some(vec![1, 1]), false)).contains("two different cores"));
        assert!(err(args(Some(vec![0]), false)).contains("exactly two"));
        assert!(err(args(Some(vec![1]), true)).contains("at least two"));
        let mut zero = args(None, false);
        zero.iterations = Some(0);
        assert!(err(zero).contains("--iterations 0"));
        assert!(
            cases_on(&args(None, false), Preset::Default, &[0])
                .unwrap_err()
                .to_string()
                .contains("two cores")
        );
    }

    #[test]
    fn matrix_csv_leaves_the_diagonal_empty() {
        let lines = matrix_csv(
            Variant::Xadd,
            Language::Rust,
            &[(0, 1), (1, 0)],
            &[64.0, 65.5],
        );
        assert_eq!(&lines[1..], ["ping\\pong,0,1", "0,,64.00", "1,65.50,"]);
    }

    #[test]
    fn a_quick_run_reports_latency_and_rate() {
        let cores = available_cores();
        if cores.len() < 2 {
            eprintln!("skipped: ping-pong needs two cores");
            return;
        }
        let mut a = args(None, false);
        a.iterations = Some(1_000);
        let common = Common {
            runs: Some(1),
            ..Common::default()
        };
        a.variants = Some(vec![Variant::StoreRelease]);
        a.languages = vec![Language::Rust, Language::C];
        let mut reporter =
            Reporter::to_writers(true, Box::new(std::io::sink()), Box::new(std::io::sink()));
        a.measure(&common, &a.cases(&common).unwrap(), &mut reporter)
            .unwrap();
        let metrics: Vec<(&str, &str)> = reporter
            .results()
            .iter()
            .map(|m| (m.language.as_str(), m.metric.name()))
            .collect();
        assert_eq!(
            metrics,
            [
                ("rust", "ns_per_hop"),
                ("rust", "hops_per_sec"),
                ("c", "ns_per_hop"),
                ("c", "hops_per_sec")
            ]
        );
        assert_eq!(
            reporter.results()[0].params["cores"],
            format!("{},{}", cores[0], cores[1])
        );
    }
}
