//! The one number formatter: every figure a human reads (seed-style lines of `sympathy run`,
//! the report's tables and charts) goes through [`value`], every ratio through [`ratio`],
//! every exact count through [`count`] and every size of memory through [`bytes`]. The
//! report writes a figure with its unit through [`quantity`] and a comparison of two figures
//! in words through [`ratio_words`].

use crate::catalog::Better;

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

/// Ratios within this many percent of 1.0 read as "on par" in [`ratio_words`].
pub const ON_PAR_PERCENT: f64 = 2.0;

/// A ratio for words: one decimal (`1.5`), two below 1 and where one would read as 1.0
/// (`1.03`), none from 10 up (`12`).
///
/// ```
/// use sympathy_harness::format;
/// assert_eq!(format::ratio_figure(1.5), "1.5");
/// assert_eq!(format::ratio_figure(1.03), "1.03");
/// assert_eq!(format::ratio_figure(12.4), "12");
/// ```
pub fn ratio_figure(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else if r < 1.0 || format!("{r:.1}") == "1.0" {
        format!("{r:.2}")
    } else {
        format!("{r:.1}")
    }
}

/// The words a comparison of `subject` with `other` takes, for a ratio subject/other of a
/// metric that improves the way `better` says: `Java 1.5x slower` (a time 1.5x Rust's),
/// `Java 2.5x faster` (a rate 2.5x Rust's, or a time 0.4x), `Java on par` (within
/// [`ON_PAR_PERCENT`]), or `Java 1.5x Rust` where the metric has no better direction.
///
/// ```
/// use sympathy_harness::catalog::Better;
/// use sympathy_harness::format::ratio_words;
/// assert_eq!(ratio_words(1.5, Better::Lower, "Java", "Rust"), "Java 1.5x slower");
/// assert_eq!(ratio_words(2.5, Better::Higher, "Java", "Rust"), "Java 2.5x faster");
/// assert_eq!(ratio_words(0.4, Better::Lower, "Java", "Rust"), "Java 2.5x faster");
/// assert_eq!(ratio_words(1.5, Better::Neither, "Java", "Rust"), "Java 1.5x Rust");
/// assert_eq!(ratio_words(1.01, Better::Higher, "Java", "Rust"), "Java on par");
/// ```
pub fn ratio_words(ratio: f64, better: Better, subject: &str, other: &str) -> String {
    ratio_words_in(ratio, better, "", subject, other)
}

/// [`ratio_words`] in the words of `unit`: sizes are `larger`/`smaller`, counts (`ops`,
/// `requests`, `%`) `more`/`fewer`, times and rates `slower`/`faster`.
///
/// ```
/// use sympathy_harness::catalog::Better;
/// use sympathy_harness::format::ratio_words_in;
/// assert_eq!(ratio_words_in(2.0, Better::Lower, "bytes", "Java", "Rust"), "Java 2.0x larger");
/// assert_eq!(ratio_words_in(0.5, Better::Lower, "requests", "Java", "Rust"), "Java 2.0x fewer");
/// assert_eq!(ratio_words_in(0.5, Better::Lower, "ns", "Java", "Rust"), "Java 2.0x faster");
/// ```
pub fn ratio_words_in(
    ratio: f64,
    better: Better,
    unit: &str,
    subject: &str,
    other: &str,
) -> String {
    if !ratio.is_finite() || ratio <= 0.0 {
        return format!("{subject} {} {other}", self::ratio(ratio));
    }
    if (ratio - 1.0).abs() * 100.0 <= ON_PAR_PERCENT {
        return format!("{subject} on par");
    }
    let (more, less) = direction_words(better, unit);
    match better {
        Better::Neither => format!("{subject} {}x {other}", ratio_figure(ratio)),
        _ if ratio > 1.0 => format!("{subject} {}x {more}", ratio_figure(ratio)),
        _ => format!("{subject} {}x {less}", ratio_figure(1.0 / ratio)),
    }
}

/// The words for a ratio above 1 and below 1 of a metric in `unit` that improves the way
/// `better` says: sizes `larger`/`smaller`, counts (`ops`, `requests`, `%`) `more`/`fewer`,
/// times `slower`/`faster`, rates `faster`/`slower`.
///
/// ```
/// use sympathy_harness::catalog::Better;
/// use sympathy_harness::format::direction_words;
/// assert_eq!(direction_words(Better::Lower, "ns"), ("slower", "faster"));
/// assert_eq!(direction_words(Better::Higher, "msgs/s"), ("faster", "slower"));
/// assert_eq!(direction_words(Better::Lower, "bytes"), ("larger", "smaller"));
/// ```
pub fn direction_words(better: Better, unit: &str) -> (&'static str, &'static str) {
    match unit {
        "bytes" => ("larger", "smaller"),
        "ops" | "requests" | "%" => ("more", "fewer"),
        _ => match better {
            // A time grows when the work is slower; a rate grows when it is faster.
            Better::Higher => ("faster", "slower"),
            _ => ("slower", "faster"),
        },
    }
}

/// A number scaled into `[1, 1000)` with about four significant digits: one decimal from 1
/// up, three below.
fn scaled(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// A figure in readable units: times in `ns` scale to `µs`, `ms`, `s`; times in `ms` to `s`;
/// `bytes` to `KiB`, `MiB`, `GiB`; rates (`msgs/s`, any `x/s`) take `k`, `M`, `G`; a `ratio`
/// is a plain number, `%` follows the number; any other unit is written after the number.
///
/// ```
/// use sympathy_harness::format::quantity;
/// assert_eq!(quantity(33.0e6, "ns"), "33.0 ms");
/// assert_eq!(quantity(1500.0, "ns"), "1.5 µs");
/// assert_eq!(quantity(64.25, "ns"), "64.2 ns");
/// assert_eq!(quantity(2500.0, "ms"), "2.5 s");
/// assert_eq!(quantity(12.0 * 1024.0 * 1024.0, "bytes"), "12.0 MiB");
/// assert_eq!(quantity(185.0, "bytes"), "185 B");
/// assert_eq!(quantity(195.44e6, "msgs/s"), "195.4M msgs/s");
/// assert_eq!(quantity(0.5, "ratio"), "0.500");
/// assert_eq!(quantity(42.0, "%"), "42.0%");
/// assert_eq!(quantity(174.0, "ops"), "174.0 ops");
/// ```
pub fn quantity(value: f64, unit: &str) -> String {
    let a = value.abs();
    let pick = |steps: &[(f64, &'static str)]| {
        steps
            .iter()
            .rev()
            .find(|(scale, _)| a >= *scale)
            .copied()
            .unwrap_or(steps[0])
    };
    match unit {
        "ns" => {
            let (scale, name) = pick(&[(1.0, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")]);
            format!("{} {name}", scaled(value / scale))
        }
        "ms" => {
            let (scale, name) = pick(&[(1.0, "ms"), (1e3, "s")]);
            format!("{} {name}", scaled(value / scale))
        }
        "bytes" if a < 1024.0 => match value.fract() == 0.0 {
            true => format!("{value:.0} B"),
            false => format!("{value:.1} B"),
        },
        "bytes" => {
            let (scale, name) = pick(&[(1024.0, "KiB"), (1048576.0, "MiB"), (1073741824.0, "GiB")]);
            format!("{} {name}", scaled(value / scale))
        }
        "ratio" | "" => scaled(value),
        "%" => format!("{}%", scaled(value)),
        rate if rate.ends_with("/s") => {
            let (scale, prefix) = pick(&[(1.0, ""), (1e3, "k"), (1e6, "M"), (1e9, "G")]);
            format!("{}{prefix} {rate}", scaled(value / scale))
        }
        other => format!("{} {other}", scaled(value)),
    }
}

/// A figure with its spread, `64.2 ns (63.8..66.0)`: the spread's unit is left out where it
/// is the figure's, and the spread where it is the figure alone.
///
/// ```
/// use sympathy_harness::format::quantity_spread;
/// assert_eq!(quantity_spread(64.2, 63.8, 66.0, "ns"), "64.2 ns (63.8..66.0)");
/// assert_eq!(quantity_spread(900.0, 800.0, 1500.0, "ns"), "900.0 ns (800.0 ns..1.5 µs)");
/// assert_eq!(quantity_spread(412e6, 398e6, 420e6, "msgs/s"), "412.0M msgs/s (398.0M..420.0M)");
/// assert_eq!(quantity_spread(5e4, 5e4, 5e4, "requests"), "50000 requests");
/// ```
pub fn quantity_spread(value: f64, min: f64, max: f64, unit: &str) -> String {
    let [v, lo, hi] = [value, min, max].map(|x| quantity(x, unit));
    if lo == v && hi == v {
        return v;
    }
    // The unit is what follows the number's first space (`ns`, `msgs/s`), if anything.
    let suffix = |s: &str| s.find(' ').map(|i| s[i..].to_string());
    match (suffix(&v), suffix(&lo), suffix(&hi)) {
        (Some(a), Some(b), Some(c)) if a == b && a == c => format!(
            "{v} ({}..{})",
            &lo[..lo.len() - a.len()],
            &hi[..hi.len() - a.len()]
        ),
        _ => format!("{v} ({lo}..{hi})"),
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

    #[test]
    fn quantities_take_readable_units() {
        let cases = [
            (0.0, "ns", "0 ns"),
            (999.0, "ns", "999.0 ns"),
            (1.5e9, "ns", "1.5 s"),
            (0.25, "ms", "0.250 ms"),
            (1023.0, "bytes", "1023 B"),
            (1536.0, "bytes", "1.5 KiB"),
            (3.0 * 1073741824.0, "bytes", "3.0 GiB"),
            (1.2e9, "bytes/s", "1.2G bytes/s"),
            (950.0, "ops/s", "950.0 ops/s"),
            (12_262.0, "ops/s", "12.3k ops/s"),
        ];
        for (value, unit, expected) in cases {
            assert_eq!(super::quantity(value, unit), expected, "{value} {unit}");
        }
    }

    #[test]
    fn ratio_words_follow_the_direction() {
        use crate::catalog::Better::{Higher, Lower, Neither};
        let cases = [
            (1.5, Lower, "Java 1.5x slower"),
            (1.5, Higher, "Java 1.5x faster"),
            (0.5, Higher, "Java 2.0x slower"),
            (0.5, Neither, "Java 0.50x Rust"),
            (0.985, Lower, "Java on par"),
            (1.03, Lower, "Java 1.03x slower"),
            (25.0, Lower, "Java 25x slower"),
        ];
        for (ratio, better, expected) in cases {
            assert_eq!(super::ratio_words(ratio, better, "Java", "Rust"), expected);
        }
    }

    #[test]
    fn sizes_take_the_largest_unit_that_divides_them() {
        assert_eq!(super::bytes(1 << 20), "1 MiB");
        assert_eq!(super::bytes(3 << 30), "3 GiB");
        assert_eq!(super::bytes((1 << 20) + 1024), "1025 KiB");
        assert_eq!(super::bytes(0), "0 B");
    }
}
