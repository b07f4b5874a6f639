package dev.sympathy.jmh.runner;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One experiment as the JMH runner runs it: what is Java's own beside its catalog entry
 * ({@code experiments/<id>.toml}, which says the variants and every param's values at each
 * preset). An implementation lives in the experiment's package beside its benchmark classes
 * (one a package, public, with a public constructor without arguments), where the runner finds
 * it from JMH's own list of benchmark classes ({@link JmhExperiments#found}). It says:
 * <ul>
 *   <li>its catalog id ({@link #id});</li>
 *   <li>how a preset's run is planned: the JMH runs, their warm-ups and the JVM flags their forks
 *       need ({@link #runs}; by default one run of each benchmark class with the catalog's values);</li>
 *   <li>whether its forks take the latency flags ({@link #takesLatencyFlags});</li>
 *   <li>how a case's JMH score becomes result records: the group's params and each metric with
 *       its normalisation ({@link #score}; the unit is the catalog's metric's);</li>
 *   <li>the groups of the extras its benchmarks write ({@link #extrasParams});</li>
 *   <li>checks its results must pass beyond every result's own ({@link #checkResults}).</li>
 * </ul>
 *
 * <pre>{@code
 * public final class PingPongExperiment implements JmhExperiment {
 *     public String id() {
 *         return "ping-pong";
 *     }
 *
 *     public Optional<JmhScore> score(JmhCase c, ExperimentAt at) {
 *         final long hops = 2 * c.number("iterations");
 *         return Optional.of(new JmhScore(Map.of("iterations", c.number("iterations")),
 *                 List.of(ScoreMetric.primary("ns_per_hop", "ns/op", ns -> ns / hops))));
 *     }
 * }
 * }</pre>
 */
public interface JmhExperiment {
    /** The catalog's name of the experiment ({@code experiments/<id>.toml}), {@code memory-walk}. */
    String id();

    /**
     * The JMH runs at {@code at}'s preset: one per options set (e.g. per thread count, per
     * variant needing a heap of its own), each with the JVM flags its forks need. By default one
     * run of each of its benchmark classes with {@link ExperimentAt#options}.
     */
    default List<JmhRun> runs(ExperimentAt at) {
        return at.benchmarkClasses().stream().map(benchmark -> new JmhRun(benchmark, at.options(benchmark), List.of()))
                .toList();
    }

    /**
     * Whether its forks run with the latency flags the sidecar's JVMs get
     * ({@code Main.latencyFlags}: the serial collector, no perf data, no periodic safepoint).
     * True but for an experiment whose figures include the collector's own work.
     */
    default boolean takesLatencyFlags() {
        return true;
    }

    /**
     * How the JMH score of case {@code c} becomes records: the params of its group (in the
     * catalog's names, typed as in the results) and its metrics; empty where the score is not
     * reported (a single-shot run whose metrics are all extras).
     */
    Optional<JmhScore> score(JmhCase c, ExperimentAt at);

    /**
     * The params of each group of extras the benchmark writes for case {@code c}, computed by
     * the same functions the benchmark calls (so that {@code --plan} lists them); none by default.
     */
    default List<Map<String, Object>> extrasParams(JmhCase c, ExperimentAt at) {
        return List.of();
    }

    /**
     * What is wrong with a run's result records of this experiment beyond what
     * {@code --verify} checks of every experiment (each planned group back, checks ok, the
     * catalog's metrics and units): one sentence a problem, none by default.
     */
    default List<String> checkResults(List<Map<String, Object>> records) {
        return List.of();
    }
}
