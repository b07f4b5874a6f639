//! `sympathy run serialization`: the seed's order object written and read back `count` times
//! per run with each codec. See `sympathy_lab::serialization`.

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::pin::run_pinned;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_lab::serialization::{self, EXPERIMENT, Variant};

use crate::experiment::catalog::{usize_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment, first_core};

/// Flags of `sympathy run serialization`.
#[derive(Args, Debug, Clone, Default)]
pub struct SerializationArgs {
    /// Round trips per run [default: count of experiments/serialization.toml at the preset].
    #[arg(long)]
    pub count: Option<usize>,
    /// Codecs to run, comma-separated [default: every Rust variant of
    /// experiments/serialization.toml].
    #[arg(long, value_delimiter = ',',
          value_parser = variant_parser(EXPERIMENT, &Variant::ALL, Variant::name))]
    pub variants: Option<Vec<Variant>>,
}

impl Experiment for SerializationArgs {
    /// The codec and the round trips per run.
    type Work = (Variant, usize);
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<(Variant, usize)>>> {
        let count = usize_or(self.count, EXPERIMENT, "count", common.preset())?;
        if count == 0 {
            bail!(
                "--count 0: at least one round trip is needed (e.g. --count 1000000, the seed's)"
            );
        }
        let codecs = variants_or(&self.variants, EXPERIMENT, &Variant::ALL, Variant::name)?;
        Ok(codecs
            .into_iter()
            .map(|codec| Case::new((codec, count), codec.name(), "rust").param("count", count))
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<(Variant, usize)>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs_or(3, 5, 10);
        let core = first_core()?;
        reporter.line(&format!(
            "# serialization: {runs} runs per codec, pinned to core {core}"
        ))?;
        for case in cases {
            let (codec, count) = case.work;
            let (mut writes, mut reads, mut bytes) = (Vec::new(), Vec::new(), 0);
            for run in 0..runs {
                let trips = run_pinned(core, || serialization::run(codec, count))??;
                reporter.line(&format!(
                    "{run} {codec:<13} write={:.1}ns read={:.1}ns total={:.1}ns bytes={} \
                     ({count} round trips)",
                    trips.write_ns,
                    trips.read_ns,
                    trips.write_ns + trips.read_ns,
                    trips.encoded_bytes
                ))?;
                writes.push(trips.write_ns);
                reads.push(trips.read_ns);
                bytes = trips.encoded_bytes;
            }
            let result = |metric, samples: &[f64], check| -> Result<_> {
                let stats = Stats::from_samples(samples).context("no valid samples")?;
                Ok(case
                    .measurement(EXPERIMENT)
                    .stats(metric, stats)
                    .check(check))
            };
            reporter.result(result(Metric::WriteNs, &writes, Check::Ok)?)?;
            reporter.result(result(Metric::ReadNs, &reads, Check::Ok)?)?;
            reporter.result(result(
                Metric::EncodedBytes,
                &[bytes as f64],
                Check::NotApplicable,
            )?)?;
        }
        Ok(())
    }
}
