//! `sympathy ring ...`: tools for the shared-memory ring file (create, produce, consume,
//! inspect, layout) and the wake-up measurement of its futex wait (`wake`). The experiment that
//! measures messaging through the ring between two processes is `sympathy run ipc`
//! (`crate::run::ipc`). One file per concern in this folder.
//!
//! ```text
//! sympathy ring create /dev/shm/r --capacity 65536
//! sympathy ring produce /dev/shm/r --count 1000 --size 4..64 --seed 7 &
//! sympathy ring consume /dev/shm/r --count 1000
//! ```

pub mod sigbus;
mod tools;
mod wake;

use anyhow::Result;
use clap::{Args, Subcommand};

/// `sympathy ring ...`
#[derive(Args, Debug)]
pub struct RingArgs {
    #[command(subcommand)]
    command: RingCommand,
}

#[derive(Subcommand, Debug)]
enum RingCommand {
    /// Create a ring file.
    Create(tools::CreateArgs),
    /// Write pattern messages into a ring (see `sympathy_ring::pattern`).
    Produce(tools::ProduceArgs),
    /// Read pattern messages from a ring, verifying every byte.
    Consume(tools::ConsumeArgs),
    /// Show a ring's header, trailer, positions and the next records.
    Inspect(tools::InspectArgs),
    /// Print the layout constants as NAME=decimal lines (for the Java parity test).
    Layout,
    /// Wake-up latency and idle CPU of the futex wait against spinning and backoff.
    Wake(wake::WakeArgs),
    /// (internal) the peer process of `wake`.
    #[command(hide = true)]
    WakePeer(wake::PeerArgs),
}

/// Runs a `ring` command.
pub fn run(args: RingArgs) -> Result<()> {
    // Every command maps a ring: a SIGBUS there is a truncated file or a full filesystem, said
    // as such (the tools name their file when they open it).
    sigbus::report_on_sigbus(None);
    match args.command {
        RingCommand::Create(a) => tools::create(a),
        RingCommand::Produce(a) => tools::produce(a),
        RingCommand::Consume(a) => tools::consume(a),
        RingCommand::Inspect(a) => tools::inspect(a),
        RingCommand::Layout => tools::layout(),
        RingCommand::Wake(a) => wake::run(a),
        RingCommand::WakePeer(a) => wake::peer(a),
    }
}
