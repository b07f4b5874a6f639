//! `sympathy ipc ...`: tools for the shared-memory ring (create, produce, consume, inspect,
//! layout) and its measurements (bench, latency, wake). One file per concern in this folder.

mod bench;
mod latency;
mod quantiles;
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
    /// Throughput between a producer process and a consumer process, pinned.
    Bench(bench::BenchArgs),
    /// Round-trip latency of an echo over two rings, between two pinned processes.
    Latency(latency::LatencyArgs),
    /// Wake-up latency and idle CPU of the futex wait against spinning and backoff.
    Wake(wake::WakeArgs),
    /// (internal) the peer process of `wake`.
    #[command(hide = true)]
    WakePeer(wake::PeerArgs),
    /// (internal) the producer process of `bench`.
    #[command(hide = true)]
    BenchProducer(bench::ProducerArgs),
    /// (internal) the echo process of `latency`.
    #[command(hide = true)]
    LatencyEcho(latency::EchoArgs),
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
        IpcCommand::Bench(a) => bench::run(a),
        IpcCommand::Latency(a) => latency::run(a),
        IpcCommand::Wake(a) => wake::run(a),
        IpcCommand::WakePeer(a) => wake::peer(a),
        IpcCommand::BenchProducer(a) => bench::producer(a),
        IpcCommand::LatencyEcho(a) => latency::echo(a),
    }
}

/// The `ipc` result both benchmarks report: Rust at both ends, in two processes pinned to
/// `cores`, with the size, count and capacity of the run.
fn measurement(
    variant: &str,
    size: usize,
    count: u64,
    capacity: usize,
    cores: (usize, usize),
) -> sympathy_harness::Measurement {
    sympathy_harness::Measurement::new("ipc", variant)
        .param("producer", "rust")
        .param("consumer", "rust")
        .param("size_bytes", size as u64)
        .param("count", count)
        .param("capacity", capacity as u64)
        .param("cores", format!("{},{}", cores.0, cores.1))
        .param("placement", "processes")
}

/// A fresh ring file path for a measurement: in /dev/shm when it exists (memory, never disk).
fn scratch_path(tag: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("sympathy-ipc-{tag}-{}", std::process::id()))
}

/// Two distinct cores for the two processes: `--cores a,b`, or the first two available.
fn pick_cores(cores: &Option<String>) -> Result<(usize, usize)> {
    let list = match cores {
        Some(text) => sympathy_harness::pin::parse_core_list(text).map_err(anyhow::Error::msg)?,
        None => sympathy_harness::pin::available_cores(),
    };
    match list[..] {
        [a, b, ..] if a != b => Ok((a, b)),
        _ => anyhow::bail!(
            "need two distinct cores for the two processes, have {list:?}; pass --cores a,b"
        ),
    }
}

/// Checks that a payload size fits the pattern (>= 4) and the ring.
fn check_size(size: usize, max: usize) -> Result<()> {
    let min = sympathy_ring::pattern::MIN_MESSAGE_SIZE;
    if size < min || size > max {
        anyhow::bail!(
            "--size {size} is outside {min}..={max} (the pattern needs {min} bytes; the ring \
             takes capacity / 8); pick a size in that range or a larger --capacity"
        );
    }
    Ok(())
}

/// A ring capacity that takes `size`-byte messages: at least `floor`, and 8 x the size.
fn capacity_for(size: usize, floor: usize) -> usize {
    (size * 8).next_power_of_two().max(floor)
}
