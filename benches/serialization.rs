//! serialization: the seed's order object encoded and decoded (see
//! `sympathy_lab::serialization`). Ids `serialization/<variant>/write` and
//! `serialization/<variant>/read`, time per encode or decode, throughput in orders.
//!
//! ```text
//! cargo bench --bench serialization
//! cargo bench --bench serialization -- --test   # smoke run
//! ```
//!
//! Each criterion iteration is one order: `iter_custom` runs the lab's verified kernel for
//! `iters` round trips (every decoded order compared with the original) on a thread pinned to
//! the first available core, and returns the write or the read loop's time.

mod support;

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use support::criterion_config;
use sympathy_harness::pin::{available_cores, run_pinned};
use sympathy_lab::serialization::{RoundTrips, Variant, run};

fn round_trips(core: usize, variant: Variant, iters: u64) -> RoundTrips {
    run_pinned(core, || run(variant, iters as usize))
        .expect("pinned")
        .expect("every round trip verified")
}

fn serialization(c: &mut Criterion) {
    let core = available_cores()[0];
    let mut group = c.benchmark_group("serialization");
    group.throughput(Throughput::Elements(1));
    for variant in Variant::ALL {
        group.bench_function(format!("{variant}/write"), |b| {
            b.iter_custom(|iters| {
                let t = round_trips(core, variant, iters);
                Duration::from_secs_f64(t.write_ns * iters as f64 / 1e9)
            })
        });
        group.bench_function(format!("{variant}/read"), |b| {
            b.iter_custom(|iters| {
                let t = round_trips(core, variant, iters);
                Duration::from_secs_f64(t.read_ns * iters as f64 / 1e9)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = serialization
}
criterion_main!(benches);
