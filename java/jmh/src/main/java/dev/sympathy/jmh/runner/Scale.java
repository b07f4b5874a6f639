package dev.sympathy.jmh.runner;

import java.util.Locale;

/**
 * How big a run is: {@code smoke} (CI: one short iteration, one fork, tiny sizes), {@code quick}
 * (seconds per benchmark), {@code default}, {@code full} (the seeds' sizes). Iteration counts and
 * times per scale; sizes per experiment live in {@link Experiment}.
 */
public enum Scale {
    SMOKE(0, 1, 1, 100),
    QUICK(1, 3, 1, 300),
    DEFAULT(2, 5, 1, 1000),
    FULL(3, 10, 2, 2000);

    final int warmupIterations;
    final int measurementIterations;
    final int forks;
    final int iterationMillis;

    Scale(int warmupIterations, int measurementIterations, int forks, int iterationMillis) {
        this.warmupIterations = warmupIterations;
        this.measurementIterations = measurementIterations;
        this.forks = forks;
        this.iterationMillis = iterationMillis;
    }

    /** Picks the value for this scale. */
    <T> T pick(T smoke, T quick, T normal, T full) {
        return switch (this) {
            case SMOKE -> smoke;
            case QUICK -> quick;
            case DEFAULT -> normal;
            case FULL -> full;
        };
    }

    /** The lower-case name written into {@code params.scale}. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
