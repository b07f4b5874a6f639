package dev.sympathy.jmh.dispatch;

import dev.sympathy.jmh.support.Extras;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * dispatch {@code step-down}: the seed's {@code OperationPerfTest.main}, once per fork. Three
 * loops over the four operations (StepInc, StepDec, Inc, Dec); for each, {@code runTests}: ten
 * timed {@code opRun}s of {@code iterations} steps {@code value += operation.map(value)} at one
 * call site. The first loop is the step down: the call site has seen 1, then 2, 3, 4
 * implementations; each of its four phases gives ten {@code ops_per_sec} samples, recorded
 * through {@link Extras} (variant {@code step-down}, params {@code phase} = {@code implementations}).
 * Loops 2 and 3 (megamorphic throughout) are printed as the seed prints them, to the fork's
 * output. The final value is checked against {@link ClosedForm#stepDown}.
 *
 * <p>The run must be the fork's first and only invocation (no warmup: a warmed call site has
 * already seen all four); the runner sets that. JMH's single-shot score is not reported.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DispatchStepDown {
    /** The seed's loops over the operations and timed runs per operation. */
    static final int LOOPS = 3;
    static final int RUNS = 10;

    /** Steps per opRun; the seed: 50M. */
    @Param({"50000000"})
    public int iterations;

    /** Where the seed's lines go: the fork's output (tests silence it). */
    PrintStream out = System.out;
    private Operation[] operations;
    private int[] constants;
    private final List<List<Double>> phases = new ArrayList<>();
    private int invocations;
    private boolean verified;

    @Setup(Level.Trial)
    public void create() {
        if (iterations < 1) {
            throw new IllegalArgumentException("dispatch step-down: iterations must be >= 1, got " + iterations);
        }
        operations = Operations.seedOrder();
        constants = new int[operations.length];
        for (int i = 0; i < operations.length; i++) {
            constants[i] = Operations.constantOf(operations[i]);
        }
    }

    /** The seed's main; returns the final value (consumed by JMH). */
    @Benchmark
    public int stepDown() {
        if (invocations++ != 0) {
            throw new IllegalStateException("dispatch step-down runs once per fork (its call site is warm now):"
                    + " run it with no warmup and one measurement iteration");
        }
        verified = false;
        phases.clear();
        int value = Dispatch.START;
        for (int loop = 0; loop < LOOPS; loop++) {
            out.println("*** Run each method in turn: loop " + loop);
            for (Operation operation : operations) {
                out.println(operation.getClass().getSimpleName());
                final List<Double> samples = new ArrayList<>();
                value = runTests(operation, value, samples);
                if (loop == 0) {
                    phases.add(samples);
                }
            }
        }
        final int expected = ClosedForm.stepDown(Dispatch.START, constants, LOOPS, RUNS, iterations);
        if (value != expected) {
            throw new IllegalStateException("dispatch step-down: final value " + value + ", expected " + expected
                    + " (closed form)");
        }
        out.println("value = " + value);
        verified = true;
        return value;
    }

    private int runTests(Operation operation, int value, List<Double> samples) {
        for (int i = 0; i < RUNS; i++) {
            final long start = System.nanoTime();
            value += opRun(operation, value, iterations);
            final long duration = System.nanoTime() - start;
            final double opsPerSec = iterations * 1e9 / duration;
            samples.add(opsPerSec);
            out.printf(Locale.ROOT, "    %,d ops/sec%n", (long) opsPerSec);
        }
        return value;
    }

    /** The seed's call site. */
    private static int opRun(Operation operation, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += operation.map(value);
        }
        return value;
    }

    /** Its phases: one per operation of the seed's order, phase {@code n} with {@code n} implementations seen. */
    public static int phases() {
        return Operations.seedOrder().length;
    }

    /**
     * The params of phase {@code phase}'s results, in the catalog's names: {@code resultParams(2, 1000)}
     * is {@code {implementations=2, phase=2, iterations=1000}} (in phase n the call site has seen n
     * implementations).
     */
    public static Map<String, Object> resultParams(int phase, int iterations) {
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("implementations", phase);
        params.put("phase", phase);
        params.put("iterations", iterations);
        return params;
    }

    @TearDown(Level.Iteration)
    public void measure(IterationParams iteration) {
        if (iteration.getType() != IterationType.MEASUREMENT || !verified) {
            return;
        }
        for (int phase = 1; phase <= phases.size(); phase++) {
            final Map<String, Object> params = resultParams(phase, iterations);
            for (double opsPerSec : phases.get(phase - 1)) {
                Extras.record("dispatch", "step-down", params, "ops_per_sec", "ops/s", opsPerSec, "ok");
            }
        }
    }
}
