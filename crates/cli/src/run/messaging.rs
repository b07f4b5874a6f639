//! `sympathy run messaging`: the seed's messaging throughput, price updates encoded, sent
//! between two pinned processes over the ring and decoded, every field checked, with Rust
//! receiving (`sympathy_lab::messaging`). The sending process starts through [`CliPeers`] (the
//! ipc experiment's): a Rust sender is this binary's hidden `run ipc-peer publisher`, a Java
//! one `java/sidecar publish`.
//!
//! When Java cannot run here, a run of the default variants and senders skips the cases with a
//! Java sender (a note on stderr says so); naming them (`--senders other-language` or
//! `--variants sbe-jni`) makes that an error.
//!
//! ```text
//! sympathy run messaging --variants raw,sbe --senders same-language --runs 5
//! ```

use anyhow::Result;
use clap::Args;
use sympathy_harness::Reporter;
use sympathy_lab::messaging::{self, EXPERIMENT, Overrides, Sender, Variant};
use sympathy_lab::peer::{JavaSidecar, PeerRuns};

use crate::experiment::catalog::{variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};
use crate::run::peers::{CliPeers, pick_cores};

/// Flags of `sympathy run messaging` (beside the common ones).
#[derive(Args, Debug, Clone, Default)]
pub struct MessagingArgs {
    /// Variants to run, comma-separated [default: every Rust variant of experiments/messaging.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Senders to run, `same-language` (Rust to Rust) and/or `other-language` (Java to Rust)
    /// [default: each variant's senders in the catalog].
    #[arg(long, value_delimiter = ',', value_parser = sender)]
    pub senders: Vec<Sender>,
    /// Messages per run, every variant [default: the catalog's count, stock_count for serde].
    #[arg(long)]
    pub count: Option<u64>,
    /// Ring capacity in bytes [default: the catalog's capacity].
    #[arg(long)]
    pub capacity: Option<usize>,
    /// Two cores `sender,receiver` [default: the first two available].
    #[arg(long)]
    pub cores: Option<String>,
}

/// `--senders`: a sender by name.
fn sender(text: &str) -> Result<Sender, String> {
    Sender::named(text).ok_or_else(|| {
        format!("'{text}' is not a sender: use same-language (Rust to Rust) or other-language (Java to Rust)")
    })
}

impl Experiment for MessagingArgs {
    type Work = messaging::Case;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<messaging::Case>>> {
        let variants = variants_or(&self.variants, common.preset())?;
        let overrides = Overrides {
            count: self.count,
            capacity: self.capacity,
            senders: self.senders.clone(),
        };
        Ok(messaging::cases(&variants, common.preset(), &overrides)?
            .into_iter()
            .map(|work| {
                let (variant, language) = (work.variant.name(), work.receiver.name());
                Case::from_measurement(work.clone(), variant, language, work.measurement())
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<messaging::Case>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let mut cases: Vec<messaging::Case> = cases.iter().map(|c| c.work.clone()).collect();
        let cores = pick_cores(&self.cores)?;
        let mut peers = CliPeers { java: None };
        if cases.iter().any(messaging::Case::needs_java) {
            match JavaSidecar::locate().and_then(|java| java.probe().map(|()| java)) {
                Ok(java) => peers.java = Some(java),
                Err(err) if self.variants.is_none() && self.senders.is_empty() => {
                    let skipped: Vec<String> = cases
                        .iter()
                        .filter(|c| c.needs_java())
                        .map(messaging::Case::label)
                        .collect();
                    eprintln!("note: messaging {} skipped: {err}", skipped.join(", "));
                    cases.retain(|c| !c.needs_java());
                }
                Err(err) => return Err(err.into()),
            }
        }
        // One run a case at quick: compare repeats it in each of its rounds.
        let runs = common.runs(Self::NAME)?;
        reporter.line(&format!(
            "# messaging: {runs} runs per case, the cases alternating run by run, sender on core {}, receiver on core {}",
            cores.0, cores.1
        ))?;
        let plan = PeerRuns {
            runs,
            cores,
            preset: common.preset(),
            launcher: &peers,
        };
        messaging::run_cases(&cases, &plan, reporter).map_err(crate::classified)?;
        Ok(())
    }
}
