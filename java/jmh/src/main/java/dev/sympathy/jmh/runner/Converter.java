package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.MetricSpec;
import dev.sympathy.catalog.Preset;
import dev.sympathy.results.Json;
import dev.sympathy.results.ResultRecord;
import dev.sympathy.results.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 * measurement. Which experiment a result is, and how its score is normalised into which
 * metrics, is its {@link JmhExperiment}'s ({@link JmhExperiment#score}; found from the result's
 * benchmark class by {@link JmhExperiments}); each metric's unit is the catalog's
 * ({@code experiments/common.toml} {@code [[metrics]]}). A single-shot run whose score (the whole
 * run, checks included) is not reported has all its metrics in the extras.
 * The extras' values of one result are its runs, in the order the benchmarks recorded them
 * (measured iterations only); where there are several, {@code stats.first} and
 * {@code stats.samples} are written as for a score, where there is one they are left out.
 * Params carry the catalog's names ({@code size_bytes}, not the {@code @Param} {@code sizeBytes});
 * {@link ResultGroups} says which (variant, params) groups a case emits, for the run and for
 * {@code --plan} alike.
 * {@code check} is {@code "ok"}: the benchmarks verify their results and throw on a mismatch, and
 * the runner runs JMH with fail-on-error, so a result exists only when it was verified.
 *
 * <pre>{@code
 * List<Map<String, Object>> records = new Converter(JmhExperiments.found(), catalog, Preset.QUICK,
 *         Map.of("preset", "quick")).convert(Files.readString(jmhJson), extrasLines);
 * }</pre>
 */
public final class Converter {
    private final JmhExperiments experiments;
    private final Catalog catalog;
    private final Preset preset;
    private final Map<String, Object> commonParams;

    /**
     * Converts the results of {@code experiments} run at {@code preset} with {@code catalog}'s
     * values; {@code commonParams} (e.g. preset, pinning) are added to every record's params.
     */
    public Converter(JmhExperiments experiments, Catalog catalog, Preset preset, Map<String, Object> commonParams) {
        this.experiments = experiments;
        this.catalog = catalog;
        this.preset = preset;
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
        final JmhCase c = JmhCase.ofResult(result);
        final JmhExperiment experiment = experiments.of(c);
        final Optional<JmhScore> scored = experiment.score(c, experiments.at(experiment, catalog, preset));
        if (scored.isEmpty()) {
            return List.of(); // a single-shot run whose metrics are all extras
        }
        final JmhScore score = scored.get();
        final List<Map<String, Object>> out = new ArrayList<>();
        for (ScoreMetric metric : score.metrics()) {
            final Map<String, Object> source = metric.secondary().isEmpty()
                    ? map(result.get("primaryMetric"), "primaryMetric")
                    : map(map(result.get("secondaryMetrics"), "secondaryMetrics").get(metric.secondary().get()),
                            "secondaryMetrics." + metric.secondary().get());
            out.add(record(experiment.id(), c.variant(), score.params(), metric.metric(), unit(metric.metric()),
                    samples(source, metric.jmhUnit(), metric.normalise())));
        }
        final List<Double> jit = jitMillis(result);
        if (!jit.isEmpty()) {
            for (Map<String, Object> rec : out) {
                map(rec.get("stats"), "stats").put("jit_ms", jit);
            }
        }
        return out;
    }

    /** The catalog's unit of {@code metric}; a metric it lacks is an error naming it. */
    private String unit(String metric) {
        return catalog.metric(metric).map(MetricSpec::unit).orElseThrow(() -> new IllegalArgumentException(
                "metric '" + metric + "' is not in experiments/common.toml's [[metrics]]: add it with its unit"));
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
