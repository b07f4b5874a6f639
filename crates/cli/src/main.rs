//! `sympathy`: run the mechanical-sympathy experiments.
//!
//! ```text
//! sympathy run <experiment> [--quick|--full] [--json] [--runs N] [experiment flags]
//! sympathy run all --quick
//! sympathy compare [--smoke|--quick|--full] [--only queue,ping-pong] [--out DIR] [--baseline FILE]
//! sympathy ring <create|produce|consume|inspect|layout|wake> ...
//! sympathy map <create|load-users|verify-users|get|inspect|copy|layout|stress-write|stress-read> ...
//! sympathy serve-map FILE --port P
//! sympathy bridge <send|receive|bench> ...
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod bridge;
mod checkout;
mod compare;
mod experiment;
mod map;
mod quantity;
mod ring;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sympathy_harness::Environmental;
use sympathy_harness::counting_alloc::CountingAllocator;
use sympathy_harness::environmental::EXIT_STATUS as ENVIRONMENTAL_STATUS;

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
    /// The off-heap map file: create, load-users, verify-users, get, inspect, copy, layout,
    /// stress-write, stress-read.
    Map(map::MapArgs),
    /// Serve a map of users over HTTP: GET /users/{id} as JSON (the seed's lookup service).
    ServeMap(map::serve::ServeArgs),
    /// Move a ring's messages to another host over Aeron: send, receive, bench (the Java
    /// bridge).
    #[command(long_about = bridge::LONG_ABOUT)]
    Bridge(bridge::BridgeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Ring(args) => ring::run(args),
        Command::Map(args) => map::run(args),
        Command::ServeMap(args) => map::serve::run(args),
        Command::Bridge(args) => bridge::run(args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_environmental(&err) => {
            eprintln!(
                "error: the machine was busy: {}; `sympathy compare` retries such runs; rerun on a quiet machine",
                describe(&err)
            );
            ExitCode::from(ENVIRONMENTAL_STATUS as u8)
        }
        Err(err) => {
            eprintln!("error: {}", describe(&err));
            ExitCode::FAILURE
        }
    }
}

/// `err` as an `anyhow` error, marked [`Environmental`] when its [`Classify`] says the machine
/// caused it (so that `sympathy` exits 75 and `compare` retries the run).
///
/// [`Classify`]: sympathy_harness::environmental::Classify
fn classified<E>(err: E) -> anyhow::Error
where
    E: sympathy_harness::environmental::Classify + std::error::Error + Send + Sync + 'static,
{
    if err.is_environmental() {
        Environmental::new(err).into()
    } else {
        err.into()
    }
}

/// Whether the machine, not the code, made the run fail: an [`Environmental`] error anywhere
/// in the chain of causes (exit status 75, `sympathy_harness::environmental`).
fn is_environmental(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.is::<Environmental>())
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

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn an_environmental_cause_anywhere_in_the_chain_is_found() {
        let pin = sympathy_harness::pin::PinError::Refused { core: 1 };
        let busy: anyhow::Result<()> = Err(Environmental::new(pin).into());
        let wrapped = busy.context("ping-pong").unwrap_err();
        assert!(is_environmental(&wrapped));
        assert_eq!(
            describe(&wrapped),
            "ping-pong: could not pin the thread to core 1: the kernel refused sched_setaffinity"
        );
        assert!(!is_environmental(&anyhow::anyhow!(
            "check failed: wrong checksum"
        )));
        let taken = sympathy_harness::pin::PinError::NotEffective {
            core: 1,
            actual: vec![0, 1],
        };
        assert!(is_environmental(&classified(taken)));
        let missing = sympathy_harness::pin::PinError::NoSuchCore {
            core: 9,
            available: vec![0, 1],
        };
        assert!(!is_environmental(&classified(missing)));
    }
}
