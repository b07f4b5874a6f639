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
use support::{criterion_config, u64_of};
use sympathy_harness::pin::available_cores;
use sympathy_lab::c_reference::Language;
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
    for language in Language::ALL {
        for variant in Variant::ALL.into_iter().filter(|v| v.has(language)) {
            let prefix = if language == Language::C { "c-" } else { "" };
            group.bench_function(format!("{prefix}{variant}/cores-{a}-{b}"), |bencher| {
                bencher.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            run(variant, language, (a, b), iterations)
                                .expect("a pinned, verified run")
                                .elapsed
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
    targets = ping_pong
}
criterion_main!(benches);
