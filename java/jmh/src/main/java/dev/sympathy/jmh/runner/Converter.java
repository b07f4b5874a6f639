package dev.sympathy.jmh.runner;

import dev.sympathy.results.Json;
import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * Turns JMH's JSON result file ({@code -rf json}) and the benchmarks' extras lines into records of
 * the results schema (docs/results.md), one per (experiment, variant, params, metric).
 *
 * <p>JMH gives one score per measurement iteration and fork ({@code primaryMetric.rawData}); each
 * is one run: {@code value} and {@code stats.median} are their median, {@code stats.runs} is
 * iterations x forks. Scores are normalised per experiment:
 * <ul>
 *   <li>atomic-increment: throughput (ops/ns, all threads) to {@code ns_per_op = 1 / score}</li>
 *   <li>ping-pong: one run (ns) over {@code 2 x iterations} hops to {@code ns_per_hop}, {@code hops_per_sec}</li>
 *   <li>memory-walk: one walk (ns) over the elements (or chase nodes) to {@code ns_per_op}</li>
 *   <li>struct-table: one run (ms) to {@code total_ms}</li>
 *   <li>queue: the consumer's {@code pollsMade} (ops/s) to {@code msgs_per_sec}</li>
 *   <li>dispatch (mono, bi, mega): one invocation (ns) of {@code iterations} calls to
 *       {@code ops_per_sec = iterations / time}</li>
 *   <li>serialization, dispatch step-down, back-pressure: single-shot runs whose score (the whole
 *       run, checks included) is not reported; their metrics come from the extras</li>
 * </ul>
 * {@code check} is {@code "ok"}: the benchmarks verify their results and throw on a mismatch, and
 * the runner runs JMH with fail-on-error, so a result exists only when it was verified.
 *
 * <pre>{@code
 * List<Map<String, Object>> records = new Converter(Map.of("scale", "quick"))
 *         .convert(Files.readString(jmhJson), extrasLines);
 * }</pre>
 */
public final class Converter {
    /** Benchmark class simple name to experiment name. */
    static final Map<String, String> EXPERIMENTS = Map.of(
            "AtomicIncrement", "atomic-increment",
            "PingPong", "ping-pong",
            "MemoryWalk", "memory-walk",
            "StructTable", "struct-table",
            "QueueThroughput", "queue",
            "Serialization", "serialization",
            "Dispatch", "dispatch",
            "DispatchStepDown", "dispatch",
            "BackPressure", "back-pressure");

    /** Implementations the call site of each dispatch benchmark sees. */
    private static final Map<String, Integer> DISPATCH_IMPLEMENTATIONS = Map.of("mono", 1, "bi", 2, "mega", 4);

    private final Map<String, Object> commonParams;

    /** {@code commonParams} (e.g. scale, pinning) are added to every record's params. */
    public Converter(Map<String, Object> commonParams) {
        this.commonParams = new LinkedHashMap<>(commonParams);
    }

    /**
     * Converts a JMH JSON result document and extras lines.
     *
     * @throws IllegalArgumentException when the JSON is malformed, a benchmark is unknown or a
     *     score has an unexpected unit
     */
    public List<Map<String, Object>> convert(String jmhJson, List<String> extrasLines) {
        final List<Map<String, Object>> out = new ArrayList<>();
        for (Object entry : list(Json.parse(jmhJson), "the JMH result document")) {
            out.addAll(convertOne(map(entry, "a JMH result")));
        }
        out.addAll(convertExtras(extrasLines));
        return out;
    }

    private List<Map<String, Object>> convertOne(Map<String, Object> result) {
        final String benchmark = (String) result.get("benchmark");
        final String[] parts = benchmark.split("\\.");
        if (parts.length < 2) {
            throw new IllegalArgumentException("unexpected JMH benchmark name '" + benchmark + "'");
        }
        final String className = parts[parts.length - 2];
        final String method = parts[parts.length - 1];
        final String experiment = EXPERIMENTS.get(className);
        if (experiment == null) {
            throw new IllegalArgumentException("no experiment for JMH benchmark class " + className);
        }
        final Map<String, Object> jmhParams = result.get("params") == null
                ? Map.of() : map(result.get("params"), "params");
        final String variant = jmhParams.containsKey("variant") ? (String) jmhParams.get("variant") : kebab(method);
        final Map<String, Object> params = new LinkedHashMap<>();
        final Map<String, Object> primary = map(result.get("primaryMetric"), "primaryMetric");
        final List<Map<String, Object>> out = new ArrayList<>();
        switch (experiment) {
            case "atomic-increment" -> {
                params.put("threads", ((Number) result.get("threads")).intValue());
                out.add(record(experiment, variant, params, "ns_per_op", "ns",
                        samples(primary, "ops/ns", x -> 1.0 / x)));
            }
            case "ping-pong" -> {
                final long iterations = Long.parseLong((String) jmhParams.get("iterations"));
                params.put("iterations", iterations);
                final List<Double> nsPerHop = samples(primary, "ns/op", x -> x / (2.0 * iterations));
                out.add(record(experiment, variant, params, "ns_per_hop", "ns", nsPerHop));
                out.add(record(experiment, variant, params, "hops_per_sec", "hops/s",
                        nsPerHop.stream().map(ns -> 1e9 / ns).toList()));
            }
            case "memory-walk" -> {
                final long sizeBytes = Long.parseLong((String) jmhParams.get("sizeMib")) << 20;
                params.put("size_bytes", sizeBytes);
                params.put("memory", jmhParams.get("memory"));
                final long ops = variant.startsWith("chase") ? sizeBytes / 64 : sizeBytes / 8;
                out.add(record(experiment, variant, params, "ns_per_op", "ns",
                        samples(primary, "ns/op", x -> x / ops)));
            }
            case "struct-table" -> {
                params.put("records", Long.parseLong((String) jmhParams.get("records")));
                out.add(record(experiment, variant, params, "total_ms", "ms", samples(primary, "ms/op", x -> x)));
            }
            case "queue" -> {
                params.put("capacity", Long.parseLong((String) jmhParams.get("capacity")));
                final Map<String, Object> secondary = map(result.get("secondaryMetrics"), "secondaryMetrics");
                out.add(record(experiment, variant, params, "msgs_per_sec", "msgs/s",
                        samples(map(secondary.get("pollsMade"), "secondaryMetrics.pollsMade"), "ops/s", x -> x)));
            }
            case "dispatch" -> {
                if (className.equals("DispatchStepDown")) {
                    break; // one single-shot run of the seed's program: its phases are extras
                }
                final Integer implementations = DISPATCH_IMPLEMENTATIONS.get(variant);
                if (implementations == null) {
                    throw new IllegalArgumentException("unknown dispatch benchmark '" + method + "'");
                }
                final long iterations = Long.parseLong((String) jmhParams.get("iterations"));
                params.put("implementations", implementations);
                params.put("iterations", iterations);
                out.add(record(experiment, variant, params, "ops_per_sec", "ops/s",
                        samples(primary, "ns/op", x -> iterations * 1e9 / x)));
            }
            case "serialization", "back-pressure" -> {
                // single-shot runs whose metrics are all extras
            }
            default -> throw new IllegalStateException("unreachable: " + experiment);
        }
        return out;
    }

    private List<Map<String, Object>> convertExtras(List<String> lines) {
        // key: experiment, variant, params, metric, unit, check -> values in order
        final Map<List<Object>, List<Double>> grouped = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            final Map<String, Object> extra = map(Json.parse(line), "an extras line");
            final List<Object> key = List.of(extra.get("experiment"), extra.get("variant"),
                    new java.util.TreeMap<>(map(extra.get("params"), "extras params")),
                    extra.get("metric"), extra.get("unit"), extra.get("check"));
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(((Number) extra.get("value")).doubleValue());
        }
        final List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Double>> e : grouped.entrySet()) {
            final List<Object> k = e.getKey();
            final Map<String, Object> params = map(k.get(2), "extras params");
            final Map<String, Object> rec = record((String) k.get(0), (String) k.get(1), params,
                    (String) k.get(3), (String) k.get(4), e.getValue());
            rec.put("check", k.get(5));
            out.add(rec);
        }
        return out;
    }

    private Map<String, Object> record(String experiment, String variant, Map<String, Object> params,
            String metric, String unit, List<Double> samples) {
        final Map<String, Object> allParams = new LinkedHashMap<>(params);
        commonParams.forEach(allParams::putIfAbsent);
        return ResultRecord.of(experiment, variant, allParams, metric, unit, Stats.of(samples), "ok");
    }

    /** Every iteration score of every fork, normalised by {@code f}; checks the score unit. */
    private static List<Double> samples(Map<String, Object> metric, String expectedUnit, DoubleUnaryOperator f) {
        final Object unit = metric.get("scoreUnit");
        if (!expectedUnit.equals(unit)) {
            throw new IllegalArgumentException("expected scores in " + expectedUnit + ", got " + unit);
        }
        final List<Double> out = new ArrayList<>();
        for (Object fork : list(metric.get("rawData"), "rawData")) {
            for (Object score : list(fork, "rawData fork")) {
                if (!(score instanceof Number n)) {
                    throw new IllegalArgumentException("non-numeric score " + score + " in rawData");
                }
                out.add(f.applyAsDouble(n.doubleValue()));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no scores in rawData");
        }
        return out;
    }

    /** {@code lockXadd} to {@code lock-xadd}. */
    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String what) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(what + " is not a JSON object: " + value);
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value, String what) {
        if (!(value instanceof List)) {
            throw new IllegalArgumentException(what + " is not a JSON array: " + value);
        }
        return (List<Object>) value;
    }
}
