//! One command line, two languages: `sympathy --help` and `java/sidecar --help` list the same
//! top-level verbs, and the ring's and the map's verbs of the Rust command exist in the sidecar
//! too (each side's extra tools named here, with why). Needs the Java build (`java/sidecar`, a
//! JDK and Maven): `ci/test` runs it with `--ignored` beside the drift test.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use common::{sympathy, text};

/// The verbs clap lists under `Commands:` in `sympathy [GROUP] --help` (less `help`).
fn rust_verbs(group: &[&str]) -> BTreeSet<String> {
    let mut args = group.to_vec();
    args.push("--help");
    let out = text(&sympathy(&args));
    out.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&v| v != "help")
        .map(str::to_string)
        .collect()
}

/// `java/sidecar ARGS` as text (stdout and stderr), failing the test if it cannot run.
fn sidecar(args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(root.join("java/sidecar"))
        .args(args)
        .output()
        .expect("java/sidecar runs");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The verbs after `prefix` on the sidecar's help line that starts with it:
/// `commands: run, compare, ...` or `ring <verb>: the ring file (create, ...)`.
fn sidecar_list(help: &str, prefix: &str) -> BTreeSet<String> {
    let line = help
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting `{prefix}` in java/sidecar --help:\n{help}"));
    let list = line[prefix.len()..].trim_start_matches(['(', ' ']);
    let list = list.split(')').next().unwrap_or(list);
    list.split(',').map(|v| v.trim().to_string()).collect()
}

/// The sidecar's `map` verbs, from the lines of its help that start `map VERB`.
fn sidecar_map_verbs(help: &str) -> BTreeSet<String> {
    help.lines()
        .map(str::trim_start)
        .filter_map(|l| l.strip_prefix("map "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

fn set(verbs: &[&str]) -> BTreeSet<String> {
    verbs.iter().map(|v| v.to_string()).collect()
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/test runs it beside the drift test"]
fn both_command_lines_list_the_same_verbs() {
    let help = sidecar(&["--help"]);
    assert_eq!(
        sidecar_list(&help, "commands:"),
        rust_verbs(&[]),
        "the top-level verbs of java/sidecar --help and sympathy --help"
    );
    // `ring wake` measures the Rust futex wait against spinning; the sidecar's bench, latency
    // and jni-cost measure the Java rings. Every other ring verb is in both.
    let java_ring = sidecar_list(&help, "ring <verb>: the ring file");
    let rust_ring = rust_verbs(&["ring"]);
    assert_eq!(
        &rust_ring - &set(&["wake"]),
        &java_ring - &set(&["bench", "latency", "jni-cost"]),
        "the ring verbs of both"
    );
    assert_eq!(
        rust_verbs(&["map"]),
        sidecar_map_verbs(&help),
        "the map verbs of both"
    );
    // `--help` at the ring level, and the ring verbs under `ring`, answer as `sympathy ring` does.
    let ring_help = sidecar(&["ring", "--help"]);
    assert!(ring_help.starts_with("usage: sidecar ring"), "{ring_help}");
    let create_help = sidecar(&["ring", "create", "--help"]);
    assert!(create_help.contains("--capacity"), "{create_help}");
    let compare = sidecar(&["compare"]);
    assert!(
        compare.contains("cargo run --release -- compare"),
        "{compare}"
    );
}
