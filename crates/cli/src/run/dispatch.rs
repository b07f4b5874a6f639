//! `sympathy run dispatch`: the seed's `Operation` loop through static, `dyn` (1, 2, 4
//! implementations) and enum dispatch, in calls per second. See `sympathy_lab::dispatch`.

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::pin::run_pinned;
use sympathy_harness::{Metric, Reporter, Stats};
use sympathy_lab::dispatch::{self, DispatchError, EXPERIMENT, Variant};

use crate::experiment::catalog::{u64_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment, first_core};

/// Flags of `sympathy run dispatch`.
#[derive(Args, Debug, Clone, Default)]
pub struct DispatchArgs {
    /// Calls per timed run [default: iterations of experiments/dispatch.toml at the preset].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Variants to run, comma-separated [default: every Rust variant of
    /// experiments/dispatch.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
}

/// `1234567` as `1,234,567`, as the seed prints its rates.
fn grouped(n: u64) -> String {
    let digits = n.to_string().into_bytes();
    let groups: Vec<&str> = digits
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}

impl Experiment for DispatchArgs {
    /// The variant and the calls per run.
    type Work = (Variant, u64);
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<(Variant, u64)>>> {
        let iterations = u64_or(self.iterations, EXPERIMENT, "iterations", common.preset())?;
        if iterations == 0 {
            return Err(DispatchError::ZeroIterations.into());
        }
        let variants = variants_or(&self.variants, common.preset())?;
        Ok(variants
            .into_iter()
            .map(|v| {
                Case::new((v, iterations), v.name(), "rust")
                    .param("implementations", v.implementations())
                    .param("iterations", iterations)
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<(Variant, u64)>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs(Self::NAME)?;
        let core = first_core()?;
        for case in cases {
            let (variant, iterations) = case.work;
            reporter.line(&format!(
                "{variant} ({} implementation(s) at the call site), {iterations} calls per run, \
                 {runs} runs, pinned to core {core}",
                variant.implementations()
            ))?;
            let mut rates = Vec::with_capacity(runs);
            for _ in 0..runs {
                let phase = run_pinned(core, || dispatch::run(variant, iterations))??;
                reporter.line(&format!(
                    "    {} ops/sec (value = {})",
                    grouped(phase.ops_per_sec() as u64),
                    phase.value
                ))?;
                rates.push(phase.ops_per_sec());
            }
            let stats = Stats::from_samples(&rates).context("no valid samples")?;
            reporter.result(case.result(EXPERIMENT, Metric::OpsPerSec, stats))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_grouped_by_thousands() {
        assert_eq!(grouped(3_100_375_269), "3,100,375,269");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
    }

    #[test]
    fn cases_take_the_catalog_iterations_and_every_rust_variant() {
        let quick = Common {
            quick: true,
            ..Common::default()
        };
        let cases = DispatchArgs::default().cases(&quick).unwrap();
        let names: Vec<&str> = cases.iter().map(|c| c.variant).collect();
        assert_eq!(
            names,
            [
                "static",
                "inlined-1",
                "inlined-2",
                "dyn-1",
                "dyn-2",
                "dyn-4",
                "enum"
            ]
        );
        assert_eq!(cases[5].params["implementations"], 4);
        assert_eq!(cases[5].params["iterations"], 5_000_000);
    }
}
