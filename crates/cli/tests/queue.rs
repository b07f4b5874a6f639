//! `sympathy run queue` end to end: every variant (including `p1c1-ipc`, whose consumer is this
//! binary re-executed as `run queue-peer`) reports a verified result in the schema.

use std::process::Command;

use serde_json::Value;

fn sympathy() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
}

#[test]
fn queue_reports_a_verified_rate_for_every_variant() {
    let output = sympathy()
        .args(["run", "queue", "--json", "--runs", "1", "--count", "20000"])
        .args(["--placement", "same-core", "--capacity", "256"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "sympathy failed: {stderr}");
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["kind"], "env");
    let results = &lines[1..];
    let variants: Vec<&str> = results
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "p1c1",
            "p1c1-boxed",
            "p1c1-batch",
            "p1c1-offheap",
            "p1c1-ipc",
            "fastflow",
            "rtrb",
            "crossbeam-array-queue",
            "std-sync-channel",
            "ring"
        ]
    );
    for r in results {
        assert_eq!(r["experiment"], "queue");
        assert_eq!(r["metric"], "msgs_per_sec");
        assert_eq!(r["check"], "ok");
        assert_eq!(r["params"]["placement"], "same-core");
        let element = match r["variant"].as_str() {
            Some("p1c1-boxed") => "boxed-u32", // the u32 behind a pointer, as Java's boxed queues
            _ => "u32",
        };
        assert_eq!(r["params"]["element"], element);
        assert!(r["value"].as_f64().unwrap() > 0.0);
    }
    assert!(stderr.contains("ops/sec="), "seed-style lines go to stderr");
}

#[test]
fn ipc_works_for_every_element_type() {
    let output = sympathy()
        .args([
            "run",
            "queue",
            "--runs",
            "1",
            "--count",
            "10000",
            "--variants",
            "p1c1-ipc",
        ])
        .args(["--placement", "same-core", "--element", "u32,u64,tick"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for element in ["u32", "u64", "tick"] {
        assert!(stdout.contains(&format!("element={element}")), "{stdout}");
    }
}

#[test]
fn a_capacity_that_is_not_a_power_of_two_is_a_clear_error() {
    let output = sympathy()
        .args([
            "run",
            "queue",
            "--quick",
            "--variants",
            "p1c1",
            "--capacity",
            "1000",
        ])
        .args(["--placement", "same-core"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("capacity 1000 is not a power of two"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_variant_is_refused_with_the_list() {
    let output = sympathy()
        .args(["run", "queue", "--variants", "ring9"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("p1c1-offheap"));
}
