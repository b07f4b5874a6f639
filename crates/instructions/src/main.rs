//! `instruction-gate check|update BASELINE < SUMMARIES`: reads the JSON lines of
//! `cargo bench -p sympathy-instructions --bench hot_paths -- --output-format=json` on stdin,
//! prints instructions per message beside the baseline, and with `check` exits 1 when an id
//! regressed by more than `REGRESSION_LIMIT_PERCENT`, went missing or is new; `update` rewrites
//! the baseline instead. Run through `ci/instructions`.
//!
//! `instruction-gate check|update BASELINE --java DIR`: the same for the Java kernels, from the
//! run folders `ci/java-instructions` left under DIR (one per id: the JVM's stdout and
//! callgrind's files; `sympathy_instructions::java`) instead of stdin.

use std::io::BufRead;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};
use sympathy_instructions::gate::{self, Baseline, REGRESSION_LIMIT_PERCENT};
use sympathy_instructions::java;

const USAGE: &str = "usage: instruction-gate check|update BASELINE < gungraun-json-lines\n       \
                     instruction-gate check|update BASELINE --java RUNS-DIR";

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("instruction-gate: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<bool> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, path, now, update_command) = match &args[..] {
        [mode, path] => (mode, path, rust_per_message()?, "ci/instructions --update"),
        [mode, path, flag, dir] if flag == "--java" => {
            let runs = java::read_runs(Path::new(dir))?;
            let now = java::per_message(&runs)?;
            if let Some(widest) = runs
                .iter()
                .max_by(|a, b| a.spread_percent().total_cmp(&b.spread_percent()))
            {
                println!(
                    "instruction-gate: {} estimates per id agree within {:.2}% (widest: {}; {} allowed)",
                    widest.estimates.len(),
                    widest.spread_percent(),
                    widest.id,
                    java::REPEAT_TOLERANCE_PERCENT
                );
            }
            (mode, path, now, "ci/java-instructions --update")
        }
        _ => bail!("{USAGE}"),
    };
    match mode.as_str() {
        "update" => {
            // The table shows what the update changes (no old side when there was no file).
            let old = read_baseline(path).unwrap_or_default();
            print!("{}", gate::compare(&old, &now).table());
            let json = serde_json::to_string_pretty(&now)? + "\n";
            std::fs::write(path, json).with_context(|| format!("writing {path}"))?;
            println!("instruction-gate: wrote {} ids to {path}", now.len());
            Ok(true)
        }
        "check" => {
            let baseline = read_baseline(path)?;
            let comparison = gate::compare(&baseline, &now).updated_by(update_command);
            print!("{}", comparison.table());
            let failures = comparison.failures();
            for failure in &failures {
                eprintln!("instruction-gate: {failure}");
            }
            if failures.is_empty() {
                println!(
                    "instruction-gate: {} ids within {REGRESSION_LIMIT_PERCENT}% of {path}",
                    now.len()
                );
            }
            Ok(failures.is_empty())
        }
        other => bail!("unknown mode `{other}`; {USAGE}"),
    }
}

/// Instructions per message of the Rust kernels, from gungraun's JSON lines on stdin.
fn rust_per_message() -> anyhow::Result<Baseline> {
    let mut cases = Vec::new();
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("reading the benchmark output")?;
        if line.trim_start().starts_with('{') {
            let case = gate::parse_case(&line).with_context(|| format!("line {}", number + 1))?;
            cases.push(case);
        }
    }
    if cases.is_empty() {
        bail!("no benchmark summaries on stdin (expected gungraun's --output-format=json lines)");
    }
    gate::per_message(&cases)
}

fn read_baseline(path: &str) -> anyhow::Result<Baseline> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading {path} (make it with the gate's script and --update)"))?;
    serde_json::from_str(&text).with_context(|| {
        format!("{path}: expected {{\"group/op/param\": instructions per message}}")
    })
}
