package dev.sympathy.jmh.queue;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.Pinning;
import dev.sympathy.jmh.support.Warmups;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.IterationParams;

/**
 * queue: one producer and one consumer thread ({@code @Group}) share one queue
 * ({@code Scope.Group}); the score that matters is the consumer's {@code pollsMade} per second
 * ({@code msgs_per_sec}). Failed offers (full: back pressure) and failed polls (empty) are counted
 * with {@code @AuxCounters}, as JCTools' own benchmarks do. The consumer checks every message
 * arrives in order and throws otherwise.
 *
 * <p>Variants (the Rust names where the work is the same): {@code p1c1}, {@code p1c1-boxed},
 * {@code p1c1-batch}, {@code p1c1-offheap}, {@code p1c1-ipc}, {@code fastflow}, {@code jctools-spsc},
 * {@code agrona-one-to-one}, {@code array-blocking-queue}, {@code concurrent-linked-queue}; {@code ring}
 * joins when the java/ring module does (see {@link Queues#create}).
 *
 * <p>{@code p1c1-batch}'s producer offers up to {@link Queues#producerBatch} values per call
 * ({@link IntQueue#offerSequence}: one publish), its consumer drains up to {@link Queues#batch}.
 * {@code p1c1-ipc}'s consumer is a second JVM ({@link IpcConsumer}) on a {@link P1C1FileQueue}: the
 * producer thread offers here; the group's other thread, unpinned, only watches, every
 * {@value #WATCH_NANOS} ns: it counts the values the child took (the file's {@code head}) as its
 * {@code pollsMade}, and fails the run when the child has died. Its verdict (every value in
 * sequence, as many as were sent) is checked when the trial ends. Outside the measurement and in
 * its last {@value #FINE_WATCH_FROM_END_NANOS} ns the watcher looks every
 * {@value #FINE_WATCH_NANOS} ns instead, so that its time and its count start and end with the
 * producer's, and the producer's warm-down loop (it offers until the watcher is done too) stays
 * short: a millisecond of it per iteration was some 200k offers, enough for C2 to compile the
 * whole generated iteration method during the measured iterations.
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

    @Param({"p1c1", "p1c1-boxed", "p1c1-batch", "p1c1-offheap", "p1c1-ipc", "fastflow", "ring", "jctools-spsc", "agrona-one-to-one",
        "array-blocking-queue", "concurrent-linked-queue"})
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
    /** Most values one {@link #offer} sends ({@link Queues#producerBatch}). */
    private int producerBatch;
    /** {@code p1c1-ipc}'s consumer JVM; {@code null} for every other variant. */
    IpcConsumer consumerJvm;
    /** {@code p1c1-ipc}'s queue file (the producer's end); {@code null} for every other variant. */
    P1C1FileQueue file;

    /** How long {@code p1c1-ipc}'s watching thread parks between two looks at the consumer JVM. */
    static final long WATCH_NANOS = 1_000_000;
    /** Its park outside the measurement and near the end of an iteration. */
    static final long FINE_WATCH_NANOS = 20_000;
    /** How long before the end of an iteration the watcher parks {@link #FINE_WATCH_NANOS} at a time. */
    static final long FINE_WATCH_FROM_END_NANOS = 3_000_000;

    @Setup(Level.Trial)
    public void create() {
        sameCore = switch (placement) {
            case "cross-core" -> false;
            case "same-core" -> true;
            default -> throw new IllegalArgumentException("queue: unknown placement '" + placement
                    + "'; use cross-core or same-core");
        };
        if (variant.equals("p1c1-ipc")) {
            file = P1C1FileQueue.create(capacity, P1C1FileQueue.PRODUCER_ROLE);
            queue = file;
            try {
                consumerJvm = IpcConsumer.start(file, Pinning.availableCore(consumerCore()), sameCore);
            } catch (RuntimeException e) {
                free();
                throw e;
            }
        } else {
            queue = Queues.create(variant, capacity);
        }
        batch = Queues.batch(variant);
        producerBatch = Queues.producerBatch(variant);
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

    /** Values the consumer has taken so far: {@code p1c1-ipc}'s consumer JVM's; 0 for the others. */
    long consumedElsewhere() {
        return file == null ? 0 : file.consumed();
    }

    @TearDown(Level.Trial)
    public void free() {
        if (consumerJvm != null) {
            final IpcConsumer child = consumerJvm;
            consumerJvm = null;
            try {
                child.finish();
            } finally {
                child.kill();
            }
        }
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

    /**
     * The consumer's counters and the sequence number it expects next; it checks each value it
     * takes. For {@code p1c1-ipc}, {@code seen} is the consumer JVM's count at the last look.
     */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class PollCounters implements IntQueue.Sink {
        public long pollsFailed;
        public long pollsMade;
        long expected;
        long seen;
        /** {@code p1c1-ipc}'s watcher: from this {@link System#nanoTime} on, it looks more often. */
        long fineFrom;
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
            if (shared.consumerJvm == null) { // p1c1-ipc's watcher: the consumer's core is the child's
                Pinning.pinToAvailable(shared.consumerCore());
            }
        }

        @Setup(Level.Iteration)
        public void clean(QueueThroughput shared, IterationParams iteration) {
            pollsFailed = 0;
            pollsMade = 0;
            seen = shared.consumedElsewhere();
            fineFrom = System.nanoTime() + iteration.getTime().convertTo(TimeUnit.NANOSECONDS) - FINE_WATCH_FROM_END_NANOS;
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void offer(OfferCounters counters) {
        if (producerBatch == 1) {
            if (queue.offer((int) (counters.sequence & MASK))) {
                counters.sequence++;
                counters.offersMade++;
            } else {
                counters.offersFailed++;
                waitForPeer();
            }
            return;
        }
        final int sent = queue.offerSequence(counters.sequence, producerBatch);
        if (sent > 0) {
            counters.sequence += sent;
            counters.offersMade += sent;
        } else {
            counters.offersFailed++;
            waitForPeer();
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void poll(PollCounters counters, Control control) {
        if (consumerJvm != null) {
            watchConsumerJvm(counters, control);
            return;
        }
        final int taken = queue.drain(counters, batch);
        if (taken == 0) {
            counters.pollsFailed++;
            waitForPeer();
            return;
        }
        counters.pollsMade += taken;
    }

    /**
     * {@code p1c1-ipc}'s second thread: parks {@value #WATCH_NANOS} ns while the measurement runs
     * ({@value #FINE_WATCH_NANOS} ns before and after it and near its end), fails the run if the
     * consumer JVM has died, and counts what it took since the last look as {@code pollsMade}
     * once the measurement has started.
     */
    private void watchConsumerJvm(PollCounters counters, Control control) {
        final boolean coarse = control.startMeasurement && !control.stopMeasurement && System.nanoTime() < counters.fineFrom;
        LockSupport.parkNanos(coarse ? WATCH_NANOS : FINE_WATCH_NANOS);
        consumerJvm.checkAlive();
        final long consumed = file.consumed();
        if (control.startMeasurement) { // from the measurement's start: what the child took in it
            counters.pollsMade += consumed - counters.seen;
        }
        counters.seen = consumed;
    }
}
