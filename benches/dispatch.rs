//! dispatch: the seed's `Operation` loop (see `sympathy_lab::dispatch`). Ids
//! `dispatch/<variant>/implementations-<n>`, time per call, throughput in calls.
//!
//! ```text
//! cargo bench --bench dispatch
//! cargo bench --bench dispatch -- --test   # smoke run
//! ```
//!
//! Each criterion iteration is one call: `iter_custom` runs the lab's kernel for `iters` calls
//! on a thread pinned to the first available core and checks the final value against its
//! closed form.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use support::criterion_config;
use sympathy_harness::pin::{available_cores, run_pinned};
use sympathy_lab::dispatch::{Variant, run};

fn dispatch(c: &mut Criterion) {
    let core = available_cores()[0];
    let mut group = c.benchmark_group("dispatch");
    group.throughput(Throughput::Elements(1));
    for variant in Variant::ALL {
        let id = format!("{variant}/implementations-{}", variant.implementations());
        group.bench_function(id, |b| {
            b.iter_custom(|iters| {
                run_pinned(core, || run(variant, iters))
                    .expect("pinned")
                    .expect("final value verified")
                    .elapsed
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = dispatch
}
criterion_main!(benches);
