//! `sympathy run ipc` end to end: the plan, a smoke run of the Rust-only variants, what happens
//! to the cross-language variants when Java cannot run (skipped with a note by default, an error
//! when asked for by name), and (with `--ignored`, where the Java build can run) a Rust pinger
//! against a Java echo on each Java ring, every echo verified.

mod common;

use std::process::Command;

use common::{results, sympathy, text};

/// `sympathy run ipc ARGS` with `SYMPATHY_ROOT` pointing where there is no java/sidecar.
fn without_java(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(["run", "ipc"])
        .args(args)
        .env("SYMPATHY_ROOT", "/nonexistent-sympathy-root")
        .output()
        .expect("the sympathy binary runs")
}

/// `sympathy run ipc ARGS`.
fn run_ipc(args: &[&str]) -> std::process::Output {
    sympathy(&[&["run", "ipc"], args].concat())
}

/// `out`, unless it is the clear error of a machine with a single usable core, where the two
/// processes cannot be pinned apart (`None`). Any other failure fails the test.
fn pinned(out: std::process::Output) -> Option<std::process::Output> {
    if out.status.success() {
        return Some(out);
    }
    assert!(text(&out).contains("two distinct cores"), "{}", text(&out));
    None
}

#[test]
fn the_plan_lists_every_variant_with_the_catalog_values() {
    let out = run_ipc(&["--plan", "--quick"]);
    assert!(out.status.success(), "{}", text(&out));
    let plans: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let variants: Vec<&str> = plans
        .iter()
        .map(|p| p["variant"].as_str().unwrap())
        .collect();
    assert_eq!(
        variants,
        [
            "ring",
            "echo",
            "ring-cross",
            "echo-cross-ffm",
            "echo-cross-jni",
            "mpsc",
            "mpsc",
            "mpsc-mixed",
            "broadcast",
            "broadcast"
        ]
    );
    for plan in &plans {
        assert_eq!(plan["kind"], "plan");
        assert_eq!(plan["language"], "rust");
        // A broadcast ring holds the whole run (no receiver lapped): its own capacity.
        let capacity = if plan["variant"] == "broadcast" {
            64 << 20
        } else {
            262144
        };
        assert_eq!(plan["params"]["capacity"], capacity, "{plan}");
        assert_eq!(plan["params"]["size_bytes"], 4);
        assert_eq!(plan["params"]["writes"], "per-message");
        assert!(plan["params"].get("preset").is_none(), "{plan}");
    }
    assert_eq!(plans[0]["params"]["count"], 2_000_000);
    assert_eq!(plans[1]["params"]["round_trips"], 100_000);
    assert_eq!(plans[2]["params"]["producer"], "java");
    let producers: Vec<_> = plans[5..8]
        .iter()
        .map(|p| &p["params"]["producers"])
        .collect();
    assert_eq!(producers, [1, 2, 2]);
    assert_eq!(plans[7]["params"]["producer"], "rust+java");
    let receivers: Vec<_> = plans[8..]
        .iter()
        .map(|p| &p["params"]["receivers"])
        .collect();
    assert_eq!(receivers, [1, 2]);
    for echo_cross in &plans[3..5] {
        assert_eq!(echo_cross["params"]["producer"], "rust", "{echo_cross}");
        assert_eq!(echo_cross["params"]["consumer"], "java", "{echo_cross}");
        assert_eq!(echo_cross["params"]["round_trips"], 100_000, "{echo_cross}");
    }
}

#[test]
fn a_smoke_run_reports_throughput_and_round_trips_with_the_plans_params() {
    let out = without_java(&["--smoke", "--json", "--count", "20000"]);
    if !out.status.success() && text(&out).contains("two distinct cores") {
        return; // a single usable core cannot pin the pair: said clearly
    }
    assert!(
        text(&out).contains(
            "note: ipc ring-cross, echo-cross-ffm, echo-cross-jni, mpsc-mixed skipped: Java is \
             unavailable"
        ),
        "{}",
        text(&out)
    );
    let lines = results(&out);
    let seen: Vec<(&str, &str)> = lines
        .iter()
        .map(|r| {
            (
                r["variant"].as_str().unwrap(),
                r["metric"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("ring", "msgs_per_sec"),
            ("ring", "bytes_per_sec"),
            ("echo", "rtt_p50_ns"),
            ("echo", "rtt_p99_ns"),
            ("echo", "rtt_p999_ns"),
            ("echo", "rtt_max_ns"),
            ("mpsc", "msgs_per_sec"),
            ("mpsc", "bytes_per_sec"),
            ("mpsc", "msgs_per_sec"),
            ("mpsc", "bytes_per_sec"),
            ("broadcast", "msgs_per_sec"),
            ("broadcast", "bytes_per_sec"),
            ("broadcast", "msgs_per_sec"),
            ("broadcast", "bytes_per_sec"),
        ]
    );
    for r in &lines {
        assert_eq!(r["params"]["preset"], "smoke");
        assert_eq!(r["check"], "ok");
    }
    assert_eq!(lines[0]["params"]["count"], 20000);
}

#[test]
fn ring_cross_named_without_java_is_an_error_that_says_what_to_do() {
    for cross in ["ring-cross", "echo-cross-jni"] {
        let out = without_java(&["--smoke", "--variants", cross]);
        assert!(!out.status.success());
        let said = text(&out);
        assert!(said.contains("Java is unavailable"), "{said}");
        assert!(said.contains("SYMPATHY_ROOT"), "{said}");
    }
    let bad = run_ipc(&["--variants", "sideways"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad)
            .contains("[possible values: ring, echo, ring-cross, echo-cross-ffm, echo-cross-jni, mpsc, mpsc-mixed, broadcast]"),
        "{}",
        text(&bad)
    );
}

#[test]
fn the_ring_and_echo_variants_alone_run_and_emit_the_schema() {
    let out = run_ipc(&[
        "--variants",
        "ring",
        "--size",
        "64",
        "--count",
        "20000",
        "--runs",
        "1",
        "--json",
    ]);
    let Some(out) = pinned(out) else { return };
    let s = text(&out);
    assert!(
        s.contains(r#""experiment":"ipc""#) && s.contains(r#""metric":"msgs_per_sec""#),
        "{s}"
    );
    assert!(
        s.contains(r#""producer":"rust""#) && s.contains(r#""size_bytes":64"#),
        "{s}"
    );
    let out = run_ipc(&[
        "--variants",
        "echo",
        "--size",
        "8",
        "--round-trips",
        "2000",
        "--runs",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains(r#""metric":"rtt_p50_ns""#));
}

#[test]
fn the_ring_variant_alternates_write_modes_and_reports_each() {
    let out = run_ipc(&[
        "--variants",
        "ring",
        "--size",
        "8",
        "--count",
        "20000",
        "--runs",
        "2",
        "--json",
        "--writes",
        "per-message,batch",
    ]);
    let Some(out) = pinned(out) else { return };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rates: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(r#""metric":"msgs_per_sec""#))
        .collect();
    assert_eq!(rates.len(), 2, "{stdout}");
    assert!(
        rates[0].contains(r#""writes":"per-message""#) && !rates[0].contains(r#""batch""#),
        "{}",
        rates[0]
    );
    assert!(
        rates[1].contains(r#""writes":"batch""#) && rates[1].contains(r#""batch":256"#),
        "{}",
        rates[1]
    );
    assert!(rates.iter().all(|l| l.contains(r#""runs":2"#)), "{stdout}");
    let human = String::from_utf8_lossy(&out.stderr);
    assert!(human.contains("ratio batch / per-message"), "{human}");
    let twice = run_ipc(&["--variants", "ring", "--writes", "batch,batch"]);
    assert!(!twice.status.success());
    assert!(
        text(&twice).contains("names batch twice"),
        "{}",
        text(&twice)
    );
    let unknown = run_ipc(&["--variants", "ring", "--writes", "sideways"]);
    assert_eq!(unknown.status.code(), Some(2), "{}", text(&unknown));
    assert!(
        text(&unknown).contains("use one of per-message, batch"),
        "{}",
        text(&unknown)
    );
}

#[test]
fn the_mpsc_and_broadcast_variants_verify_every_message_of_every_peer() {
    let out = run_ipc(&[
        "--variants",
        "mpsc,broadcast",
        "--count",
        "20001",
        "--runs",
        "1",
        "--smoke",
        "--json",
    ]);
    let Some(out) = pinned(out) else { return };
    let lines = results(&out);
    let rates: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|r| r["metric"] == "msgs_per_sec")
        .collect();
    let seen: Vec<(&str, &serde_json::Value)> = rates
        .iter()
        .map(|r| {
            let peers = match r["variant"].as_str().unwrap() {
                "mpsc" => &r["params"]["producers"],
                _ => &r["params"]["receivers"],
            };
            (r["variant"].as_str().unwrap(), peers)
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("mpsc", &1.into()),
            ("mpsc", &2.into()),
            ("broadcast", &1.into()),
            ("broadcast", &2.into())
        ]
    );
    for r in rates {
        assert_eq!(r["check"], "ok", "{r}");
        assert_eq!(r["params"]["count"], 20001, "{r}");
        assert!(r["value"].as_f64().unwrap() > 0.0, "{r}");
    }
    let human = String::from_utf8_lossy(&out.stderr);
    assert!(human.contains("slowest of receivers"), "{human}");
    assert!(human.contains("ratio producers=2 / producers=1"), "{human}");
}

#[test]
fn a_broadcast_run_that_does_not_fit_half_the_ring_is_refused() {
    let out = run_ipc(&["--variants", "broadcast", "--capacity", "32", "--plan"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("half the ring"), "{}", text(&out));
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven, java/sidecar): ci/java-test runs the same both ways"]
fn a_rust_consumer_verifies_a_rust_and_a_java_producer_into_one_many_to_one_ring() {
    let args = "--variants mpsc-mixed --count 20000 --runs 1 --smoke --json";
    let Some(out) = pinned(run_ipc(&args.split(' ').collect::<Vec<_>>())) else {
        return;
    };
    let lines = results(&out);
    let rate = lines
        .iter()
        .find(|r| r["metric"] == "msgs_per_sec")
        .expect("a msgs_per_sec result");
    assert_eq!(rate["variant"], "mpsc-mixed", "{rate}");
    assert_eq!(rate["check"], "ok", "{rate}");
    assert_eq!(rate["params"]["producer"], "rust+java", "{rate}");
    assert_eq!(rate["params"]["producers"], 2, "{rate}");
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven, java/sidecar): ci/java-test runs the same both ways"]
fn a_rust_pinger_against_a_java_echo_verifies_every_round_trip() {
    let args = "--variants echo-cross-ffm,echo-cross-jni --round-trips 2000 --runs 1 --json";
    let Some(out) = pinned(run_ipc(&args.split(' ').collect::<Vec<_>>())) else {
        return;
    };
    let lines = results(&out);
    for variant in ["echo-cross-ffm", "echo-cross-jni"] {
        let rows: Vec<&serde_json::Value> =
            lines.iter().filter(|r| r["variant"] == variant).collect();
        let metrics: Vec<&str> = rows.iter().map(|r| r["metric"].as_str().unwrap()).collect();
        assert_eq!(
            metrics,
            ["rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "rtt_max_ns"],
            "{variant}"
        );
        for r in rows {
            assert_eq!(r["language"], "rust", "{r}");
            assert_eq!(r["check"], "ok", "{r}");
            assert_eq!(r["params"]["consumer"], "java", "{r}");
            assert_eq!(r["params"]["round_trips"], 2000, "{r}");
        }
    }
}
