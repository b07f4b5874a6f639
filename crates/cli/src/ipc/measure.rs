//! `ipc bench` and `ipc latency`: the `ring` and `echo` variants of `sympathy run ipc` under
//! their older names and flags (`ipc latency --count` is `run ipc --round-trips`).

use anyhow::Result;
use clap::Args;
use sympathy_lab::ipc::{Variant, WriteMode};

use crate::experiment::{Common, Flags, run_one};
use crate::run::ipc::IpcArgs;

/// `ipc bench --size S --count N`
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Payload bytes per message (4..=capacity/8) [default: the catalog's, 4].
    #[arg(long)]
    size: Option<usize>,
    /// Messages per run [default: the catalog's count at the preset].
    #[arg(long)]
    count: Option<u64>,
    /// Ring capacity in bytes [default: the catalog's, 256 KiB, or 8 x the size if larger].
    #[arg(long)]
    capacity: Option<usize>,
    /// Two cores `producer,consumer` (default: the first two available).
    #[arg(long)]
    cores: Option<String>,
    /// How the producer writes, one or more of `per-message,batch`: with both, the runs
    /// alternate between them (run 0 of each, then run 1 of each, ...) so that a drifting
    /// core-to-core cost hits each alike, and the ratio per round is printed.
    #[arg(long, value_delimiter = ',', value_parser = super::peers::write_mode)]
    writes: Vec<WriteMode>,
    /// Messages per `try_write_batch` run (with --writes batch) [default: 256].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    batch: Option<u64>,
    #[command(flatten)]
    common: Common,
}

/// `ipc latency --size S --count N`
#[derive(Args, Debug)]
pub struct LatencyArgs {
    /// Payload bytes per message (4..=capacity/8) [default: the catalog's, 4].
    #[arg(long)]
    size: Option<usize>,
    /// Timed round trips per run, after a tenth as many for warm-up [default: the catalog's
    /// round_trips at the preset].
    #[arg(long)]
    count: Option<u64>,
    /// Two cores `pinger,echo` (default: the first two available).
    #[arg(long)]
    cores: Option<String>,
    #[command(flatten)]
    common: Common,
}

/// `ipc bench`: `run ipc --variants ring`.
pub fn bench(args: BenchArgs) -> Result<()> {
    run_variant(
        IpcArgs {
            variants: Some(vec![Variant::Ring]),
            count: args.count,
            capacity: args.capacity,
            writes: args.writes,
            batch: args.batch,
            size: args.size,
            cores: args.cores,
            ..IpcArgs::default()
        },
        args.common,
    )
}

/// `ipc latency`: `run ipc --variants echo`.
pub fn latency(args: LatencyArgs) -> Result<()> {
    run_variant(
        IpcArgs {
            variants: Some(vec![Variant::Echo]),
            round_trips: args.count,
            size: args.size,
            cores: args.cores,
            ..IpcArgs::default()
        },
        args.common,
    )
}

fn run_variant(experiment: IpcArgs, common: Common) -> Result<()> {
    run_one(&Flags { common, experiment }, false)
}
