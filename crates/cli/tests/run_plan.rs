//! `sympathy run <experiment|all> --plan`: one JSON line per result group, without measuring,
//! with exactly the params the run's results carry (the runner params of common.toml aside).

mod common;

use std::collections::BTreeSet;

use common::{json_lines, results, sympathy};
use serde_json::Value;
use sympathy_harness::catalog::catalog;

fn plan_lines(args: &[&str]) -> Vec<Value> {
    json_lines(&sympathy(args))
}

/// (variant, language, params less the runner params of common.toml) of a line.
fn group(line: &Value) -> (String, String, String) {
    let runner = &catalog().common.runner_params;
    let mut params = line["params"].as_object().unwrap().clone();
    params.retain(|k, _| !runner.contains(k));
    (
        line["variant"].as_str().unwrap().to_string(),
        line["language"].as_str().unwrap().to_string(),
        Value::Object(params).to_string(),
    )
}

#[test]
fn the_plan_lists_the_groups_the_run_reports() {
    for args in [
        &["run", "serialization", "--count", "200", "--runs", "1"][..],
        &[
            "run",
            "memory-walk",
            "--size-mib",
            "2",
            "--runs",
            "1",
            "--variants",
            "linear",
        ],
        &[
            "run",
            "dispatch",
            "--iterations",
            "1000",
            "--runs",
            "1",
            "--smoke",
        ],
    ] {
        let plan = plan_lines(&[args, &["--plan"]].concat());
        assert!(plan.iter().all(|l| l["kind"] == "plan"), "{plan:?}");
        let planned: Vec<_> = plan.iter().map(group).collect();
        let reported: BTreeSet<_> = results(&sympathy(&[args, &["--json"]].concat()))
            .iter()
            .map(group)
            .collect();
        assert_eq!(
            planned.iter().cloned().collect::<BTreeSet<_>>(),
            reported,
            "{args:?}"
        );
    }
}

#[test]
fn run_all_plans_every_experiment() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped: ping-pong and back-pressure cannot plan on one core");
        return;
    }
    let lines = plan_lines(&["run", "all", "--plan", "--smoke"]);
    let experiments: BTreeSet<&str> = lines
        .iter()
        .map(|l| l["experiment"].as_str().unwrap())
        .collect();
    let expected: BTreeSet<&str> = catalog().names().into_iter().collect();
    assert_eq!(experiments, expected);
    assert!(
        lines
            .iter()
            .any(|l| l["experiment"] == "memory-walk" && l["params"]["memory"] == "off-heap")
    );
}

#[test]
fn map_service_plans_a_closed_loop_group_and_one_per_rate_and_refuses_an_impossible_rate() {
    let lines = plan_lines(&[
        "run",
        "map-service",
        "--smoke",
        "--plan",
        "--variants",
        "http-hit",
        "--rate",
        "100,200",
    ]);
    let rates: Vec<Option<u64>> = lines.iter().map(|l| l["params"]["rate"].as_u64()).collect();
    assert_eq!(rates, [None, Some(100), Some(200)], "{lines:?}");
    assert!(lines[0]["params"]["requests"].is_u64(), "{:?}", lines[0]);

    let out = sympathy(&[
        "run",
        "map-service",
        "--plan",
        "--rate",
        "18446744073709551615",
    ]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("requests in one open-loop run; give a lower rate or fewer seconds"),
        "{said}"
    );
}
