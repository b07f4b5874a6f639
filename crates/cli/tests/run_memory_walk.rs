//! `sympathy run memory-walk` end to end: JSON Lines out, bad sizes rejected with a message.

use std::process::Command;

use serde_json::Value;

fn sympathy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .output()
        .expect("the sympathy binary runs")
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("stdout holds only JSON lines"))
        .collect()
}

#[test]
fn every_walk_reports_a_verified_result() {
    let out = sympathy(&[
        "run",
        "memory-walk",
        "--size-mib",
        "4",
        "--runs",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert_eq!(lines[0]["kind"], "env");
    let variants: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "linear",
            "random-page",
            "random-heap",
            "chase-page",
            "chase-heap"
        ]
    );
    for line in &lines[1..] {
        assert_eq!(line["experiment"], "memory-walk");
        assert_eq!(line["metric"], "ns_per_op");
        assert_eq!(line["check"], "ok");
        assert_eq!(line["params"]["size_bytes"], 4 * 1024 * 1024);
        assert_eq!(line["params"]["huge_pages"], false);
    }
}

#[test]
fn sweep_reports_one_size_per_power_of_two() {
    let out = sympathy(&[
        "run",
        "memory-walk",
        "--size-mib",
        "2",
        "--sweep",
        "--runs",
        "1",
        "--json",
        "--quick",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sizes: Vec<u64> = json_lines(&out.stdout)[1..]
        .iter()
        .map(|l| l["params"]["size_bytes"].as_u64().unwrap())
        .collect();
    // 16 KiB .. 2 MiB: 8 sizes.
    assert_eq!(sizes.len(), 8);
    assert_eq!((sizes[0], sizes[7]), (16 * 1024, 2 * 1024 * 1024));
}

#[test]
fn size_that_is_not_a_power_of_two_is_rejected() {
    let out = sympathy(&["run", "memory-walk", "--size-mib", "3"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("power of two"), "{err}");
}

#[test]
fn unknown_variant_is_rejected() {
    let out = sympathy(&["run", "memory-walk", "--variants", "linear,zigzag"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("zigzag"));
}
