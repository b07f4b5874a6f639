//! `sympathy run offheap-map`: the seed's users in a heap `HashMap` and in the off-heap map
//! file, built and measured per run. See `sympathy_lab::offheap_map`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_harness::pin::run_pinned;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_lab::offheap_map::{self, RunResult, Sizes, Variant};

use crate::experiment::catalog::{u64_or, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment, first_core};

const EXPERIMENT: &str = "offheap-map";

/// Flags of `sympathy run offheap-map`.
#[derive(Args, Debug, Clone, Default)]
pub struct OffheapMapArgs {
    /// Users in the map [default: users of experiments/offheap-map.toml at the preset].
    #[arg(long)]
    pub users: Option<u64>,
    /// Lookups timed together [default: the catalog's gets].
    #[arg(long)]
    pub gets: Option<u64>,
    /// Lookups timed one by one [default: the catalog's latency_samples].
    #[arg(long)]
    pub latency_samples: Option<u64>,
    /// Friend-of-friend walks timed together [default: the catalog's traversals].
    #[arg(long)]
    pub traversals: Option<u64>,
    /// Maps to run, comma-separated [default: every Rust variant of
    /// experiments/offheap-map.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Where the off-heap map's file goes (removed after each run) [default: the temp
    /// folder; a disk, as the seed's persistent map; /dev/shm keeps it in memory].
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl Experiment for OffheapMapArgs {
    type Work = (Variant, Sizes);
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<(Variant, Sizes)>>> {
        let preset = common.preset();
        let sizes = Sizes {
            users: u64_or(self.users, EXPERIMENT, "users", preset)?,
            gets: u64_or(self.gets, EXPERIMENT, "gets", preset)?,
            latency_samples: u64_or(self.latency_samples, EXPERIMENT, "latency_samples", preset)?,
            traversals: u64_or(self.traversals, EXPERIMENT, "traversals", preset)?,
        };
        if sizes.users == 0
            || sizes.gets == 0
            || sizes.latency_samples == 0
            || sizes.traversals == 0
        {
            bail!(
                "--users, --gets, --latency-samples and --traversals must be at least 1 (the \
                 seed: --users 15000000)"
            );
        }
        let variants = variants_or(&self.variants, preset)?;
        Ok(variants
            .into_iter()
            .map(|v| {
                Case::new((v, sizes), v.name(), "rust")
                    .param("users", sizes.users)
                    .param("gets", sizes.gets)
                    .param("latency_samples", sizes.latency_samples)
                    .param("traversals", sizes.traversals)
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<(Variant, Sizes)>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let runs = common.runs(Self::NAME)?;
        let core = first_core()?;
        let dir = self.dir.clone().unwrap_or_else(std::env::temp_dir);
        reporter.line(&format!(
            "# offheap-map: {runs} run(s) per map, the maps alternating run by run, pinned to \
             core {core}; map files in {}",
            dir.display()
        ))?;
        // Run 0 of every map, then run 1 of every map, ...: each map meets the same machine.
        let mut results: Vec<Vec<RunResult>> = vec![Vec::new(); cases.len()];
        for run in 0..runs {
            for (case, all) in cases.iter().zip(results.iter_mut()) {
                let (variant, sizes) = case.work;
                let r = run_pinned(core, || offheap_map::run_once(variant, &sizes, &dir))?
                    .with_context(|| format!("{variant}, {} users", sizes.users))?;
                reporter.line(&format!(
                    "{run} - {variant:<17} users={} put={:.0}/s get={:.0}/s p50={:.0}ns \
                     p99={:.0}ns fof={:.0}/s heap={} native={:.1}MB reopen={}",
                    sizes.users,
                    r.put_ops_per_sec,
                    r.get_ops_per_sec,
                    r.get_p50_ns,
                    r.get_p99_ns,
                    r.traversals_per_sec,
                    r.heap_bytes
                        .map_or("?".into(), |b| format!("{:.1}MB", b as f64 / 1e6)),
                    r.native_bytes as f64 / 1e6,
                    r.reopen_ms.map_or("-".into(), |ms| format!("{ms:.2}ms")),
                ))?;
                all.push(r);
            }
        }
        for (case, all) in cases.iter().zip(&results) {
            let (variant, sizes) = case.work;
            let report = |reporter: &mut Reporter,
                          metric: Metric,
                          value: &dyn Fn(&RunResult) -> Option<f64>,
                          check: Check|
             -> Result<()> {
                let samples: Vec<f64> = all.iter().filter_map(value).collect();
                if samples.len() == all.len() {
                    let stats = Stats::from_samples(&samples).context("no valid samples")?;
                    reporter.result(case.result(EXPERIMENT, metric, stats).check(check))?;
                }
                Ok(())
            };
            report(
                reporter,
                Metric::PutOpsPerSec,
                &|r| Some(r.put_ops_per_sec),
                Check::Ok,
            )?;
            report(
                reporter,
                Metric::GetOpsPerSec,
                &|r| Some(r.get_ops_per_sec),
                Check::Ok,
            )?;
            report(
                reporter,
                Metric::GetP50Ns,
                &|r| Some(r.get_p50_ns),
                Check::Ok,
            )?;
            report(
                reporter,
                Metric::GetP99Ns,
                &|r| Some(r.get_p99_ns),
                Check::Ok,
            )?;
            report(
                reporter,
                Metric::TraversalsPerSec,
                &|r| Some(r.traversals_per_sec),
                Check::Ok,
            )?;
            let na = Check::NotApplicable;
            report(
                reporter,
                Metric::HeapBytes,
                &|r| r.heap_bytes.map(|b| b as f64),
                na.clone(),
            )?;
            report(
                reporter,
                Metric::NativeBytes,
                &|r| Some(r.native_bytes as f64),
                na.clone(),
            )?;
            report(
                reporter,
                Metric::BytesPerRecord,
                &|r| r.used_bytes.map(|b| b as f64 / sizes.users as f64),
                na.clone(),
            )?;
            if variant == Variant::OffheapFlyweight {
                report(reporter, Metric::ReopenMs, &|r| r.reopen_ms, Check::Ok)?;
            }
            // No garbage collector: no pause. Reported so that Java's column has Rust's beside it.
            report(reporter, Metric::FullGcMs, &|_| Some(0.0), na.clone())?;
            if all.first().is_some_and(|r| r.heap_bytes.is_none()) {
                reporter.line(&format!(
                    "{variant}: heap_bytes and bytes_per_record not measured (the counting \
                     allocator is not installed)"
                ))?;
            }
        }
        Ok(())
    }
}
