//! Criterion group `queue`: the SPSC queues of `sympathy run queue` (kernels in
//! `sympathy_lab::queue`), ids `queue/<variant>/<placement>`, with the capacity, element and
//! placements of `experiments/queue.toml` at the bench's preset.
//!
//! Each iteration moves one value from a pinned producer thread to a pinned consumer thread
//! (`iter_custom`: one transfer of `iters` values, timed from the earlier start to the later end
//! of the two sides; criterion chooses `iters`, so the time per value is the figure); the
//! consumer verifies every value and a failed check panics. `p1c1-ipc` `fork()`s a consumer process per measurement: the bench is
//! single-threaded between measurements, which makes the fork safe.
//!
//! ```text
//! cargo bench --bench queue                       # default sizes
//! cargo bench --bench queue -- 'queue/p1c1'       # one variant family
//! cargo bench --bench queue -- --test             # smoke run
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod support;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use support::{criterion_config, strs, u64_of};
use sympathy_harness::pin::available_cores;
use sympathy_lab::queue::{ElementKind, PeerLaunch, Placement, QueueRun, Variant};

fn queue(c: &mut Criterion) {
    let capacity = u64_of("queue", "capacity") as usize;
    let [element] = strs("queue", "element")[..] else {
        panic!("experiments/queue.toml: the benches take one element");
    };
    let element = ElementKind::parse(element).expect("the catalog's element is a kernel's");
    let mut group = c.benchmark_group("queue");
    group.throughput(Throughput::Elements(1));
    for placement in strs("queue", "placement") {
        let placement = Placement::parse(placement).expect("the catalog's placements");
        if placement == Placement::CrossCore && available_cores().len() < 2 {
            eprintln!("queue: skipping cross-core, this process may use only one core");
            continue;
        }
        for variant in Variant::ALL {
            let id = BenchmarkId::new(variant.name(), placement.name());
            let run = QueueRun {
                variant,
                element,
                placement,
                count: 1,
                capacity,
            };
            group.bench_function(id, |b| {
                b.iter_custom(|iters| {
                    transfer(QueueRun {
                        count: iters.max(1),
                        ..run
                    })
                })
            });
        }
    }
    group.finish();
}

fn transfer(run: QueueRun) -> Duration {
    run.run(&PeerLaunch::Fork)
        .unwrap_or_else(|e| panic!("queue/{}/{}: {e}", run.variant.name(), run.placement.name()))
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = queue
}
criterion_main!(benches);
