package dev.sympathy.app;

import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs this JVM's own produce and consume loops ({@link ProduceLoop}, {@link ConsumeLoop}) on a
 * scratch ring file before a measured run, so that the run is timed with the loops compiled by
 * C2 rather than in the interpreter and C1. A Rust peer is compiled ahead of time; without this
 * a quick run (2M messages, ~0.1 s at full speed) measures mostly the JIT's warm-up in the Java
 * process, and the two languages are not compared on the same work. The scratch ring is a mapped
 * file like the measured one (the same {@code MemorySegment} class, so the type profiles the JIT
 * compiles against stay those of the run); it is deleted afterwards.
 *
 * <pre>{@code
 * Warmup.run(impl, "4", Warmup.DEFAULT_MESSAGES); // then attach to the measured ring
 * }</pre>
 */
final class Warmup {
    private Warmup() {}

    /** Messages written and read back by default (with {@code --core}: a measured run); ~0.1 s once compiled. */
    static final long DEFAULT_MESSAGES = 1_000_000;

    /** Scratch-ring capacity unless the messages need more (largest message = capacity / 8). */
    private static final long CAPACITY = 1 << 20;

    /**
     * Writes {@code messages} test messages of {@code sizes} (a {@code --size} spec) through
     * {@code impl}'s producing end and reads and verifies them through its consuming end, a ring's
     * worth at a time on the calling thread; nothing when {@code messages} is 0.
     */
    static void run(RingImpl impl, String sizes, long messages) {
        if (messages <= 0) {
            return;
        }
        SizeSpec spec = SizeSpec.parse("warm-up", sizes, 1);
        long record = RingDescriptor.align(spec.max + RingDescriptor.RECORD_HEADER_LENGTH, RingDescriptor.RECORD_ALIGNMENT);
        long capacity = Math.max(CAPACITY, Long.highestOneBit(record * 8) * 2);
        // A ring's worth per round, less one record (the pre-zeroed header after the last).
        long perRound = capacity / record - 1;
        Path file = BenchCommands.scratchDir().resolve("sympathy-warmup-" + ProcessHandle.current().pid() + "-"
                + System.nanoTime() + ".ring");
        try (RingFile ring = RingFile.create(file, capacity)) {
            for (long done = 0; done < messages; done += perRound) {
                ProduceLoop produce = new ProduceLoop();
                produce.count = Math.min(perRound, messages - done);
                produce.first = done;
                produce.run(ring, impl, spec);
                ConsumeLoop consume = new ConsumeLoop();
                consume.count = produce.count;
                consume.first = done;
                consume.run(ring, impl);
            }
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
}
