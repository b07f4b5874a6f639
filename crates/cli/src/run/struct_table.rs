//! `sympathy run struct-table`: the seed's trade table in four layouts, built and queried for
//! buyCost/sellCost. See `sympathy_lab::struct_table`.

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_lab::struct_table::{self, Variant};

use crate::experiment::catalog::{usize_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

const EXPERIMENT: &str = "struct-table";

/// Flags of `sympathy run struct-table`.
#[derive(Args, Debug, Clone, Default)]
pub struct StructTableArgs {
    /// Trades in the table [default: records of experiments/struct-table.toml at the preset].
    #[arg(long)]
    pub records: Option<usize>,
    /// Layouts to run, comma-separated [default: every Rust variant of
    /// experiments/struct-table.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
}

/// One table: its layout and its number of trades.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    variant: Variant,
    records: usize,
}

impl Experiment for StructTableArgs {
    type Work = Table;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<Table>>> {
        let records = usize_or(self.records, EXPERIMENT, "records", common.preset())?;
        let variants = variants_or(&self.variants, common.preset())?;
        // Check every layout before spending minutes on the first.
        for &variant in &variants {
            struct_table::check_records(variant, records)?;
        }
        Ok(variants
            .into_iter()
            .map(|variant| {
                Case::new(Table { variant, records }, variant.name(), "rust")
                    .param("records", records)
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Table>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs(Self::NAME)?;
        for case in cases {
            let Table { variant, records } = case.work;
            let (mut init, mut query, mut total) = (Vec::new(), Vec::new(), Vec::new());
            for run in 0..runs {
                let r = struct_table::run_once(variant, records)?;
                reporter.line(&format!(
                    "{run} - duration {:.0}ms (init {:.0}ms, query {:.0}ms) {variant}",
                    r.total_ms(),
                    r.init_ms,
                    r.query_ms
                ))?;
                if run == 0 {
                    reporter.line(&format!(
                        "buyCost = {} sellCost = {}",
                        r.costs.buy, r.costs.sell
                    ))?;
                }
                init.push(r.init_ms);
                query.push(r.query_ms);
                total.push(r.total_ms());
            }
            for (metric, samples) in [
                (Metric::InitMs, &init),
                (Metric::QueryMs, &query),
                (Metric::TotalMs, &total),
            ] {
                let stats = Stats::from_samples(samples)
                    .with_context(|| format!("{variant}: no valid samples"))?;
                reporter.result(case.result(EXPERIMENT, metric, stats))?;
            }
            // No garbage collector: no run spends a millisecond in one. Reported so that the
            // table of Java's collection time (the boxed table's cost the seed points at) has
            // Rust's column beside it.
            let no_collector = Stats::from_samples(&vec![0.0; runs]).context("no runs")?;
            reporter.result(
                case.result(EXPERIMENT, Metric::GcPauseMs, no_collector)
                    .check(Check::NotApplicable),
            )?;
            match struct_table::bytes_per_record(variant, records)? {
                Some(bytes) => reporter.result(
                    case.measurement(EXPERIMENT)
                        .stats(
                            Metric::BytesPerRecord,
                            Stats::from_samples(&[bytes]).context("bytes_per_record is NaN")?,
                        )
                        .check(Check::NotApplicable),
                )?,
                None => reporter.line(&format!(
                    "{variant}: bytes_per_record not measured (the counting allocator is not installed)"
                ))?,
            }
        }
        Ok(())
    }
}
