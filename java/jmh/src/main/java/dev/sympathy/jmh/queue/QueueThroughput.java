package dev.sympathy.jmh.queue;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.Warmups;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * queue: one producer and one consumer thread ({@code @Group}) share one queue
 * ({@code Scope.Group}); the score that matters is the consumer's {@code pollsMade} per second
 * ({@code msgs_per_sec}). Failed offers (full: back pressure) and failed polls (empty) are counted
 * with {@code @AuxCounters}, as JCTools' own benchmarks do. The consumer checks every message
 * arrives in order and throws otherwise.
 *
 * <p>Variants (the Rust names where the work is the same): {@code p1c1}, {@code p1c1-boxed},
 * {@code p1c1-offheap}, {@code fastflow}, {@code jctools-spsc}, {@code agrona-one-to-one}, {@code array-blocking-queue},
 * {@code concurrent-linked-queue}; {@code ring} joins when the java/ring module does
 * (see {@link Queues#create}).
 *
 * <pre>
 * java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -jar benchmarks.jar QueueThroughput -p variant=p1c1
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class QueueThroughput {
    private static final int MASK = Queues.POOL - 1;

    @Param({"p1c1", "p1c1-boxed", "p1c1-offheap", "fastflow", "ring", "jctools-spsc", "agrona-one-to-one", "array-blocking-queue", "concurrent-linked-queue"})
    public String variant;

    /**
     * Where the two threads run, as Rust's {@code --placement}: {@code cross-core} pins the
     * producer to core 0 and the consumer to core 1 (they spin while they wait, {@link
     * #SPINS_WHEN_WAITING} hints at a time); {@code same-core}
     * pins both to core 0, where they take turns and yield the core while they wait.
     */
    @Param({"cross-core", "same-core"})
    public String placement;

    /** Queue capacity in messages (a power of two). */
    @Param({"32768"})
    public int capacity;

    IntQueue queue;
    boolean sameCore;

    /** Most values one {@link #poll} takes ({@link Queues#batch}). */
    private int batch;

    @Setup(Level.Trial)
    public void create() {
        sameCore = switch (placement) {
            case "cross-core" -> false;
            case "same-core" -> true;
            default -> throw new IllegalArgumentException("queue: unknown placement '" + placement
                    + "'; use cross-core or same-core");
        };
        queue = Queues.create(variant, capacity);
        batch = Queues.batch(variant);
        Extras.fact("queue", variant, "batch", batch);
        Extras.fact("queue", variant, "slot_bytes", Queues.slotBytes(variant));
    }

    /** The consumer's core: the second core the process may use, or the producer's first when both share it. */
    int consumerCore() {
        return sameCore ? 0 : 1;
    }

    /**
     * Spin-wait hints a side that found the queue empty (or full) spends before it tries again,
     * cross-core. Trying again at once pulls the other side's cache line back at once: P1C1's
     * consumer, finding the queue empty, reloads {@code tail} on every retry, and the producer's
     * next release store of {@code tail} must take the line back, so a consumer as fast as its
     * producer kept the queue near empty and paid two line transfers per message (p1c1 quick runs
     * of 120M-170M with 7-9M failed polls a second, against 240M-270M with 16 hints and 0.6M).
     * Rust's {@code Waiter} waits the same.
     */
    static final int SPINS_WHEN_WAITING = 16;

    /** Warmup iterations at the least, when a preset warms up at all. */
    public static final int MIN_WARMUP_ITERATIONS = 2;

    /**
     * Warmup iterations before the measured ones for a preset that asks for
     * {@code presetWarmups}: none when it asks for none (smoke checks the plumbing), else at
     * least {@value #MIN_WARMUP_ITERATIONS}. With one warmup of 200 ms (quick), C2's OSR
     * compilation of the producer's and the consumer's loops hit an uncommon trap when the
     * warmup's loop exited, and the recompilation (and the first C2 compilation of the whole
     * stub) fell some 60 ms into the 200 ms measured iteration, which ran that long in the
     * interpreter and C1's code. A second warmup iteration takes that.
     *
     * <pre>{@code
     * QueueThroughput.warmupIterations(1)  // 2
     * QueueThroughput.warmupIterations(0)  // 0
     * }</pre>
     */
    public static int warmupIterations(int presetWarmups) {
        return Warmups.atLeast(presetWarmups, MIN_WARMUP_ITERATIONS);
    }

    /** Waits for the other thread: spins cross-core, gives the core up same-core. */
    void waitForPeer() {
        if (sameCore) {
            Thread.yield();
        } else {
            for (int i = 0; i < SPINS_WHEN_WAITING; i++) {
                Thread.onSpinWait();
            }
        }
    }

    @TearDown(Level.Trial)
    public void free() {
        if (queue instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("queue: closing " + variant + " failed", e);
            }
        }
    }

    /** The producer's counters (public fields are JMH's counters) and its next sequence number. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class OfferCounters {
        public long offersFailed;
        public long offersMade;
        long sequence;

        @Setup(Level.Trial)
        public void pin() {
            Pinning.pinToAvailable(0);
        }

        @Setup(Level.Iteration)
        public void clean() {
            offersFailed = 0;
            offersMade = 0;
        }
    }

    /** The consumer's counters and the sequence number it expects next; it checks each value it takes. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class PollCounters implements IntQueue.Sink {
        public long pollsFailed;
        public long pollsMade;
        long expected;
        String variant;

        @Override
        public void accept(int value) {
            if (value != (int) (expected & MASK)) {
                throw new IllegalStateException("queue " + variant + ": message " + expected
                        + " arrived as " + value + " (lost, duplicated or reordered)");
            }
            expected++;
        }

        @Setup(Level.Trial)
        public void pin(QueueThroughput shared) {
            variant = shared.variant;
            Pinning.pinToAvailable(shared.consumerCore());
        }

        @Setup(Level.Iteration)
        public void clean() {
            pollsFailed = 0;
            pollsMade = 0;
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void offer(OfferCounters counters) {
        if (queue.offer((int) (counters.sequence & MASK))) {
            counters.sequence++;
            counters.offersMade++;
        } else {
            counters.offersFailed++;
            waitForPeer();
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void poll(PollCounters counters) {
        final int taken = queue.drain(counters, batch);
        if (taken == 0) {
            counters.pollsFailed++;
            waitForPeer();
            return;
        }
        counters.pollsMade += taken;
    }
}
