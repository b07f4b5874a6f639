//! `sympathy`: run the mechanical-sympathy experiments.
//!
//! ```text
//! sympathy run <experiment> [--quick|--full] [--json] [--runs N] [experiment flags]
//! sympathy run all --quick
//! sympathy compare [--smoke|--quick|--full] [--only queue,ping-pong] [--out DIR] [--baseline FILE]
//! sympathy ring <create|produce|consume|inspect|layout|wake> ...
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod compare;
mod experiment;
mod ring;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sympathy_harness::counting_alloc::CountingAllocator;

/// Counts allocated bytes while `struct-table` measures `bytes_per_record`; outside that
/// measurement it costs one relaxed load per allocation.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Mechanical sympathy, measured side by side in Rust and Java.
#[derive(Parser, Debug)]
#[command(name = "sympathy", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one experiment (or `all`) and print seed-style output or JSON Lines.
    Run(run::RunArgs),
    /// Run every experiment in Rust and Java and write the side-by-side report.
    Compare(compare::CompareArgs),
    /// The shared-memory ring file: create, produce, consume, inspect, layout, wake.
    Ring(ring::RingArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Ring(args) => ring::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", describe(&err));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes, outermost first, each said once: a cause whose text the message
/// already contains (a ring error that shows its OS error) is not repeated.
fn describe(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}
