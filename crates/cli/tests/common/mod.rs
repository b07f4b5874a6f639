//! Helpers shared by the `sympathy` end-to-end tests (each test binary uses some of them).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `sympathy` binary built for these tests with `args`.
pub fn sympathy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(args)
        .output()
        .expect("the sympathy binary runs")
}

/// The result records of a successful `--json` run (stdout less its first line, the `env`
/// record); a failed run fails the test with its stderr.
pub fn results(out: &Output) -> Vec<Value> {
    json_lines(out).split_off(1)
}

/// Every stdout line of a successful run, each one JSON object (a `--json` run's records, a
/// `--plan`'s lines); a failed run fails the test with its stderr.
pub fn json_lines(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A run's stdout and stderr, one after the other: what a user would see.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A path in the temp folder unique to this test process and `tag`, with nothing at it.
pub fn temp(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("sympathy-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}
