//! `sympathy ipc ...`: tools for the shared-memory ring (create, produce, consume, inspect,
//! layout), the wake-up measurement, and `bench`/`latency`, which run the `ring`/`echo`
//! variants of `sympathy run ipc` (whose loops live in `sympathy_lab::ipc`). One file per
//! concern in this folder.

mod measure;
pub mod peers;
mod sigbus;
mod tools;
mod wake;

use anyhow::Result;
use clap::{Args, Subcommand};

/// `sympathy ipc ...`
#[derive(Args, Debug)]
pub struct IpcArgs {
    #[command(subcommand)]
    command: IpcCommand,
}

#[derive(Subcommand, Debug)]
enum IpcCommand {
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
    /// Throughput between a producer process and a consumer process, pinned (`run ipc
    /// --variants ring`).
    Bench(measure::BenchArgs),
    /// Round-trip latency of an echo over two rings, between two pinned processes (`run ipc
    /// --variants echo`).
    Latency(measure::LatencyArgs),
    /// Wake-up latency and idle CPU of the futex wait against spinning and backoff.
    Wake(wake::WakeArgs),
    /// (internal) the peer process of `wake`.
    #[command(hide = true)]
    WakePeer(wake::PeerArgs),
    /// (internal) the Rust producer process of `run ipc`'s throughput variants.
    #[command(hide = true)]
    BenchProducer(peers::ProducerArgs),
    /// (internal) the Rust echo process of `run ipc`'s echo.
    #[command(hide = true)]
    LatencyEcho(peers::EchoArgs),
}

/// Runs an `ipc` command.
pub fn run(args: IpcArgs) -> Result<()> {
    // Every command maps a ring: a SIGBUS there is a truncated file or a full filesystem, said
    // as such (the tools name their file when they open it).
    sigbus::report_on_sigbus(None);
    match args.command {
        IpcCommand::Create(a) => tools::create(a),
        IpcCommand::Produce(a) => tools::produce(a),
        IpcCommand::Consume(a) => tools::consume(a),
        IpcCommand::Inspect(a) => tools::inspect(a),
        IpcCommand::Layout => tools::layout(),
        IpcCommand::Bench(a) => measure::bench(a),
        IpcCommand::Latency(a) => measure::latency(a),
        IpcCommand::Wake(a) => wake::run(a),
        IpcCommand::WakePeer(a) => wake::peer(a),
        IpcCommand::BenchProducer(a) => peers::producer(a),
        IpcCommand::LatencyEcho(a) => peers::echo(a),
    }
}
