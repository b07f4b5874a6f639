//! `sympathy run ipc`: the memory-mapped ring between two pinned processes (`ring`, `echo`,
//! `ring-cross`, `echo-cross-ffm`, `echo-cross-jni`; see `sympathy_lab::ipc`). The peer
//! processes start through [`CliPeers`](crate::run::peers::CliPeers): a Rust peer is this binary with the hidden subcommand
//! `run ipc-peer`, a Java peer is `java/sidecar`.
//!
//! The cross-language variants need Java (`ring-cross`'s producer is `java/sidecar produce`,
//! `echo-cross-*`'s echo `java/sidecar echo`). When Java cannot run here (no checkout with
//! `java/sidecar`, no JDK, or its build fails), a run of the default variants skips them with a
//! note on stderr and still succeeds; naming one in `--variants` makes that an error. `--plan`
//! lists them either way (it says what a run would emit, without starting anything).
//!
//! ```text
//! sympathy run ipc --variants echo-cross-ffm,echo-cross-jni --round-trips 100000 --runs 3
//! ```

use crate::run::peers::{CliPeers, pick_cores};
use anyhow::Result;
use clap::Args;
use sympathy_harness::Reporter;
use sympathy_lab::ipc::{self, Overrides, Variant, WriteMode};
use sympathy_lab::peer::{JavaSidecar, PeerRuns};

use crate::experiment::catalog::{variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

/// Flags of `sympathy run ipc` (beside the common ones).
#[derive(Args, Debug, Clone, Default)]
pub struct IpcArgs {
    /// Variants to run, comma-separated [default: all of them].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Payload bytes per message (4..=capacity/8) [default: the catalog's size_bytes].
    #[arg(long)]
    pub size: Option<usize>,
    /// Ring capacity in bytes [default: the catalog's capacity, or 8 x the size if larger].
    #[arg(long)]
    pub capacity: Option<usize>,
    /// Messages per throughput run [default: the catalog's count at the preset].
    #[arg(long)]
    pub count: Option<u64>,
    /// Timed round trips per echo run [default: the catalog's round_trips at the preset].
    #[arg(long)]
    pub round_trips: Option<u64>,
    /// How the producer of `ring` writes, one or more of `per-message,batch`: `batch` fills
    /// runs of --batch messages in place (`Producer::try_write_batch`); with both, the runs
    /// alternate between them and the ratio per round is printed.
    #[arg(long, value_delimiter = ',')]
    pub writes: Vec<WriteMode>,
    /// Messages per `try_write_batch` run (with --writes batch) [default: 256].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: Option<u64>,
    /// Two cores `producer,consumer` (echoes: `pinger,echo`) [default: the first two available].
    #[arg(long)]
    pub cores: Option<String>,
}

impl Experiment for IpcArgs {
    type Work = ipc::Case;
    const NAME: &'static str = ipc::EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<ipc::Case>>> {
        let variants = variants_or(&self.variants, common.preset())?;
        let overrides = Overrides {
            size_bytes: self.size,
            capacity: self.capacity,
            count: self.count,
            round_trips: self.round_trips,
            writes: self.writes.clone(),
            batch: self.batch.map(|b| b as usize),
        };
        Ok(ipc::cases(&variants, common.preset(), &overrides)?
            .into_iter()
            .map(|work| {
                let (variant, language) = (work.variant.name(), work.language().name());
                Case::from_measurement(work.clone(), variant, language, work.measurement())
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<ipc::Case>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let mut cases: Vec<ipc::Case> = cases.iter().map(|c| c.work.clone()).collect();
        let cores = pick_cores(&self.cores)?;
        let mut peers = CliPeers { java: None };
        if cases.iter().any(ipc::Case::needs_java) {
            match JavaSidecar::locate().and_then(|java| java.probe().map(|()| java)) {
                Ok(java) => peers.java = Some(java),
                Err(err) if self.variants.is_none() => {
                    let mut skipped: Vec<&str> = cases
                        .iter()
                        .filter(|c| c.needs_java())
                        .map(|c| c.variant.name())
                        .collect();
                    skipped.dedup();
                    eprintln!("note: ipc {} skipped: {err}", skipped.join(", "));
                    cases.retain(|c| !c.needs_java());
                }
                Err(err) => return Err(err.into()),
            }
        }
        let runs = common.runs(Self::NAME)?;
        let plan = PeerRuns {
            runs,
            cores,
            preset: common.preset(),
            launcher: &peers,
        };
        ipc::run_cases(&cases, &plan, reporter).map_err(crate::classified)?;
        Ok(())
    }
}
