package dev.sympathy.results;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Median, min and max over runs, as the Rust side's {@code Stats::from_samples} computes them
 * (the median of an even count is the mean of the two middle values): the schema's
 * {@code stats} object, whose median is a result's {@code value}. Made with {@link #inOrder}, it
 * also keeps every run's value in the order measured ({@code samples}), and with it the first
 * ({@code first}), whose distance from the median shows warm-up left in the measurement.
 *
 * <pre>{@code
 * Stats s = Stats.of(List.of(3.0, 1.0, 2.0));       // runs 3, median 2, min 1, max 3
 * Stats t = Stats.of(3.0, 1.0, 2.0, 10.0);          // runs 4, median 2.5, min 1, max 10
 * Stats u = Stats.inOrder(List.of(3.0, 1.0, 2.0));  // as s, plus first 3 and samples [3, 1, 2]
 * }</pre>
 *
 * @param runs how many runs the values came from
 * @param median their median
 * @param min the smallest
 * @param max the largest
 * @param samples every run's value in the order measured, or empty where they were not kept
 */
public record Stats(int runs, double median, double min, double max, List<Double> samples) {
    /**
     * @throws IllegalArgumentException when {@code samples} is neither empty nor {@code runs} long
     */
    public Stats {
        samples = List.copyOf(samples);
        if (!samples.isEmpty() && samples.size() != runs) {
            throw new IllegalArgumentException(runs + " runs but " + samples.size() + " samples");
        }
    }

    /** Stats without the runs' values ({@code samples} empty). */
    public Stats(int runs, double median, double min, double max) {
        this(runs, median, min, max, List.of());
    }

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

    /**
     * {@link #of(List)}, keeping the runs' values in the order given: {@link #toJson} writes them
     * as {@code samples}, and the first as {@code first}.
     *
     * <pre>{@code
     * Stats s = Stats.inOrder(List.of(12.0, 9.0, 10.0));
     * s.first();   // OptionalDouble[12.0]
     * s.toJson();  // {runs=3, median=10.0, first=12.0, min=9.0, max=12.0, samples=[12.0, 9.0, 10.0]}
     * }</pre>
     *
     * @throws IllegalArgumentException when there is no sample or one is NaN
     */
    public static Stats inOrder(List<Double> samples) {
        final Stats s = of(samples);
        return new Stats(s.runs, s.median, s.min, s.max, samples);
    }

    /** The first run's value, where the runs' values were kept ({@link #inOrder}); else empty. */
    public OptionalDouble first() {
        return samples.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(samples.get(0));
    }

    /**
     * The schema's {@code stats} object: {@code {"runs":3,"median":2.0,"min":1.0,"max":3.0}},
     * with {@code first} after {@code median} and {@code samples} at the end where the runs'
     * values were kept: {@code {"runs":3,"median":2.0,"first":3.0,"min":1.0,"max":3.0,
     * "samples":[3.0,1.0,2.0]}}.
     */
    public Map<String, Object> toJson() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("runs", runs);
        map.put("median", median);
        first().ifPresent(first -> map.put("first", first));
        map.put("min", min);
        map.put("max", max);
        if (!samples.isEmpty()) {
            map.put("samples", samples);
        }
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
