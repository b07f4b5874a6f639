//! `sympathy run dispatch` end to end: one verified ops/s result per variant.

mod common;

use common::{results, sympathy};

#[test]
fn every_variant_reports_verified_calls_per_second() {
    let out = sympathy(&[
        "run",
        "dispatch",
        "--iterations",
        "100000",
        "--runs",
        "2",
        "--json",
    ]);
    let lines = results(&out);
    let expected = [
        ("static", 1),
        ("inlined-1", 1),
        ("inlined-2", 2),
        ("dyn-1", 1),
        ("dyn-2", 2),
        ("dyn-4", 4),
        ("enum", 4),
    ];
    assert_eq!(lines.len(), expected.len());
    for (line, (variant, implementations)) in lines.iter().zip(expected) {
        assert_eq!(line["experiment"], "dispatch");
        assert_eq!(line["variant"], variant);
        assert_eq!(line["metric"], "ops_per_sec");
        assert_eq!(line["unit"], "ops/s");
        assert_eq!(line["check"], "ok");
        assert_eq!(line["params"]["implementations"], implementations);
        assert_eq!(line["params"]["iterations"], 100000);
        assert_eq!(line["stats"]["runs"], 2);
        assert!(line["value"].as_f64().unwrap() > 0.0);
        assert_eq!(line["parity"]["pinned"], true, "the thread ran pinned");
    }
    // The seed-style lines (stderr in JSON mode) print each run's verified value.
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("ops/sec (value = -7)"), "{progress}");
}

#[test]
fn zero_iterations_and_java_names_are_rejected() {
    let out = sympathy(&["run", "dispatch", "--iterations", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 1"));
    let out = sympathy(&["run", "dispatch", "--variants", "mono"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("dyn-1"));
}
