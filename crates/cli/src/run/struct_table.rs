//! `sympathy run struct-table`: the seed's trade table in four layouts, built and queried for
//! buyCost/sellCost. See `sympathy_lab::struct_table`.

use anyhow::Result;
use clap::Args;
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_lab::struct_table::{self, Variant};

use super::Common;

const EXPERIMENT: &str = "struct-table";

/// Flags of `sympathy run struct-table`.
#[derive(Args, Debug, Clone, Default)]
pub struct StructTableArgs {
    #[command(flatten)]
    pub common: Common,
    /// Trades in the table [default: 1000000 quick, 10000000, 50000000 full (the seed's)].
    #[arg(long)]
    pub records: Option<usize>,
    /// Layouts to run, comma-separated [default: all: boxed, aos, flyweight, soa].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
}

/// `sympathy run struct-table ...`
pub fn run(args: &StructTableArgs) -> Result<()> {
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = StructTableArgs {
        common: common.clone(),
        ..StructTableArgs::default()
    };
    execute(&args, reporter)
}

fn execute(args: &StructTableArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let records = args
        .records
        .unwrap_or(preset.pick(1_000_000, 10_000_000, 50_000_000));
    let runs = args.common.runs_or(3, 5, 5);
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    // Check every layout before spending minutes on the first.
    for &variant in &variants {
        struct_table::check_records(variant, records)?;
    }
    for variant in variants {
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
                .ok_or_else(|| anyhow::anyhow!("{variant}: no valid samples"))?;
            reporter.result(measurement(variant, records).stats(metric, stats))?;
        }
        match struct_table::bytes_per_record(variant, records)? {
            Some(bytes) => reporter.result(
                measurement(variant, records)
                    .stats(
                        Metric::BytesPerRecord,
                        Stats::from_samples(&[bytes]).expect("one finite sample"),
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

fn measurement(variant: Variant, records: usize) -> Measurement {
    Measurement::new(EXPERIMENT, variant.name())
        .param("records", records)
        .check(Check::Ok)
}
