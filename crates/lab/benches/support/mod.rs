//! What the criterion benches in this folder share: one criterion configuration. Each bench
//! sizes its work with `Preset::for_bench()` (sympathy-harness): `cargo bench -- --test` (the
//! smoke run in `ci/test`) runs each benchmark once on quick sizes,
//! `SYMPATHY_BENCH_PRESET=full cargo bench` uses the seeds' sizes, a plain `cargo bench` the
//! default sizes.

use std::time::Duration;

use criterion::Criterion;

/// Criterion settings used by every bench: few, longer samples suit multi-threaded
/// `iter_custom` benchmarks whose single iteration already spans many operations.
pub fn criterion_config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}
