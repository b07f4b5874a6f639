//! `sympathy run memory-walk`: the seed's three walks over an `i64` array filled with 777, plus
//! dependent pointer chases and a latency sweep. See `sympathy_lab::memory_walk`.

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::machine::human_bytes;
use sympathy_harness::{Metric, Preset, Reporter, Stats};
use sympathy_lab::memory_walk::{self, Variant, WalkArray, sweep_sizes, validate_size};

use crate::experiment::catalog::{bool_at, usize_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

const EXPERIMENT: &str = "memory-walk";

/// Where the Rust array lives: native memory, paired with Java's FFM segment.
const MEMORY: &str = "off-heap";

/// Flags of `sympathy run memory-walk`.
#[derive(Args, Debug, Clone, Default)]
pub struct MemoryWalkArgs {
    /// Array size in MiB, a power of two of at least 2 [default: size_bytes of
    /// experiments/memory-walk.toml at the preset].
    #[arg(long)]
    pub size_mib: Option<usize>,
    /// Walks to run, comma-separated [default: every Rust variant of
    /// experiments/memory-walk.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Instead of the walks, chase latency over working sets from 16 KiB to the array size
    /// (log2 steps): the L1/L2/L3/DRAM staircase.
    #[arg(long)]
    pub sweep: bool,
    /// Advise the array to use 2 MiB transparent huge pages (madvise(MADV_HUGEPAGE)); without
    /// it the array is advised MADV_NOHUGEPAGE [default: huge_pages of the catalog].
    #[arg(long)]
    pub huge_pages: bool,
}

/// One walk: the variant and the bytes it covers (the array, or a sweep's working set).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walk {
    variant: Variant,
    bytes: usize,
}

impl MemoryWalkArgs {
    /// The array's size in bytes: `--size-mib`, or the catalog's `size_bytes`.
    fn array_bytes(&self, preset: Preset) -> Result<usize> {
        let mib = self.size_mib.map(|mib| mib.checked_mul(1024 * 1024));
        let bytes = match mib {
            Some(bytes) => bytes.ok_or(memory_walk::WalkError::BadSize(usize::MAX))?,
            None => usize_or(None, EXPERIMENT, "size_bytes", preset)?,
        };
        validate_size(bytes)?;
        Ok(bytes)
    }

    fn huge_pages(&self, preset: Preset) -> Result<bool> {
        Ok(self.huge_pages || bool_at(EXPERIMENT, "huge_pages", preset)?)
    }
}

impl Experiment for MemoryWalkArgs {
    type Work = Walk;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<Walk>>> {
        let array = self.array_bytes(common.preset())?;
        let huge_pages = self.huge_pages(common.preset())?;
        let walks: Vec<Walk> = if self.sweep {
            sweep_sizes(array)
                .into_iter()
                .map(|bytes| Walk {
                    variant: Variant::ChaseHeap,
                    bytes,
                })
                .collect()
        } else {
            let variants = variants_or(&self.variants, common.preset())?;
            variants
                .into_iter()
                .map(|variant| Walk {
                    variant,
                    bytes: array,
                })
                .collect()
        };
        Ok(walks
            .into_iter()
            .map(|walk| {
                Case::new(walk, walk.variant.name(), "rust")
                    .param("size_bytes", walk.bytes)
                    .param("memory", MEMORY)
                    .param("huge_pages", huge_pages)
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Walk>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let preset = common.preset();
        let runs = common.runs(Self::NAME)?;
        let size_bytes = self.array_bytes(common.preset())?;
        let huge_pages = self.huge_pages(common.preset())?;
        let mut array = WalkArray::new(size_bytes, huge_pages)?;
        if huge_pages {
            let backed = array.region().huge_page_bytes().unwrap_or(0);
            reporter.line(&format!(
                "# huge pages: {} of {} backed by 2 MiB pages",
                human_bytes(backed),
                human_bytes(size_bytes as u64)
            ))?;
        }
        // A sweep's working set runs at least this many dependent loads (whole laps of its
        // cycle).
        let min_steps: usize = preset.pick(1 << 20, 1 << 22, 1 << 22);
        for case in cases {
            let Walk { variant, bytes } = case.work;
            let mut samples = Vec::with_capacity(runs);
            for run in 0..runs {
                let walk = if self.sweep {
                    let laps = min_steps.div_ceil(bytes / memory_walk::NODE_SIZE).max(1);
                    array.run_chase(variant, bytes, laps)?
                } else {
                    array.run(variant)?
                };
                let what = if self.sweep {
                    format!("{variant} {}", human_bytes(bytes as u64))
                } else {
                    variant.to_string()
                };
                reporter.line(&format!("{run} - {:.2}ns {what}", walk.ns_per_op))?;
                samples.push(walk.ns_per_op);
            }
            let stats = Stats::from_samples(&samples)
                .with_context(|| format!("{variant}: no valid samples"))?;
            // Measured after the walks, from the mapping itself: THP may back memory that was
            // never advised (THP=always), and the advice may not be honoured.
            let backed = array.region().huge_page_bytes().unwrap_or(0);
            reporter.result(
                case.result(EXPERIMENT, Metric::NsPerOp, stats)
                    .fact("huge_pages", backed > 0),
            )?;
        }
        Ok(())
    }
}
