//! How sure a ratio is: the 95% interval of a ratio taken from pairs, and the verdict it allows.
//!
//! The unit of evidence is a **pair**: one figure of each side taken close in time (a round of
//! `compare` runs both languages back to back, alternating which goes first). A pair gives one
//! ratio; the row's ratio is the geometric mean of its pairs' ratios (the mean of their logs, so
//! Java/Rust and Rust/Java give reciprocal answers), and its 95% interval is Student's t over
//! those logs: `exp(mean ± t(n-1) · sd / √n)`. This is the paired interval Kalibera and Jones's
//! effect-size method reduces to when the pairs (their top level) carry the variance; with two
//! pairs t is 12.7, so only a gap both rounds agree on gets a verdict, which is the point.
//!
//! A verdict word is said only when the whole interval lies outside the parity band
//! ([`PARITY_PERCENT`] either way): "faster"/"slower" beyond it, "on par" when the interval lies
//! inside it, otherwise **inconclusive**. One pair has no interval and is always inconclusive.
//!
//! ```
//! use sympathy_report::{RatioInterval, Verdict};
//! // Two rounds agreeing on about 2x: a verdict.
//! let clear = RatioInterval::of_pairs(&[2.0, 2.1]).unwrap();
//! assert_eq!(clear.verdict(), Verdict::Above);
//! // Two rounds straddling parity: no verdict.
//! let straddling = RatioInterval::of_pairs(&[0.76, 1.54]).unwrap();
//! assert_eq!(straddling.verdict(), Verdict::Inconclusive);
//! let (low, high) = straddling.interval().unwrap();
//! assert!(low < 1.0 && high > 1.0);
//! ```

/// The parity band, in percent either way: a ratio whose whole interval lies within
/// `[1/1.05, 1.05]` is "on par"; a verdict of a difference needs the interval outside it.
pub const PARITY_PERCENT: f64 = 5.0;

/// The upper bound of the parity band (`1.05`); its lower bound is the reciprocal.
pub fn parity_bound() -> f64 {
    1.0 + PARITY_PERCENT / 100.0
}

/// Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 95% two-sided t quantile for `df` degrees of freedom (the normal 1.96 past 30).
fn t95(df: usize) -> f64 {
    match df {
        0 => f64::INFINITY,
        1..=30 => T95[df - 1],
        _ => 1.96,
    }
}

/// What an interval allows one to say about a ratio `num / den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval lies above the parity band: `num` is clearly the larger.
    Above,
    /// The whole interval lies below it: `num` is clearly the smaller.
    Below,
    /// The whole interval lies inside it.
    OnPar,
    /// The interval reaches across a bound of the band, or there is no interval (one pair).
    Inconclusive,
}

/// A ratio taken from pairs, with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatioInterval {
    /// The geometric mean of the pairs' ratios.
    pub estimate: f64,
    /// The lower end of the 95% interval (the estimate itself with one pair).
    pub low: f64,
    /// The upper end (likewise).
    pub high: f64,
    /// The smallest pair's ratio.
    pub min: f64,
    /// The largest.
    pub max: f64,
    /// How many pairs.
    pub pairs: usize,
}

impl RatioInterval {
    /// The interval of `ratios`, one per pair; `None` when there is none or one is not a
    /// positive finite number.
    pub fn of_pairs(ratios: &[f64]) -> Option<RatioInterval> {
        if ratios.is_empty() || ratios.iter().any(|r| !r.is_finite() || *r <= 0.0) {
            return None;
        }
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        let n = logs.len();
        let mean = logs.iter().sum::<f64>() / n as f64;
        let (low, high) = if n < 2 {
            (mean, mean)
        } else {
            let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let half = t95(n - 1) * (var / n as f64).sqrt();
            (mean - half, mean + half)
        };
        Some(RatioInterval {
            estimate: mean.exp(),
            low: low.exp(),
            high: high.exp(),
            min: ratios.iter().copied().fold(f64::INFINITY, f64::min),
            max: ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            pairs: n,
        })
    }

    /// The 95% interval `(low, high)`; `None` with a single pair.
    pub fn interval(&self) -> Option<(f64, f64)> {
        (self.pairs >= 2).then_some((self.low, self.high))
    }

    /// What the interval allows one to say ([`Verdict`]).
    pub fn verdict(&self) -> Verdict {
        let Some((low, high)) = self.interval() else {
            return Verdict::Inconclusive;
        };
        let bound = parity_bound();
        if low > bound {
            Verdict::Above
        } else if high < 1.0 / bound {
            Verdict::Below
        } else if low >= 1.0 / bound && high <= bound {
            Verdict::OnPar
        } else {
            Verdict::Inconclusive
        }
    }

    /// The same ratio the other way round (`den / num`): estimate, interval and range inverted.
    pub fn inverse(&self) -> RatioInterval {
        RatioInterval {
            estimate: 1.0 / self.estimate,
            low: 1.0 / self.high,
            high: 1.0 / self.low,
            min: 1.0 / self.max,
            max: 1.0 / self.min,
            pairs: self.pairs,
        }
    }

    /// Whether more pairs could turn an inconclusive interval into a verdict: it is
    /// inconclusive and has fewer than [`ENOUGH_PAIRS`] pairs.
    pub fn wants_more_pairs(&self) -> bool {
        self.verdict() == Verdict::Inconclusive && self.pairs < ENOUGH_PAIRS
    }
}

/// Pairs past which an inconclusive ratio is taken to be a real tie with a wide spread, not a
/// want of evidence: `compare` adds no rounds for it.
pub const ENOUGH_PAIRS: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_straddling_parity_are_inconclusive_however_far_the_estimate() {
        // The p1c1 cross-core row of a real quick compare: rounds 0.76 and 1.54, whose mean
        // said "Java 1.2x faster".
        let r = RatioInterval::of_pairs(&[0.76, 1.54]).unwrap();
        assert_eq!(r.verdict(), Verdict::Inconclusive);
        assert!(r.low < 1.0 && r.high > 1.0, "{r:?}");
        // lock-add at 2 threads: 0.98 and 1.12.
        let r = RatioInterval::of_pairs(&[0.98, 1.12]).unwrap();
        assert_eq!(r.verdict(), Verdict::Inconclusive);
    }

    #[test]
    fn agreeing_pairs_beyond_the_band_give_a_direction() {
        assert_eq!(
            RatioInterval::of_pairs(&[2.0, 2.1]).unwrap().verdict(),
            Verdict::Above
        );
        assert_eq!(
            RatioInterval::of_pairs(&[0.5, 0.52, 0.49])
                .unwrap()
                .verdict(),
            Verdict::Below
        );
    }

    #[test]
    fn on_par_needs_the_whole_interval_inside_the_band() {
        let tight = RatioInterval::of_pairs(&[1.01, 0.99, 1.0, 1.02, 0.98]).unwrap();
        assert_eq!(tight.verdict(), Verdict::OnPar);
        // Estimate 1.0, but the rounds spread too far to rule out a 5% gap.
        let wide = RatioInterval::of_pairs(&[0.9, 1.1]).unwrap();
        assert_eq!(wide.verdict(), Verdict::Inconclusive);
        // Identical figures (a byte count): an interval of zero width.
        let exact = RatioInterval::of_pairs(&[1.0, 1.0]).unwrap();
        assert_eq!(exact.verdict(), Verdict::OnPar);
    }

    #[test]
    fn one_pair_has_no_interval_and_no_verdict() {
        let one = RatioInterval::of_pairs(&[3.0]).unwrap();
        assert_eq!(one.interval(), None);
        assert_eq!(one.verdict(), Verdict::Inconclusive);
        assert!(one.wants_more_pairs());
        assert_eq!(RatioInterval::of_pairs(&[]), None);
        assert_eq!(RatioInterval::of_pairs(&[1.0, 0.0]), None);
    }

    #[test]
    fn the_interval_is_symmetric_in_logs_and_inverts_exactly() {
        let r = RatioInterval::of_pairs(&[1.8, 2.0, 2.2]).unwrap();
        let geometric = (1.8f64 * 2.0 * 2.2).powf(1.0 / 3.0);
        assert!((r.estimate - geometric).abs() < 1e-12);
        assert!((r.low * r.high - r.estimate * r.estimate).abs() < 1e-9);
        let back = RatioInterval::of_pairs(&[1.0 / 1.8, 0.5, 1.0 / 2.2]).unwrap();
        let inv = r.inverse();
        assert!((back.low - inv.low).abs() < 1e-12 && (back.high - inv.high).abs() < 1e-12);
        assert_eq!(r.verdict(), Verdict::Above);
        assert_eq!(inv.verdict(), Verdict::Below);
    }

    #[test]
    fn with_many_pairs_the_t_quantile_shrinks_toward_the_normal() {
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(30), 2.042);
        assert_eq!(t95(100), 1.96);
        let many: Vec<f64> = (0..40).map(|i| 1.2 + 0.01 * f64::from(i % 5)).collect();
        let r = RatioInterval::of_pairs(&many).unwrap();
        assert_eq!(r.verdict(), Verdict::Above);
        assert!(!r.wants_more_pairs());
    }
}
