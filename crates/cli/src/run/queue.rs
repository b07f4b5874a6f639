//! `sympathy run queue`: SPSC queues moving `0..count` between two pinned threads (or, for
//! `p1c1-ipc`, two processes), in messages per second. Kernels: `sympathy_lab::queue`.
//!
//! `p1c1-ipc` re-executes this binary as `sympathy run queue-peer ...` (hidden) to consume in
//! a second process.

use std::process::Command;

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::format;
use sympathy_harness::{Measurement, Metric, Preset, Reporter, Stats};
use sympathy_lab::queue::{
    ElementKind, IpcPeer, PeerLaunch, Placement, QueueRun, Variant, consume_in_peer,
};

use crate::experiment::catalog::{strs_at, u64_or, usize_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

const EXPERIMENT: &str = "queue";

/// `sympathy run queue`
#[derive(Args, Debug, Clone, Default)]
pub struct QueueArgs {
    /// Variants to run, comma-separated [default: every Rust variant of
    /// experiments/queue.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Vec<Variant>,
    /// Placements, comma-separated: cross-core, same-core [default: placement of
    /// experiments/queue.toml].
    #[arg(long, value_delimiter = ',', value_parser = Placement::parse)]
    pub placement: Vec<Placement>,
    /// Element types, comma-separated: u32, u64, tick (a 16-byte struct) [default: element of
    /// experiments/queue.toml].
    #[arg(long, value_delimiter = ',', value_parser = ElementKind::parse)]
    pub element: Vec<ElementKind>,
    /// Values moved per run [default: count of experiments/queue.toml at the preset].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Slots per queue, a power of two [default: capacity of experiments/queue.toml].
    #[arg(long)]
    pub capacity: Option<usize>,
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

/// The flag's values, or the catalog's `param` at the preset parsed by `parse`.
fn or_catalog<T: Copy>(
    chosen: &[T],
    param: &str,
    preset: Preset,
    parse: fn(&str) -> Result<T, String>,
) -> Result<Vec<T>> {
    if !chosen.is_empty() {
        return Ok(chosen.to_vec());
    }
    strs_at(EXPERIMENT, param, preset)?
        .into_iter()
        .map(|text| parse(text).map_err(|e| anyhow::anyhow!("experiments/queue.toml: {e}")))
        .collect()
}

impl Experiment for QueueArgs {
    type Work = QueueRun;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<QueueRun>>> {
        let preset = common.preset();
        let count = u64_or(self.count, EXPERIMENT, "count", preset)?;
        let capacity = usize_or(self.capacity, EXPERIMENT, "capacity", preset)?;
        let chosen = (!self.variants.is_empty()).then(|| self.variants.clone());
        let variants = variants_or(&chosen, preset)?;
        let mut cases = Vec::new();
        for element in or_catalog(&self.element, "element", preset, ElementKind::parse)? {
            for placement in or_catalog(&self.placement, "placement", preset, Placement::parse)? {
                for &variant in &variants {
                    let run = QueueRun {
                        variant,
                        element,
                        placement,
                        count,
                        capacity,
                    };
                    // The boxed variant carries the element behind a pointer: its own element
                    // name, as the Java queues of boxed Integers (`boxed-u32`).
                    let element_name = match variant {
                        Variant::P1c1Boxed => format!("boxed-{}", element.name()),
                        _ => element.name().to_string(),
                    };
                    cases.push(
                        Case::new(run, variant.name(), "rust")
                            .param("placement", placement.name())
                            .param("element", element_name)
                            .param("count", count)
                            .param("capacity", capacity as u64),
                    );
                }
            }
        }
        Ok(cases)
    }

    /// Measures the cases one element and placement at a time, and reports one result per
    /// case and the targets of that group.
    fn measure(
        &self,
        common: &Common,
        cases: &[Case<QueueRun>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let preset = common.preset();
        let runs = common.runs(Self::NAME)?;
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
        let setting = |c: &Case<QueueRun>| (c.work.element, c.work.placement);
        for group in cases.chunk_by(|a, b| setting(a) == setting(b)) {
            let first = group[0].work;
            let cores = first.placement.cores()?;
            reporter.line(&format!(
                "queue: {} {} values per run, capacity {}, {} (producer core {}, consumer core {})",
                first.count,
                first.element.name(),
                first.capacity,
                first.placement.name(),
                cores.producer,
                cores.consumer
            ))?;
            let what = |run: &QueueRun| format!("{} {}", run.variant.name(), run.placement.name());
            // One untimed warm-up run each: page faults, code paths, CPU frequency.
            for case in group {
                QueueRun {
                    count: (case.work.count / 10).max(1),
                    ..case.work
                }
                .run(&launch)
                .map_err(crate::classified)
                .with_context(|| format!("{}: warm-up", what(&case.work)))?;
            }
            // The runs go round the variants (run 0 of each, then run 1 of each, ...), so that
            // every variant meets the same conditions: on a shared VM the cost of a line
            // transfer between the two cores changes over minutes (the ping-pong hop moved
            // between ~65 and ~300 ns in one hour), which one-variant-after-another runs turned
            // into differences between variants.
            let mut samples = vec![Vec::with_capacity(runs); group.len()];
            for i in 0..runs {
                for (case, samples) in group.iter().zip(&mut samples) {
                    let elapsed = case
                        .work
                        .run(&launch)
                        .map_err(crate::classified)
                        .with_context(|| format!("{}: run {i}", what(&case.work)))?;
                    let rate = case.work.count as f64 / elapsed.as_secs_f64();
                    reporter.line(&format!(
                        "{i} - {}: ops/sec={}",
                        what(&case.work),
                        format::value(rate)
                    ))?;
                    samples.push(rate);
                }
            }
            let mut medians = Vec::new();
            for (case, samples) in group.iter().zip(&samples) {
                let stats = Stats::from_samples(samples).context("no samples")?;
                medians.push((case.work.variant, stats.median));
                let result: Measurement = case
                    .measurement(EXPERIMENT)
                    .param("cores", format!("{},{}", cores.producer, cores.consumer))
                    .param("preset", preset.name())
                    .fact("batch", case.work.variant.batch())
                    .fact(
                        "slot_bytes",
                        case.work.variant.slot_bytes(case.work.element),
                    )
                    .stats(Metric::MsgsPerSec, stats);
                reporter.result(result)?;
            }
            report_targets(reporter, first.placement, &medians)?;
        }
        Ok(())
    }
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
