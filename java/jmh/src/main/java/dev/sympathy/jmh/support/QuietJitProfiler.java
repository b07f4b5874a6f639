package dev.sympathy.jmh.support;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

/**
 * A JMH profiler that measures nothing: before each measured iteration it waits for a quiet JIT
 * ({@link Quiet#awaitQuietJit}), so that compilations the warm-up queued finish before the
 * iteration, not inside it. On a 2-core machine the compiler threads share the cores the
 * benchmark's threads spin on, and a queued C2 compilation finished during a measured iteration
 * both steals a core and leaves part of the iteration in C1's code: before this wait, at
 * {@code --quick}, the first measured iteration of every atomic-increment case compiled for
 * 8-91 ms ({@code stats.jit_ms}, from JMH's {@code CompilerProfiler}, which the runner adds after
 * this one so its count starts after the wait).
 *
 * <p>Every run of the runner adds it ({@code ExperimentAt.options}); by hand:
 * <pre>
 * java -jar benchmarks.jar AtomicIncrement -prof dev.sympathy.jmh.support.QuietJitProfiler -prof comp
 * </pre>
 */
public final class QuietJitProfiler implements InternalProfiler {
    @Override
    public String getDescription() {
        return "waits for a quiet JIT before each measured iteration";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() == IterationType.MEASUREMENT) {
            Quiet.awaitQuietJit();
        }
    }

    @Override
    @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        return List.of();
    }
}
