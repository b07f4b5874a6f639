//! `sympathy run serialization`: the seed's order object written and read back `count` times
//! per run with each codec. See `sympathy_lab::serialization`.

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::pin::{available_cores, run_pinned};
use sympathy_harness::{Check, Measurement, Metric, Reporter, Stats};
use sympathy_lab::serialization::{self, EXPERIMENT, Variant};

use super::Common;

/// Flags of `sympathy run serialization`.
#[derive(Args, Debug, Clone, Default)]
pub struct SerializationArgs {
    #[command(flatten)]
    pub common: Common,
    /// Round trips per run [default: 100000 quick, 1000000 (the seed's) otherwise].
    #[arg(long)]
    pub count: Option<usize>,
    /// Codecs to run, comma-separated [default: all: serde-binary, hand-codec, zero-copy,
    /// ring-claim].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
}

/// `sympathy run serialization ...`
pub fn run(args: &SerializationArgs) -> Result<()> {
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = SerializationArgs {
        common: common.clone(),
        ..SerializationArgs::default()
    };
    execute(&args, reporter)
}

fn execute(args: &SerializationArgs, reporter: &mut Reporter) -> Result<()> {
    let preset = args.common.preset();
    let count = args.count.unwrap_or(preset.pick(
        100_000,
        serialization::SEED_COUNT,
        serialization::SEED_COUNT,
    ));
    if count == 0 {
        bail!("--count 0: at least one round trip is needed (e.g. --count 1000000, the seed's)");
    }
    let runs = args.common.runs_or(3, 5, 10);
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    let core = *available_cores()
        .first()
        .context("no core is available to this process")?;
    reporter.line(&format!(
        "# serialization: {count} round trips per run, {runs} runs per codec, pinned to core {core}"
    ))?;
    for variant in variants {
        let (mut writes, mut reads, mut bytes) = (Vec::new(), Vec::new(), 0);
        for run in 0..runs {
            let trips = run_pinned(core, || serialization::run(variant, count))??;
            reporter.line(&format!(
                "{run} {variant:<13} write={:.1}ns read={:.1}ns total={:.1}ns bytes={}",
                trips.write_ns,
                trips.read_ns,
                trips.write_ns + trips.read_ns,
                trips.encoded_bytes
            ))?;
            writes.push(trips.write_ns);
            reads.push(trips.read_ns);
            bytes = trips.encoded_bytes;
        }
        let base = || {
            Measurement::new(EXPERIMENT, variant.name())
                .param("count", count)
                .check(Check::Ok)
        };
        reporter.result(base().stats(Metric::WriteNs, stats(&writes)?))?;
        reporter.result(base().stats(Metric::ReadNs, stats(&reads)?))?;
        reporter.result(
            base()
                .stats(Metric::EncodedBytes, stats(&[bytes as f64])?)
                .check(Check::NotApplicable),
        )?;
    }
    Ok(())
}

fn stats(samples: &[f64]) -> Result<Stats> {
    Stats::from_samples(samples).context("no valid samples")
}
