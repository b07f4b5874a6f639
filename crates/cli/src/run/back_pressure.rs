//! `sympathy run back-pressure`: an open-loop generator offers requests to pinned workers
//! through an unbounded queue or a bounded one sized by Little's law, at loads below and above
//! capacity. See `sympathy_lab::back_pressure`.

use anyhow::{Result, bail};
use clap::Args;
use sympathy_harness::pin::available_cores;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_lab::back_pressure::{
    self, Config, DEFAULT_MAX_LATENCY_NS, DEFAULT_SERVICE_NS, EXPERIMENT, LOADS, Outcome, Variant,
};

use super::Common;

/// Flags of `sympathy run back-pressure`.
#[derive(Args, Debug, Clone, Default)]
pub struct BackPressureArgs {
    #[command(flatten)]
    pub common: Common,
    /// Requests generated per load and run [default: 50000 (quick: one run; a smaller sample lets one vCPU stall decide its p99), 500000 full].
    #[arg(long)]
    pub count: Option<u64>,
    /// Queues to run, comma-separated [default: all: unbounded, bounded].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
    /// Offered loads as fractions of capacity, comma-separated [default: 0.5,0.8,0.95,1.2,1.5].
    #[arg(long, value_delimiter = ',')]
    pub loads: Option<Vec<String>>,
    /// Service time per request, ns (a worker busy-spins it).
    #[arg(long, default_value_t = DEFAULT_SERVICE_NS)]
    pub service_ns: u64,
    /// The latency the bounded queue is sized for (Little's law), ns.
    #[arg(long, default_value_t = DEFAULT_MAX_LATENCY_NS)]
    pub max_latency_ns: u64,
}

/// `sympathy run back-pressure ...`
pub fn run(args: &BackPressureArgs) -> Result<()> {
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = BackPressureArgs {
        common: common.clone(),
        service_ns: DEFAULT_SERVICE_NS,
        max_latency_ns: DEFAULT_MAX_LATENCY_NS,
        ..BackPressureArgs::default()
    };
    execute(&args, reporter)
}

/// The loads to run, each with its text as given (for `params.load`).
fn loads(args: &BackPressureArgs) -> Result<Vec<(f64, String)>> {
    match &args.loads {
        None => Ok(LOADS
            .iter()
            .map(|&(l, name)| (l, name.to_string()))
            .collect()),
        Some(texts) => texts
            .iter()
            .map(|t| match t.trim().parse::<f64>() {
                Ok(l) if l.is_finite() && l > 0.0 => Ok((l, t.trim().to_string())),
                _ => bail!("--loads: '{t}' is not a positive fraction of capacity (e.g. 0.8)"),
            })
            .collect(),
    }
}

fn us(ns: u64) -> String {
    format!("{:.1}us", ns as f64 / 1e3)
}

fn execute(args: &BackPressureArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let count = args.count.unwrap_or(preset.pick(50_000, 50_000, 500_000));
    let runs = args.common.runs_or(1, 3, 3);
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    let loads = loads(args)?;
    let cores = available_cores();
    let config_for = |variant: Variant, load: f64| -> Result<Config> {
        let mut c = Config::new(variant, load, count, &cores)?;
        c.service_ns = args.service_ns;
        c.max_latency_ns = args.max_latency_ns;
        c.validate()?;
        Ok(c)
    };
    let first = config_for(Variant::Bounded, 1.0)?;
    reporter.line(&format!(
        "# back-pressure: generator on core {}, {} worker(s) on cores {:?} (scaled to the {} \
         available cores: workers = cores - 1); service {} per request, capacity {:.0} req/s; \
         bounded queue_len {} (Little's law: {} / ({} / {} workers)), bound {}; {count} requests \
         per load, {runs} run(s)",
        first.generator_core,
        first.workers(),
        first.worker_cores,
        cores.len(),
        us(first.service_ns),
        first.capacity_per_sec(),
        first.queue_len(),
        us(first.max_latency_ns),
        us(first.service_ns),
        first.workers(),
        us(first.bound_ns()),
    ))?;
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for &variant in &variants {
        for (load, load_name) in &loads {
            let config = config_for(variant, *load)?;
            let mut outcomes: Vec<Outcome> = Vec::with_capacity(runs);
            let mut failed = None;
            for run in 0..runs {
                let o = back_pressure::measure(&config)?;
                reporter.line(&format!(
                    "{run} - {variant} load={load_name} arrival={}/s: p50={} p99={} max={} \
                     completed={} rejected={} (generator late by up to {})",
                    config.arrival_per_sec(),
                    us(o.percentile(0.5)),
                    us(o.percentile(0.99)),
                    us(o.max()),
                    o.completed,
                    o.rejected,
                    us(o.generator_late_ns),
                ))?;
                if let Err(e) = o.check(&config) {
                    failed = Some(e);
                    break;
                }
                outcomes.push(o);
            }
            if let Some(e) = failed {
                reporter.line(&format!("error: {e}"))?;
                failures.push(e.to_string());
                continue;
            }
            report(reporter, &config, load_name, &outcomes)?;
            let median = |f: &dyn Fn(&Outcome) -> u64| {
                let mut v: Vec<u64> = outcomes.iter().map(f).collect();
                v.sort_unstable();
                v[v.len() / 2]
            };
            summary.push(format!(
                "{load_name:>5}  {variant:<9}  {:>10}  {:>10}  {:>9}",
                us(median(&|o| o.percentile(0.99))),
                us(median(&|o| o.max())),
                median(&|o| o.rejected),
            ));
        }
    }
    if !reporter.is_json() {
        reporter.line("load   variant           p99         max   rejected")?;
        for line in summary {
            reporter.line(&line)?;
        }
    }
    if !failures.is_empty() {
        bail!(
            "{} back-pressure check(s) failed (no result reported for them):\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
    Ok(())
}

/// One figure of a run's outcome.
type Figure = fn(&Outcome) -> u64;

fn report(
    reporter: &mut Reporter,
    config: &Config,
    load_name: &str,
    outcomes: &[Outcome],
) -> Result<()> {
    let base = || {
        let m = Measurement::new(EXPERIMENT, config.variant.name())
            .param("load", load_name)
            .param("arrival_per_sec", config.arrival_per_sec())
            .param("service_ns", config.service_ns)
            .param("workers", config.workers());
        let m = if config.variant == Variant::Bounded {
            m.param("queue_len", config.queue_len())
        } else {
            m
        };
        m.param("count", config.count).check(Check::Ok)
    };
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
            .ok_or_else(|| anyhow::anyhow!("{}: no valid samples", config.variant))?;
        reporter.result(base().stats(metric, stats))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_keep_their_text_and_reject_garbage() {
        let mut args = BackPressureArgs::default();
        assert_eq!(loads(&args).unwrap()[2], (0.95, "0.95".to_string()));
        args.loads = Some(vec!["0.8".into(), " 1.5".into()]);
        assert_eq!(
            loads(&args).unwrap(),
            [(0.8, "0.8".to_string()), (1.5, "1.5".to_string())]
        );
        args.loads = Some(vec!["fast".into()]);
        assert!(loads(&args).unwrap_err().to_string().contains("'fast'"));
        args.loads = Some(vec!["-1".into()]);
        assert!(loads(&args).is_err());
    }
}
