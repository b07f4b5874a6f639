//! `sympathy run queue`: SPSC queues moving `0..count` between two pinned threads (or, for
//! `p1c1-ipc`, two processes), in messages per second. Kernels: `sympathy_lab::queue`.
//!
//! `p1c1-ipc` re-executes this binary as `sympathy run queue-peer ...` (hidden) to consume in
//! a second process.

use std::process::Command;

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::format;
use sympathy_harness::{Measurement, Metric, Reporter, Stats};
use sympathy_lab::queue::{
    DEFAULT_CAPACITY, ElementKind, IpcPeer, PeerLaunch, Placement, QueueRun, Variant,
    consume_in_peer,
};

use super::Common;

/// `sympathy run queue`
#[derive(Args, Debug, Clone, Default)]
pub struct QueueArgs {
    #[command(flatten)]
    pub common: Common,
    /// Variants to run, comma-separated (default: all): p1c1, p1c1-batch, p1c1-offheap,
    /// p1c1-ipc, rtrb, crossbeam-array-queue, std-sync-channel.
    #[arg(long, value_delimiter = ',', value_parser = Variant::parse)]
    pub variants: Vec<Variant>,
    /// Placements, comma-separated (default: cross-core,same-core).
    #[arg(long, value_delimiter = ',', value_parser = Placement::parse)]
    pub placement: Vec<Placement>,
    /// Element types, comma-separated (default: u32): u32, u64, tick (a 16-byte struct).
    #[arg(long, value_delimiter = ',', value_parser = ElementKind::parse)]
    pub element: Vec<ElementKind>,
    /// Values moved per run (default: 2M quick, 20M default, 100M full, the seed's count).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Slots per queue (a power of two; the seed's 32768 by default).
    #[arg(long, default_value_t = DEFAULT_CAPACITY)]
    pub capacity: usize,
}

/// `sympathy run queue-peer` (hidden): the consumer process of `p1c1-ipc`.
#[derive(Args, Debug, Clone)]
pub struct PeerArgs {
    /// The queue file made by the producer.
    #[arg(long)]
    file: std::path::PathBuf,
    /// Core to pin the consumer to.
    #[arg(long)]
    core: usize,
    /// Values to expect.
    #[arg(long)]
    count: u64,
    /// Element type.
    #[arg(long, value_parser = ElementKind::parse)]
    element: ElementKind,
    /// Placement (decides spinning or yielding while empty).
    #[arg(long, value_parser = Placement::parse)]
    placement: Placement,
}

/// Runs `queue` with only the common flags (for `run all`).
pub fn run_default(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = QueueArgs {
        common: common.clone(),
        capacity: DEFAULT_CAPACITY,
        ..QueueArgs::default()
    };
    run(&args, reporter)
}

/// Runs the experiment and reports one result per variant, placement and element.
pub fn run(args: &QueueArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let count = args
        .count
        .unwrap_or_else(|| preset.pick(2_000_000, 20_000_000, 100_000_000));
    let runs = args.common.runs_or(3, 5, 10);
    let variants = or_all(&args.variants, &Variant::ALL);
    let placements = or_all(&args.placement, &Placement::ALL);
    let elements = or_all(&args.element, &[ElementKind::U32]);
    let exe = std::env::current_exe().context("cannot find this executable for p1c1-ipc")?;
    let peer_command = move |peer: &IpcPeer| {
        let mut command = Command::new(&exe);
        command
            .args(["run", "queue-peer", "--file"])
            .arg(&peer.file)
            .args(["--core", &peer.core.to_string()])
            .args(["--count", &peer.count.to_string()])
            .args(["--element", peer.element.name()])
            .args(["--placement", peer.placement.name()]);
        command
    };
    let launch = PeerLaunch::Command(&peer_command);

    for &element in &elements {
        for &placement in &placements {
            let cores = placement.cores()?;
            reporter.line(&format!(
                "queue: {count} {} values per run, capacity {}, {} (producer core {}, consumer core {})",
                element.name(),
                args.capacity,
                placement.name(),
                cores.producer,
                cores.consumer
            ))?;
            let spec = |variant| QueueRun {
                variant,
                element,
                placement,
                count,
                capacity: args.capacity,
            };
            let what = |variant: Variant| format!("{} {}", variant.name(), placement.name());
            // One untimed warm-up run each: page faults, code paths, CPU frequency.
            for &variant in &variants {
                QueueRun {
                    count: (count / 10).max(1),
                    ..spec(variant)
                }
                .run(&launch)
                .with_context(|| format!("{}: warm-up", what(variant)))?;
            }
            // The runs go round the variants (run 0 of each, then run 1 of each, ...), so that
            // every variant meets the same conditions: on a shared VM the cost of a line
            // transfer between the two cores changes over minutes (the ping-pong hop moved
            // between ~65 and ~300 ns in one hour), which one-variant-after-another runs turned
            // into differences between variants.
            let mut samples = vec![Vec::with_capacity(runs); variants.len()];
            for i in 0..runs {
                for (&variant, samples) in variants.iter().zip(&mut samples) {
                    let elapsed = spec(variant)
                        .run(&launch)
                        .with_context(|| format!("{}: run {i}", what(variant)))?;
                    let rate = count as f64 / elapsed.as_secs_f64();
                    reporter.line(&format!(
                        "{i} - {}: ops/sec={}",
                        what(variant),
                        format::value(rate)
                    ))?;
                    samples.push(rate);
                }
            }
            let mut medians = Vec::new();
            for (&variant, samples) in variants.iter().zip(&samples) {
                let stats = Stats::from_samples(samples).context("no samples")?;
                medians.push((variant, stats.median));
                reporter.result(
                    Measurement::new("queue", variant.name())
                        .param("placement", placement.name())
                        .param("element", element.name())
                        .param("count", count)
                        .param("capacity", args.capacity as u64)
                        .param("cores", format!("{},{}", cores.producer, cores.consumer))
                        .param("preset", preset.name())
                        .stats(Metric::MsgsPerSec, stats),
                )?;
            }
            report_targets(reporter, placement, &medians)?;
        }
    }
    Ok(())
}

/// The queue's targets (P1C1 against rtrb, the IPC queue against the off-heap one), as ratios
/// of medians of this run (human lines; not results).
fn report_targets(
    reporter: &mut Reporter,
    placement: Placement,
    medians: &[(Variant, f64)],
) -> Result<()> {
    let get = |v: Variant| medians.iter().find(|m| m.0 == v).map(|m| m.1);
    let targets = [
        (Variant::P1c1, Variant::Rtrb, 1.0),
        (Variant::P1c1Batch, Variant::Rtrb, 1.5),
        (Variant::P1c1Ipc, Variant::P1c1Offheap, 0.9),
    ];
    for (variant, base, want) in targets {
        if let (Some(a), Some(b)) = (get(variant), get(base)) {
            let ratio = a / b;
            reporter.line(&format!(
                "{} {} / {} = {ratio:.2}x (target >= {want}x: {})",
                placement.name(),
                variant.name(),
                base.name(),
                if ratio >= want { "met" } else { "not met" }
            ))?;
        }
    }
    Ok(())
}

/// The consumer process of `p1c1-ipc`.
pub fn run_peer(args: &PeerArgs) -> Result<()> {
    consume_in_peer(&IpcPeer {
        file: args.file.clone(),
        core: args.core,
        count: args.count,
        element: args.element,
        placement: args.placement,
    })
    .context("queue consumer process")
}

fn or_all<T: Copy>(chosen: &[T], all: &[T]) -> Vec<T> {
    if chosen.is_empty() {
        all.to_vec()
    } else {
        chosen.to_vec()
    }
}
