//! offheap-map: the seed's users in a heap `HashMap` and in the off-heap map file (see
//! `sympathy_lab::offheap_map`). Ids `offheap-map/<variant>/get` (one lookup of a random user,
//! its id and friend count checked, in a map built once) and `offheap-map/<variant>/put` (one
//! put while a map of `users` users is built), time per operation.
//!
//! ```text
//! cargo bench --bench offheap_map
//! cargo bench --bench offheap_map -- --test   # smoke run
//! ```
//!
//! The map holds the catalog's `users` at the bench's preset (`experiments/offheap-map.toml`);
//! the off-heap map's file is in the temp folder. Each `get` iteration batch runs the lab's
//! verified lookups on a thread pinned to the first available core.

mod support;

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use support::{criterion_config, u64_of};
use sympathy_harness::pin::{available_cores, run_pinned};
use sympathy_lab::offheap_map::{Loaded, Variant};

fn offheap_map(c: &mut Criterion) {
    let core = available_cores()[0];
    let users = u64_of("offheap-map", "users");
    let dir = std::env::temp_dir();
    let mut group = c.benchmark_group("offheap-map");
    group.throughput(Throughput::Elements(1));
    for variant in Variant::ALL {
        let (loaded, _) = Loaded::build(variant, users, &dir).expect("the map builds");
        let mut stream = 0;
        group.bench_function(format!("{variant}/get"), |b| {
            b.iter_custom(|iters| {
                stream += 1;
                run_pinned(core, || loaded.get_time(stream, iters))
                    .expect("pinned")
                    .expect("every lookup verified")
            })
        });
        drop(loaded);
        group.bench_function(format!("{variant}/put"), |b| {
            b.iter_custom(|iters| {
                // A map of `iters` users, built per sample: the puts' time, per put.
                let (_, put_time) = run_pinned(core, || Loaded::build(variant, iters.max(1), &dir))
                    .expect("pinned")
                    .expect("the map builds");
                put_time.max(Duration::from_nanos(1))
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = offheap_map
}
criterion_main!(benches);
