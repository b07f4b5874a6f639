package dev.sympathy.jmh.runner;

import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * One metric made from a JMH score: which of the result's metrics holds the score (JMH's primary
 * metric, or a secondary one such as a {@code @AuxCounters} field), the unit JMH must report it
 * in, and how one iteration's score becomes the metric's value. The metric's unit in the records
 * is the catalog's ({@code experiments/common.toml} {@code [[metrics]]}).
 *
 * <pre>{@code
 * ScoreMetric.primary("ns_per_op", "ops/ns", opsPerNs -> 1.0 / opsPerNs)
 * ScoreMetric.secondary("msgs_per_sec", "pollsMade", "ops/s", polls -> polls)
 * }</pre>
 *
 * @param metric the result metric, a name of the catalog's {@code [[metrics]]}
 * @param secondary the JMH secondary metric read, or empty for the primary metric
 * @param jmhUnit the unit JMH reports the score in ({@code scoreUnit}); another is an error
 * @param normalise one iteration's score to the metric's value
 */
public record ScoreMetric(String metric, Optional<String> secondary, String jmhUnit, DoubleUnaryOperator normalise) {
    public ScoreMetric {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(secondary, "secondary");
        Objects.requireNonNull(jmhUnit, "jmhUnit");
        Objects.requireNonNull(normalise, "normalise");
    }

    /** {@code metric} from JMH's primary score, in {@code jmhUnit}. */
    public static ScoreMetric primary(String metric, String jmhUnit, DoubleUnaryOperator normalise) {
        return new ScoreMetric(metric, Optional.empty(), jmhUnit, normalise);
    }

    /** {@code metric} from JMH's secondary metric {@code secondary}, in {@code jmhUnit}. */
    public static ScoreMetric secondary(String metric, String secondary, String jmhUnit, DoubleUnaryOperator normalise) {
        return new ScoreMetric(metric, Optional.of(secondary), jmhUnit, normalise);
    }
}
