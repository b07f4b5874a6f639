//! `sympathy run serialization`: the seed's order object written and read back `count` times
//! per run with each codec. See `sympathy_lab::serialization`.

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::pin::run_pinned;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_lab::serialization::{self, EXPERIMENT, INPUTS, RoundTrips, TIMER, Variant};

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
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
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
        let codecs = variants_or(&self.variants, common.preset())?;
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
        let runs = common.runs(Self::NAME)?;
        let core = first_core()?;
        reporter.line(&format!(
            "# serialization: {runs} runs per codec, pinned to core {core}, the codecs alternating run by run"
        ))?;
        // Run r of every codec, then run r + 1 of every codec: a machine that drifts (another
        // process, the host) meets every codec alike, and the per-run ratios compare like with like.
        let mut trips: Vec<Vec<RoundTrips>> = vec![Vec::with_capacity(runs); cases.len()];
        for run in 0..runs {
            for (case, done) in cases.iter().zip(&mut trips) {
                let (codec, count) = case.work;
                let t = run_pinned(core, || serialization::run(codec, count))??;
                reporter.line(&format!(
                    "{run} {codec:<13} write={:.1}ns read={:.1}ns total={:.1}ns bytes={} \
                     ({count} round trips)",
                    t.write_ns,
                    t.read_ns,
                    t.write_ns + t.read_ns,
                    t.encoded_bytes
                ))?;
                done.push(t);
            }
        }
        for (case, done) in cases.iter().zip(&trips) {
            let working_set = done.last().map_or(0, |t| t.working_set_bytes);
            let result = |metric, samples: &[f64], check| -> Result<_> {
                let stats = Stats::from_samples(samples).context("no valid samples")?;
                Ok(case
                    .measurement(EXPERIMENT)
                    .stats(metric, stats)
                    .check(check)
                    .fact("inputs", INPUTS)
                    .fact("working_set_bytes", working_set)
                    .fact("timer", TIMER)
                    .fact("format", case.work.0.format()))
            };
            let writes: Vec<f64> = done.iter().map(|t| t.write_ns).collect();
            let reads: Vec<f64> = done.iter().map(|t| t.read_ns).collect();
            let bytes = done.last().map_or(0, |t| t.encoded_bytes);
            reporter.result(result(Metric::WriteNs, &writes, Check::Ok)?)?;
            reporter.result(result(Metric::ReadNs, &reads, Check::Ok)?)?;
            reporter.result(result(
                Metric::EncodedBytes,
                &[bytes as f64],
                Check::NotApplicable,
            )?)?;
        }
        print_sbe_ratios(cases, &trips, reporter)
    }
}

/// `sbe / hand-codec (same run): read ...`: the generated codec against the hand-written one
/// of the same layout, run by run, when both ran.
fn print_sbe_ratios(
    cases: &[Case<(Variant, usize)>],
    trips: &[Vec<RoundTrips>],
    reporter: &mut Reporter,
) -> Result<()> {
    let find = |v: Variant| cases.iter().position(|c| c.work.0 == v).map(|i| &trips[i]);
    let (Some(sbe), Some(hand)) = (find(Variant::Sbe), find(Variant::HandCodec)) else {
        return Ok(());
    };
    for (what, of) in [
        (
            "write",
            (|t: &RoundTrips| t.write_ns) as fn(&RoundTrips) -> f64,
        ),
        ("read", |t: &RoundTrips| t.read_ns),
    ] {
        let ratios: Vec<f64> = sbe.iter().zip(hand).map(|(s, h)| of(s) / of(h)).collect();
        let what = format!("sbe / hand-codec {what}_ns (same run)");
        if let Some(line) = Stats::ratio_line(&what, &ratios, "runs") {
            reporter.line(&line)?;
        }
    }
    Ok(())
}
