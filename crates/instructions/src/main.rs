//! `instruction-gate check|update BASELINE < SUMMARIES`: reads the JSON lines of
//! `cargo bench -p sympathy-instructions --bench hot_paths -- --output-format=json` on stdin,
//! prints instructions per message beside the baseline, and with `check` exits 1 when an id
//! regressed by more than `REGRESSION_LIMIT_PERCENT`, went missing or is new; `update` rewrites
//! the baseline instead. Run through `ci/instructions`.

use std::io::BufRead;
use std::process::ExitCode;

use anyhow::{Context, bail};
use sympathy_instructions::gate::{self, Baseline, REGRESSION_LIMIT_PERCENT};

const USAGE: &str = "usage: instruction-gate check|update BASELINE < gungraun-json-lines";

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
    let [mode, path] = &args[..] else {
        bail!("{USAGE}");
    };
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
    let now = gate::per_message(&cases)?;
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
            let comparison = gate::compare(&baseline, &now);
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

fn read_baseline(path: &str) -> anyhow::Result<Baseline> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading {path} (make it with ci/instructions --update)"))?;
    serde_json::from_str(&text).with_context(|| {
        format!("{path}: expected {{\"group/op/param\": instructions per message}}")
    })
}
