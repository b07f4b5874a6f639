//! The one number formatter: every figure a human reads (seed-style lines of `sympathy run`,
//! the report's tables and charts) goes through [`value`], every ratio through [`ratio`],
//! every exact count through [`count`] and every size of memory through [`bytes`].

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

/// An exact count (requests, messages), in full.
///
/// ```
/// assert_eq!(sympathy_harness::format::count(33480.0), "33480");
/// ```
pub fn count(n: f64) -> String {
    format!("{n:.0}")
}

/// A size of memory in the largest binary unit that divides it: `32 KiB`, `1 MiB`, `100 B`.
///
/// ```
/// use sympathy_harness::format;
/// assert_eq!(format::bytes(32 << 10), "32 KiB");
/// assert_eq!(format::bytes(1536), "1536 B");
/// ```
pub fn bytes(b: u64) -> String {
    let units = [(30, "GiB"), (20, "MiB"), (10, "KiB")];
    match units
        .iter()
        .find(|(shift, _)| b >= 1 << shift && b.trailing_zeros() >= *shift)
    {
        Some((shift, unit)) => format!("{} {unit}", b >> shift),
        None => format!("{b} B"),
    }
}

/// Placeholder of the report-model API: `Java 1.50x Rust` (no direction words yet).
pub fn ratio_words(
    ratio: f64,
    better: crate::catalog::Better,
    subject: &str,
    other: &str,
) -> String {
    let _ = better;
    format!("{subject} {} {other}", self::ratio(ratio))
}

/// Placeholder of the report-model API: the value and its unit, not yet rescaled.
pub fn quantity(value: f64, unit: &str) -> String {
    format!("{} {unit}", self::value(value))
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

    #[test]
    fn sizes_take_the_largest_unit_that_divides_them() {
        assert_eq!(super::bytes(1 << 20), "1 MiB");
        assert_eq!(super::bytes(3 << 30), "3 GiB");
        assert_eq!(super::bytes((1 << 20) + 1024), "1025 KiB");
        assert_eq!(super::bytes(0), "0 B");
    }
}
