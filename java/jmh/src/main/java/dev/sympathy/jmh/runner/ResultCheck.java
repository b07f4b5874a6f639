package dev.sympathy.jmh.runner;

import dev.sympathy.catalog.Catalog;
import dev.sympathy.catalog.ExperimentSpec;
import dev.sympathy.catalog.MetricSpec;
import dev.sympathy.results.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code run ... --verify}: what is wrong with the result records of one experiment's run, held
 * against what its own {@code --plan} promised ({@link Plan#groups}) and against the catalog:
 * <ul>
 *   <li>every planned group came back, and no result belongs to a group the plan lacks (params
 *       compared without the runner params, as the plan lists them);</li>
 *   <li>each record is a Java result whose check is {@code ok} or {@code n/a}, whose stats hold
 *       (at least one run, {@code min <= median <= max}, {@code value} the median);</li>
 *   <li>its metric is one the catalog lists for the experiment, in the catalog's unit;</li>
 *   <li>the experiment's own checks ({@link JmhExperiment#checkResults}: back-pressure's
 *       completed + rejected = count).</li>
 * </ul>
 * Each problem is one sentence; none means the run delivered what it planned. The CI smoke run
 * ({@code ci/java-jmh-smoke}) runs every experiment with it.
 *
 * <pre>{@code
 * ResultCheck.problems(experiment, Plan.groups(experiment, at, catalog.common()), records, catalog)
 * // ["memory-walk chase-heap {size_bytes=4194304, memory=off-heap, huge_pages=false}: planned, but no result came back"]
 * }</pre>
 */
final class ResultCheck {
    private ResultCheck() {
    }

    /** The problems of {@code records}, the results of one run of {@code experiment} whose plan is {@code planned}. */
    static List<String> problems(JmhExperiment experiment, List<ResultGroup> planned, List<Map<String, Object>> records,
            Catalog catalog) {
        final List<String> out = new ArrayList<>();
        final ExperimentSpec spec = catalog.experiment(experiment.id());
        final Set<String> runnerParams = Set.copyOf(catalog.common().runnerParams());
        final Map<String, ResultGroup> promised = new LinkedHashMap<>();
        for (ResultGroup group : planned) {
            promised.put(key(group.experiment(), group.variant(), group.params(), runnerParams), group);
        }
        final Set<String> delivered = new LinkedHashSet<>();
        for (Map<String, Object> rec : records) {
            final String name = rec.get("experiment") + " " + rec.get("variant") + " " + rec.get("metric");
            final Map<String, Object> params = object(rec.get("params"));
            final String key = key(String.valueOf(rec.get("experiment")), String.valueOf(rec.get("variant")), params,
                    runnerParams);
            delivered.add(key);
            if (!promised.containsKey(key)) {
                out.add(name + " " + params + ": a result of a group the plan does not list");
            }
            out.addAll(recordProblems(name, rec, spec, catalog));
        }
        promised.forEach((key, group) -> {
            if (!delivered.contains(key)) {
                out.add(group.experiment() + " " + group.variant() + " " + group.params() + ": planned, but no result came back");
            }
        });
        out.addAll(experiment.checkResults(records));
        return out;
    }

    private static List<String> recordProblems(String name, Map<String, Object> rec, ExperimentSpec spec, Catalog catalog) {
        final List<String> out = new ArrayList<>();
        if (!"result".equals(rec.get("kind")) || !"java".equals(rec.get("language"))) {
            out.add(name + ": kind " + rec.get("kind") + ", language " + rec.get("language") + " (a Java result expected)");
        }
        if (!"ok".equals(rec.get("check")) && !"n/a".equals(rec.get("check"))) {
            out.add(name + ": check " + rec.get("check"));
        }
        final String metric = String.valueOf(rec.get("metric"));
        final Optional<MetricSpec> known = catalog.metric(metric);
        if (!spec.metrics().contains(metric) || known.isEmpty()) {
            out.add(name + ": metric " + metric + " is not among experiments/" + spec.name() + ".toml's metrics "
                    + spec.metrics());
        } else if (!known.get().unit().equals(rec.get("unit"))) {
            out.add(name + ": unit " + rec.get("unit") + ", the catalog's is " + known.get().unit());
        }
        final Map<String, Object> stats = object(rec.get("stats"));
        if (!(stats.get("runs") instanceof Number runs) || runs.longValue() < 1
                || !(stats.get("min") instanceof Number min) || !(stats.get("median") instanceof Number median)
                || !(stats.get("max") instanceof Number max) || !(rec.get("value") instanceof Number value)) {
            out.add(name + ": stats or value missing: " + stats);
        } else if (min.doubleValue() > median.doubleValue() || median.doubleValue() > max.doubleValue()
                || value.doubleValue() != median.doubleValue()) {
            out.add(name + ": value " + value + " and stats " + stats + " disagree (min <= median <= max, value the median)");
        }
        return out;
    }

    /**
     * A group's identity: experiment, variant and the params less the runner params, numbers
     * compared as JSON writes them (an {@code int} param and the {@code long} read back are one).
     */
    private static String key(String experiment, String variant, Map<String, Object> params, Set<String> runnerParams) {
        final Map<String, Object> work = new TreeMap<>(object(Json.parse(Json.write(params))));
        work.keySet().removeAll(runnerParams);
        return experiment + " " + variant + " " + Json.write(work);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
    }
}
