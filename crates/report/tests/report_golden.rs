//! The report on fixed JSON Lines input: golden `report.md` and terminal output, the HTML's
//! charts, and the baseline ratios.
//!
//! After an intended change of the output, regenerate the golden files with
//! `UPDATE_GOLDEN=1 cargo test -p sympathy-report --test report_golden` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use sympathy_report::{
    Merged, Report, RunFailure, baseline, pairing_variant, parse_jsonl, read_jsonl, variant_label,
};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Three rounds of atomic-increment in Rust, Java and C, with `conditions`: a noisy cell, a
/// drifted row, a retried result and a second `thread_share` result per round.
fn rounds_report() -> Report {
    Report::new(Merged::from_streams([
        read_jsonl(&fixture("rounds-rust.jsonl")).unwrap(),
        read_jsonl(&fixture("rounds-java.jsonl")).unwrap(),
    ]))
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
fn rounds_markdown_matches_golden() {
    check_golden("rounds.md", &rounds_report().markdown());
}

#[test]
fn rounds_terminal_matches_golden() {
    check_golden("rounds-terminal.txt", &rounds_report().terminal());
}

#[test]
fn the_ratio_column_gives_the_interval_of_the_per_round_ratios() {
    let report = rounds_report();
    let table = &report.tables.experiments[0].metrics[0];
    let cas = &table.rows[0];
    assert_eq!(cas.key.variant, "cas-bool");
    assert_eq!(cas.cell("rust").unwrap().rounds().len(), 3);
    // Rust 7, 8, 14 and Java 14, 24, 21: per round 2.0, 3.0, 1.5; the medians' ratio is 21/8.
    let ratio = cas.ratio("java", "rust").unwrap();
    assert_eq!((ratio.min, ratio.max, ratio.pairs), (1.5, 3.0, 3));
    assert!(
        (ratio.estimate - 9f64.powf(1.0 / 3.0)).abs() < 1e-12,
        "{ratio:?}"
    );
    let medians = cas.cell("java").unwrap().value / cas.cell("rust").unwrap().value;
    assert_eq!(medians, 21.0 / 8.0);
    let md = report.markdown();
    let row = md
        .lines()
        .find(|l| l.starts_with("| cas-bool | threads=2 |"))
        .expect("the cas-bool row");
    // Three rounds agreeing that Java is slower: the whole interval lies past the band.
    // Rounds of 2.0, 3.0 and 1.5: all three say "slower", but with three pairs the 95%
    // interval still reaches below 1, so the column says so and no word is given.
    assert!(
        row.contains("| inconclusive (Java/Rust 2.1x, 95% CI 0.88..4.9, 3 rounds) |"),
        "{row}"
    );
    let xadd = md
        .lines()
        .find(|l| l.starts_with("| lock-xadd | threads=2 |"))
        .expect("the lock-xadd row");
    assert!(
        xadd.contains("| Java 2.0x slower (95% CI 1.9..2.1, 3 rounds) |"),
        "{xadd}"
    );
    assert!(row.contains("drift"), "{row}");
    assert!(row.contains("retried 1 time"), "{row}");
    assert!(!row.contains("noisy"), "the interval says how noisy: {row}");
    assert!(
        md.contains(
            "**5 drifted rows, 3 of 5 ratios inconclusive, 1 row kept after a retry, \
             1 large gap without a cause**"
        ),
        "{md}"
    );
    // Java 2.0x slower by the whole interval, and the catalog says nothing about lock-xadd's
    // Java row: the banner and the experiment's list say no cause is recorded.
    assert!(
        md.contains("1 large gap without a cause (")
            && md.contains(": atomic-increment lock-xadd threads=2\n"),
        "{md}"
    );
    assert!(
        md.contains("- `lock-xadd threads=2` (ns_per_op): Java 2.0x slower (95% CI 1.9..2.1, 3 rounds). No cause recorded"),
        "{md}"
    );
    // The banner names each drifted row once, with its params, and says what to run.
    assert!(
        md.contains("atomic-increment cas-bool threads=2, atomic-increment lock-xadd threads=2,"),
        "{md}"
    );
    assert!(
        md.contains("To settle them: `sympathy compare --only atomic-increment --max-drift 25`"),
        "{md}"
    );
}

#[test]
fn each_threads_share_is_a_row_of_its_own() {
    let report = rounds_report();
    let md = report.markdown();
    assert!(
        !md.contains("left out") && !md.contains("2nd result"),
        "{md}"
    );
    // `thread` is a work param of atomic-increment: one row per thread, each round paired.
    let share = report.tables.experiments[0].metric("thread_share").unwrap();
    assert_eq!(share.rows.len(), 2);
    assert_eq!(share.rows[1].cell("rust").unwrap().value, 0.45);
    // No direction for a share: the words say neither slower nor faster.
    let row = md
        .lines()
        .find(|l| l.starts_with("| cas-bool | thread=1 |"))
        .unwrap();
    assert!(row.contains("Java/Rust 1.00x"), "{row}");
    assert!(!row.contains("slower") && !row.contains("faster"), "{row}");
}

#[test]
fn a_second_result_of_a_round_is_shown_in_a_row_of_its_own() {
    // The Rust stream with its first result (cas-bool ns_per_op, round 1) reported twice.
    let text = fs::read_to_string(fixture("rounds-rust.jsonl")).unwrap();
    let first = text
        .lines()
        .find(|l| l.contains(r#""kind":"result""#))
        .unwrap();
    let twice = format!("{text}\n{first}\n");
    let report = Report::new(Merged::from_streams([
        parse_jsonl("rounds-rust.jsonl", &twice).unwrap(),
        read_jsonl(&fixture("rounds-java.jsonl")).unwrap(),
    ]));
    let md = report.markdown();
    assert!(md.contains("| cas-bool (2nd result) |"), "{md}");
    assert!(!md.contains("left out"), "{md}");
}

#[test]
fn a_language_column_without_a_value_is_hidden() {
    let md = rounds_report().markdown();
    let headers: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| variant |"))
        .collect();
    assert!(headers[0].contains("| C |") && headers[0].contains("| Rust vs C |"));
    assert!(
        !headers[1].contains("| C |"),
        "thread_share has no C result: {}",
        headers[1]
    );
    // threads differs between rows of ns_per_op, not of thread_share: it moves to the header.
    assert!(md.contains("Every row: threads=2"), "{md}");
}

#[test]
fn the_answer_and_the_lessons_come_first() {
    let report = rounds_report();
    let findings = report.findings();
    assert_eq!(findings.len(), 1);
    // Each language like with like: Java's three rounds agree, Rust's and C's reach parity.
    assert_eq!(
        findings[0].headline,
        "cas-bool against lock-xadd inconclusive at threads=2 in Rust, C; \
         cas-bool slower than lock-xadd at threads=2 in Java"
    );
    let md = report.markdown();
    let answer_at = md.find("## The answer").unwrap();
    assert!(
        md.contains("- **atomic-increment**: Java is 1.6x slower than Rust on ns_per_op over 3 paired rows (95% CI 1.3..2.1, 3 rounds)"),
        "{md}"
    );
    let findings_at = md.find("## The seeds' lessons").unwrap();
    assert!(answer_at < findings_at);
    assert!(findings_at < md.find("## Contents").unwrap());
    assert!(md.find("## Contents").unwrap() < md.find("## Machine").unwrap());
    assert!(md.contains("- [atomic-increment](#atomic-increment)"));
    // One machine row for the two languages that ran on it.
    assert!(
        md.contains("| rust, c, java | AMD EPYC 7B13 |")
            || md.contains("| rust, java | AMD EPYC 7B13 |"),
        "{md}"
    );
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
    // The forest plot, one bar chart per metric table, back-pressure's latency-vs-load chart.
    assert_eq!(html.matches("<svg").count(), metric_tables + 2);
    assert_eq!(html.matches("</svg>").count(), metric_tables + 2);
    assert!(
        html.contains("every paired row&#39;s cost ratio")
            || html.contains("every paired row's cost ratio")
    );
    assert!(html.contains("p99 latency against offered load"));
    assert!(html.contains("unbounded · Java"));
    assert!(html.contains(">latency vs load</h3>"));
    // The first screen first: the banner, the answer, the lessons and the contents come before
    // any experiment's table (the conditions table is part of the first screen).
    let first_table = html.find("class=\"experiment\"").unwrap();
    for id in [
        "id=\"banner\"",
        "id=\"answer\"",
        "id=\"findings\"",
        "id=\"toc\"",
    ] {
        assert!(html.find(id).is_some_and(|at| at < first_table), "{id}");
    }
    // Labels are drawn as SVG text, no font file needed.
    assert!(
        html.contains("<text"),
        "charts carry their labels as <text>"
    );
    // A bar's tooltip names the row's variant and the language.
    let xadd = &report().tables.experiments[0].metrics[0].rows[0];
    assert_eq!(xadd.key.variant, "xadd");
    assert!(html.contains("xadd · Rust: "));
    assert!(html.contains("xadd · seed (c, "));
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
    // Java `mono` (its call inlined behind a class check) and Rust `inlined-1` share one row,
    // with the seed's monomorphic figure.
    let row = md
        .lines()
        .find(|l| l.starts_with("| inlined-1 / mono (java) |"))
        .expect("the aliased dispatch row");
    assert!(
        row.contains("3.1G ops/s") && row.contains("3.3G ops/s"),
        "{row}"
    );
    // One round: no interval, so no word.
    assert!(row.contains("inconclusive (Java/Rust"), "{row}");
    assert!(row.contains("3.1G ops/s java (Intel Sandy Bridge"), "{row}");
    // Java's out-of-line call pairs with Rust's dyn-1, but ran unpinned: no ratio, and why.
    let row = md
        .lines()
        .find(|l| l.starts_with("| dyn-1 / mono-call (java) |"))
        .expect("the dyn-1 row");
    assert!(
        row.contains("not paired: pinned false in Java, true in Rust"),
        "{row}"
    );
    assert!(md.contains("1 row not paired"), "the banner counts it");
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
        .find(|l| l.contains("| 38.2 ns (37.5..40.0) |"))
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
    assert!(table[6].contains("| 1.0 ms |"), "{}", table[6]);
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
