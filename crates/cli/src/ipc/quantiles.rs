//! The tail of a latency histogram over several runs: p50, p99, p99.9 and max of each run, each
//! reported as its median (min .. max) over the runs. Shared by `ipc latency` (round trips) and
//! `ipc wake` (wake-ups).

use anyhow::{Context, Result};
use hdrhistogram::Histogram;
use sympathy_harness::{Measurement, Metric, Reporter, Stats};

/// p50, p99, p99.9 and max of each run so far, in that order.
#[derive(Default)]
pub(super) struct Quantiles([Vec<f64>; 4]);

impl Quantiles {
    /// Adds one run's histogram.
    pub(super) fn push(&mut self, h: &Histogram<u64>) {
        for (q, v) in self.0.iter_mut().zip([
            h.value_at_quantile(0.5),
            h.value_at_quantile(0.99),
            h.value_at_quantile(0.999),
            h.max(),
        ]) {
            q.push(v as f64);
        }
    }

    /// Reports one result per quantile: `base` with `metrics` (p50, p99, p99.9, max) and the
    /// statistics of that quantile over the runs.
    pub(super) fn report(
        &self,
        reporter: &mut Reporter,
        base: &Measurement,
        metrics: [Metric; 4],
    ) -> Result<()> {
        for (metric, samples) in metrics.into_iter().zip(&self.0) {
            let stats = Stats::from_samples(samples).context("no runs")?;
            reporter.result(base.clone().stats(metric, stats))?;
        }
        Ok(())
    }
}
