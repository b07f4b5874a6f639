package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Preset;

/**
 * How long JMH measures at each {@link Preset}: warmup and measurement iterations, forks, and the
 * time of one warmup and of one measured iteration. Sizes are not here: they come from the
 * catalog at the same preset. {@code sympathy compare} repeats each run in rounds
 * ({@code compare_rounds} in {@code experiments/common.toml}), so its quick run is short: the
 * rounds supply the repetitions.
 *
 * <p>Quick measures 3 iterations: Rust's quick runs report the median of 3 runs, and a round
 * gives both languages the same number of samples. Its measured iterations take 100 ms each
 * (3 x 100 ms where there was 1 x 200 ms before: 100 ms more per time-bound case, against a
 * fork's second or so of JVM start and setup), and its warmup iteration keeps its 200 ms, the
 * warm-up the benchmarks' own minimums were measured against. With several samples a round,
 * {@code stats.first} (the first measured iteration) can differ from the median, which shows
 * warm-up left in the measurement. A single-shot benchmark ignores the times: each iteration is
 * one shot, so its quick run takes two more shots a case.
 *
 * <p>An experiment whose loops need more warmup says so in its benchmark class, and
 * {@link Experiment} applies it ({@code PingPong.warmupShots},
 * {@code QueueThroughput.warmupIterations}, {@code Serialization.warmupShots}); one whose Rust
 * run takes a different number of runs at a preset sets its measured iterations to match
 * (back-pressure and offheap-map: one at quick).
 *
 * <pre>{@code
 * JmhIterations.at(Preset.QUICK)  // 1 warmup of 200 ms, 3 measured iterations of 100 ms, 1 fork
 * }</pre>
 *
 * @param warmupIterations warmup iterations per fork
 * @param measurementIterations measured iterations per fork
 * @param forks JVM forks
 * @param warmupMillis milliseconds of one warmup iteration
 * @param measurementMillis milliseconds of one measured iteration
 */
record JmhIterations(int warmupIterations, int measurementIterations, int forks, int warmupMillis,
        int measurementMillis) {
    /** The settings at {@code preset}. */
    static JmhIterations at(Preset preset) {
        return switch (preset) {
            case SMOKE -> new JmhIterations(0, 1, 1, 100, 100);
            case QUICK -> new JmhIterations(1, 3, 1, 200, 100);
            case DEFAULT -> new JmhIterations(2, 5, 1, 1000, 1000);
            case FULL -> new JmhIterations(3, 10, 2, 2000, 2000);
        };
    }
}
