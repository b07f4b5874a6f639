package dev.sympathy.jmh.runner;

import dev.sympathy.jmh.atomic.AtomicIncrement;
import dev.sympathy.jmh.backpressure.BackPressure;
import dev.sympathy.jmh.dispatch.DispatchStepDown;
import dev.sympathy.jmh.map.OffheapMap;
import dev.sympathy.jmh.queue.Queues;
import dev.sympathy.jmh.serialization.Serialization;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.table.StructTable;
import dev.sympathy.jmh.walk.MemoryWalk;
import dev.sympathy.results.Json;
import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * Turns JMH's JSON result file ({@code -rf json}) and the benchmarks' extras lines into records of
 * the results schema (docs/results.md), one per (experiment, variant, params, metric).
 *
 * <p>JMH gives one score per measurement iteration and fork ({@code primaryMetric.rawData}); each
 * is one run: {@code value} and {@code stats.median} are their median, {@code stats.runs} is
 * iterations x forks, {@code stats.samples} every run's normalised score in order (fork by fork,
 * iteration by iteration) and {@code stats.first} the first of them: the first measured
 * iteration of the first fork, whose distance from the median shows warm-up left in the
 * measurement. Scores are normalised per experiment:
 * <ul>
 *   <li>atomic-increment: throughput (ops/ns, all threads) to {@code ns_per_op = 1 / score}</li>
 *   <li>ping-pong: one run (ns) over {@code 2 x iterations} hops to {@code ns_per_hop}, {@code hops_per_sec}</li>
 *   <li>memory-walk: one walk (ns) over the elements (or chase nodes) to {@code ns_per_op}</li>
 *   <li>struct-table: one run (ms) to {@code total_ms}</li>
 *   <li>queue: the consumer's {@code pollsMade} (ops/s) to {@code msgs_per_sec}</li>
 *   <li>dispatch (mono, bi, mono-call, bi-call, mega): one invocation (ns) of {@code iterations} calls to
 *       {@code ops_per_sec = iterations / time}</li>
 *   <li>serialization, dispatch step-down, back-pressure, offheap-map: single-shot runs whose score
 *       (the whole run, checks included) is not reported; their metrics come from the extras</li>
 * </ul>
 * The extras' values of one result are its runs, in the order the benchmarks recorded them
 * (measured iterations only); where there are several, {@code stats.first} and
 * {@code stats.samples} are written as for a score, where there is one they are left out.
 * Params carry the catalog's names ({@code size_bytes}, not the {@code @Param} {@code sizeBytes});
 * {@link #groups} says which (variant, params) groups a case emits, for the run and for
 * {@code --plan} alike.
 * {@code check} is {@code "ok"}: the benchmarks verify their results and throw on a mismatch, and
 * the runner runs JMH with fail-on-error, so a result exists only when it was verified.
 *
 * <pre>{@code
 * List<Map<String, Object>> records = new Converter(Map.of("preset", "quick"))
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
            "BackPressure", "back-pressure",
            "OffheapMap", "offheap-map");

    /** Implementations the call site of each dispatch benchmark sees. */
    private static final Map<String, Integer> DISPATCH_IMPLEMENTATIONS = Map.of("mono", 1, "bi", 2, "mono-call", 1, "bi-call", 2,
            "mega", 4);

    private final Map<String, Object> commonParams;

    /** {@code commonParams} (e.g. preset, pinning) are added to every record's params. */
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
        final Facts facts = Facts.of(extrasLines);
        out.forEach(facts::attach);
        return out;
    }

    private List<Map<String, Object>> convertOne(Map<String, Object> result) {
        final Optional<ResultGroup> scored = scoreGroup(JmhCase.ofResult(result));
        if (scored.isEmpty()) {
            return List.of(); // a single-shot run whose metrics are all extras
        }
        final ResultGroup group = scored.get();
        final String experiment = group.experiment();
        final String variant = group.variant();
        final Map<String, Object> params = group.params();
        final Map<String, Object> primary = map(result.get("primaryMetric"), "primaryMetric");
        final List<Map<String, Object>> out = new ArrayList<>();
        switch (experiment) {
            case "atomic-increment" -> out.add(record(experiment, variant, params, "ns_per_op", "ns",
                    samples(primary, "ops/ns", x -> 1.0 / x)));
            case "ping-pong" -> {
                final long iterations = (long) params.get("iterations");
                final List<Double> nsPerHop = samples(primary, "ns/op", x -> x / (2.0 * iterations));
                out.add(record(experiment, variant, params, "ns_per_hop", "ns", nsPerHop));
                out.add(record(experiment, variant, params, "hops_per_sec", "hops/s",
                        nsPerHop.stream().map(ns -> 1e9 / ns).toList()));
            }
            case "memory-walk" -> {
                final long sizeBytes = (long) params.get("size_bytes");
                final long ops = variant.startsWith("chase") ? sizeBytes / 64 : sizeBytes / 8;
                out.add(record(experiment, variant, params, "ns_per_op", "ns",
                        samples(primary, "ns/op", x -> x / ops)));
            }
            case "struct-table" -> out.add(record(experiment, variant, params, "total_ms", "ms",
                    samples(primary, "ms/op", x -> x)));
            case "queue" -> {
                final Map<String, Object> secondary = map(result.get("secondaryMetrics"), "secondaryMetrics");
                out.add(record(experiment, variant, params, "msgs_per_sec", "msgs/s",
                        samples(map(secondary.get("pollsMade"), "secondaryMetrics.pollsMade"), "ops/s", x -> x)));
            }
            case "dispatch" -> {
                final long iterations = (long) params.get("iterations");
                out.add(record(experiment, variant, params, "ops_per_sec", "ops/s",
                        samples(primary, "ns/op", x -> iterations * 1e9 / x)));
            }
            default -> throw new IllegalStateException("unreachable: " + experiment);
        }
        final List<Double> jit = jitMillis(result);
        if (!jit.isEmpty()) {
            for (Map<String, Object> rec : out) {
                map(rec.get("stats"), "stats").put("jit_ms", jit);
            }
        }
        return out;
    }

    /** JMH's name of the {@code CompilerProfiler}'s compile time within each iteration. */
    static final String JIT_METRIC = "compiler.time.profiled";

    /**
     * Milliseconds the JIT spent compiling during each measured iteration, in JMH's order (JMH's
     * {@code CompilerProfiler}, {@value #JIT_METRIC}); empty when the run had no such profiler.
     * A measured iteration that compiled ran part of its time in the interpreter's or C1's code:
     * the result carries these as {@code stats.jit_ms} and the runner warns.
     */
    static List<Double> jitMillis(Map<String, Object> result) {
        if (!(result.get("secondaryMetrics") instanceof Map<?, ?> secondary)
                || !(secondary.get(JIT_METRIC) instanceof Map<?, ?> jit)) {
            return List.of();
        }
        final List<Double> out = new ArrayList<>();
        for (Object fork : list(jit.get("rawData"), "compiler rawData")) {
            for (Object ms : list(fork, "compiler rawData fork")) {
                out.add(((Number) ms).doubleValue());
            }
        }
        return out;
    }

    /**
     * Every result group a case emits: its JMH score's and its extras', each once. {@code --plan}
     * prints these; {@link #convert} writes the score's through {@link #scoreGroup} and the
     * benchmarks write the extras' through the same functions {@link #extrasGroups} calls.
     *
     * @throws IllegalArgumentException when the benchmark is unknown or a param is not a number
     */
    static List<ResultGroup> groups(JmhCase c) {
        final List<ResultGroup> out = new ArrayList<>();
        scoreGroup(c).ifPresent(out::add);
        for (ResultGroup g : extrasGroups(c)) {
            if (!out.contains(g)) {
                out.add(g);
            }
        }
        return out;
    }

    /** The group of the records made from the JMH score of a case; empty where the score is not reported. */
    static Optional<ResultGroup> scoreGroup(JmhCase c) {
        final String experiment = experiment(c);
        final String variant = variant(c);
        final Map<String, Object> params = new LinkedHashMap<>();
        switch (experiment) {
            case "atomic-increment" -> params.put("threads", c.threads());
            case "ping-pong" -> params.put("iterations", number(c, "iterations"));
            case "memory-walk" -> {
                params.put("size_bytes", number(c, "sizeBytes"));
                params.put("memory", MemoryWalk.memoryOf(variant));
                params.put("huge_pages", false); // advised MADV_NOHUGEPAGE; the parity fact says what backed it
            }
            case "struct-table" -> params.putAll(StructTable.resultParams((int) number(c, "records")));
            case "queue" -> {
                params.put("capacity", number(c, "capacity"));
                params.put("element", Queues.element(variant));
                params.put("placement", c.param("placement"));
            }
            case "dispatch" -> {
                if (c.className().equals("DispatchStepDown")) {
                    return Optional.empty(); // one single-shot run of the seed's program: its phases are extras
                }
                final Integer implementations = DISPATCH_IMPLEMENTATIONS.get(variant);
                if (implementations == null) {
                    throw new IllegalArgumentException("unknown dispatch benchmark '" + c.method() + "'");
                }
                params.put("implementations", implementations);
                params.put("iterations", number(c, "iterations"));
            }
            case "serialization", "back-pressure", "offheap-map" -> {
                return Optional.empty(); // single-shot runs whose metrics are all extras
            }
            default -> throw new IllegalStateException("unreachable: " + experiment);
        }
        return Optional.of(new ResultGroup(experiment, variant, params));
    }

    /** The groups of the extras a case's benchmark records, by the functions the benchmark calls. */
    static List<ResultGroup> extrasGroups(JmhCase c) {
        final String experiment = experiment(c);
        final String variant = variant(c);
        final List<Map<String, Object>> params = new ArrayList<>();
        switch (experiment) {
            case "atomic-increment" -> {
                for (int thread = 0; thread < c.threads(); thread++) {
                    params.add(AtomicIncrement.shareParams(c.threads(), thread));
                }
                if (AtomicIncrement.countsHandoffs(variant, c.threads())) {
                    params.add(AtomicIncrement.handoffParams(c.threads()));
                }
            }
            case "struct-table" -> params.add(StructTable.resultParams((int) number(c, "records")));
            case "serialization" -> params.add(Serialization.resultParams((int) number(c, "count")));
            case "offheap-map" -> params.add(OffheapMap.resultParams(number(c, "users"), number(c, "gets"),
                    number(c, "latencySamples"), number(c, "traversals")));
            case "dispatch" -> {
                if (c.className().equals("DispatchStepDown")) {
                    for (int phase = 1; phase <= DispatchStepDown.phases(); phase++) {
                        params.add(DispatchStepDown.resultParams(phase, (int) number(c, "iterations")));
                    }
                }
            }
            case "back-pressure" -> params.add(BackPressure.resultParams(c.param("load"),
                    BackPressure.config(variant, c.param("load"), number(c, "serviceNs"), number(c, "maxLatencyNs"),
                            (int) number(c, "count"), Pinning.processCores())));
            default -> {
                // no extras
            }
        }
        return params.stream().map(p -> new ResultGroup(experiment, variant, p)).toList();
    }

    private static String experiment(JmhCase c) {
        final String experiment = EXPERIMENTS.get(c.className());
        if (experiment == null) {
            throw new IllegalArgumentException("no experiment for JMH benchmark class " + c.className());
        }
        return experiment;
    }

    /** The {@code variant} param where the benchmark has one, else its method in kebab case. */
    private static String variant(JmhCase c) {
        return c.params().containsKey("variant") ? c.param("variant") : kebab(c.method());
    }

    private static long number(JmhCase c, String param) {
        try {
            return Long.parseLong(c.param(param));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(c.benchmark() + ": param '" + param + "' is not an integer: "
                    + c.param(param), e);
        }
    }

    private List<Map<String, Object>> convertExtras(List<String> lines) {
        // key: experiment, variant, params, metric, unit, check -> values in order
        final Map<List<Object>, List<Double>> grouped = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            final Map<String, Object> extra = map(Json.parse(line), "an extras line");
            if (Facts.isFact(extra)) {
                continue; // a parity fact, attached to the results by Facts
            }
            final List<Object> key = List.of(extra.get("experiment"), extra.get("variant"),
                    new java.util.TreeMap<>(map(extra.get("params"), "extras params")),
                    extra.get("metric"), extra.get("unit"), extra.get("check"));
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(((Number) extra.get("value")).doubleValue());
        }
        final List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Double>> e : grouped.entrySet()) {
            final List<Object> k = e.getKey();
            final Map<String, Object> params = map(k.get(2), "extras params");
            final List<Double> values = e.getValue();
            final Map<String, Object> rec = record((String) k.get(0), (String) k.get(1), params,
                    (String) k.get(3), (String) k.get(4), values.size() > 1 ? Stats.inOrder(values) : Stats.of(values));
            rec.put("check", k.get(5));
            out.add(rec);
        }
        return out;
    }

    /** A record of a score's runs, {@code samples} in the order measured (kept: first and samples). */
    private Map<String, Object> record(String experiment, String variant, Map<String, Object> params,
            String metric, String unit, List<Double> samples) {
        return record(experiment, variant, params, metric, unit, Stats.inOrder(samples));
    }

    private Map<String, Object> record(String experiment, String variant, Map<String, Object> params,
            String metric, String unit, Stats stats) {
        final Map<String, Object> allParams = new LinkedHashMap<>(params);
        commonParams.forEach(allParams::putIfAbsent);
        return ResultRecord.of(experiment, variant, allParams, metric, unit, stats, "ok");
    }

    /**
     * Every iteration score of every fork, normalised by {@code f}, in JMH's order (the first
     * fork's iterations first); checks the score unit.
     */
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
