//! `sympathy run struct-table` end to end: the five metrics per layout, measured bytes per record.

use std::process::Command;

use serde_json::Value;

fn sympathy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .output()
        .expect("the sympathy binary runs")
}

#[test]
fn every_layout_reports_times_and_measured_bytes() {
    let out = sympathy(&[
        "run",
        "struct-table",
        "--records",
        "10000",
        "--runs",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4 * 5);
    let bytes = |variant: &str| -> f64 {
        lines
            .iter()
            .find(|l| l["variant"] == variant && l["metric"] == "bytes_per_record")
            .expect("bytes_per_record line")["value"]
            .as_f64()
            .unwrap()
    };
    // The CLI installs the counting allocator, so the figures are measured.
    assert!(bytes("boxed") > bytes("aos"));
    assert!(bytes("aos") > bytes("flyweight"));
    for line in &lines {
        assert_eq!(line["params"]["records"], 10000);
        if line["metric"] == "gc_pause_ms" {
            assert_eq!(line["value"], 0.0, "no garbage collector: {line}");
        }
        let expected_check =
            if line["metric"] == "bytes_per_record" || line["metric"] == "gc_pause_ms" {
                "n/a"
            } else {
                "ok"
            };
        assert_eq!(line["check"], expected_check);
    }
}

#[test]
fn zero_records_are_rejected() {
    let out = sympathy(&["run", "struct-table", "--records", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("record count 0"));
}
