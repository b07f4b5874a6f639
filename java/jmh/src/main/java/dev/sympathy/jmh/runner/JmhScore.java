package dev.sympathy.jmh.runner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The records one case's JMH score becomes: one result group's params, and a record per metric.
 *
 * <pre>{@code
 * new JmhScore(Map.of("threads", c.threads()),
 *         List.of(ScoreMetric.primary("ns_per_op", "ops/ns", opsPerNs -> 1.0 / opsPerNs)))
 * }</pre>
 *
 * @param params the group's params in the catalog's names, in the order the records carry them
 * @param metrics the metrics made from the score, in the order they are written (one at least)
 */
public record JmhScore(Map<String, Object> params, List<ScoreMetric> metrics) {
    public JmhScore {
        params = new LinkedHashMap<>(Objects.requireNonNull(params, "params"));
        metrics = List.copyOf(metrics);
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("a score makes one metric at least");
        }
    }

    @Override
    public Map<String, Object> params() {
        return new LinkedHashMap<>(params);
    }
}
