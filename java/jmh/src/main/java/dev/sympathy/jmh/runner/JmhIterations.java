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
 * gives both languages the same number of samples. Its measured iterations take 100 ms each, and
 * its warm-up is 2 iterations of 100 ms (the 200 ms of warm-up the benchmarks' own minimums were
 * measured against, in two): at the end of a benchmark's first iteration its loop exits, C2's
 * on-stack-replacement code of JMH's stub hits the exit it never saw and is thrown away, and the
 * next iteration compiles the stub again. With one warm-up that recompile fell in the first
 * measured iteration of every atomic-increment case (8-91 ms of compilation, {@code stats.jit_ms});
 * with two it falls in the second warm-up. Before each measured iteration the runner also waits
 * for a quiet JIT ({@code support/QuietJitProfiler}). With several samples a round,
 * {@code stats.first} (the first measured iteration) can differ from the median, which shows
 * warm-up left in the measurement. A single-shot benchmark ignores the times: each iteration is
 * one shot.
 *
 * <p>An experiment whose loops need more warmup says so in its benchmark class, and its
 * {@link JmhExperiment} applies it ({@code PingPong.warmupShots},
 * {@code QueueThroughput.warmupIterations}, {@code Serialization.warmupShots},
 * {@code StructTable.warmupShots}); one whose Rust
 * run takes a different number of runs at a preset sets its measured iterations to match
 * (back-pressure and offheap-map: one at quick).
 *
 * <pre>{@code
 * JmhIterations.at(Preset.QUICK)  // 2 warmups of 100 ms, 3 measured iterations of 100 ms, 1 fork
 * }</pre>
 *
 * @param warmupIterations warmup iterations per fork
 * @param measurementIterations measured iterations per fork
 * @param forks JVM forks
 * @param warmupMillis milliseconds of one warmup iteration
 * @param measurementMillis milliseconds of one measured iteration
 */
public record JmhIterations(int warmupIterations, int measurementIterations, int forks, int warmupMillis,
        int measurementMillis) {
    /** The settings at {@code preset}. */
    public static JmhIterations at(Preset preset) {
        return switch (preset) {
            case SMOKE -> new JmhIterations(0, 1, 1, 100, 100);
            case QUICK -> new JmhIterations(2, 3, 1, 100, 100);
            case DEFAULT -> new JmhIterations(2, 5, 1, 1000, 1000);
            case FULL -> new JmhIterations(3, 10, 2, 2000, 2000);
        };
    }

    /**
     * JVM flags the forks get at {@code preset}: a smoke run checks that every benchmark runs and
     * verifies its result, not its speed, so its forks stop at C1 ({@code -XX:TieredStopAtLevel=1}),
     * which starts each fork sooner (a fifth less of the smoke run's time on the 2-core machine);
     * the results say so in {@code jvm_args}. None at the other presets.
     */
    public static java.util.List<String> forkJvmArgs(Preset preset) {
        return preset == Preset.SMOKE ? java.util.List.of("-XX:TieredStopAtLevel=1") : java.util.List.of();
    }
}
