//! atomic-increment: T pinned threads increment one shared counter to N (see
//! `sympathy_lab::atomic_increment`). Ids `atomic-increment/<variant>/threads-<T>`; the C
//! references of the seed are `c-<variant>`. Throughput is increments. The thread counts and
//! the increments per run are `threads` and `count` of `experiments/atomic-increment.toml` at
//! the bench's preset (thread counts above the available cores are skipped).
//!
//! ```text
//! cargo bench --bench atomic_increment                       # default sizes
//! SYMPATHY_BENCH_PRESET=full cargo bench --bench atomic_increment
//! ```
//!
//! Each criterion iteration is one verified run: threads are spawned, pinned and released
//! together by a barrier, and the time from the first thread's start to the last one's end is
//! what counts (`iter_custom`).

mod support;

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use support::{bench_runs, criterion_config, kernels, u64_of, u64s};
use sympathy_harness::Preset;
use sympathy_harness::pin::available_cores;
use sympathy_lab::atomic_increment::{Variant, run};

fn atomic_increment(c: &mut Criterion) {
    let count = u64_of("atomic-increment", "count");
    let cores = available_cores();
    let threads: Vec<usize> = u64s("atomic-increment", "threads")
        .into_iter()
        .map(|t| t as usize)
        .filter(|&t| t <= cores.len())
        .collect();
    let mut group = c.benchmark_group("atomic-increment");
    group.throughput(Throughput::Elements(count));
    if Preset::for_bench() == Preset::Full {
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(60));
    }
    for (variant, language, prefix) in kernels(&Variant::ALL, Variant::has) {
        for &threads in &threads {
            let id = format!("{prefix}{variant}/threads-{threads}");
            let cores = &cores[..threads];
            bench_runs(&mut group, id, || {
                match run(variant, language, cores, count) {
                    Ok(outcome) => outcome.elapsed,
                    Err(err) => panic!("{prefix}{variant} on {threads} threads: {err}"),
                }
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = atomic_increment
}
criterion_main!(benches);
