//! The seeds' published figures, each with the hardware it was measured on and where it was
//! published, mapped to the (experiment, variant, metric) of the results they compare with.
//!
//! The seeds are the articles in `/work/shared/seeds/` (see `docs/report.md`):
//! - `000_`: Martin Thompson's blog 2012: "Memory Access Patterns Are Important" (5 Aug 2012)
//!   and "Compact Off-Heap Structures/Tuples In Java" (17 Oct 2012).
//! - `001_`: the same blog, "Further Adventures With CAS Instructions And Micro Benchmarking"
//!   (25 Jan 2013).
//! - `002_`: the same blog, "Inter Thread Latency" (9 Aug 2011).
//! - `003_`: Nitsan Wakart's blog, "135 Million messages a second between processes in pure
//!   Java" (7 Apr 2013).
//! - `000_` also holds "Invoke Interface Optimisations" (29 Apr 2012): the dispatch figures;
//!   `001_` also "Native C/C++ Like Performance For Java Object Serialisation" (5 Jul 2012):
//!   the serialization figures. "Applying Back Pressure When Overloaded" (19 May 2012, in both)
//!   publishes no measurement, so back-pressure has no seed figure.
//!
//! A figure applies to a report row when experiment and metric are equal, the variant is equal
//! (or the figure's variant is `""`: any variant), and the row carries every `params` pair.

/// One published figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeedFigure {
    /// Experiment it compares with.
    pub experiment: &'static str,
    /// Variant it compares with (`""`: any variant).
    pub variant: &'static str,
    /// Metric, in the unit of the results schema.
    pub metric: &'static str,
    /// Parameters a row must carry for the figure to apply (the work must be the same size).
    pub params: &'static [(&'static str, &'static str)],
    /// The figure, converted to the metric's unit.
    pub value: f64,
    /// The language the seed measured (`java`, `c`).
    pub language: &'static str,
    /// The seed's hardware (and runtime), as the article states it.
    pub hardware: &'static str,
    /// Which seed file and which table or output block the figure comes from.
    pub citation: &'static str,
    /// How the figure was derived, where it is not copied as printed.
    pub note: &'static str,
}

const SANDY_BRIDGE_2012: &str =
    "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, DDR3-1600, Linux 3.4, Java 1.7.0_05";
const SANDY_BRIDGE_2011: &str = "Intel Sandy Bridge laptop 2.2 GHz, Java 1.7.0 / g++ -O3";
const NOT_STATED_2013: &str = "not stated in the post (2013, Java 1.7, one socket)";
const SANDY_BRIDGE_SERIALISATION: &str = "Intel Sandy Bridge 2.4 GHz laptop, Java 1.7.0_04";
const SANDY_BRIDGE_DISPATCH: &str =
    "Intel Sandy Bridge 2.4 GHz, Linux 3.3.2, Oracle Java 1.7.0_02 server JVM";

/// Every figure the report shows, in one place.
pub const SEED_FIGURES: &[SeedFigure] = &[
    // ---- ping-pong: 002_ "Inter Thread Latency", Results section.
    SeedFigure {
        experiment: "ping-pong",
        variant: "volatile",
        metric: "ns_per_hop",
        params: &[],
        value: 50.0,
        language: "java",
        hardware: SANDY_BRIDGE_2011,
        citation: "seed 002_, Results: `taskset -c 2,4 java InterThreadLatency` -> `ns per op = 50`",
        note: "500M round trips; ns per op = duration / (2 x iterations), i.e. one hop",
    },
    SeedFigure {
        experiment: "ping-pong",
        variant: "volatile",
        metric: "hops_per_sec",
        params: &[],
        value: 19_688_810.0,
        language: "java",
        hardware: SANDY_BRIDGE_2011,
        citation: "seed 002_, Results: `op/sec = 19,688,810` (Java)",
        note: "",
    },
    SeedFigure {
        experiment: "ping-pong",
        variant: "xadd",
        metric: "ns_per_hop",
        params: &[],
        value: 45.0,
        language: "c",
        hardware: SANDY_BRIDGE_2011,
        citation: "seed 002_, Results: `taskset -c 2,4 ./itl` -> `ns per op = 45` (C++, __sync_add_and_fetch)",
        note: "",
    },
    SeedFigure {
        experiment: "ping-pong",
        variant: "xadd",
        metric: "hops_per_sec",
        params: &[],
        value: 22_178_872.0,
        language: "c",
        hardware: SANDY_BRIDGE_2011,
        citation: "seed 002_, Results: `op/sec = 22,178,872` (C++)",
        note: "",
    },
    SeedFigure {
        experiment: "ping-pong",
        variant: "store-release",
        metric: "ns_per_hop",
        params: &[],
        value: 66.0,
        language: "java",
        hardware: "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, turbo off",
        citation: "seed 002_, reader comment: AtomicLong.lazySet, \"different core case dropped to 66 ns per op\"",
        note: "a reader's figure, not the author's",
    },
    // ---- atomic-increment: 001_ "Further Adventures With CAS Instructions", perf stat blocks.
    SeedFigure {
        experiment: "atomic-increment",
        variant: "lock-xadd",
        metric: "ns_per_op",
        params: &[("threads", "1")],
        value: 6.79,
        language: "c",
        hardware: "Intel Sandy Bridge 2.4 GHz (turbo to 3.4 GHz), g++",
        citation: "seed 001_, `perf stat ./atomic_inc 1 2` on Sandy Bridge: duration = 3,394,221,940 ns",
        note: "500M increments; the post prints `ns per op = 3` because it divides by 2 x COUNT; per increment it is 6.79 ns (Nehalem 2.8 GHz: 6.18 ns)",
    },
    // ---- memory-walk: 000_ "Memory Access Patterns Are Important", Results (2 GiB long[]).
    SeedFigure {
        experiment: "memory-walk",
        variant: "linear",
        metric: "ns_per_op",
        params: &[],
        value: 0.89,
        language: "java",
        hardware: SANDY_BRIDGE_2012,
        citation: "seed 000_, Memory Access Patterns, Results: i7-2760QM block, LINEAR_WALK runs 0.88-0.92 ns",
        note: "median of the 5 printed runs, 2 GiB array (i7-860 Nehalem: 1.00 ns; U4100: 2.38 ns)",
    },
    SeedFigure {
        experiment: "memory-walk",
        variant: "random-page",
        metric: "ns_per_op",
        params: &[],
        value: 3.31,
        language: "java",
        hardware: SANDY_BRIDGE_2012,
        citation: "seed 000_, Memory Access Patterns, Results: i7-2760QM block, RANDOM_PAGE_WALK runs 3.29-3.35 ns",
        note: "median of the 5 printed runs, 2 GiB array (i7-860: 3.79 ns; U4100: 12.22 ns)",
    },
    SeedFigure {
        experiment: "memory-walk",
        variant: "random-heap",
        metric: "ns_per_op",
        params: &[],
        value: 9.46,
        language: "java",
        hardware: SANDY_BRIDGE_2012,
        citation: "seed 000_, Memory Access Patterns, Results: i7-2760QM block, RANDOM_HEAP_WALK runs 9.20-9.58 ns",
        note: "median of the 5 printed runs, 2 GiB array (i7-860: 29.14 ns; U4100: 151.80 ns)",
    },
    // ---- struct-table: 000_ "Compact Off-Heap Structures/Tuples In Java", Results.
    SeedFigure {
        experiment: "struct-table",
        variant: "boxed",
        metric: "total_ms",
        params: &[("records", "50000000")],
        value: 12262.0,
        language: "java",
        hardware: "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, DDR3-1600, Linux 3.4.11, Java 1.7.0_07, -Xmx4g",
        citation: "seed 000_, Compact Off-Heap Structures, Results: i7-2760QM, TestJavaMemoryLayout runs 9822-23074 ms",
        note: "median of 5 runs of init + query over 50M trades; the 5th run against the flyweight's (23074 vs 534 ms) is the post's 43.2x",
    },
    SeedFigure {
        experiment: "struct-table",
        variant: "unsafe-flyweight",
        metric: "total_ms",
        params: &[("records", "50000000")],
        value: 547.0,
        language: "java",
        hardware: "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, DDR3-1600, Linux 3.4.11, Java 1.7.0_07",
        citation: "seed 000_, Compact Off-Heap Structures, Results: i7-2760QM, TestDirectMemoryLayout runs 534-634 ms",
        note: "median of 5 runs; Unsafe over 42-byte records",
    },
    SeedFigure {
        experiment: "struct-table",
        variant: "flyweight",
        metric: "total_ms",
        params: &[("records", "50000000")],
        value: 547.0,
        language: "java",
        hardware: "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, DDR3-1600, Linux 3.4.11, Java 1.7.0_07",
        citation: "seed 000_, Compact Off-Heap Structures, Results: i7-2760QM, TestDirectMemoryLayout runs 534-634 ms",
        note: "the seed's flyweight used sun.misc.Unsafe over the same 42-byte records",
    },
    SeedFigure {
        experiment: "struct-table",
        variant: "boxed",
        metric: "bytes_per_record",
        params: &[],
        value: 57.66,
        language: "java",
        hardware: "Intel i7-2760QM (Sandy Bridge) 2.4 GHz, Java 1.7.0_07, -Xmx4g",
        citation: "seed 000_, Compact Off-Heap Structures: \"2,883,248,712 = 3,817,799,680 - 810,551,856 - 123,999,112\"",
        note: "heap used (total - free - base JVM) / 50M trades; 37% over the 42-byte off-heap record",
    },
    SeedFigure {
        experiment: "struct-table",
        variant: "flyweight",
        metric: "bytes_per_record",
        params: &[],
        value: 42.0,
        language: "java",
        hardware: "by layout, any machine",
        citation: "seed 000_, Compact Off-Heap Structures: \"each object requires 42-bytes\"",
        note: "by layout, not measured",
    },
    // ---- queue: 003_ "135 Million messages a second between processes", tables.
    SeedFigure {
        experiment: "queue",
        variant: "p1c1",
        metric: "msgs_per_sec",
        params: &[("placement", "cross-core")],
        value: 130e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, in-process table: P1C1QueueOriginal3, Cross core 130M",
        note: "",
    },
    SeedFigure {
        experiment: "queue",
        variant: "p1c1",
        metric: "msgs_per_sec",
        params: &[("placement", "same-core")],
        value: 110e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, in-process table: P1C1QueueOriginal3, Same core 110M",
        note: "",
    },
    SeedFigure {
        experiment: "queue",
        variant: "p1c1-offheap",
        metric: "msgs_per_sec",
        params: &[("placement", "cross-core")],
        value: 220e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, in-process table: P1C1OffHeapQueue, Cross core 220M",
        note: "",
    },
    SeedFigure {
        experiment: "queue",
        variant: "p1c1-offheap",
        metric: "msgs_per_sec",
        params: &[("placement", "same-core")],
        value: 130e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, in-process table: P1C1OffHeapQueue, Same core 130M",
        note: "",
    },
    SeedFigure {
        experiment: "queue",
        variant: "p1c1-ipc",
        metric: "msgs_per_sec",
        params: &[("placement", "same-core")],
        value: 135e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, memory-mapped file: `same core - ops/sec=135M`",
        note: "two JVMs over a mapped file, 4-byte ints",
    },
    SeedFigure {
        experiment: "queue",
        variant: "p1c1-ipc",
        metric: "msgs_per_sec",
        params: &[("placement", "cross-core")],
        value: 98e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, memory-mapped file: `across cores - ops/sec=98M`",
        note: "two JVMs over a mapped file, 4-byte ints",
    },
    // ---- serialization: 001_ "Native C/C++ Like Performance For Java Object Serialisation",
    // Results, block "2.4GHz Sandy Bridge - Java 1.7.0_04" (5 runs each, 1M round trips).
    SeedFigure {
        experiment: "serialization",
        variant: "java-serialization",
        metric: "write_ns",
        params: &[],
        value: 1674.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `Serialisation write=` 1,666-1,940ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 2,198 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "java-serialization",
        metric: "read_ns",
        params: &[],
        value: 8623.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `Serialisation read=` 8,567-9,006ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 11,011 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "byte-buffer",
        metric: "write_ns",
        params: &[],
        value: 174.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `ByteBuffer write=` 172-199ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 262 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "byte-buffer",
        metric: "read_ns",
        params: &[],
        value: 180.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `ByteBuffer read=` 174-198ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 243 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "unsafe",
        metric: "write_ns",
        params: &[],
        value: 26.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `UnsafeMemory write=` 25-38ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 53 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "unsafe",
        metric: "read_ns",
        params: &[],
        value: 51.0,
        language: "java",
        hardware: SANDY_BRIDGE_SERIALISATION,
        citation: "seed 001_, Serialisation Results, 2.4GHz Sandy Bridge block: `UnsafeMemory read=` 50-75ns",
        note: "median of the 5 printed runs (2.8GHz Nehalem: 66 ns)",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "java-serialization",
        metric: "encoded_bytes",
        params: &[],
        value: 340.0,
        language: "java",
        hardware: "by format, any machine",
        citation: "seed 001_, Serialisation Analysis: \"Java Serialisation requires 340 bytes for this example object\"",
        note: "",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "byte-buffer",
        metric: "encoded_bytes",
        params: &[],
        value: 185.0,
        language: "java",
        hardware: "by format, any machine",
        citation: "seed 001_, Serialisation Analysis: \"we only require 185 bytes for the binary versions\"",
        note: "the seed's format writes each array's length as an int and no padding; the shared layout here is 184 bytes",
    },
    SeedFigure {
        experiment: "serialization",
        variant: "unsafe",
        metric: "encoded_bytes",
        params: &[],
        value: 185.0,
        language: "java",
        hardware: "by format, any machine",
        citation: "seed 001_, Serialisation Analysis: \"we only require 185 bytes for the binary versions\"",
        note: "the seed's format writes each array's length as an int and no padding; the shared layout here is 184 bytes",
    },
    // ---- dispatch: 000_ "Invoke Interface Optimisations", loop 0 of the printed run (10 runs
    // of 50M calls per operation, each new class making the call site less morphic).
    SeedFigure {
        experiment: "dispatch",
        variant: "step-down",
        metric: "ops_per_sec",
        params: &[("phase", "1")],
        value: 3_095_692_203.5,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 StepIncOperation: 2,245,800,936-3,161,643,847 ops/sec",
        note: "median of the 10 printed runs; monomorphic call site, inlined",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "step-down",
        metric: "ops_per_sec",
        params: &[("phase", "2")],
        value: 1_017_349_461.0,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 StepDecOperation: 623,131,120-1,029,231,089 ops/sec",
        note: "median of the 10 printed runs; bimorphic call site",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "step-down",
        metric: "ops_per_sec",
        params: &[("phase", "3")],
        value: 307_321_174.0,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 IncOperation: 301,419,319-365,152,716 ops/sec",
        note: "median of the 10 printed runs; megamorphic from the third class on",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "step-down",
        metric: "ops_per_sec",
        params: &[("phase", "4")],
        value: 277_299_833.5,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 DecOperation: 236,804,700-278,745,901 ops/sec",
        note: "median of the 10 printed runs; loops 1 and 2 stay at ~275M for every class",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "dyn-1",
        metric: "ops_per_sec",
        params: &[],
        value: 3_095_692_203.5,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 StepIncOperation: 2,245,800,936-3,161,643,847 ops/sec",
        note: "the seed's monomorphic phase, the work of Java `mono` (paired with Rust dyn-1); median of 10 runs",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "dyn-2",
        metric: "ops_per_sec",
        params: &[],
        value: 1_017_349_461.0,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 StepDecOperation: 623,131,120-1,029,231,089 ops/sec",
        note: "the seed's bimorphic phase, the work of Java `bi` (paired with Rust dyn-2); median of 10 runs",
    },
    SeedFigure {
        experiment: "dispatch",
        variant: "dyn-4",
        metric: "ops_per_sec",
        params: &[],
        value: 277_299_833.5,
        language: "java",
        hardware: SANDY_BRIDGE_DISPATCH,
        citation: "seed 000_, Invoke Interface Optimisations, loop 0 DecOperation: 236,804,700-278,745,901 ops/sec",
        note: "the seed's megamorphic phase (4 classes seen), the work of Java `mega` (paired with Rust dyn-4); median of 10 runs",
    },
    // ---- ipc: the same 2013 figure is the target of the record ring with 4-byte payloads.
    SeedFigure {
        experiment: "ipc",
        variant: "",
        metric: "msgs_per_sec",
        params: &[("size_bytes", "4")],
        value: 135e6,
        language: "java",
        hardware: NOT_STATED_2013,
        citation: "seed 003_, memory-mapped file: `same core - ops/sec=135M`",
        note: "P1C1 queue of 4-byte ints between two JVMs, same core (98M across cores); a fixed-slot queue, not a record ring",
    },
];

/// The figures that apply to a row of `experiment`/`variant`/`metric` with `params`.
pub(crate) fn figures_for<'a>(
    experiment: &str,
    variant: &str,
    metric: &str,
    params: &std::collections::BTreeMap<String, String>,
) -> Vec<&'a SeedFigure> {
    SEED_FIGURES
        .iter()
        .filter(|f| {
            f.experiment == experiment
                && f.metric == metric
                && (f.variant.is_empty() || f.variant == variant)
                && f.params
                    .iter()
                    .all(|(k, v)| params.get(*k).is_some_and(|p| p == v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_figure_is_cited_and_positive() {
        for f in SEED_FIGURES {
            assert!(f.value > 0.0, "{f:?}");
            assert!(f.citation.starts_with("seed 00"), "{f:?}");
            assert!(!f.hardware.is_empty(), "{f:?}");
        }
    }

    #[test]
    fn params_must_match_for_a_figure_to_apply() {
        let cross = figures_for(
            "queue",
            "p1c1-ipc",
            "msgs_per_sec",
            &params(&[("placement", "cross-core")]),
        );
        assert_eq!(cross.len(), 1);
        assert_eq!(cross[0].value, 98e6);
        assert!(figures_for("queue", "p1c1-ipc", "msgs_per_sec", &params(&[])).is_empty());
    }

    #[test]
    fn step_down_figures_apply_per_phase() {
        let phase = |p: &str| {
            figures_for(
                "dispatch",
                "step-down",
                "ops_per_sec",
                &params(&[("phase", p)]),
            )
        };
        assert_eq!(phase("1")[0].value, 3_095_692_203.5);
        assert_eq!(phase("4")[0].value, 277_299_833.5);
        assert!(phase("5").is_empty());
        let unsafe_read = figures_for("serialization", "unsafe", "read_ns", &params(&[]));
        assert_eq!(unsafe_read[0].value, 51.0);
    }

    #[test]
    fn empty_variant_matches_any_variant() {
        let f = figures_for(
            "ipc",
            "anything",
            "msgs_per_sec",
            &params(&[("size_bytes", "4")]),
        );
        assert_eq!(f.len(), 1);
    }
}
