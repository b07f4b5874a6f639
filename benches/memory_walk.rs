//! Criterion bench of experiment 3, memory-walk (group `memory-walk`): the seed's linear,
//! in-page random and whole-heap random walks and the dependent chases, ids
//! `<variant>/size-<n>-mib`, throughput in elements visited (words for scans, nodes for chases).
//!
//! The array's size is `size_bytes` of `experiments/memory-walk.toml` at the bench's preset.
//!
//! ```text
//! cargo bench --bench memory_walk                           # 1 GiB array
//! SYMPATHY_BENCH_PRESET=full cargo bench --bench memory_walk # the seed's 2 GiB
//! cargo bench --bench memory_walk -- --test                 # smoke run, 4 MiB
//! ```
//! Each iteration is one whole walk timed by the kernel itself (`iter_custom`), so refilling the
//! array after a chase and building a chase's cycle stay outside the measurement.

mod support;

use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use support::{criterion_config, u64_of};
use sympathy_lab::memory_walk::{Variant, WalkArray};

fn memory_walk(c: &mut Criterion) {
    let size_bytes = u64_of("memory-walk", "size_bytes") as usize;
    let size_mib = size_bytes >> 20;
    let mut array = WalkArray::new(size_bytes, false).expect("walk array");
    let mut group = c.benchmark_group("memory-walk");
    // One iteration walks the whole array (up to seconds): the same count in every sample.
    group.sampling_mode(SamplingMode::Flat);
    for variant in Variant::ALL {
        let ops = array.run(variant).expect("verified walk").ops;
        group.throughput(Throughput::Elements(ops as u64));
        group.bench_function(format!("{variant}/size-{size_mib}-mib"), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| array.run(variant).expect("verified walk").elapsed)
                    .sum::<Duration>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = memory_walk
}
criterion_main!(benches);
