//! `sympathy run back-pressure` end to end: the five metrics per load with their params.
//!
//! No test here depends on the machine keeping the 1 ms bound (a loaded machine may not): the
//! unbounded queue's checks are accounting only, and the bounded run uses a 500 ms bound.

mod common;

use common::{results, sympathy};

const METRICS: [&str; 5] = [
    "latency_p50_ns",
    "latency_p99_ns",
    "latency_max_ns",
    "rejected",
    "completed",
];

#[test]
fn unbounded_reports_every_metric_per_load() {
    if sympathy_lab_cores() < 2 {
        eprintln!("skipped: back-pressure needs two cores");
        return;
    }
    let out = sympathy(&[
        "run",
        "back-pressure",
        "--variants",
        "unbounded",
        "--loads",
        "0.5,1.5",
        "--count",
        "2000",
        "--runs",
        "1",
        "--json",
    ]);
    let lines = results(&out);
    assert_eq!(lines.len(), 2 * METRICS.len());
    for (rows, (load, arrival)) in lines.chunks(5).zip([("0.5", 50_000), ("1.5", 150_000)]) {
        let metrics: Vec<&str> = rows.iter().map(|r| r["metric"].as_str().unwrap()).collect();
        assert_eq!(metrics, METRICS);
        for row in rows {
            assert_eq!(row["variant"], "unbounded");
            assert_eq!(row["params"]["load"], load);
            assert_eq!(row["params"]["arrival_per_sec"], arrival);
            assert_eq!(row["params"]["service_ns"], 10000);
            assert_eq!(row["params"]["count"], 2000);
            assert!(row["params"].get("queue_len").is_none());
            assert_eq!(row["check"], "ok");
        }
        assert_eq!(rows[3]["value"], 0.0, "the unbounded queue rejects nothing");
        assert_eq!(rows[4]["value"], 2000.0);
        assert!(
            rows[1]["value"].as_f64().unwrap() >= 10_000.0,
            "p99 >= service"
        );
    }
}

#[test]
fn bounded_carries_its_littles_law_queue_length() {
    if sympathy_lab_cores() < 2 {
        return;
    }
    let out = sympathy(&[
        "run",
        "back-pressure",
        "--variants",
        "bounded",
        "--loads",
        "0.5",
        "--count",
        "1000",
        "--max-latency-ns",
        "500000000",
        "--json",
        "--quick",
    ]);
    let lines = results(&out);
    assert_eq!(lines.len(), METRICS.len());
    let workers = lines[0]["params"]["workers"].as_u64().unwrap();
    // 500 ms / (10 us / workers).
    assert_eq!(lines[0]["params"]["queue_len"], 50_000 * workers);
    assert_eq!(
        lines[3]["value"].as_f64().unwrap() + lines[4]["value"].as_f64().unwrap(),
        1000.0
    );
}

#[test]
fn bad_loads_are_rejected() {
    let out = sympathy(&["run", "back-pressure", "--loads", "fast"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("'fast'"));
}

/// Cores this process may use (the test's own affinity, as the CLI's).
fn sympathy_lab_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
