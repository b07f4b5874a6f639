//! Every renderer (terminal, Markdown, HTML) says a ratio the same way: the word, the figure
//! and its interval in one sense, no word where the interval reaches parity, and cross-language
//! cells named by their producer and consumer.

use sympathy_report::{Merged, Report, parse_jsonl};

/// A result of `experiment` in `round`, with `params` (a JSON object's inside).
fn result(
    experiment: &str,
    language: &str,
    variant: &str,
    params: &str,
    metric: &str,
    value: f64,
    round: u32,
) -> String {
    format!(
        r#"{{"kind":"result","experiment":"{experiment}","language":"{language}","variant":"{variant}","params":{{{params}}},"metric":"{metric}","value":{value},"unit":"x","check":"ok","conditions":{{"round":{round},"rounds":3}}}}"#
    )
}

fn report(lines: &[String]) -> Report {
    Report::new(Merged::from_streams([
        parse_jsonl("t", &lines.join("\n")).unwrap()
    ]))
}

/// The three renderings, named.
fn renderings(report: &Report) -> [(&'static str, String); 3] {
    [
        ("terminal", report.terminal()),
        ("markdown", report.markdown()),
        ("html", report.html()),
    ]
}

#[test]
fn a_faster_java_reads_faster_with_its_interval_in_the_same_sense_everywhere() {
    let mut lines = Vec::new();
    // linear: Java's time is half of Rust's in each round (0.5, 0.45, 0.55): Java faster.
    // chase-page: rounds 0.8, 1.3, 1.0 straddle parity: no word.
    for (round, (fast, straddle)) in (1..).zip([(0.5, 0.8), (0.45, 1.3), (0.55, 1.0)]) {
        let walk = |language: &str, variant: &str, value: f64| {
            result(
                "memory-walk",
                language,
                variant,
                r#""size_bytes":268435456"#,
                "ns_per_op",
                value,
                round,
            )
        };
        lines.push(walk("rust", "linear", 10.0));
        lines.push(walk("java", "linear", 10.0 * fast));
        lines.push(walk("rust", "chase-page", 20.0));
        lines.push(walk("java", "chase-page", 20.0 * straddle));
    }
    let report = report(&lines);
    for (name, text) in renderings(&report) {
        assert!(text.contains("2.0x faster"), "{name}:\n{text}");
        // The interval of "times faster" (1.6..2.6), never the raw Java/Rust (0.4..0.6)
        // under a word that points the other way. The terminal gives the verdicts only, within
        // 120 columns.
        if name == "terminal" {
            assert!(text.lines().all(|l| l.chars().count() <= 120), "{text}");
        } else {
            assert!(text.contains("Java 2.0x faster"), "{name}:\n{text}");
            assert!(text.contains("95% CI 1.6..2.6"), "{name}:\n{text}");
        }
        assert!(!text.contains("faster (95% CI 0."), "{name}:\n{text}");
        assert!(text.contains("inconclusive"), "{name}:\n{text}");
        for line in text
            .lines()
            .filter(|l| l.contains("chase-page") && l.contains("Java/Rust"))
        {
            assert!(
                !line.contains("slower") && !line.contains("faster"),
                "{name}: a verdict word where the rounds straddle parity: {line}"
            );
        }
        // Sizes in readable units, and no hop for a walk on one core.
        assert!(text.contains("size_bytes=256 MiB"), "{name}:\n{text}");
    }
}

#[test]
fn cross_language_rows_name_who_sent_what() {
    let mut lines = Vec::new();
    for round in 1..=2 {
        let j = f64::from(round);
        let ring = |language: &str, variant: &str, producer: &str, value: f64| {
            let consumer = language;
            result(
                "ipc",
                language,
                variant,
                &format!(r#""size_bytes":64,"producer":"{producer}","consumer":"{consumer}""#),
                "msgs_per_sec",
                value,
                round,
            )
        };
        lines.push(ring("rust", "ring", "rust", 200e6 + j));
        lines.push(ring("java", "ring", "java", 50e6 + j));
        lines.push(ring("rust", "ring-cross", "java", 70e6 + j));
        lines.push(ring("java", "ring-cross", "rust", 190e6 + j));
    }
    let report = report(&lines);
    for (name, text) in renderings(&report) {
        // The ring-cross row's cells name both ends.
        assert!(
            text.contains("Java -&gt; Rust") || text.contains("Java -> Rust"),
            "{name}"
        );
        if name == "terminal" {
            // Verdicts only: the ring-cross ratio names both sides, never "Java" alone.
            assert!(text.contains("Rust -> Java 2.7x faster"), "{name}:\n{text}");
            continue;
        }
        // The matrix: every producer against every consumer, each against Rust -> Rust.
        assert!(
            text.contains("producer -&gt; consumer") || text.contains("producer -> consumer"),
            "{name}"
        );
        assert!(
            text.contains("Java -> Rust 2.9x slower")
                || text.contains("Java -&gt; Rust 2.9x slower"),
            "{name}:\n{text}"
        );
        assert!(
            text.contains("Rust -> Java 1.1x slower")
                || text.contains("Rust -&gt; Java 1.1x slower"),
            "{name}:\n{text}"
        );
        assert!(!text.contains("Java ring-cross"), "{name}");
    }
    // The answer counts only the row where each language talks to itself.
    let answer = &report.answers()[0];
    assert_eq!(answer.rows, 1, "{}", answer.sentence);
    assert!(
        answer.sentence.starts_with("Java is 4.0x slower than Rust"),
        "{}",
        answer.sentence
    );
}
