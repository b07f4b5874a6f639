//! `sympathy run memory-walk`: the seed's three walks over an `i64` array filled with 777, plus
//! dependent pointer chases and a latency sweep. See `sympathy_lab::memory_walk`.

use anyhow::Result;
use clap::Args;
use sympathy_harness::machine::human_bytes;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_lab::memory_walk::{self, Variant, WalkArray, sweep_sizes};

use super::Common;

const EXPERIMENT: &str = "memory-walk";

/// Flags of `sympathy run memory-walk`.
#[derive(Args, Debug, Clone, Default)]
pub struct MemoryWalkArgs {
    #[command(flatten)]
    pub common: Common,
    /// Array size in MiB, a power of two of at least 2 [default: 64 quick, 1024, 2048 full].
    #[arg(long)]
    pub size_mib: Option<usize>,
    /// Walks to run, comma-separated [default: all: linear, random-page, random-heap,
    /// chase-page, chase-heap].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
    /// Instead of the walks, chase latency over working sets from 16 KiB to the array size
    /// (log2 steps): the L1/L2/L3/DRAM staircase.
    #[arg(long)]
    pub sweep: bool,
    /// Advise the array to use 2 MiB transparent huge pages (madvise(MADV_HUGEPAGE)); without
    /// it the array is advised MADV_NOHUGEPAGE.
    #[arg(long)]
    pub huge_pages: bool,
}

/// `sympathy run memory-walk ...`
pub fn run(args: &MemoryWalkArgs) -> Result<()> {
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`: the walks at the chosen scale, no sweep.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = MemoryWalkArgs {
        common: common.clone(),
        ..MemoryWalkArgs::default()
    };
    execute(&args, reporter)
}

fn execute(args: &MemoryWalkArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let size_mib = args.size_mib.unwrap_or(preset.pick(64, 1024, 2048));
    let size_bytes = size_mib
        .checked_mul(1024 * 1024)
        .ok_or(memory_walk::WalkError::BadSize(usize::MAX))?;
    let runs = args.common.runs_or(3, 5, 5);
    let mut array = WalkArray::new(size_bytes, args.huge_pages)?;
    if args.huge_pages {
        let backed = array.region().huge_page_bytes().unwrap_or(0);
        reporter.line(&format!(
            "# huge pages: {} of {} backed by 2 MiB pages",
            human_bytes(backed),
            human_bytes(size_bytes as u64)
        ))?;
    }
    if args.sweep {
        return sweep(
            &mut array,
            runs,
            preset.pick(1 << 20, 1 << 22, 1 << 22),
            args,
            reporter,
        );
    }
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    for variant in variants {
        let mut samples = Vec::with_capacity(runs);
        for run in 0..runs {
            let walk = array.run(variant)?;
            reporter.line(&format!("{run} - {:.2}ns {variant}", walk.ns_per_op))?;
            samples.push(walk.ns_per_op);
        }
        report(reporter, variant, size_bytes, args.huge_pages, &samples)?;
    }
    Ok(())
}

/// Chase latency per working-set size; each size runs at least `min_steps` dependent loads
/// (whole laps of its cycle).
fn sweep(
    array: &mut WalkArray,
    runs: usize,
    min_steps: usize,
    args: &MemoryWalkArgs,
    reporter: &mut Reporter,
) -> Result<()> {
    for bytes in sweep_sizes(array.size_bytes()) {
        let nodes = bytes / memory_walk::NODE_SIZE;
        let laps = min_steps.div_ceil(nodes).max(1);
        let mut samples = Vec::with_capacity(runs);
        for run in 0..runs {
            let walk = array.run_chase(Variant::ChaseHeap, bytes, laps)?;
            reporter.line(&format!(
                "{run} - {:.2}ns chase-heap {}",
                walk.ns_per_op,
                human_bytes(bytes as u64)
            ))?;
            samples.push(walk.ns_per_op);
        }
        report(
            reporter,
            Variant::ChaseHeap,
            bytes,
            args.huge_pages,
            &samples,
        )?;
    }
    Ok(())
}

fn report(
    reporter: &mut Reporter,
    variant: Variant,
    size_bytes: usize,
    huge_pages: bool,
    samples: &[f64],
) -> Result<()> {
    let stats = Stats::from_samples(samples)
        .ok_or_else(|| anyhow::anyhow!("{variant}: no valid samples"))?;
    reporter.result(
        Measurement::new(EXPERIMENT, variant.name())
            .param("size_bytes", size_bytes)
            .param("huge_pages", huge_pages)
            .stats(Metric::NsPerOp, stats)
            .check(Check::Ok),
    )?;
    Ok(())
}
