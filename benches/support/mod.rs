//! What the criterion benches in this folder share: one criterion configuration and the
//! experiment catalog's sizes. Each bench sizes its work with [`u64s`], the catalog's
//! (`experiments/<name>.toml`) values at `Preset::for_bench()` (sympathy-harness):
//! `cargo bench -- --test` (and `cargo test --bench '*' -- --test`, the smoke run in `ci/test`)
//! runs each benchmark once on the smoke
//! sizes, `SYMPATHY_BENCH_PRESET=full cargo bench` uses the seeds' sizes, a plain `cargo bench`
//! the default sizes.
#![allow(dead_code)] // each bench uses some of these

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use sympathy_harness::Preset;
use sympathy_harness::catalog::{ParamSpec, catalog};
use sympathy_lab::c_reference::Language;

/// Criterion settings used by every bench: few, longer samples suit multi-threaded
/// `iter_custom` benchmarks whose single iteration already spans many operations.
pub fn criterion_config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

/// Every kernel to bench of a two-language experiment: each variant in Rust, then each that
/// has a C reference, with its id prefix (`c-` for the C references of the seed).
pub fn kernels<V: Copy>(
    all: &[V],
    has: fn(V, Language) -> bool,
) -> Vec<(V, Language, &'static str)> {
    Language::ALL
        .into_iter()
        .flat_map(|language| {
            let prefix = if language == Language::C { "c-" } else { "" };
            all.iter()
                .filter(move |&&v| has(v, language))
                .map(move |&v| (v, language, prefix))
        })
        .collect()
}

/// Benches `id` as whole runs: each criterion iteration is one `run`, which returns the time
/// it measured (`iter_custom` sums them).
pub fn bench_runs(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: String,
    mut run: impl FnMut() -> Duration,
) {
    group.bench_function(id, |b| {
        b.iter_custom(|iters| (0..iters).map(|_| run()).sum())
    });
}

/// Param `param` of `experiment` in the catalog; a missing one stops the bench with its name.
fn param(experiment: &str, param: &str) -> &'static ParamSpec {
    catalog()
        .param(experiment, param)
        .unwrap_or_else(|| panic!("experiments/{experiment}.toml has no param `{param}`"))
}

/// The unsigned integers of a catalog param at the bench's preset (a list, or one scalar).
///
/// ```ignore
/// let [records] = u64s("struct-table", "records")[..] else { unreachable!() };
/// ```
pub fn u64s(experiment: &str, name: &str) -> Vec<u64> {
    let preset = Preset::for_bench();
    param(experiment, name)
        .u64s_at(preset)
        .unwrap_or_else(|| panic!("{experiment} {name} at {preset}: not unsigned integers"))
}

/// A catalog param holding one unsigned integer at the bench's preset.
pub fn u64_of(experiment: &str, name: &str) -> u64 {
    let preset = Preset::for_bench();
    param(experiment, name)
        .u64_at(preset)
        .unwrap_or_else(|| panic!("{experiment} {name} at {preset}: not an unsigned integer"))
}

/// The strings of a catalog param at the bench's preset (a list, or one scalar).
pub fn strs(experiment: &str, name: &str) -> Vec<&'static str> {
    let preset = Preset::for_bench();
    param(experiment, name)
        .strs_at(preset)
        .unwrap_or_else(|| panic!("{experiment} {name} at {preset}: not strings"))
}
