package dev.sympathy.jmh.atomic;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * atomic-increment: one shared counter incremented by every benchmark thread (run it with
 * {@code -t 1}, {@code -t 2}, ...). The seeds (001) found that this measures how long a core keeps
 * the counter's cache line, so each thread's share of the increments is recorded too.
 *
 * <p>Variants (method name in kebab case; the same names as the Rust side):
 * <ul>
 *   <li>{@code lock-xadd}: {@code AtomicLong.getAndIncrement}, result returned (LOCK XADD)</li>
 *   <li>{@code lock-add}: {@code AtomicLong.getAndAdd(1)} with the result unused, which C2
 *       compiles to LOCK ADD</li>
 *   <li>{@code cas-bool}: a {@code compareAndSet} retry loop that re-reads the counter</li>
 *   <li>{@code cas-val}: {@code compareAndExchange} feeding the witnessed value back</li>
 *   <li>{@code varhandle-xadd}: {@code VarHandle.getAndAdd} on a plain field (Java only)</li>
 *   <li>{@code sharded}: a counter per thread on its own 128 bytes, {@code getAndAdd} with the result
 *       unused (LOCK ADD, uncontended), as Rust's padded shards; {@code LongAdder} is the library
 *       form of the same fix, with a CAS per increment</li>
 * </ul>
 * Each call of a benchmark method makes {@link #BATCH} increments ({@code @OperationsPerInvocation}):
 * JMH's own loop around a call costs about a nanosecond, a sizeable part of an uncontended
 * increment (5-7 ns), where Rust's and C's threads loop over their increments themselves.
 * Every thread counts its own increments; after each iteration the last thread to finish checks
 * that the counter equals their sum and throws otherwise, so a result exists only when verified.
 * The kernels that see the counter's value (lock-xadd, cas-bool, cas-val) also count handoffs, the
 * times the value a thread got back was not the one after its previous increment, as Rust's and C's
 * do: {@code ops_per_handoff} is the increments over the handoffs, with two or more threads.
 *
 * <pre>
 * java -jar benchmarks.jar AtomicIncrement -t 2 -f 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AtomicIncrement {
    private static final VarHandle COUNTER;

    static {
        try {
            COUNTER = MethodHandles.lookup().findVarHandle(AtomicIncrement.class, "counter", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Increments per call of a benchmark method: JMH divides its score by it, so {@code ns_per_op}
     * stays the cost of one increment while JMH's per-call loop and result sink are paid once per
     * batch, as Rust's and C's kernels loop over their increments without a call each.
     */
    static final int BATCH = 64;

    private final AtomicLong atomic = new AtomicLong();
    /** Longs between two threads' {@code sharded} cells: 128 bytes, as Rust's {@code CachePadded}. */
    static final int CELL_STRIDE = 16;
    /** Most threads {@code sharded} has cells for. */
    static final int MAX_THREADS = 64;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * {@code sharded}'s counters: thread i's at {@code (i + 1) * CELL_STRIDE}, each on its own pair
     * of cache lines (the first stride keeps the array's header line apart), incremented with a
     * {@code getAndAdd} whose result is unused ({@code lock add}), as Rust's padded shards are.
     */
    private final long[] cells = new long[(MAX_THREADS + 2) * CELL_STRIDE];
    /** Incremented through {@link #COUNTER} by {@code varhandle-xadd} only. */
    @SuppressWarnings("unused")
    private volatile long counter;

    private final Tallies tallies = new Tallies();

    /** Starts every iteration from zero. */
    @Setup(Level.Iteration)
    public void reset() {
        atomic.set(0);
        java.util.Arrays.fill(cells, 0L);
        COUNTER.setVolatile(this, 0L);
        tallies.reset();
    }

    /** The sum of all counters: only the one the running variant uses is non-zero. */
    long total() {
        long sharded = 0;
        for (int i = 1; i <= MAX_THREADS; i++) {
            sharded += (long) CELL.getVolatile(cells, i * CELL_STRIDE);
        }
        return atomic.get() + sharded + (long) COUNTER.getVolatile(this);
    }

    /**
     * Per-thread state: the increments this thread made, {@code cas-val}'s next guess, and for the
     * kernels that see the counter's value (lock-xadd, cas-bool, cas-val, as in Rust and C) the
     * value expected back next and the handoffs: the times the value got back was not that one.
     */
    @State(Scope.Thread)
    public static class Increments {
        long made;
        long guess;
        long expected;
        long handoffs;
        int thread;

        /** Counts a handoff when {@code seen} is not the value after this thread's previous increment. */
        void saw(long seen) {
            handoffs += seen != expected ? 1 : 0;
            expected = seen + 1;
        }

        /** Pins benchmark thread i to the i-th core the process may use (wrapping), as Rust pins its threads. */
        @Setup(Level.Trial)
        public void pin(ThreadParams params) {
            thread = params.getThreadIndex();
            Pinning.pinToAvailable(thread);
        }

        @Setup(Level.Iteration)
        public void reset() {
            made = 0;
            guess = 0;
            expected = 0;
            handoffs = 0;
        }

        /**
         * Reports this thread's count; the last thread verifies the final counter.
         *
         * @throws IllegalStateException when the counter differs from the increments made
         */
        @TearDown(Level.Iteration)
        public void verify(AtomicIncrement shared, BenchmarkParams benchmark, IterationParams iteration) {
            final long sum = shared.tallies.report(thread, made, handoffs, benchmark.getThreads());
            if (sum < 0) {
                return; // not the last thread to report
            }
            final long total = shared.total();
            if (total != sum) {
                throw new IllegalStateException("atomic-increment: counter is " + total
                        + " but the threads made " + sum + " increments (" + benchmark.getBenchmark() + ")");
            }
            if (iteration.getType() == IterationType.MEASUREMENT && sum > 0) {
                final String method = benchmark.getBenchmark().substring(benchmark.getBenchmark().lastIndexOf('.') + 1);
                for (Map.Entry<Integer, Long> e : shared.tallies.byThread().entrySet()) {
                    Extras.record("atomic-increment", kebab(method),
                            shareParams(benchmark.getThreads(), e.getKey()),
                            "thread_share", "ratio", e.getValue() / (double) sum, "ok");
                }
                final long handoffs = shared.tallies.handoffs();
                if (countsHandoffs(kebab(method), benchmark.getThreads()) && handoffs > 0) {
                    Extras.record("atomic-increment", kebab(method), handoffParams(benchmark.getThreads()),
                            "ops_per_handoff", "ops", sum / (double) handoffs, "ok");
                }
            }
        }
    }

    /**
     * The params of a {@code thread_share} extra, in the catalog's names: {@code shareParams(2, 0)} is
     * {@code {threads=2, thread=0}} ({@code thread} is a work param of atomic-increment: one row per thread).
     */
    public static Map<String, Object> shareParams(int threads, int thread) {
        return Map.of("threads", threads, "thread", thread);
    }

    /** The params of an {@code ops_per_handoff} extra: {@code {threads=2}}. */
    public static Map<String, Object> handoffParams(int threads) {
        return Map.of("threads", threads);
    }

    /**
     * Whether {@code variant} at {@code threads} records {@code ops_per_handoff}: the kernels that
     * see the counter's value (lock-xadd, cas-bool, cas-val, as Rust's and C's) with more than one
     * thread. {@code countsHandoffs("cas-val", 2)} is true; {@code countsHandoffs("lock-add", 2)} false.
     */
    public static boolean countsHandoffs(String variant, int threads) {
        return threads > 1 && Set.of("lock-xadd", "cas-bool", "cas-val").contains(variant);
    }

    /** {@code lockXadd} to {@code lock-xadd}. */
    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long lockXadd(Increments mine) {
        long seen = 0;
        for (int i = 0; i < BATCH; i++) {
            seen = atomic.getAndIncrement();
            mine.saw(seen);
        }
        mine.made += BATCH;
        return seen;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void lockAdd(Increments mine) {
        for (int i = 0; i < BATCH; i++) {
            atomic.getAndAdd(1);
        }
        mine.made += BATCH;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long casBool(Increments mine) {
        long seen = 0;
        for (int i = 0; i < BATCH; i++) {
            do {
                seen = atomic.get();
            } while (!atomic.compareAndSet(seen, seen + 1));
            mine.saw(seen);
        }
        mine.made += BATCH;
        return seen;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long casVal(Increments mine) {
        long guess = mine.guess;
        for (int i = 0; i < BATCH; i++) {
            long witness;
            while ((witness = atomic.compareAndExchange(guess, guess + 1)) != guess) {
                guess = witness;
            }
            mine.saw(guess);
            guess++;
        }
        mine.guess = guess;
        mine.made += BATCH;
        return guess;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long varhandleXadd(Increments mine) {
        long seen = 0;
        for (int i = 0; i < BATCH; i++) {
            seen = (long) COUNTER.getAndAdd(this, 1L);
        }
        mine.made += BATCH;
        return seen;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void sharded(Increments mine) {
        final int cell = (mine.thread + 1) * CELL_STRIDE;
        for (int i = 0; i < BATCH; i++) {
            CELL.getAndAdd(cells, cell, 1L);
        }
        mine.made += BATCH;
    }
}
