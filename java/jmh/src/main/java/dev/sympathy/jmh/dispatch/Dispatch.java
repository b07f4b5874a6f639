package dev.sympathy.jmh.dispatch;

import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.Warmups;
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

/**
 * dispatch: the seed's loop {@code value += operation.map(value)} (000, "Invoke Interface
 * Optimisations") at a call site that sees 1 ({@code mono}), 2 ({@code bi}) or 4 ({@code mega})
 * {@link Operation} implementations. One invocation runs {@code iterations} steps; the runner
 * reports {@code ops_per_sec = iterations / time}.
 *
 * <p>{@code mono} and {@code bi} let C2 inline {@code map} behind a class check, so their twin in
 * Rust is {@code static} (the call inlined); {@code monoCall} and {@code biCall} run the same
 * sites over operations kept out of line ({@link Operations#seedOrderCalled}), a call made on
 * every step as Rust's {@code dyn-1} and {@code dyn-2} make one through their vtable.
 *
 * <p>The call site reads its operation from an array of {@value #SLOTS} filled cyclically at
 * setup (StepInc, StepDec, Inc, Dec; the first k of them), so the JIT learns the receivers only
 * from its type profile, never from a constant. All four classes are loaded at setup in every
 * fork, as in the seed's {@code main}, so class-hierarchy analysis cannot devirtualise {@code mono}.
 * Each benchmark owns its loop (its own call site and profile), and JMH forks each benchmark into
 * its own JVM. Every invocation checks the final value against {@link ClosedForm#afterCycle} and
 * throws on a mismatch.
 *
 * <pre>
 * java -jar benchmarks.jar 'Dispatch\.(mono|bi|mega)' -p iterations=50000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Dispatch {
    /** Call-site array length (a power of two: the index is {@code i & (SLOTS - 1)}). */
    static final int SLOTS = 1024;
    /** The seed's start value. */
    static final int START = 777;

    /** Steps per invocation; the seed's opRun: 50M. */
    @Param({"50000000"})
    public int iterations;

    private int start;
    private Operation[] monoOps;
    private Operation[] biOps;
    private Operation[] megaOps;
    private Operation[] monoCallOps;
    private Operation[] biCallOps;
    private int monoExpected;
    private int biExpected;
    private int megaExpected;

    @Setup(Level.Trial)
    public void fill() {
        if (iterations < 1) {
            throw new IllegalArgumentException("dispatch: iterations must be >= 1, got " + iterations);
        }
        start = START;
        final Operation[] seed = Operations.seedOrder();
        monoOps = cycle(seed, 1);
        biOps = cycle(seed, 2);
        megaOps = cycle(seed, 4);
        final Operation[] called = Operations.seedOrderCalled();
        monoCallOps = cycle(called, 1);
        biCallOps = cycle(called, 2);
        monoExpected = expected(seed, 1, iterations);
        biExpected = expected(seed, 2, iterations);
        megaExpected = expected(seed, 4, iterations);
    }

    /** The fewest warm-up iterations a preset that warms up gets. */
    public static final int MIN_WARMUP_ITERATIONS = 2;

    /**
     * Warm-up iterations for a preset that asks for {@code presetWarmups}: at least
     * {@value #MIN_WARMUP_ITERATIONS} (none where it asks for none). After quick's one warm-up of
     * 200 ms the JIT still compiled for 20 ms ({@code mono}) and 23 ms ({@code bi-call}) in the first
     * measured 100-ms iteration (JMH's CompilerProfiler, {@code stats.jit_ms}); a second warm-up
     * iteration takes that compilation.
     *
     * <pre>{@code
     * Dispatch.warmupIterations(1)  // 2
     * Dispatch.warmupIterations(0)  // 0
     * }</pre>
     */
    public static int warmupIterations(int presetWarmups) {
        return Warmups.atLeast(presetWarmups, MIN_WARMUP_ITERATIONS);
    }

    /** The benchmark thread, on the core Rust's run takes (the {@code pinned} parity fact records it). */
    @Setup(Level.Iteration)
    public void pin() {
        Pinning.pinToAvailable(0);
    }

    /** An array of {@value #SLOTS} holding the first {@code k} operations in turn. */
    static Operation[] cycle(Operation[] operations, int k) {
        final Operation[] slots = new Operation[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = operations[i % k];
        }
        return slots;
    }

    /** The closed-form end value of a loop over {@code cycle(operations, k)} from {@value #START}. */
    static int expected(Operation[] operations, int k, long iterations) {
        final int[] constants = new int[k];
        for (int i = 0; i < k; i++) {
            constants[i] = Operations.constantOf(operations[i]);
        }
        return ClosedForm.afterCycle(START, constants, iterations);
    }

    @Benchmark
    public int mono() {
        return check("mono", monoLoop(monoOps, start, iterations), monoExpected);
    }

    @Benchmark
    public int bi() {
        return check("bi", biLoop(biOps, start, iterations), biExpected);
    }

    @Benchmark
    public int monoCall() {
        return check("mono-call", monoCallLoop(monoCallOps, start, iterations), monoExpected);
    }

    @Benchmark
    public int biCall() {
        return check("bi-call", biCallLoop(biCallOps, start, iterations), biExpected);
    }

    @Benchmark
    public int mega() {
        return check("mega", megaLoop(megaOps, start, iterations), megaExpected);
    }

    static int monoLoop(Operation[] ops, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += ops[i & (SLOTS - 1)].map(value);
        }
        return value;
    }

    static int biLoop(Operation[] ops, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += ops[i & (SLOTS - 1)].map(value);
        }
        return value;
    }

    static int monoCallLoop(Operation[] ops, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += ops[i & (SLOTS - 1)].map(value);
        }
        return value;
    }

    static int biCallLoop(Operation[] ops, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += ops[i & (SLOTS - 1)].map(value);
        }
        return value;
    }

    static int megaLoop(Operation[] ops, int value, int iterations) {
        for (int i = 0; i < iterations; i++) {
            value += ops[i & (SLOTS - 1)].map(value);
        }
        return value;
    }

    private int check(String variant, int value, int expected) {
        if (value != expected) {
            throw new IllegalStateException("dispatch " + variant + ": final value " + value + " after " + iterations
                    + " steps, expected " + expected + " (closed form)");
        }
        return value;
    }
}
