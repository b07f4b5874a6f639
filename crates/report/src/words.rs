//! A ratio in words, in one sense throughout: the word, the figure beside it and its interval
//! always read the same way ("Java 2.0x faster (1.8..2.2)": both figures are "times faster"),
//! and a word is said only when the interval allows it ([`Verdict`]). Every renderer (terminal,
//! Markdown, HTML, the findings and the answer) takes its ratio texts from here.

use sympathy_harness::catalog::Better;
use sympathy_harness::format;

use crate::stats::{RatioInterval, Verdict};

/// How a ratio `subject / other` reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatioReading {
    /// What the interval allows: `Java 1.5x slower`, `Java on par with Rust`, `inconclusive`,
    /// or `Java/Rust 0.80x` for a metric with no better direction.
    pub words: String,
    /// The figure and interval in the words' sense: `1.31..1.76x, 3 rounds` (for an
    /// inconclusive or directionless ratio, of `subject/other`, named: `Java/Rust 1.15x,
    /// 0.62..2.13, 2 rounds`).
    pub detail: String,
    /// The verdict behind the words.
    pub verdict: Verdict,
}

impl RatioReading {
    /// `words (detail)`, one line.
    pub fn text(&self) -> String {
        format!("{} ({})", self.words, self.detail)
    }
}

/// `95% CI 1.31..1.76`, or `one round: no interval`: the interval of `ratio` as every text of
/// the report writes it.
pub(crate) fn interval_text(ratio: &RatioInterval) -> String {
    match ratio.interval() {
        Some((low, high)) => format!("95% CI {}", range(low, high)),
        None => "one round: no interval".into(),
    }
}

/// `1.31..1.76`.
fn range(low: f64, high: f64) -> String {
    format!(
        "{}..{}",
        format::ratio_figure(low),
        format::ratio_figure(high)
    )
}

/// `2 rounds` / `1 round`.
fn pairs_text(pairs: usize) -> String {
    match pairs {
        1 => "1 round".into(),
        n => format!("{n} rounds"),
    }
}

/// Reads `ratio` (of `subject` over `other`) for a metric in `unit` that improves the way
/// `better` says.
///
/// ```
/// use sympathy_harness::catalog::Better;
/// use sympathy_report::{RatioInterval, read_ratio};
/// // Java's times were half of Rust's in both rounds: Java is 2x faster, and the interval
/// // is said in "times faster" too, never as the raw 0.5.
/// let r = RatioInterval::of_pairs(&[0.5, 0.5]).unwrap();
/// let reading = read_ratio(&r, Better::Lower, "ns", "Java", "Rust");
/// assert_eq!(reading.text(), "Java 2.0x faster (95% CI 2.0..2.0, 2 rounds)");
/// // Rounds disagreeing on the direction: no word.
/// let r = RatioInterval::of_pairs(&[0.76, 1.54]).unwrap();
/// assert!(read_ratio(&r, Better::Lower, "ns", "Java", "Rust").words.starts_with("inconclusive"));
/// ```
pub fn read_ratio(
    ratio: &RatioInterval,
    better: Better,
    unit: &str,
    subject: &str,
    other: &str,
) -> RatioReading {
    let verdict = ratio.verdict();
    let pairs = pairs_text(ratio.pairs);
    let named = |r: &RatioInterval| {
        let mut detail = format!("{subject}/{other} {}x", format::ratio_figure(r.estimate));
        if let Some((low, high)) = r.interval() {
            detail.push_str(&format!(", 95% CI {}", range(low, high)));
        }
        format!("{detail}, {pairs}")
    };
    let (words, detail) = match (verdict, better) {
        (_, Better::Neither) => (
            format!(
                "{subject}/{other} {}x",
                format::ratio_figure(ratio.estimate)
            ),
            match ratio.interval() {
                Some((low, high)) => format!("95% CI {}, {pairs}", range(low, high)),
                None => pairs,
            },
        ),
        (Verdict::Above | Verdict::Below, _) => {
            let (more, less) = format::direction_words(better, unit);
            let (word, directed) = if verdict == Verdict::Above {
                (more, *ratio)
            } else {
                (less, ratio.inverse())
            };
            (
                format!(
                    "{subject} {}x {word}",
                    format::ratio_figure(directed.estimate)
                ),
                format!("95% CI {}, {pairs}", range(directed.low, directed.high)),
            )
        }
        (Verdict::OnPar, _) => (format!("{subject} on par with {other}"), named(ratio)),
        (Verdict::Inconclusive, _) => ("inconclusive".to_string(), named(ratio)),
    };
    RatioReading {
        words,
        detail,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(pairs: &[f64], better: Better, unit: &str) -> RatioReading {
        read_ratio(
            &RatioInterval::of_pairs(pairs).unwrap(),
            better,
            unit,
            "Java",
            "Rust",
        )
    }

    #[test]
    fn the_figure_and_its_interval_read_in_the_sense_of_the_word() {
        // A time ratio 1/193: "Java 193x slower" over "0.0052..0.0052" was the old mistake.
        let r = reading(&[0.0052, 0.0052], Better::Lower, "ns");
        assert_eq!(r.words, "Java 192x faster");
        assert_eq!(r.detail, "95% CI 192..192, 2 rounds");
        // A rate: higher is better, so Java's 2x rate is "faster", not "slower".
        let r = reading(&[2.0, 2.1], Better::Higher, "msgs/s");
        assert!(r.words.starts_with("Java 2.0x faster"), "{r:?}");
        let r = reading(&[0.5, 0.52], Better::Higher, "msgs/s");
        assert_eq!(r.words, "Java 2.0x slower", "{r:?}");
        // 1/0.52 .. 1/0.5 = 1.92 .. 2.0 per round: the interval in "times slower" too.
        assert!(r.detail.starts_with("95% CI 1.5..2.5"), "{r:?}");
    }

    #[test]
    fn no_word_where_the_interval_reaches_parity() {
        let r = reading(&[0.89, 0.93], Better::Lower, "ns");
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert_eq!(r.words, "inconclusive");
        assert!(r.detail.starts_with("Java/Rust 0.91x, 95% CI 0."), "{r:?}");
        let one = reading(&[3.0], Better::Lower, "ns");
        assert_eq!(one.text(), "inconclusive (Java/Rust 3.0x, 1 round)");
        let par = reading(&[1.0, 1.01, 0.99, 1.0], Better::Lower, "ns");
        assert_eq!(par.words, "Java on par with Rust");
    }

    #[test]
    fn a_share_gets_no_direction_word() {
        let r = reading(&[0.8, 0.82], Better::Neither, "ratio");
        assert_eq!(r.words, "Java/Rust 0.81x");
        assert!(!r.text().contains("faster") && !r.text().contains("slower"));
    }
}
