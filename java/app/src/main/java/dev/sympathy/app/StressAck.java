package dev.sympathy.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The acknowledgement word of the map's crash test ({@code crates/map/tests/peers}, {@code Ack}):
 * the first 8 bytes of a small mapped file, in the machine's byte order, holding how many
 * operations of the stress schedule have returned. The test kills the writer with SIGKILL and
 * reads the word: every operation it counts must be in the map.
 *
 * <pre>{@code
 * try (StressAck ack = new StressAck(Path.of("/tmp/ack"))) {
 *     writer.put(key, value);
 *     ack.store(j + 1);   // operations 0..=j have returned
 * }
 * }</pre>
 */
final class StressAck implements AutoCloseable {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment word;

    /** Maps the first 8 bytes of {@code path} (created when missing). */
    StressAck(Path path) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            word = channel.map(FileChannel.MapMode.READ_WRITE, 0, Long.BYTES, arena);
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("stress-write: cannot map the acknowledgement file " + path, e);
        }
    }

    /** Says that {@code done} operations have returned. */
    void store(long done) {
        // SYNC POINT: stress-ack (release; the test's Ack::load acquires it after the kill).
        WORD.setRelease(word, 0L, done);
    }

    @Override
    public void close() {
        arena.close();
    }
}
