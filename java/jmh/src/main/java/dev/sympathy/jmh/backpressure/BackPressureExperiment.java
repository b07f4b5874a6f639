package dev.sympathy.jmh.backpressure;

import dev.sympathy.catalog.Preset;
import dev.sympathy.jmh.runner.ExperimentAt;
import dev.sympathy.jmh.runner.ExtrasOnlyExperiment;
import dev.sympathy.jmh.runner.JmhCase;
import dev.sympathy.jmh.runner.JmhRun;
import dev.sympathy.jmh.support.Pinning;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * back-pressure ({@code experiments/back-pressure.toml}) under JMH: {@link BackPressure}, its
 * latency bound enforced from {@code --quick} on. Single-shot: every metric (latencies,
 * {@code rejected}, {@code completed}) is an extra; its results must account for every request
 * ({@link #checkResults}).
 *
 * <pre>{@code
 * java/jmh/run run back-pressure --plan --smoke
 * // {"kind":"plan","experiment":"back-pressure","language":"java","variant":"unbounded",
 * //  "params":{"load":"0.5","arrival_per_sec":50000,"service_ns":10000,"workers":1,"count":5000}} ...
 * }</pre>
 */
public final class BackPressureExperiment implements ExtrasOnlyExperiment {
    @Override
    public String id() {
        return "back-pressure";
    }

    @Override
    public List<JmhRun> runs(ExperimentAt at) {
        // smoke checks the plumbing: the accounting checked but not the latency bound (a
        // loaded CI machine's preemptions would fail it: the latencies say "check":"n/a");
        // the bound is enforced from --quick on.
        final boolean smoke = at.preset() == Preset.SMOKE;
        // Eight warmup runs (a few seconds): until C2 has compiled the generator's and the
        // worker's loops, its compiler threads take turns with the two pinned spinning
        // threads on the two cores, 4 ms at a time, and the bounded queue misses its bound.
        // One measured run at quick, as Rust's back-pressure makes one there: a compare
        // round gives both languages the same samples (the rounds repeat it).
        final int measured = at.preset() == Preset.QUICK ? 1 : at.iterations().measurementIterations();
        return List.of(new JmhRun(BackPressure.class, at.options(BackPressure.class)
                .warmupIterations(smoke ? 0 : 8)
                .measurementIterations(measured)
                .param("enforceBound", Boolean.toString(!smoke)), List.of()));
    }

    @Override
    public List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        final String load = c.param("load");
        return List.of(BackPressure.resultParams(load, BackPressure.config(c.variant(), load, c.number("serviceNs"),
                c.number("maxLatencyNs"), (int) c.number("count"), Pinning.processCores())));
    }

    /**
     * Every request accounted for: each variant and load reports {@code completed} and
     * {@code rejected}, and in each run {@code completed + rejected = count} (the runs' samples
     * where there are several, else the values).
     */
    @Override
    public List<String> checkResults(List<Map<String, Object>> records) {
        final Map<List<Object>, List<Double>> accounted = new LinkedHashMap<>();
        final Map<List<Object>, Long> counts = new LinkedHashMap<>();
        final Map<List<Object>, List<Object>> reported = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();
        for (Map<String, Object> rec : records) {
            final Map<?, ?> params = (Map<?, ?>) rec.get("params");
            final List<Object> key = List.of(rec.get("variant"), params.get("load"), params.get("count"));
            final Object metric = rec.get("metric");
            reported.computeIfAbsent(key, k -> new ArrayList<>()).add(metric);
            if (!"rejected".equals(metric) && !"completed".equals(metric)) {
                continue;
            }
            final long count = ((Number) params.get("count")).longValue();
            if (count <= 0) {
                problems.add("back-pressure " + rec.get("variant") + " load=" + params.get("load") + ": count " + count);
            }
            counts.put(key, count);
            final List<Double> runs = runs(rec);
            final List<Double> sums = accounted.computeIfAbsent(key, k -> new ArrayList<>());
            for (int i = 0; i < runs.size(); i++) {
                if (i < sums.size()) {
                    sums.set(i, sums.get(i) + runs.get(i));
                } else {
                    sums.add(runs.get(i));
                }
            }
        }
        reported.forEach((key, metrics) -> {
            if (!metrics.contains("completed") || !metrics.contains("rejected")) {
                problems.add("back-pressure " + key.get(0) + " load=" + key.get(1) + ": reports " + metrics
                        + ", not both completed and rejected");
            }
        });
        accounted.forEach((key, sums) -> {
            for (double total : sums) {
                if (total != counts.get(key)) {
                    problems.add("back-pressure " + key.get(0) + " load=" + key.get(1) + ": completed + rejected = "
                            + total + ", count " + counts.get(key));
                }
            }
        });
        return problems;
    }

    /** A record's runs: its samples where it has several, else its value. */
    private static List<Double> runs(Map<String, Object> rec) {
        if (rec.get("stats") instanceof Map<?, ?> stats && stats.get("samples") instanceof List<?> samples) {
            return samples.stream().map(s -> ((Number) s).doubleValue()).toList();
        }
        return List.of(((Number) rec.get("value")).doubleValue());
    }
}
