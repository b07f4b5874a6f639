package dev.sympathy.app;

import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs this JVM's own produce and consume loops ({@link ProduceLoop}, {@link ConsumeLoop}) on a
 * scratch ring file before a measured run, so that the run is timed with the loops compiled by
 * C2 rather than in the interpreter and C1. A Rust peer is compiled ahead of time; without this
 * a quick run (2M messages, ~0.1 s at full speed) measures mostly the JIT's warm-up in the Java
 * process, and the two languages are not compared on the same work.
 *
 * <p>It goes on until the JIT is quiet (a round that compiled nothing), not for a fixed count. The
 * two loops run at once, the consumer on a second thread (on the caller's core when the
 * caller is pinned: it inherits the affinity), so that the producer finds the ring full and the
 * consumer finds it empty, as in the measured run: a branch never taken while C2 profiles is
 * compiled as a trap, and taking it in the measured run would send the loop back to the
 * interpreter for a recompilation. The scratch ring is a mapped file like the measured one (the
 * same {@code MemorySegment} class, so the type profiles stay those of the run); it is deleted
 * afterwards.
 *
 * <pre>{@code
 * Warmup.run(impl, "4", Warmup.DEFAULT_MESSAGES, WriteMode.PER_MESSAGE); // then attach to the measured ring
 * }</pre>
 */
final class Warmup {
    private Warmup() {}

    /** Messages written and read back by default (with {@code --core}: a measured run); ~0.1 s once compiled. */
    static final long DEFAULT_MESSAGES = 1_000_000;

    /** Messages per round; rounds go on until {@code messages} are done and a round compiled nothing. */
    private static final long ROUND = 250_000;

    /** The longest a warm-up goes on while the JIT keeps compiling. */
    private static final long MAX_NANOS = 5_000_000_000L;

    /** How long either warm-up loop waits for the other before it fails. */
    private static final long TIMEOUT_MS = 30_000;

    /** Scratch-ring capacity unless the messages need more (largest message = capacity / 8). */
    private static final long CAPACITY = 1 << 20;

    /**
     * Writes {@code messages} test messages of {@code sizes} (a {@code --size} spec) through
     * {@code impl}'s producing end on the calling thread while a second thread reads and verifies
     * them through its consuming end, in rounds, and goes on (at most 5 s) until a round ends
     * with the JIT's total compile time unchanged: on a loaded machine the C2 compilations the
     * loops asked for land well after the messages that asked for them. The producer writes as
     * the measured one will ({@code writes}), so that the code it runs is the code compiled. Nothing
     * when {@code messages} is 0.
     */
    static void run(RingImpl impl, String sizes, long messages, WriteMode writes) {
        if (messages <= 0) {
            return;
        }
        SizeSpec spec = SizeSpec.parse("warm-up", sizes, 1);
        long record = RingDescriptor.align(spec.max + RingDescriptor.RECORD_HEADER_LENGTH, RingDescriptor.RECORD_ALIGNMENT);
        long capacity = Math.max(CAPACITY, Long.highestOneBit(record * 8) * 2);
        Path file = BenchCommands.scratchDir().resolve("sympathy-warmup-" + ProcessHandle.current().pid() + "-"
                + System.nanoTime() + ".ring");
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long deadline = System.nanoTime() + MAX_NANOS;
        try (RingFile ring = RingFile.create(file, capacity)) {
            long compiling = compileMs(jit);
            long done = 0;
            while (true) {
                long round = done < messages ? Math.min(ROUND, messages - done) : ROUND;
                round(ring, impl, spec, writes, done, round);
                done += round;
                long now = compileMs(jit);
                boolean settled = now == compiling;
                compiling = now;
                if ((done >= messages && settled) || System.nanoTime() - deadline >= 0) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("warm-up interrupted", e);
        } catch (IOException e) {
            throw new UncheckedIOException("warm-up on a scratch ring in " + file.getParent() + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a scratch file left in /dev/shm is harmless; the run goes on
            }
        }
    }

    /** The JIT's total compile time so far, or 0 where the JVM does not tell (then count alone decides). */
    private static long compileMs(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Messages {@code first, first + 1, ..} through both loops at once, the consumer on a second thread. */
    private static void round(RingFile ring, RingImpl impl, SizeSpec spec, WriteMode writes, long first, long count)
            throws InterruptedException {
        // The previous round's producer detached in the millisecond it finished. A consumer that
        // attaches in that same millisecond cannot tell the departure from one after its attach
        // (PeerWatch.hasLeft compares milliseconds), and before this round's producer attached it
        // failed with "producer detached early: received and verified 0 of 250000 messages".
        long finishedMs = System.currentTimeMillis();
        while (System.currentTimeMillis() <= finishedMs) {
            Thread.onSpinWait();
        }
        ConsumeLoop consume = new ConsumeLoop();
        consume.count = count;
        consume.first = first;
        consume.timeoutMs = TIMEOUT_MS;
        RuntimeException[] failed = new RuntimeException[1];
        Thread reader = new Thread(() -> {
            try {
                consume.run(ring, impl);
            } catch (RuntimeException e) {
                failed[0] = e;
            }
        }, "warm-up consumer");
        reader.setDaemon(true);
        reader.start();
        ProduceLoop produce = new ProduceLoop();
        produce.count = count;
        produce.first = first;
        produce.timeoutMs = TIMEOUT_MS;
        produce.writes = writes;
        try {
            produce.run(ring, impl, spec);
        } catch (RuntimeException e) {
            // A producer that gives up on a full ring is most often the consumer's doing: say why.
            reader.join(1000);
            if (failed[0] != null) {
                IllegalStateException why = new IllegalStateException("warm-up: the consumer failed: "
                        + failed[0].getMessage(), failed[0]);
                why.addSuppressed(e);
                throw why;
            }
            throw e;
        }
        reader.join();
        if (failed[0] != null) {
            throw new IllegalStateException("warm-up: the consumer failed: " + failed[0].getMessage(), failed[0]);
        }
    }
}
