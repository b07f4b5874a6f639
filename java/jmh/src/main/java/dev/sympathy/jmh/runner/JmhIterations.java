package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Preset;

/**
 * How long JMH measures at each {@link Preset}: warmup and measurement iterations, forks, and the
 * time of one iteration. Sizes are not here: they come from the catalog at the same preset.
 * {@code sympathy compare} repeats each run in rounds ({@code compare_rounds} in
 * {@code experiments/common.toml}), so its quick run is short: the rounds supply the repetitions.
 *
 * <p>An experiment whose loops need more warmup says so in its benchmark class, and
 * {@link Experiment} applies it ({@code PingPong.warmupShots},
 * {@code QueueThroughput.warmupIterations}, {@code Serialization.warmupShots}).
 *
 * <pre>{@code
 * JmhIterations.at(Preset.QUICK)  // 1 warmup, 1 measurement iteration of 200 ms, 1 fork
 * }</pre>
 *
 * @param warmupIterations warmup iterations per fork
 * @param measurementIterations measured iterations per fork
 * @param forks JVM forks
 * @param iterationMillis milliseconds of one iteration (warmup or measured)
 */
record JmhIterations(int warmupIterations, int measurementIterations, int forks, int iterationMillis) {
    /** The settings at {@code preset}. */
    static JmhIterations at(Preset preset) {
        return switch (preset) {
            case SMOKE -> new JmhIterations(0, 1, 1, 100);
            case QUICK -> new JmhIterations(1, 1, 1, 200);
            case DEFAULT -> new JmhIterations(2, 5, 1, 1000);
            case FULL -> new JmhIterations(3, 10, 2, 2000);
        };
    }
}
