//! The report on fixed JSON Lines input: golden `report.md` and terminal output, the HTML's
//! charts, and the baseline ratios.
//!
//! After an intended change of the output, regenerate the golden files with
//! `UPDATE_GOLDEN=1 cargo test -p sympathy-report --test report_golden` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use sympathy_report::{
    Merged, Report, RunFailure, baseline, pairing_variant, read_jsonl, variant_label,
};

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
            round: 1,
            retries: 0,
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
    assert_eq!(metric_tables, 12);
    // One bar chart per metric table, plus back-pressure's latency-vs-load line chart.
    assert_eq!(html.matches("<svg").count(), metric_tables + 1);
    assert_eq!(html.matches("</svg>").count(), metric_tables + 1);
    assert!(html.contains("p99 latency against offered load"));
    assert!(html.contains("unbounded | java"));
    assert!(html.contains("<h3>latency vs load</h3>"));
    // Labels are drawn as SVG text, no font file needed.
    assert!(
        html.contains("<text"),
        "charts carry their labels as <text>"
    );
    // A bar is labelled with the row's variant and work params, then the language.
    let xadd = &report().tables.experiments[0].metrics[0].rows[0];
    assert_eq!(xadd.key.variant, "xadd");
    let name = match xadd.key.params_label() {
        p if p.is_empty() => "xadd".to_string(),
        p => format!("xadd {p}"),
    };
    assert!(html.contains(&format!("{name} | rust")), "{name}");
    assert!(html.contains(&format!("{name} | seed (c)")), "{name}");
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
fn java_dispatch_variants_pair_with_rust_dyn_n_and_seeds_apply() {
    let md = report().markdown();
    // Java `mono` and Rust `dyn-1` share one row, with the seed's monomorphic figure.
    let row = md
        .lines()
        .find(|l| l.starts_with("| dyn-1 / mono (java) |"))
        .expect("the aliased dispatch row");
    assert!(row.contains("290.0M") && row.contains("3.30G"), "{row}");
    assert!(row.contains("3.10G java (Intel Sandy Bridge"), "{row}");
    let dispatch: String = md
        .lines()
        .skip_while(|l| *l != "## dispatch")
        .take_while(|l| *l != "## back-pressure")
        .collect();
    assert!(
        !dispatch.contains("| mono |"),
        "mono is not a row of its own:\n{dispatch}"
    );
    assert!(
        md.lines()
            .any(|l| l.starts_with("| step-down | implementations=4 ") && l.contains("phase=4 |")),
        "step-down has a row per phase"
    );
    // Java's `unsafe` is shown under the catalog's label of its work, with the seed's figure.
    let unsafe_label = variant_label(
        "serialization",
        pairing_variant("serialization", "java", "unsafe"),
    );
    let row = md
        .lines()
        .find(|l| l.contains("| 38.20 (37.50..40.00) |"))
        .expect("Java's unsafe read_ns");
    assert!(row.starts_with(&format!("| {unsafe_label} |")), "{row}");
}

#[test]
fn back_pressure_gets_a_latency_vs_load_table() {
    let md = report().markdown();
    let table: Vec<&str> = md
        .lines()
        .skip_while(|l| *l != "### latency vs load")
        .filter(|l| l.starts_with("| "))
        .take(9)
        .collect();
    assert_eq!(table.len(), 9, "header and 7 points + next table?\n{md}");
    assert!(table[1].starts_with("| unbounded | rust | 0.5 | 50000 | - | "));
    assert!(table[3].starts_with("| unbounded | java | 0.5 |"));
    assert!(table[6].starts_with("| bounded | rust | 1.5 | 150000 | 100 | "));
    assert!(table[6].contains("| 1010 |"), "{}", table[6]);
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
