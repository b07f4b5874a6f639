package dev.sympathy.jmh.pingpong;

import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.Warmups;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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

/**
 * ping-pong: two threads bounce a counter (seed 002, {@code InterThreadLatency}). The benchmark
 * thread is the seed's main thread ("ping", pinned to core 0); a daemon thread started in setup is
 * its {@code run()} ("pong", pinned to core 1). One invocation is one seed run of
 * {@code iterations} round trips, i.e. {@code 2 x iterations} one-way hops, timed as a single
 * shot; the runner divides by the hops ({@code ns_per_hop}, {@code hops_per_sec}).
 *
 * <p>Variants (the Rust names):
 * <ul>
 *   <li>{@code volatile}: the seed's program, {@code ++s} on two adjacent volatile longs</li>
 *   <li>{@code xadd}: {@code getAndAdd} (LOCK XADD), as the seed's C version</li>
 *   <li>{@code store-release}: {@code setRelease}/{@code getAcquire} (the "lazySet" suggestion)</li>
 *   <li>{@code store-release-spin-hint}: the same with {@code Thread.onSpinWait()} while waiting</li>
 *   <li>{@code same-line}: store-release with both counters in one cache line</li>
 * </ul>
 * After every invocation both counters must equal the target, else it throws.
 *
 * <pre>
 * java -jar benchmarks.jar PingPong -p variant=xadd -p iterations=10000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PingPong {
    /** Written into the ping counter in teardown: tells the pong thread to return. */
    static final long STOP = -1;
    /** Slots of {@link #slots}: 128 bytes apart (the adjacent-line prefetcher pulls pairs). */
    static final int PING = 16;
    static final int PONG = 32;
    /** {@code same-line}: the pong counter in the ping counter's cache line. */
    static final int PONG_SAME_LINE = PING + 1;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    @Param({"volatile", "xadd", "store-release", "store-release-spin-hint", "same-line"})
    public String variant;

    /** Round trips per invocation (the seed's ITERATIONS: 500M). */
    @Param({"1000000"})
    public long iterations;

    // The seed's two static volatile counters, adjacent as in the seed.
    volatile long s1;
    volatile long s2;

    /** Counters of the other variants, at {@link #PING} and {@link #PONG} or {@link #PONG_SAME_LINE}. */
    final long[] slots = new long[64];

    private Thread pong;

    /** Warm-up shots at the least, when a preset warms up at all. */
    public static final int MIN_WARMUP_SHOTS = 3;

    /**
     * Warm-up shots before the measured ones for a preset that asks for {@code presetWarmups}:
     * none when it asks for none (smoke checks the plumbing), else at least
     * {@value #MIN_WARMUP_SHOTS}. After one warm-up shot the first measured shot was still
     * 1.2-1.35x slower than the later ones ({@code same-line}: 45 then 35-37 ns per hop, JMH
     * {@code -wi 1 -i 6}): the loops the first shot compiled are recompiled in the second.
     *
     * <pre>{@code
     * PingPong.warmupShots(1)  // 3
     * PingPong.warmupShots(0)  // 0
     * }</pre>
     */
    public static int warmupShots(int presetWarmups) {
        return Warmups.atLeast(presetWarmups, MIN_WARMUP_SHOTS);
    }

    @Setup(Level.Trial)
    public void start() {
        Pinning.pinToAvailable(0);
        final Runnable body = switch (variant) {
            case "volatile" -> this::pongVolatile;
            case "xadd" -> () -> pongXadd(PONG);
            case "store-release" -> () -> pongRelease(PONG, false);
            case "store-release-spin-hint" -> () -> pongRelease(PONG, true);
            case "same-line" -> () -> pongRelease(PONG_SAME_LINE, false);
            default -> throw new IllegalArgumentException("ping-pong: unknown variant '" + variant
                    + "' (expected volatile, xadd, store-release, store-release-spin-hint, same-line)");
        };
        pong = new Thread(() -> {
            Pinning.pinToAvailable(1);
            body.run();
        }, "pong");
        pong.setDaemon(true);
        pong.start();
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        s1 = STOP;
        SLOT.setVolatile(slots, PING, STOP);
        pong.join(10_000);
        if (pong.isAlive()) {
            throw new IllegalStateException("ping-pong: the pong thread did not stop");
        }
    }

    /** One seed run: {@code iterations} round trips. Returns the final count. */
    @Benchmark
    public long run() {
        return switch (variant) {
            case "volatile" -> pingVolatile();
            case "xadd" -> pingXadd(PONG);
            case "store-release" -> pingRelease(PONG, false);
            case "store-release-spin-hint" -> pingRelease(PONG, true);
            default -> pingRelease(PONG_SAME_LINE, false);
        };
    }

    // ---- volatile: the seed's program ----

    private long pingVolatile() {
        long value = s1;
        final long target = value + iterations;
        while (s1 < target) {
            while (s2 != value) {
                // busy spin
            }
            value = ++s1;
        }
        while (s2 != target) {
            // the last hop back
        }
        return verify(s1, s2, target);
    }

    private void pongVolatile() {
        long value = s2;
        while (true) {
            long seen;
            while ((seen = s1) == value) {
                // busy spin
            }
            if (seen == STOP) {
                return;
            }
            value = ++s2;
        }
    }

    // ---- xadd: add-and-fetch on padded slots ----

    private long pingXadd(int pongSlot) {
        long value = (long) SLOT.getVolatile(slots, PING);
        final long target = value + iterations;
        while (value < target) {
            while ((long) SLOT.getVolatile(slots, pongSlot) != value) {
                // busy spin
            }
            value = (long) SLOT.getAndAdd(slots, PING, 1L) + 1;
        }
        while ((long) SLOT.getVolatile(slots, pongSlot) != target) {
            // the last hop back
        }
        return verify((long) SLOT.getVolatile(slots, PING), (long) SLOT.getVolatile(slots, pongSlot), target);
    }

    private void pongXadd(int pongSlot) {
        long value = (long) SLOT.getVolatile(slots, pongSlot);
        while (true) {
            long seen;
            while ((seen = (long) SLOT.getVolatile(slots, PING)) == value) {
                // busy spin
            }
            if (seen == STOP) {
                return;
            }
            value = (long) SLOT.getAndAdd(slots, pongSlot, 1L) + 1;
        }
    }

    // ---- store-release / load-acquire ----

    private long pingRelease(int pongSlot, boolean spinHint) {
        long value = (long) SLOT.getAcquire(slots, PING);
        final long target = value + iterations;
        while (value < target) {
            // SYNC POINT: pong published -- pairs with the pong thread's setRelease(pongSlot)
            while ((long) SLOT.getAcquire(slots, pongSlot) != value) {
                if (spinHint) {
                    Thread.onSpinWait();
                }
            }
            value++;
            // SYNC POINT: ping published -- pairs with the pong thread's getAcquire(PING)
            SLOT.setRelease(slots, PING, value);
        }
        while ((long) SLOT.getAcquire(slots, pongSlot) != target) {
            if (spinHint) {
                Thread.onSpinWait();
            }
        }
        return verify((long) SLOT.getAcquire(slots, PING), (long) SLOT.getAcquire(slots, pongSlot), target);
    }

    private void pongRelease(int pongSlot, boolean spinHint) {
        long value = (long) SLOT.getAcquire(slots, pongSlot);
        while (true) {
            long seen;
            // SYNC POINT: ping published -- pairs with the ping thread's setRelease(PING)
            while ((seen = (long) SLOT.getAcquire(slots, PING)) == value) {
                if (spinHint) {
                    Thread.onSpinWait();
                }
            }
            if (seen == STOP) {
                return;
            }
            value++;
            // SYNC POINT: pong published -- pairs with the ping thread's getAcquire(pongSlot)
            SLOT.setRelease(slots, pongSlot, value);
        }
    }

    private static long verify(long ping, long pong, long target) {
        if (ping != target || pong != target) {
            throw new IllegalStateException("ping-pong: counters are " + ping + "/" + pong + ", expected " + target);
        }
        return ping;
    }
}
