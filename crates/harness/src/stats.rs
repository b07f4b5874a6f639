//! Summary statistics over repeated runs: the median is the reported value, min and max show
//! the spread. A single best run is never reported.

use serde::Serialize;

/// Median and spread of a set of samples (one sample per run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    /// Number of runs the samples came from (at least 1).
    pub runs: usize,
    /// Median of the samples; for an even count, the mean of the two middle samples.
    pub median: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
}

impl Stats {
    /// The line a run prints for ratios it took run by run (`per` says what one ratio came
    /// from: `rounds`, `runs`); `None` without ratios.
    ///
    /// ```
    /// # use sympathy_harness::Stats;
    /// let line = Stats::ratio_line("sbe / raw", &[1.5, 2.0, 1.0], "rounds").unwrap();
    /// assert_eq!(line, "ratio sbe / raw: median 1.50 (min 1.00 .. max 2.00, 3 rounds)");
    /// ```
    pub fn ratio_line(what: &str, ratios: &[f64], per: &str) -> Option<String> {
        Stats::from_samples(ratios).map(|r| {
            format!(
                "ratio {what}: median {:.2} (min {:.2} .. max {:.2}, {} {per})",
                r.median,
                r.min,
                r.max,
                ratios.len()
            )
        })
    }

    /// Summarises `samples`. Returns `None` for an empty slice or one containing NaN.
    ///
    /// # Examples
    /// ```
    /// use sympathy_harness::Stats;
    /// let s = Stats::from_samples(&[3.0, 1.0, 2.0, 10.0]).unwrap();
    /// assert_eq!((s.runs, s.median, s.min, s.max), (4, 2.5, 1.0, 10.0));
    /// ```
    pub fn from_samples(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() || samples.iter().any(|s| s.is_nan()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Stats {
            runs: n,
            median,
            min: sorted[0],
            max: sorted[n - 1],
        })
    }

    /// The same statistics with every value mapped through a monotonic function, for example
    /// ns/op into ops/s (a decreasing map swaps min and max, which this handles).
    pub fn map(self, f: impl Fn(f64) -> f64) -> Stats {
        let (a, b) = (f(self.min), f(self.max));
        Stats {
            runs: self.runs,
            median: f(self.median),
            min: a.min(b),
            max: a.max(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_count_takes_middle_sample() {
        let s = Stats::from_samples(&[5.0, 1.0, 9.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.runs), (5.0, 1.0, 9.0, 3));
    }

    #[test]
    fn empty_and_nan_are_rejected() {
        assert!(Stats::from_samples(&[]).is_none());
        assert!(Stats::from_samples(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn decreasing_map_swaps_spread() {
        let s = Stats::from_samples(&[1.0, 2.0, 4.0])
            .unwrap()
            .map(|ns| 1e9 / ns);
        assert_eq!((s.min, s.median, s.max), (2.5e8, 5e8, 1e9));
    }
}
