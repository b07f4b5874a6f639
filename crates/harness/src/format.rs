//! The one number formatter: every figure a human reads (seed-style lines of `sympathy run`,
//! the report's tables and charts) goes through [`value`], every ratio through [`ratio`].

/// A figure with about four significant digits, large rates in engineering style.
///
/// ```
/// use sympathy_harness::format;
/// assert_eq!(format::value(135.2e6), "135.2M");
/// assert_eq!(format::value(64.25), "64.25");
/// ```
pub fn value(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".to_string()
    } else if a >= 1e9 {
        format!("{:.2}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A ratio such as `1.25x`.
///
/// ```
/// assert_eq!(sympathy_harness::format::ratio(1.25), "1.25x");
/// ```
pub fn ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 0.01 {
        format!("{r:.2}x")
    } else {
        format!("{r:.4}x")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn values_keep_about_four_digits() {
        assert_eq!(super::value(135e6), "135.0M");
        assert_eq!(super::value(64.25), "64.25");
        assert_eq!(super::value(12262.0), "12.3k");
        assert_eq!(super::value(0.5812), "0.581");
        assert_eq!(super::ratio(1.25), "1.25x");
    }
}
