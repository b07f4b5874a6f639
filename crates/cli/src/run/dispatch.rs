//! `sympathy run dispatch`: the seed's `Operation` loop through static, `dyn` (1, 2, 4
//! implementations) and enum dispatch, in calls per second. See `sympathy_lab::dispatch`.

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::pin::{available_cores, run_pinned};
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_lab::dispatch::{self, EXPERIMENT, Variant};

use super::Common;

/// Flags of `sympathy run dispatch`.
#[derive(Args, Debug, Clone, Default)]
pub struct DispatchArgs {
    #[command(flatten)]
    pub common: Common,
    /// Calls per timed run [default: 5000000 quick, 50000000 (the seed's) otherwise].
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Variants to run, comma-separated [default: all: static, dyn-1, dyn-2, dyn-4, enum].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
}

/// `sympathy run dispatch ...`
pub fn run(args: &DispatchArgs) -> Result<()> {
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = DispatchArgs {
        common: common.clone(),
        ..DispatchArgs::default()
    };
    execute(&args, reporter)
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

fn execute(args: &DispatchArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let iterations = args.iterations.unwrap_or(preset.pick(
        5_000_000,
        dispatch::SEED_ITERATIONS,
        dispatch::SEED_ITERATIONS,
    ));
    let runs = args.common.runs_or(3, 5, 10);
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    let core = *available_cores()
        .first()
        .context("no core is available to this process")?;
    reporter.line(&format!(
        "# dispatch: {iterations} calls per run, {runs} runs per variant, pinned to core {core}"
    ))?;
    for variant in variants {
        reporter.line(&format!(
            "{variant} ({} implementation(s) at the call site)",
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
        reporter.result(
            Measurement::new(EXPERIMENT, variant.name())
                .param("implementations", variant.implementations())
                .param("iterations", iterations)
                .stats(
                    Metric::OpsPerSec,
                    Stats::from_samples(&rates).context("no valid samples")?,
                )
                .check(Check::Ok),
        )?;
    }
    Ok(())
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
}
