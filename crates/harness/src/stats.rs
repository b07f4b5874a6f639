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
