package dev.sympathy.results;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Median, min and max over runs, as the Rust side's {@code Stats::from_samples} computes them
 * (the median of an even count is the mean of the two middle values): the schema's
 * {@code stats} object, whose median is a result's {@code value}.
 *
 * <pre>{@code
 * Stats s = Stats.of(List.of(3.0, 1.0, 2.0));   // runs 3, median 2, min 1, max 3
 * Stats t = Stats.of(3.0, 1.0, 2.0, 10.0);      // runs 4, median 2.5, min 1, max 10
 * }</pre>
 */
public record Stats(int runs, double median, double min, double max) {
    /**
     * @throws IllegalArgumentException when there is no sample or one is NaN
     */
    public static Stats of(List<Double> samples) {
        return of(samples.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * @throws IllegalArgumentException when there is no sample or one is NaN
     */
    public static Stats of(double... samples) {
        if (samples.length == 0 || Arrays.stream(samples).anyMatch(Double::isNaN)) {
            throw new IllegalArgumentException(
                    "stats need at least one sample and no NaN, got " + Arrays.toString(samples));
        }
        final double[] sorted = samples.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        final double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        return new Stats(n, median, sorted[0], sorted[n - 1]);
    }

    /** The schema's {@code stats} object: {@code {"runs":3,"median":2.0,"min":1.0,"max":3.0}}. */
    public Map<String, Object> toJson() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("runs", runs);
        map.put("median", median);
        map.put("min", min);
        map.put("max", max);
        return map;
    }

    /**
     * The value at quantile {@code q} (0..1) of sorted samples, nearest rank.
     *
     * <pre>{@code
     * Stats.quantile(new long[] {10, 20, 30, 40}, 0.5);   // 20
     * Stats.quantile(new long[] {10, 20, 30, 40}, 0.99);  // 40
     * }</pre>
     *
     * @throws IllegalArgumentException when there is no sample
     */
    public static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("a quantile needs at least one sample");
        }
        final int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
