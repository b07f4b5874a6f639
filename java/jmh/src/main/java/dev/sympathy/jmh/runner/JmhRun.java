package dev.sympathy.jmh.runner;

import java.util.List;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

/**
 * One JMH run of an experiment: the benchmark class its options include, the options, and the
 * JVM flags its forks need (the runner appends its own: extras file, library path, latency flags).
 *
 * <pre>{@code
 * new JmhRun(MemoryWalk.class, at.options(MemoryWalk.class), List.of("-Xmx1280m"))
 * }</pre>
 *
 * @param benchmark the benchmark class
 * @param options JMH's options (includes, iterations, params)
 * @param jvmArgs JVM flags of its forks
 */
public record JmhRun(Class<?> benchmark, ChainedOptionsBuilder options, List<String> jvmArgs) {
    /**
     * Lets the forks use {@code sun.misc.Unsafe} without JDK 24+'s warning: for benchmarks that
     * use it (the seed's Unsafe variants), and for JMH itself.
     */
    public static final String UNSAFE_ALLOW = "--sun-misc-unsafe-memory-access=allow";

    public JmhRun {
        jvmArgs = List.copyOf(jvmArgs);
    }

    /**
     * {@code runs} less those left without a benchmark to run: a class whose methods are the
     * variants ({@code DispatchStepDown}) when the preset runs none of them ({@code skip_at}).
     * What the runner runs and {@code --plan} plans.
     */
    static List<JmhRun> withCases(List<JmhRun> runs) {
        return runs.stream().filter(run -> !JmhCase.expand(run.benchmark(), run.options().build()).isEmpty()).toList();
    }
}
