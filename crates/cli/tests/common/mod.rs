//! Helpers shared by the `sympathy run <experiment>` end-to-end tests.

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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
