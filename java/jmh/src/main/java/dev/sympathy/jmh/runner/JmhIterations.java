package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Preset;

/**
 * How long JMH measures at each {@link Preset}: warmup and measurement iterations, forks, and the
 * time of one iteration. Sizes are not here: they come from the catalog at the same preset.
 * {@code sympathy compare} repeats each run in rounds ({@code compare_rounds} in
 * {@code experiments/common.toml}), so its quick run is short: the rounds supply the repetitions.
 *
 * <p>The queue experiment's quick preset runs two warmup iterations before its one measured
 * iteration: with one warmup of 200 ms, C2's OSR compilation of the producer's and the
 * consumer's loops hit an uncommon trap when the warmup's loop exited, and the recompilation (and
 * the first C2 compilation of the whole stub) fell some 60 ms into the 200 ms measured iteration,
 * which ran that long in the interpreter and C1's code. A second warmup iteration takes that.
 *
 * <pre>{@code
 * JmhIterations.at(Preset.QUICK)           // 1 warmup, 1 measurement iteration of 200 ms, 1 fork
 * JmhIterations.at("queue", Preset.QUICK)  // 2 warmup, 1 measurement iteration of 200 ms, 1 fork
 * }</pre>
 *
 * @param warmupIterations warmup iterations per fork
 * @param measurementIterations measured iterations per fork
 * @param forks JVM forks
 * @param iterationMillis milliseconds of one iteration (warmup or measured)
 */
record JmhIterations(int warmupIterations, int measurementIterations, int forks, int iterationMillis) {
    /** The settings of {@code experiment} (its catalog name) at {@code preset}. */
    static JmhIterations at(String experiment, Preset preset) {
        if (experiment.equals("queue") && preset == Preset.QUICK) {
            return new JmhIterations(2, 1, 1, 200);
        }
        return at(preset);
    }

    /** The settings at {@code preset}, for every experiment without settings of its own. */
    static JmhIterations at(Preset preset) {
        return switch (preset) {
            case SMOKE -> new JmhIterations(0, 1, 1, 100);
            case QUICK -> new JmhIterations(1, 1, 1, 200);
            case DEFAULT -> new JmhIterations(2, 5, 1, 1000);
            case FULL -> new JmhIterations(3, 10, 2, 2000);
        };
    }
}
