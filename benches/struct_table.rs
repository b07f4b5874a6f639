//! Criterion bench of experiment 4, struct-table (group `struct-table`): building and querying
//! the seed's trade table in each layout, ids `<variant>-init/records-<n>` and
//! `<variant>-query/records-<n>`, throughput in records.
//!
//! The table's size is `records` of `experiments/struct-table.toml` at the bench's preset.
//!
//! ```text
//! cargo bench --bench struct_table                           # 10M records
//! SYMPATHY_BENCH_PRESET=full cargo bench --bench struct_table # the seed's 50M
//! cargo bench --bench struct_table -- --test                 # smoke run, 10k
//! ```

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use support::{criterion_config, u64_of};
use sympathy_lab::struct_table::{
    AosTable, BoxedTable, FlyweightTable, SoaTable, TradeTable, Variant, check_records,
    expected_costs,
};

fn bench_layout<T: TradeTable>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    variant: Variant,
    records: usize,
    label: u64,
) {
    check_records(variant, records).expect("table fits in memory");
    // Building: timed per table; freeing it is outside the measurement.
    group.bench_function(format!("{variant}-init/records-{label}"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let table = black_box(T::build(records));
                total += start.elapsed();
                drop(table);
            }
            total
        })
    });
    let table = T::build(records);
    assert_eq!(table.costs(), expected_costs(records), "{variant}");
    group.bench_function(format!("{variant}-query/records-{label}"), |b| {
        b.iter(|| black_box(&table).costs())
    });
}

fn struct_table(c: &mut Criterion) {
    let label = u64_of("struct-table", "records");
    let records = label as usize;
    let mut group = c.benchmark_group("struct-table");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(records as u64));
    bench_layout::<BoxedTable>(&mut group, Variant::Boxed, records, label);
    bench_layout::<AosTable>(&mut group, Variant::Aos, records, label);
    bench_layout::<FlyweightTable>(&mut group, Variant::Flyweight, records, label);
    bench_layout::<SoaTable>(&mut group, Variant::Soa, records, label);
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = struct_table
}
criterion_main!(benches);
