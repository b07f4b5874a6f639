//! ping-pong: two pinned threads bounce a counter (see `sympathy_lab::ping_pong`). Ids
//! `ping-pong/<variant>/cores-<a>-<b>`; the C references of the seed are `c-<variant>`.
//! Throughput is one-way hops (two per round trip). Round trips per run: `iterations` of
//! `experiments/ping-pong.toml` at the bench's preset.
//!
//! ```text
//! cargo bench --bench ping_pong
//! ```
//!
//! Each criterion iteration is one verified run; the ping thread times it, from its first
//! publication to the last answer (`iter_custom`).

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use support::{bench_runs, criterion_config, kernels, u64_of};
use sympathy_harness::pin::available_cores;
use sympathy_lab::ping_pong::{Variant, run};

fn ping_pong(c: &mut Criterion) {
    let iterations = u64_of("ping-pong", "iterations");
    let cores = available_cores();
    let [a, b, ..] = cores[..] else {
        eprintln!("ping-pong benches skipped: they need two cores, this process has {cores:?}");
        return;
    };
    let mut group = c.benchmark_group("ping-pong");
    group.throughput(Throughput::Elements(2 * iterations));
    for (variant, language, prefix) in kernels(&Variant::ALL, Variant::has) {
        bench_runs(
            &mut group,
            format!("{prefix}{variant}/cores-{a}-{b}"),
            || {
                let outcome = run(variant, language, (a, b), iterations);
                outcome.expect("a pinned, verified run").elapsed
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = ping_pong
}
criterion_main!(benches);
