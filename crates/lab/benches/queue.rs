//! Criterion group `queue`: the SPSC queues of `sympathy run queue` (kernels in
//! `sympathy_lab::queue`), ids `queue/<variant>/<placement>`, u32 elements.
//!
//! Each iteration moves `PER_ITERATION` values from a pinned producer thread to a pinned
//! consumer thread (`iter_custom`: the transfer of `iters * PER_ITERATION` values is timed from
//! the earlier start to the later end of the two sides); the consumer verifies every value and
//! a failed check panics. `p1c1-ipc` `fork()`s a consumer process per measurement: the bench is
//! single-threaded between measurements, which makes the fork safe.
//!
//! ```text
//! cargo bench --bench queue                       # default sizes
//! cargo bench --bench queue -- 'queue/p1c1'       # one variant family
//! cargo bench --bench queue -- --test             # smoke run (quick sizes)
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod support;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use support::criterion_config;
use sympathy_harness::Preset;
use sympathy_harness::pin::available_cores;
use sympathy_lab::queue::{
    DEFAULT_CAPACITY, ElementKind, PeerLaunch, Placement, QueueRun, Variant,
};

fn queue(c: &mut Criterion) {
    let per_iteration: u64 = Preset::for_bench().pick(10_000, 100_000, 1_000_000);
    let mut group = c.benchmark_group("queue");
    group.throughput(Throughput::Elements(per_iteration));
    for placement in Placement::ALL {
        if placement == Placement::CrossCore && available_cores().len() < 2 {
            eprintln!("queue: skipping cross-core, this process may use only one core");
            continue;
        }
        for variant in Variant::ALL {
            let id = BenchmarkId::new(variant.name(), placement.name());
            group.bench_function(id, |b| {
                b.iter_custom(|iters| transfer(variant, placement, iters.max(1) * per_iteration))
            });
        }
    }
    group.finish();
}

fn transfer(variant: Variant, placement: Placement, count: u64) -> Duration {
    QueueRun {
        variant,
        element: ElementKind::U32,
        placement,
        count,
        capacity: DEFAULT_CAPACITY,
    }
    .run(&PeerLaunch::Fork)
    .unwrap_or_else(|e| panic!("queue/{}/{}: {e}", variant.name(), placement.name()))
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = queue
}
criterion_main!(benches);
