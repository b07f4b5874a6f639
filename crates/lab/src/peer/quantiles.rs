//! The tail of a latency histogram over several runs: p50, p99, p99.9 and max of each run, each
//! reported as its median (min .. max) over the runs. Used by the ipc echo (round trips) and
//! `sympathy ring wake` (wake-ups).

use std::io;

use hdrhistogram::Histogram;
use sympathy_harness::{Measurement, Metric, Reporter, Stats};

/// p50, p99, p99.9 and max of each run so far, in that order.
///
/// ```
/// use hdrhistogram::Histogram;
/// use sympathy_lab::peer::Quantiles;
///
/// let mut h = Histogram::<u64>::new(3).unwrap();
/// for v in 1..=1000 {
///     h.record(v).unwrap();
/// }
/// let mut q = Quantiles::default();
/// q.push(&h);
/// assert_eq!(q.runs(), 1);
/// ```
#[derive(Default)]
pub struct Quantiles([Vec<f64>; 4]);

impl Quantiles {
    /// Adds one run's histogram.
    pub fn push(&mut self, h: &Histogram<u64>) {
        for (q, v) in self.0.iter_mut().zip([
            h.value_at_quantile(0.5),
            h.value_at_quantile(0.99),
            h.value_at_quantile(0.999),
            h.max(),
        ]) {
            q.push(v as f64);
        }
    }

    /// The runs pushed so far.
    pub fn runs(&self) -> usize {
        self.0[0].len()
    }

    /// Reports one result per quantile: `base` with `metrics` (p50, p99, p99.9, max) and the
    /// statistics of that quantile over the runs. Nothing when no run was pushed.
    ///
    /// # Errors
    /// Writing a result failed.
    pub fn report(
        &self,
        reporter: &mut Reporter,
        base: &Measurement,
        metrics: [Metric; 4],
    ) -> io::Result<()> {
        for (metric, samples) in metrics.into_iter().zip(&self.0) {
            if let Some(stats) = Stats::from_samples(samples) {
                reporter.result(base.clone().stats(metric, stats))?;
            }
        }
        Ok(())
    }
}
