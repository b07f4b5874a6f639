//! `sympathy run back-pressure`: an open-loop generator offers requests to pinned workers
//! through an unbounded queue or a bounded one sized by Little's law, at loads below and above
//! capacity. See `sympathy_lab::back_pressure`.

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::environmental::Classify;
use sympathy_harness::pin::available_cores;
use sympathy_harness::{Environmental, Metric, Preset, Reporter, Stats, format};
use sympathy_lab::back_pressure::{
    self, Config, DEFAULT_MAX_LATENCY_NS, EXPERIMENT, Outcome, Variant,
};

use crate::experiment::catalog::{strs_at, u64_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

/// Flags of `sympathy run back-pressure`.
#[derive(Args, Debug, Clone)]
pub struct BackPressureArgs {
    /// Requests generated per load and run [default: count of experiments/back-pressure.toml
    /// at the preset].
    #[arg(long)]
    pub count: Option<u64>,
    /// Queues to run, comma-separated [default: every variant of
    /// experiments/back-pressure.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Offered loads as fractions of capacity, comma-separated [default: load of
    /// experiments/back-pressure.toml at the preset].
    #[arg(long, value_delimiter = ',')]
    pub loads: Option<Vec<String>>,
    /// Service time per request, ns (a worker busy-spins it) [default: service_ns of
    /// experiments/back-pressure.toml].
    #[arg(long)]
    pub service_ns: Option<u64>,
    /// The latency the bounded queue is sized for (Little's law), ns.
    #[arg(long, default_value_t = DEFAULT_MAX_LATENCY_NS)]
    pub max_latency_ns: u64,
}

impl Default for BackPressureArgs {
    fn default() -> Self {
        BackPressureArgs {
            count: None,
            variants: None,
            loads: None,
            service_ns: None,
            max_latency_ns: DEFAULT_MAX_LATENCY_NS,
        }
    }
}

/// One load test: its configuration and the load as given (for `params.load`).
#[derive(Debug, Clone)]
pub struct LoadTest {
    config: Config,
    load: String,
}

/// The loads to run, each with its text as given (for `params.load`).
fn loads(args: &BackPressureArgs, preset: Preset) -> Result<Vec<(f64, String)>> {
    let texts: Vec<String> = match &args.loads {
        Some(texts) => texts.clone(),
        None => strs_at(EXPERIMENT, "load", preset)?
            .into_iter()
            .map(String::from)
            .collect(),
    };
    texts
        .iter()
        .map(|t| match t.trim().parse::<f64>() {
            Ok(l) if l.is_finite() && l > 0.0 => Ok((l, t.trim().to_string())),
            _ => bail!("--loads: '{t}' is not a positive fraction of capacity (e.g. 0.8)"),
        })
        .collect()
}

fn us(ns: f64) -> String {
    format!("{:.1}us", ns / 1e3)
}

/// The median of one figure over the runs of a load (the mean of the two middle runs for an
/// even count).
fn median(outcomes: &[Outcome], figure: impl Fn(&Outcome) -> u64) -> Result<f64> {
    let samples: Vec<f64> = outcomes.iter().map(|o| figure(o) as f64).collect();
    Ok(Stats::from_samples(&samples).context("no runs")?.median)
}

impl Experiment for BackPressureArgs {
    type Work = LoadTest;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<LoadTest>>> {
        let preset = common.preset();
        let count = u64_or(self.count, EXPERIMENT, "count", preset)?;
        let service_ns = u64_or(self.service_ns, EXPERIMENT, "service_ns", preset)?;
        let variants = variants_or(&self.variants, preset)?;
        let loads = loads(self, preset)?;
        let cores = available_cores();
        let mut cases = Vec::new();
        for variant in variants {
            for (load, text) in &loads {
                let mut config = Config::new(variant, *load, count, &cores)?;
                config.service_ns = service_ns;
                config.max_latency_ns = self.max_latency_ns;
                config.validate()?;
                let mut case = Case::new(
                    LoadTest {
                        config: config.clone(),
                        load: text.clone(),
                    },
                    variant.name(),
                    "rust",
                )
                .param("load", text.as_str())
                .param("arrival_per_sec", config.arrival_per_sec())
                .param("service_ns", config.service_ns)
                .param("workers", config.workers());
                if variant == Variant::Bounded {
                    case = case.param("queue_len", config.queue_len());
                }
                cases.push(case.param("count", config.count));
            }
        }
        Ok(cases)
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<LoadTest>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs(Self::NAME)?;
        if let Some(first) = cases.first() {
            header(&first.work.config, runs, reporter)?;
        }
        let mut failures = Vec::new();
        let mut summary = Vec::new();
        for case in cases {
            let LoadTest { config, load } = &case.work;
            let variant = config.variant;
            let mut outcomes: Vec<Outcome> = Vec::with_capacity(runs);
            let mut failed = None;
            for run in 0..runs {
                let o = back_pressure::measure(config).map_err(crate::classified)?;
                reporter.line(&format!(
                    "{run} - {variant} load={load} arrival={}/s: p50={} p99={} max={} \
                     completed={} rejected={} (generator late by up to {})",
                    config.arrival_per_sec(),
                    us(o.percentile(0.5) as f64),
                    us(o.percentile(0.99) as f64),
                    us(o.max() as f64),
                    o.completed,
                    o.rejected,
                    us(o.generator_late_ns as f64),
                ))?;
                if let Err(e) = o.check(config) {
                    failed = Some(e);
                    break;
                }
                outcomes.push(o);
            }
            if let Some(e) = failed {
                reporter.line(&format!("error: {e}"))?;
                failures.push(e);
                continue;
            }
            report(reporter, case, &outcomes)?;
            summary.push(format!(
                "{load:>5}  {variant:<9}  {:>10}  {:>10}  {:>9}",
                us(median(&outcomes, |o| o.percentile(0.99))?),
                us(median(&outcomes, Outcome::max)?),
                format::value(median(&outcomes, |o| o.rejected)?),
            ));
        }
        if !reporter.is_json() {
            reporter.line("load   variant           p99         max   rejected")?;
            for line in summary {
                reporter.line(&line)?;
            }
        }
        if !failures.is_empty() {
            let message = format!(
                "{} back-pressure check(s) failed (no result reported for them):\n  {}",
                failures.len(),
                failures
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n  ")
            );
            // Only a missed bound (a busy machine) in every failure makes the run environmental.
            if failures.iter().all(Classify::is_environmental) {
                return Err(Environmental::new(message).into());
            }
            bail!(message);
        }
        Ok(())
    }
}

/// The run's first line: where the threads run and what the bounded queue is sized for.
fn header(config: &Config, runs: usize, reporter: &mut Reporter) -> Result<()> {
    let bounded = Config {
        variant: Variant::Bounded,
        ..config.clone()
    };
    reporter.line(&format!(
        "# back-pressure: generator on core {}, {} worker(s) on cores {:?} (scaled to the {} \
         available cores: workers = cores - 1); service {} per request, capacity {:.0} req/s; \
         bounded queue_len {} (Little's law: {} / ({} / {} workers)), bound {}; {} requests \
         per load, {runs} run(s)",
        bounded.generator_core,
        bounded.workers(),
        bounded.worker_cores,
        bounded.workers() + 1,
        us(bounded.service_ns as f64),
        bounded.capacity_per_sec(),
        bounded.queue_len(),
        us(bounded.max_latency_ns as f64),
        us(bounded.service_ns as f64),
        bounded.workers(),
        us(bounded.bound_ns() as f64),
        bounded.count,
    ))?;
    Ok(())
}

/// One figure of a run's outcome.
type Figure = fn(&Outcome) -> u64;

fn report(reporter: &mut Reporter, case: &Case<LoadTest>, outcomes: &[Outcome]) -> Result<()> {
    let metrics: [(Metric, Figure); 5] = [
        (Metric::LatencyP50Ns, |o| o.percentile(0.5)),
        (Metric::LatencyP99Ns, |o| o.percentile(0.99)),
        (Metric::LatencyMaxNs, Outcome::max),
        (Metric::Rejected, |o| o.rejected),
        (Metric::Completed, |o| o.completed),
    ];
    for (metric, value) in metrics {
        let samples: Vec<f64> = outcomes.iter().map(|o| value(o) as f64).collect();
        let stats = Stats::from_samples(&samples)
            .with_context(|| format!("{}: no valid samples", case.variant))?;
        // Every run's bounded latency was checked against its bound (a miss fails the run, and
        // compare takes it again): the `bound_check` parity fact.
        let bound_check = match case.work.config.variant {
            Variant::Bounded => "checked",
            Variant::Unbounded => "no bound",
        };
        reporter.result(
            case.result(EXPERIMENT, metric, stats)
                .fact("bound_check", bound_check),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn loads_keep_their_text_and_reject_garbage() {
        let mut args = BackPressureArgs::default();
        assert_eq!(
            loads(&args, Preset::Default).unwrap()[2],
            (0.95, "0.95".to_string())
        );
        args.loads = Some(vec!["0.8".into(), " 1.5".into()]);
        assert_eq!(
            loads(&args, Preset::Default).unwrap(),
            [(0.8, "0.8".to_string()), (1.5, "1.5".to_string())]
        );
        args.loads = Some(vec!["fast".into()]);
        assert!(
            loads(&args, Preset::Default)
                .unwrap_err()
                .to_string()
                .contains("'fast'")
        );
        args.loads = Some(vec!["-1".into()]);
        assert!(loads(&args, Preset::Default).is_err());
    }

    fn rejecting(rejected: u64) -> Outcome {
        Outcome {
            generated: 1000,
            completed: 1000 - rejected,
            rejected,
            latencies_ns: vec![10_000],
            in_system_ns: vec![10_000],
            generator_late_ns: 0,
            elapsed: Duration::from_millis(10),
        }
    }

    #[test]
    fn the_summary_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        let outcomes = [rejecting(100), rejecting(300)];
        assert_eq!(median(&outcomes, |o| o.rejected).unwrap(), 200.0);
        let outcomes = [rejecting(300), rejecting(100), rejecting(200)];
        assert_eq!(median(&outcomes, |o| o.rejected).unwrap(), 200.0);
    }
}
