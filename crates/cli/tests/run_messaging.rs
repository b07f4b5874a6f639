//! `sympathy run messaging` end to end: the plan, a smoke run of the Rust senders (every
//! message decoded and checked; the rows and params the report pairs on), and what happens to the
//! Java senders when Java cannot run (skipped with a note by default, an error when asked for).

mod common;

use std::process::Command;

use common::{results, sympathy, text};

/// `sympathy run messaging ARGS` with `SYMPATHY_ROOT` pointing where there is no java/sidecar.
fn without_java(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sympathy"))
        .args(["run", "messaging"])
        .args(args)
        .env("SYMPATHY_ROOT", "/nonexistent-sympathy-root")
        .output()
        .expect("the sympathy binary runs")
}

/// `out`, unless it is the clear error of a machine with a single usable core (`None`).
fn pinned(out: std::process::Output) -> Option<std::process::Output> {
    if out.status.success() {
        return Some(out);
    }
    assert!(text(&out).contains("two distinct cores"), "{}", text(&out));
    None
}

#[test]
fn the_plan_gives_each_variant_its_senders() {
    // the default preset runs every variant with its senders (quick skips some: skip_at)
    let out = sympathy(&["run", "messaging", "--plan"]);
    assert!(out.status.success(), "{}", text(&out));
    let plans: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rows: Vec<String> = plans
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p["variant"].as_str().unwrap(),
                p["params"]["sender"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "raw same-language",
            "raw other-language",
            "sbe same-language",
            "sbe other-language",
            "struct same-language",
            "struct other-language",
            "hand-codec same-language",
            "hand-codec other-language",
            "serde same-language",
            "sbe-jni other-language",
        ]
    );
    assert_eq!(plans[8]["params"]["stock_count"], 300_000);
    assert_eq!(plans[0]["params"]["count"], 5_000_000);
    assert!(plans.iter().all(|p| p["language"] == "rust"));

    // quick (compare's default, timed in minutes): the headline encodings, same-language senders
    let out = sympathy(&["run", "messaging", "--plan", "--quick"]);
    assert!(out.status.success(), "{}", text(&out));
    let quick: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let p: serde_json::Value = serde_json::from_str(l).unwrap();
            format!(
                "{} {}",
                p["variant"].as_str().unwrap(),
                p["params"]["sender"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(quick, ["raw same-language", "sbe same-language"]);
}

#[test]
fn a_smoke_run_of_the_rust_senders_reports_every_encoding() {
    let Some(out) = pinned(sympathy(&[
        "run",
        "messaging",
        "--smoke",
        "--senders",
        "same-language",
        "--count",
        "5000",
        "--json",
    ])) else {
        return;
    };
    let lines = results(&out);
    let rates: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|r| r["metric"] == "msgs_per_sec")
        .collect();
    let variants: Vec<&str> = rates
        .iter()
        .map(|r| r["variant"].as_str().unwrap())
        .collect();
    assert_eq!(variants, ["raw", "sbe", "struct", "hand-codec", "serde"]);
    for r in &rates {
        assert_eq!(r["check"], "ok");
        assert_eq!(r["params"]["sender"], "same-language");
        assert_eq!(
            (&r["params"]["producer"], &r["params"]["consumer"]),
            (&"rust".into(), &"rust".into())
        );
        assert!(r["value"].as_f64().unwrap() > 0.0);
    }
    let bytes: Vec<f64> = lines
        .iter()
        .filter(|r| r["metric"] == "encoded_bytes")
        .map(|r| r["value"].as_f64().unwrap())
        .collect();
    assert_eq!(&bytes[..4], [74.0, 74.0, 64.0, 64.0]);
    assert!(
        text(&out).contains("one-way hop between cores"),
        "{}",
        text(&out)
    );
}

#[test]
fn java_senders_are_skipped_without_java_unless_asked_for() {
    let Some(out) = pinned(without_java(&["--smoke", "--count", "2000", "--json"])) else {
        return;
    };
    let said = text(&out);
    assert!(
        said.contains("note: messaging") && said.contains("skipped"),
        "{said}"
    );
    let rows = results(&out);
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r["params"]["sender"] == "same-language"),
        "{rows:?}"
    );
    let asked = without_java(&["--smoke", "--senders", "other-language", "--count", "2000"]);
    assert!(!asked.status.success());
    assert!(
        text(&asked).contains("Java is unavailable"),
        "{}",
        text(&asked)
    );
}

#[test]
fn a_bad_sender_is_named_with_the_choices() {
    let out = sympathy(&["run", "messaging", "--senders", "carrier-pigeon"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("same-language"), "{}", text(&out));
}
