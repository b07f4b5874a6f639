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
use sympathy_harness::{Check, Measurement, Metric, Preset, Reporter, Stats};
use sympathy_lab::c_reference::Language;
use sympathy_lab::ping_pong::{self, EXPERIMENT, Outcome, Variant, core_pairs};

use super::cores::{CoreList, parse_cores};
use super::{Common, reporter};

/// Flags of `sympathy run ping-pong`.
#[derive(Args, Debug, Clone, Default)]
pub struct PingPongArgs {
    #[command(flatten)]
    pub common: Common,
    /// The two cores: ping on the first, pong on the second [default: the first two available];
    /// with --matrix, the cores whose pairs are measured [default: every available core].
    #[arg(long, value_parser = parse_cores)]
    pub cores: Option<CoreList>,
    /// Round trips per run, each two one-way hops (the seed: 500000000) [default: by scale].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Measure every ordered pair of distinct cores and print a matrix.
    #[arg(long)]
    pub matrix: bool,
    /// Variants to run [default: all: xadd, store-release, store-release-spin-hint, same-line;
    /// with --matrix: xadd].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
    /// Kernel languages to run (`c` runs the C references of the seed).
    #[arg(long, value_delimiter = ',', default_value = "rust,c")]
    pub languages: Vec<Language>,
}

/// The plan a set of flags resolves to.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    pairs: Vec<(usize, usize)>,
    iterations: u64,
    runs: usize,
    variants: Vec<Variant>,
    languages: Vec<Language>,
}

/// Round trips per run at each scale: quick, default, the seed's 500M.
fn default_iterations(preset: Preset) -> u64 {
    preset.pick(200_000, 5_000_000, 500_000_000)
}

fn plan(args: &PingPongArgs, available: &[usize]) -> Result<Plan> {
    let given = args.cores.as_ref().map(|c| c.0.clone());
    if let Some(core) = given.iter().flatten().find(|c| !available.contains(c)) {
        bail!("--cores: core {core} is not available to this process (available: {available:?})");
    }
    let pairs = if args.matrix {
        let cores = given.clone().unwrap_or_else(|| available.to_vec());
        let pairs = core_pairs(&cores);
        if pairs.is_empty() {
            bail!("--matrix needs at least two different cores, got {cores:?}");
        }
        pairs
    } else {
        match given.as_deref() {
            Some(&[a, b]) if a != b => vec![(a, b)],
            Some(cores) => bail!(
                "--cores {}: ping-pong needs exactly two different cores, e.g. --cores 0,1",
                cores
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            None => match available {
                [a, b, ..] => vec![(*a, *b)],
                _ => bail!("ping-pong needs two cores and this process may use only {available:?}"),
            },
        }
    };
    let iterations = args
        .iterations
        .unwrap_or_else(|| default_iterations(args.common.preset()));
    if iterations == 0 {
        bail!("--iterations 0: at least one round trip is needed (e.g. --iterations 1000000)");
    }
    if args.languages.is_empty() {
        bail!("--languages is empty: use rust, c or rust,c");
    }
    let variants = args.variants.clone().unwrap_or_else(|| {
        if args.matrix {
            vec![Variant::Xadd]
        } else {
            Variant::ALL.to_vec()
        }
    });
    Ok(Plan {
        pairs,
        iterations,
        runs: args.common.runs_or(3, 5, 3),
        variants,
        languages: args.languages.clone(),
    })
}

/// `sympathy run ping-pong ...`
pub fn run(args: PingPongArgs) -> Result<()> {
    let mut reporter = reporter(&args.common)?;
    measure(&args, &mut reporter)
}

/// The entry of `run all`: every default at the scale of `common`.
pub fn run_with(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = PingPongArgs {
        common: common.clone(),
        languages: Language::ALL.to_vec(),
        ..PingPongArgs::default()
    };
    measure(&args, reporter)
}

fn measure(args: &PingPongArgs, reporter: &mut Reporter) -> Result<()> {
    let plan = plan(args, &available_cores())?;
    reporter.line(&format!(
        "# ping-pong: {} round trips ({} one-way hops) per run, {} runs each",
        plan.iterations,
        2 * plan.iterations,
        plan.runs
    ))?;
    for &language in &plan.languages {
        for &variant in plan.variants.iter().filter(|v| v.has(language)) {
            let mut medians = Vec::with_capacity(plan.pairs.len());
            for &pair in &plan.pairs {
                medians.push(measure_pair(&plan, variant, language, pair, reporter)?);
            }
            if args.matrix && !reporter.is_json() {
                for line in matrix_csv(variant, language, &plan.pairs, &medians) {
                    reporter.line(&line)?;
                }
            }
        }
    }
    Ok(())
}

/// Measures one pair `plan.runs` times and reports it; returns the median ns/hop.
fn measure_pair(
    plan: &Plan,
    variant: Variant,
    language: Language,
    (ping, pong): (usize, usize),
    reporter: &mut Reporter,
) -> Result<f64> {
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(plan.runs);
    for index in 0..plan.runs {
        let outcome = ping_pong::run(variant, language, (ping, pong), plan.iterations)?;
        reporter.line(&format!(
            "{index} - {:.2}ns/hop {variant}{} cores={ping},{pong} hops/s={} ping={} pong={}",
            outcome.ns_per_hop(),
            if language == Language::Rust {
                String::new()
            } else {
                format!(" [{language}]")
            },
            format::value(outcome.hops_per_sec()),
            plan.iterations,
            plan.iterations,
        ))?;
        outcomes.push(outcome);
    }
    let base = || {
        Measurement::new(EXPERIMENT, variant.name())
            .language(language.name())
            .param("cores", format!("{ping},{pong}"))
            .param("iterations", plan.iterations)
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
        let plan = plan(&args(None, false), &[0, 1, 2]).unwrap();
        assert_eq!(plan.pairs, vec![(0, 1)]);
        assert_eq!(plan.variants, Variant::ALL.to_vec());
        assert_eq!(plan.iterations, 5_000_000);
        let matrix = super::plan(&args(None, true), &[0, 1]).unwrap();
        assert_eq!(matrix.pairs, vec![(0, 1), (1, 0)]);
        assert_eq!(matrix.variants, vec![Variant::Xadd]);
    }

    #[test]
    fn bad_flags_are_clear_errors() {
        let err = |a: PingPongArgs| plan(&a, &[0, 1]).unwrap_err().to_string();
        assert!(err(args(Some(vec![0, 5]), false)).contains("core 5 is not available"));
        assert!(err(args(Some(vec![1, 1]), false)).contains("two different cores"));
        assert!(err(args(Some(vec![0]), false)).contains("exactly two"));
        assert!(err(args(Some(vec![1]), true)).contains("at least two"));
        let mut zero = args(None, false);
        zero.iterations = Some(0);
        assert!(err(zero).contains("--iterations 0"));
        assert!(
            plan(&args(None, false), &[0])
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
        a.common.runs = Some(1);
        a.variants = Some(vec![Variant::StoreRelease]);
        a.languages = vec![Language::Rust, Language::C];
        let mut reporter =
            Reporter::to_writers(true, Box::new(std::io::sink()), Box::new(std::io::sink()));
        measure(&a, &mut reporter).unwrap();
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
