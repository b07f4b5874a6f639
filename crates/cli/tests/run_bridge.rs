//! `sympathy run bridge` end to end: the plan (the catalog's cases, Java's Aeron-only variants
//! refused), a run where Java cannot run (an error saying why), and (`--ignored`, with the Java
//! build) a smoke run on every smoke transport, whose rows must be the plan's, every message
//! and echo verified; and the veth transport, which runs as root and otherwise fails saying
//! why. The Rust side is `$SYMPATHY_BIN` when set, else this build's binary.
//!
//! ```text
//! SYMPATHY_BIN=$PWD/target/debug/sympathy cargo test -p sympathy-cli --test run_bridge -- --ignored --nocapture
//! ```

#[path = "common/processes.rs"]
mod processes;

use std::collections::BTreeSet;
use std::process::Command;
use std::time::Duration;

use processes::{Finished, Proc, TempDir, one_at_a_time, sidecar_built, sympathy};
use serde_json::Value;
use sympathy_harness::Preset;
use sympathy_harness::catalog::catalog;

/// A run's deadline: a smoke run starts eight JVMs and makes about 6,000 round trips that each
/// cross the scheduler several times on two cores (half a minute to a minute on the 2-core VM).
const DEADLINE: Duration = Duration::from_secs(600);

/// `sympathy run bridge ARGS`, run to its end (killed past [`DEADLINE`]), and its process id.
fn run_bridge(args: &[&str]) -> (Finished, u32) {
    let dir = TempDir::new("run-bridge");
    let args = [&["run", "bridge"], args].concat();
    let proc = Proc::spawn("sympathy run bridge", sympathy(&args), &dir, DEADLINE);
    let pid = proc.pid();
    (proc.wait().unwrap_or_else(|e| panic!("{e}")), pid)
}

/// The JSON records of a run's stdout.
fn records(run: &Finished) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The catalog's transports at `preset`.
fn transports(preset: Preset) -> Vec<String> {
    catalog()
        .param("bridge", "transport")
        .and_then(|p| p.strs_at(preset))
        .expect("experiments/bridge.toml lists its transports")
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Whether `run` failed because this machine has one usable core (the two ring ends cannot be
/// pinned apart): said clearly, nothing to check.
fn single_core(run: &Finished) -> bool {
    !run.success() && run.stderr.contains("two distinct cores")
}

#[test]
fn the_plan_is_each_rust_variant_on_each_transport_and_aeron_alone_is_javas() {
    let out = sympathy(&["run", "bridge", "--plan", "--smoke"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let plans: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let planned: Vec<(String, String)> = plans
        .iter()
        .map(|p| {
            (
                p["variant"].as_str().unwrap().to_string(),
                p["params"]["transport"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = ["ring-aeron-ring", "ring-aeron-ring-echo"]
        .into_iter()
        .flat_map(|v| {
            transports(Preset::Smoke)
                .into_iter()
                .map(move |t| (v.to_string(), t))
        })
        .collect();
    assert_eq!(planned, expected);
    for plan in &plans {
        assert_eq!(plan["language"], "rust", "{plan}");
        assert_eq!(plan["params"]["size_bytes"], 32, "{plan}");
        assert_eq!(plan["params"]["capacity"], 1_048_576, "{plan}");
        let count = if plan["variant"] == "ring-aeron-ring" {
            "count"
        } else {
            "round_trips"
        };
        assert!(plan["params"][count].is_u64(), "{plan}");
    }
    let aeron = sympathy(&["run", "bridge", "--variants", "aeron"])
        .output()
        .unwrap();
    assert_eq!(aeron.status.code(), Some(2), "{aeron:?}");
    let said = String::from_utf8_lossy(&aeron.stderr);
    assert!(
        said.contains("[possible values: ring-aeron-ring, ring-aeron-ring-echo]"),
        "{said}"
    );
}

#[test]
fn without_java_the_run_says_why_and_starts_nothing() {
    let out = Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(["run", "bridge", "--smoke", "--transports", "udp"])
        .env("SYMPATHY_ROOT", "/nonexistent-sympathy-root")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("Java is unavailable") || said.contains("two distinct cores"),
        "{said}"
    );
}

#[test]
#[ignore = "needs the Java build (java/sidecar): starts the bridge's JVMs"]
fn a_smoke_run_verifies_every_message_and_echo_on_every_smoke_transport() {
    let _serial = one_at_a_time();
    sidecar_built();
    let (run, pid) = run_bridge(&["--smoke", "--json"]);
    if single_core(&run) {
        return;
    }
    assert!(run.success(), "{}", run.report());
    let records = records(&run);
    assert_eq!(records[0]["kind"], "env", "{}", run.stdout);
    let results = &records[1..];
    let mut rows = BTreeSet::new();
    for r in results {
        assert_eq!(r["kind"], "result", "{r}");
        assert_eq!(r["experiment"], "bridge", "{r}");
        assert_eq!(r["language"], "rust", "{r}");
        assert_eq!(r["check"], "ok", "{r}");
        assert_eq!(r["params"]["preset"], "smoke", "{r}");
        assert_eq!(r["params"]["size_bytes"], 32, "{r}");
        assert!(r["value"].as_f64().unwrap() > 0.0, "{r}");
        rows.insert((
            r["variant"].as_str().unwrap().to_string(),
            r["params"]["transport"].as_str().unwrap().to_string(),
            r["metric"].as_str().unwrap().to_string(),
        ));
    }
    let mut expected = BTreeSet::new();
    for transport in transports(Preset::Smoke) {
        expected.insert((
            "ring-aeron-ring".to_string(),
            transport.clone(),
            "msgs_per_sec".to_string(),
        ));
        for metric in ["rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"] {
            expected.insert((
                "ring-aeron-ring-echo".to_string(),
                transport.clone(),
                metric.to_string(),
            ));
        }
    }
    assert_eq!(rows, expected, "{}", run.stdout);
    assert_eq!(
        results.len(),
        expected.len(),
        "one row each: {}",
        run.stdout
    );
    // Each echo row's quantiles in order (a property of one histogram, not a timing).
    for transport in transports(Preset::Smoke) {
        let quantile = |metric: &str| {
            results
                .iter()
                .find(|r| r["params"]["transport"] == transport.as_str() && r["metric"] == metric)
                .and_then(|r| r["value"].as_f64())
                .unwrap()
        };
        let q = ["rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"].map(quantile);
        assert!(q.windows(2).all(|w| w[0] <= w[1]), "{transport}: {q:?}");
    }
    // Nothing left behind: no scratch folder of that run (its rings, its drivers' folders).
    let ours = format!("sympathy-bridge-{pid}-");
    let left: Vec<String> = std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(&ours))
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "scratch folders left: {left:?}");
    println!(
        "{}",
        run.stderr
            .lines()
            .filter(|l| l.contains(" - ring-aeron-ring"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[ignore = "needs the Java build (java/sidecar) and, to run, root (network namespaces)"]
fn veth_runs_between_two_namespaces_or_fails_saying_why() {
    let _serial = one_at_a_time();
    sidecar_built();
    let (run, _) = run_bridge(&[
        "--smoke",
        "--json",
        "--transports",
        "veth",
        "--variants",
        "ring-aeron-ring",
    ]);
    if single_core(&run) {
        return;
    }
    if run.success() {
        let records = records(&run);
        let rows: Vec<&Value> = records.iter().filter(|r| r["kind"] == "result").collect();
        assert_eq!(rows.len(), 1, "{}", run.stdout);
        assert_eq!(rows[0]["params"]["transport"], "veth");
        assert_eq!(rows[0]["metric"], "msgs_per_sec");
        assert!(rows[0]["value"].as_f64().unwrap() > 0.0);
        println!("veth: {}", rows[0]["value"]);
    } else {
        assert!(
            run.stderr
                .contains("cannot make two network namespaces joined by a veth pair"),
            "{}",
            run.report()
        );
        println!("veth: not run here: {}", run.stderr.trim());
    }
}
