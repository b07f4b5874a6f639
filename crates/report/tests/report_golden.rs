//! The report on fixed JSON Lines input: golden `report.md` and terminal output, the HTML's
//! charts, and the baseline ratios.
//!
//! After an intended change of the output, regenerate the golden files with
//! `UPDATE_GOLDEN=1 cargo test -p sympathy-report --test report_golden` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use sympathy_report::{Merged, Report, RunFailure, baseline, read_jsonl};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn merged() -> Merged {
    Merged::from_streams([
        read_jsonl(&fixture("rust.jsonl")).unwrap(),
        read_jsonl(&fixture("java.jsonl")).unwrap(),
    ])
}

/// Paths inside the report are relative so the golden files do not depend on the checkout.
fn report() -> Report {
    let old = Merged::from_streams([read_jsonl(&fixture("baseline.jsonl")).unwrap()]);
    let merged = merged();
    let baseline = baseline::compare("baseline.jsonl", &merged, &old);
    Report::new(merged)
        .with_failures(vec![RunFailure {
            experiment: "memory-walk".into(),
            label: "java".into(),
            reason: "exit status 1 (log: logs/memory-walk-java.log)".into(),
        }])
        .with_baseline(baseline)
}

fn check_golden(name: &str, actual: &str) {
    // Sources name the fixture by absolute path; make them relative.
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    let actual = actual.replace(&root, "");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, &actual).unwrap();
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{name} differs from its golden file {}; rerun with UPDATE_GOLDEN=1 and review the diff.\n--- actual ---\n{actual}",
        path.display()
    );
}

#[test]
fn markdown_matches_golden() {
    check_golden("report.md", &report().markdown());
}

#[test]
fn terminal_matches_golden() {
    check_golden("terminal.txt", &report().terminal());
}

#[test]
fn html_is_self_contained_with_one_svg_chart_per_metric() {
    let html = report().html();
    if let Some(path) = std::env::var_os("REPORT_HTML_OUT") {
        fs::write(path, &html).unwrap(); // to look at the page by hand
    }
    let metric_tables: usize = report()
        .tables
        .experiments
        .iter()
        .map(|e| e.metrics.len())
        .sum();
    assert_eq!(metric_tables, 5);
    assert_eq!(html.matches("<svg").count(), metric_tables);
    assert_eq!(html.matches("</svg>").count(), metric_tables);
    // Labels are drawn as SVG text, no font file needed.
    assert!(
        html.contains("<text"),
        "charts carry their labels as <text>"
    );
    assert!(html.contains("xadd | rust"));
    assert!(html.contains("xadd | seed (c)"));
    // Nothing is fetched from elsewhere.
    for external in ["<script", "<link", "src=\"http", "href=\"http", "@import"] {
        assert!(
            !html.contains(external),
            "html must be self-contained: found {external}"
        );
    }
    assert!(html.contains("Failed runs"));
}

#[test]
fn baseline_ratios_are_new_over_old() {
    let report = report();
    let b = report.baseline.as_ref().unwrap();
    let ratio = |lang: &str, variant: &str, metric: &str| {
        b.lines
            .iter()
            .find(|l| l.new.language == lang && l.new.variant == variant && l.new.metric == metric)
            .and_then(|l| l.ratio())
    };
    assert_eq!(ratio("rust", "xadd", "ns_per_hop"), Some(64.2 / 80.25));
    assert_eq!(ratio("rust", "p1c1", "msgs_per_sec"), Some(2.0));
    assert_eq!(
        ratio("java", "xadd", "ns_per_hop"),
        None,
        "java was not in the baseline"
    );
    assert_eq!(b.missing.len(), 1);
    assert_eq!(b.missing[0].experiment, "memory-walk");
}

#[test]
fn write_creates_every_output_file() {
    let dir = std::env::temp_dir().join(format!("sympathy-report-test-{}", std::process::id()));
    let written = report().write(&dir).unwrap();
    assert_eq!(written.len(), 3);
    for path in &written {
        assert!(
            fs::metadata(path).unwrap().len() > 0,
            "{} is empty",
            path.display()
        );
    }
    // The merged file reads back with every result.
    let again = read_jsonl(&dir.join("results.jsonl")).unwrap();
    assert_eq!(again.results.len(), merged().results.len());
    assert_eq!(again.envs.len(), 2);
    fs::remove_dir_all(&dir).unwrap();
}
