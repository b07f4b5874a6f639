package dev.sympathy.jmh.support;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Brings the JVM to rest before a measured shot: one full collection (the young generation
 * empty, so no collection starts inside the shot), then a wait until the JIT has been quiet for
 * {@link #QUIET_MILLIS} (no compilation finished in that window; at most {@link #MAX_MILLIS}),
 * so that the shot runs the C2 code its warm-up asked for, not C1's while C2 still compiles.
 *
 * <p>It does for a measured shot what JMH's {@code shouldDoGC} does for every shot, warm-up
 * ones included, where JMH waits after its {@code System.gc()} for the collectors to settle
 * (serialization's quick Java run: 58 s with {@code shouldDoGC}, 17 s with this, the same
 * figures). The wait for a quiet JIT matters: after a bare {@code System.gc()}
 * serialization's {@code sbe} reads took 120-127 ns, 54-64 ns after JMH's waits.
 *
 * <pre>{@code
 * @Setup(Level.Iteration)
 * public void settle(IterationParams iteration) {
 *     if (iteration.getType() == IterationType.MEASUREMENT) {
 *         Quiet.settle();
 *     }
 * }
 * }</pre>
 */
public final class Quiet {
    private Quiet() {}

    /** How long no compilation may finish before the JIT counts as quiet. */
    public static final long QUIET_MILLIS = 100;

    /** The longest {@link #settle} waits for a quiet JIT. */
    public static final long MAX_MILLIS = 3_000;

    /**
     * One full collection, then waits (at most {@link #MAX_MILLIS}) until no compilation has
     * finished for {@link #QUIET_MILLIS}.
     */
    public static void settle() {
        System.gc();
        awaitQuietJit();
    }

    /**
     * Waits (at most {@link #MAX_MILLIS}) until no compilation has finished for
     * {@link #QUIET_MILLIS}: what {@link QuietJitProfiler} does before every measured iteration.
     * Returns at once where the JVM does not count compile time.
     */
    public static void awaitQuietJit() {
        final long start = System.nanoTime();
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long compiled = jit.getTotalCompilationTime();
        while (millisSince(start) < MAX_MILLIS) {
            sleep(QUIET_MILLIS);
            final long now = jit.getTotalCompilationTime();
            if (now == compiled) {
                break;
            }
            compiled = now;
        }
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a quiet JIT", e);
        }
    }
}
