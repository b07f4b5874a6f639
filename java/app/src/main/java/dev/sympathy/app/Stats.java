package dev.sympathy.app;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Median and spread over runs, as the Rust side's {@code Stats::from_samples}. */
record Stats(int runs, double median, double min, double max) {
    static Stats of(double[] samples) {
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        return new Stats(n, median, sorted[0], sorted[n - 1]);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runs", runs);
        m.put("median", median);
        m.put("min", min);
        m.put("max", max);
        return m;
    }

    /** The value at quantile q (0..1) of sorted samples, nearest rank. */
    static long quantile(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
