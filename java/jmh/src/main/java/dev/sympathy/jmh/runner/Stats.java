package dev.sympathy.jmh.runner;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Median, min and max over runs, as the Rust side's {@code Stats::from_samples} computes them
 * (the median of an even count is the mean of the two middle values).
 *
 * <pre>{@code
 * Stats s = Stats.of(List.of(3.0, 1.0, 2.0)); // runs 3, median 2, min 1, max 3
 * }</pre>
 */
public record Stats(int runs, double median, double min, double max) {
    /**
     * @throws IllegalArgumentException when there is no sample or one is NaN
     */
    public static Stats of(List<Double> samples) {
        if (samples.isEmpty() || samples.stream().anyMatch(s -> s.isNaN())) {
            throw new IllegalArgumentException("stats need at least one sample and no NaN, got " + samples);
        }
        final double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        final int n = sorted.length;
        final double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        return new Stats(n, median, sorted[0], sorted[n - 1]);
    }

    /** The schema's {@code stats} object. */
    public Map<String, Object> toJson() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("runs", runs);
        map.put("median", median);
        map.put("min", min);
        map.put("max", max);
        return map;
    }
}
