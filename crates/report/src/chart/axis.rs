//! A value axis: linear from zero, or logarithmic when the values span more than
//! [`LOG_SPAN`], with ticks at round values (powers of ten on a log axis).

/// Values spanning more than this factor (largest over smallest) get a log axis.
pub(super) const LOG_SPAN: f64 = 20.0;

/// A value axis mapped onto a range of pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    /// Pixel of `lo`.
    p0: f64,
    /// Pixel of `hi` (below `p0` for a vertical axis).
    p1: f64,
}

/// The smallest of 1, 2, 2.5, 5, 10 times a power of ten that is at least `x`.
fn nice_step(x: f64) -> f64 {
    let magnitude = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|step| *step >= x)
        .unwrap_or(10.0 * magnitude)
}

impl Axis {
    /// An axis for `values` (the figures drawn) that also reaches `extremes` (whisker ends),
    /// from pixel `p0` to `p1`. Log when every figure is positive and the figures span more
    /// than [`LOG_SPAN`]; linear from zero (or from a negative minimum) otherwise. Figures
    /// 9 and 1800 get a log axis from 1 to 10000, ticks 1, 10, 100, 1000, 10000.
    pub fn fit(values: &[f64], extremes: &[f64], p0: f64, p1: f64) -> Axis {
        let all = || {
            values
                .iter()
                .chain(extremes)
                .copied()
                .filter(|v| v.is_finite())
        };
        let min = all().fold(f64::INFINITY, f64::min);
        let max = all().fold(f64::NEG_INFINITY, f64::max);
        let shown_min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let shown_max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if min > 0.0 && shown_max / shown_min > LOG_SPAN {
            Axis::log(min, max, p0, p1)
        } else if min.is_finite() {
            Axis::linear(min, max, p0, p1)
        } else {
            Axis::linear(0.0, 1.0, p0, p1)
        }
    }

    /// A log axis from the power of ten at or below `min` (positive) to the one at or above
    /// `max`, from pixel `p0` to `p1`.
    pub fn log(min: f64, max: f64, p0: f64, p1: f64) -> Axis {
        let lo = 10f64.powf(min.log10().floor());
        let hi = 10f64.powf(max.log10().ceil()).max(lo * 10.0);
        Axis {
            lo,
            hi,
            log: true,
            p0,
            p1,
        }
    }

    /// A linear axis over `min..max` widened to include zero and round ends.
    fn linear(min: f64, max: f64, p0: f64, p1: f64) -> Axis {
        let (min, max) = (min.min(0.0), max.max(0.0));
        let step = nice_step(((max - min) / 5.0).max(f64::MIN_POSITIVE));
        let lo = (min / step).floor() * step;
        let hi = ((max / step).ceil() * step).max(lo + step);
        Axis {
            lo,
            hi,
            log: false,
            p0,
            p1,
        }
    }

    /// Whether the axis is logarithmic.
    pub fn is_log(&self) -> bool {
        self.log
    }

    /// The pixel of `value`, clamped to the axis.
    pub fn pos(&self, value: f64) -> f64 {
        let frac = if self.log {
            if value <= 0.0 {
                0.0
            } else {
                (value / self.lo).log10() / (self.hi / self.lo).log10()
            }
        } else {
            (value - self.lo) / (self.hi - self.lo)
        };
        self.p0 + frac.clamp(0.0, 1.0) * (self.p1 - self.p0)
    }

    /// Where bars start: zero on a linear axis, the axis' lowest power of ten on a log one.
    pub fn base(&self) -> f64 {
        self.pos(if self.log { self.lo } else { 0.0 })
    }

    /// Round values to mark: about five on a linear axis, powers of ten on a log axis (every
    /// second or third one when there are more than seven).
    pub fn ticks(&self) -> Vec<f64> {
        if self.log {
            let first = self.lo.log10().round() as i32;
            let last = self.hi.log10().round() as i32;
            let stride = ((last - first) as usize).div_ceil(6).max(1);
            (first..=last)
                .step_by(stride)
                .map(|k| 10f64.powi(k))
                .collect()
        } else {
            let step = nice_step((self.hi - self.lo) / 5.0);
            let count = ((self.hi - self.lo) / step).round() as usize;
            (0..=count).map(|i| self.lo + i as f64 * step).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_span_gets_a_log_axis_with_powers_of_ten() {
        let axis = Axis::fit(&[9.0, 1800.0], &[8.5, 1900.0], 0.0, 300.0);
        assert!(axis.is_log());
        assert_eq!(axis.ticks(), vec![1.0, 10.0, 100.0, 1000.0, 10000.0]);
        assert_eq!(axis.base(), 0.0);
        assert_eq!(axis.pos(100.0), 150.0);
    }

    #[test]
    fn a_narrow_span_gets_a_linear_axis_from_zero() {
        let axis = Axis::fit(&[64.2, 80.0], &[90.0], 0.0, 100.0);
        assert!(!axis.is_log());
        assert_eq!(axis.ticks(), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(axis.pos(50.0), 50.0);
        let zero = Axis::fit(&[0.0, 50.0], &[], 0.0, 100.0);
        assert!(!zero.is_log(), "zero cannot be drawn on a log axis");
    }

    #[test]
    fn a_vertical_axis_runs_upwards() {
        let axis = Axis::fit(&[1.0, 1000.0], &[], 400.0, 100.0);
        assert_eq!(axis.pos(1.0), 400.0);
        assert_eq!(axis.pos(1000.0), 100.0);
    }
}
