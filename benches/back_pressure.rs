//! back-pressure: the open-loop generator and pinned workers (see
//! `sympathy_lab::back_pressure`). Ids `back-pressure/<variant>/load-<load>` with the load's
//! dot as a dash (`load-0-95` is 95% of capacity).
//!
//! **The figure criterion prints is the p99 request latency of one run, not its wall time**:
//! each criterion iteration is one run of `count` requests (`count` of
//! `experiments/back-pressure.toml` at the bench's preset, as are the loads and the service
//! time) at that load, and `iter_custom` returns the sum of the runs' p99 latencies. Warm-up and measurement
//! times are short because a run's wall time (count / arrival rate, ~10 ms) is far longer than
//! the latency it reports. Runs check their accounting (completed + rejected = generated); the
//! bounded queue's latency bound is not asserted here (`sympathy run back-pressure` checks it),
//! so a loaded machine shows up as a high figure, not a failed bench.
//!
//! ```text
//! cargo bench --bench back_pressure
//! cargo bench --bench back_pressure -- --test   # smoke run
//! ```

mod support;

use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use support::{criterion_config, strs, u64_of};
use sympathy_harness::pin::available_cores;
use sympathy_lab::back_pressure::{Config, Variant, measure};

fn back_pressure(c: &mut Criterion) {
    let cores = available_cores();
    if cores.len() < 2 {
        eprintln!("back-pressure: skipped, it needs two cores (generator + worker)");
        return;
    }
    let count = u64_of("back-pressure", "count");
    let service_ns = u64_of("back-pressure", "service_ns");
    let mut group = c.benchmark_group("back-pressure");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(20));
    for variant in Variant::ALL {
        for name in strs("back-pressure", "load") {
            let load: f64 = name.parse().expect("the catalog's loads are numbers");
            let mut config = Config::new(variant, load, count, &cores).expect("a valid setup");
            config.service_ns = service_ns;
            let id = format!("{variant}/load-{}", name.replace('.', "-"));
            group.bench_function(id, |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            let o = measure(&config).expect("threads pinned");
                            assert_eq!(o.completed + o.rejected, count, "requests lost");
                            Duration::from_nanos(o.percentile(0.99))
                        })
                        .sum()
                })
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = back_pressure
}
criterion_main!(benches);
