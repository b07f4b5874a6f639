//! Whole-number flags in the syntax both command lines take (`java/sidecar`'s `Args.parseLong`
//! is the twin): digits with optional `_` separators and an optional binary suffix, `k` (x1024),
//! `m` (x1024^2) or `g` (x1024^3), in either case: `65536`, `64k`, `1m`, `1_000_000`.
//!
//! ```ignore
//! #[arg(long, value_parser = quantity::usize)]
//! capacity: usize,        // --capacity 1m is 1048576
//! ```

/// A whole number of the syntax above.
///
/// # Errors
/// Not digits (after the separators and suffix), or too large for a u64.
pub fn u64(text: &str) -> Result<u64, String> {
    let cleaned = text.replace('_', "").to_ascii_lowercase();
    let (digits, scale) = match cleaned.as_bytes().last() {
        Some(b'k') => (&cleaned[..cleaned.len() - 1], 1u64 << 10),
        Some(b'm') => (&cleaned[..cleaned.len() - 1], 1 << 20),
        Some(b'g') => (&cleaned[..cleaned.len() - 1], 1 << 30),
        _ => (&cleaned[..], 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a whole number such as 65536, 64k or 1m, got '{text}'"
        ));
    }
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("'{text}' is too large (the most is {})", u64::MAX))
}

/// [`u64()`] as a `usize`.
///
/// # Errors
/// As [`u64()`], or too large for this machine's `usize`.
pub fn usize(text: &str) -> Result<usize, String> {
    let n = u64(text)?;
    ::core::primitive::usize::try_from(n).map_err(|_| format!("'{text}' is too large here"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_sidecars_syntax() {
        assert_eq!(u64("65536"), Ok(65536));
        assert_eq!(u64("64k"), Ok(65536));
        assert_eq!(u64("1m"), Ok(1 << 20));
        assert_eq!(u64("1M"), Ok(1 << 20));
        assert_eq!(u64("2g"), Ok(2 << 30));
        assert_eq!(u64("1_000_000"), Ok(1_000_000));
        assert_eq!(usize("4k"), Ok(4096));
    }

    #[test]
    fn refuses_what_is_not_a_whole_number_and_says_what_is() {
        for bad in ["", "k", "-1", "+1", "1.5", "1kb", "1 k", "0x10", "one"] {
            let error = u64(bad).unwrap_err();
            assert!(error.contains("expected a whole number"), "{bad}: {error}");
        }
        assert!(
            u64("18446744073709551616")
                .unwrap_err()
                .contains("too large")
        );
        assert!(u64("17179869184g").unwrap_err().contains("too large"));
    }
}
