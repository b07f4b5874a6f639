//! The experiments' cross-language runs at `--smoke`, started from each language, each
//! reporting verified rows (`--json`, parsed as JSON):
//!
//! - `ring_cross_reports_a_verified_rate_both_ways`: `sympathy run ipc --variants ring-cross
//!   --writes per-message,batch` (a Java producer, each way of writing, a Rust consumer) and
//!   `java/sidecar run ipc --variants ring-cross` (a Rust producer, a Java consumer), each a
//!   msgs_per_sec row.
//! - `echo_cross_verifies_round_trips_both_ways_on_each_java_ring`: `--variants
//!   echo-cross-ffm,echo-cross-jni` from each side (a Rust pinger and a Java echo, then a Java
//!   pinger and a Rust echo), each with its four round-trip percentiles.
//! - `messaging_decodes_every_encoding_from_each_language_in_each`: `run messaging` with each
//!   language receiving every encoding from a sender in the same language and in the other one
//!   (SBE Rust -> Rust, Java FFM -> Rust, Java JNI -> Rust, Rust -> Java FFM, Java -> Java; the
//!   struct, hand codec and raw bytes both ways), every message decoded and checked field by
//!   field: a row with `check: ok` each.
//!
//! They need the Java build (a JDK >= 22 and Maven): ci/java-test runs them with `--ignored`. The
//! Rust side is `$SYMPATHY_BIN` when set (ci/java-test: the release build), else this build's
//! `sympathy`; java/sidecar is given the same binary for its Rust peers.

#[path = "common/processes.rs"]
mod processes;

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use processes::{Proc, TempDir, describe, one_at_a_time, sidecar, sidecar_built, sympathy};

/// The deadline of one run (a few JVMs and Rust processes in turn, at --smoke).
const DEADLINE: Duration = Duration::from_secs(300);

/// The result rows of a successful `--json` run of `cmd` (its `env` record and any other kind
/// left out), each line parsed as JSON; a failed run, or a line that is not JSON, fails.
fn rows(cmd: Command) -> Vec<Value> {
    let what = describe(&cmd);
    let dir = TempDir::new("interop-runs");
    let done = Proc::spawn(&what, cmd, &dir, DEADLINE)
        .wait()
        .and_then(|d| d.ok())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rows = Vec::new();
    for line in done.stdout.lines().filter(|l| !l.trim().is_empty()) {
        let record: Value = serde_json::from_str(line).unwrap_or_else(|e| {
            panic!(
                "`{what}` printed a line that is not JSON ({e}): {line}\n{}",
                done.report()
            )
        });
        if record["kind"] == "result" {
            rows.push(record);
        }
    }
    assert!(
        !rows.is_empty(),
        "`{what}` reported no result\n{}",
        done.report()
    );
    rows
}

/// A row's fields as one line, for messages.
fn brief(r: &Value) -> String {
    format!(
        "{} {} {} params={} check={}",
        r["language"], r["variant"], r["metric"], r["params"], r["check"]
    )
}

/// The rows of `rows` that `matches`: at least one, each verified (`check: ok`); the failure
/// lists every row the run reported.
fn verified_rows(rows: &[Value], what: &str, matches: impl Fn(&Value) -> bool) {
    let found: Vec<&Value> = rows.iter().filter(|r| matches(r)).collect();
    let listing = || rows.iter().map(brief).collect::<Vec<_>>().join("\n  ");
    assert!(
        !found.is_empty(),
        "no row of {what}; the run reported:\n  {}",
        listing()
    );
    for row in found {
        assert_eq!(
            row["check"],
            "ok",
            "a row of {what} is not verified: {}",
            brief(row)
        );
    }
}

fn is(r: &Value, language: &str, variant: &str, metric: &str) -> bool {
    r["language"] == language && r["variant"] == variant && r["metric"] == metric
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn ring_cross_reports_a_verified_rate_both_ways() {
    let _one = one_at_a_time();
    sidecar_built();
    let rust = rows(sympathy(&[
        "run",
        "ipc",
        "--smoke",
        "--json",
        "--variants",
        "ring-cross",
        "--writes",
        "per-message,batch",
    ]));
    for writes in ["per-message", "batch"] {
        verified_rows(
            &rust,
            &format!("a Java producer writing {writes} to a Rust consumer"),
            |r| {
                is(r, "rust", "ring-cross", "msgs_per_sec")
                    && r["params"]["writes"] == writes
                    && r["params"]["producer"] == "java"
            },
        );
    }
    let java = rows(sidecar(&[
        "run",
        "ipc",
        "--smoke",
        "--json",
        "--variants",
        "ring-cross",
    ]));
    verified_rows(&java, "a Rust producer to a Java consumer", |r| {
        is(r, "java", "ring-cross", "msgs_per_sec") && r["params"]["producer"] == "rust"
    });
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn echo_cross_verifies_round_trips_both_ways_on_each_java_ring() {
    let _one = one_at_a_time();
    sidecar_built();
    let args = [
        "run",
        "ipc",
        "--smoke",
        "--json",
        "--variants",
        "echo-cross-ffm,echo-cross-jni",
    ];
    for (side, rows) in [
        ("rust", rows(sympathy(&args))),
        ("java", rows(sidecar(&args))),
    ] {
        for variant in ["echo-cross-ffm", "echo-cross-jni"] {
            for metric in ["rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"] {
                verified_rows(&rows, &format!("{side} {variant} {metric}"), |r| {
                    is(r, side, variant, metric)
                });
            }
        }
    }
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn messaging_decodes_every_encoding_from_each_language_in_each() {
    let _one = one_at_a_time();
    sidecar_built();
    let args = ["run", "messaging", "--smoke", "--json"];
    let rust = rows(sympathy(&args));
    let java = rows(sidecar(&args));
    let row = |rows: &[Value], side: &str, variant: &str, sender: &str| {
        verified_rows(
            rows,
            &format!("{side} receiving {variant} from the {sender} sender"),
            |r| is(r, side, variant, "msgs_per_sec") && r["params"]["sender"] == sender,
        );
    };
    for sender in ["same-language", "other-language"] {
        for variant in ["raw", "sbe", "struct", "hand-codec"] {
            row(&rust, "rust", variant, sender);
        }
        for variant in ["raw", "sbe", "struct", "byte-buffer"] {
            row(&java, "java", variant, sender);
        }
    }
    row(&rust, "rust", "serde", "same-language");
    row(&rust, "rust", "sbe-jni", "other-language");
    row(&java, "java", "java-serialization", "same-language");
}
