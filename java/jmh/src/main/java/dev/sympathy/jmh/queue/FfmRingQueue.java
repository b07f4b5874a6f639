package dev.sympathy.jmh.queue;

import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The queue benchmark's {@code ring} variant: the pure-Java FFM ring of {@code java/ring} (the
 * Agrona-compatible record ring) in one JVM, over a fresh ring file in {@code /dev/shm} (or the
 * temporary folder where that does not exist). Each int is one 16-byte record (8-byte header + 4
 * bytes, aligned to 8), written one record per offer as the {@code agrona-one-to-one} variant
 * does. {@link #drain}, which the benchmark's consumer calls, reads as Rust's {@code ring} consumer
 * does: up to {@value #BATCH} records per read, each handed to the sink inside the read, the head
 * released once per read after the sink processed them. {@link #close} unmaps and deletes the file.
 */
final class FfmRingQueue implements IntQueue, AutoCloseable {
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final RingFile ring;
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment message = arena.allocate(Integer.BYTES, Integer.BYTES);
    /** Most records one read takes before it releases the head (Rust's {@code ring} consumer: 256). */
    static final int BATCH = 256;

    private final MessageHandler handler = (type, buffer, offset, length) -> received = buffer.get(INT_LE, offset);
    private int received;
    /** The sink of the {@link #drain} in progress (a field, so the handler is one object). */
    private Sink sink;
    private final MessageHandler toSink = (type, buffer, offset, length) -> sink.accept(buffer.get(INT_LE, offset));

    private FfmRingQueue(Path path, RingFile ring) {
        this.path = path;
        this.ring = ring;
        this.producer = ring.producer();
        this.consumer = ring.consumer();
    }

    /** A ring holding {@code capacity} int records, in a new file. */
    static FfmRingQueue create(int capacity) {
        final long bytes = Long.highestOneBit((long) capacity * 16 * 2 - 1); // next power of two
        try {
            final Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
            final Path path = dir.resolve("sympathy-jmh-ring-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".ring");
            return new FfmRingQueue(path, RingFile.create(path, bytes));
        } catch (IOException e) {
            throw new UncheckedIOException("queue: could not create the ring file for the ring variant", e);
        }
    }

    @Override
    public boolean offer(int value) {
        message.set(INT_LE, 0, value);
        return producer.write(1, message, 0, Integer.BYTES);
    }

    @Override
    public int poll() {
        return consumer.read(handler, 1) == 0 ? EMPTY : received;
    }

    @Override
    public int drain(Sink sink, int limit) {
        this.sink = sink;
        return consumer.read(toSink, Math.min(limit, BATCH));
    }

    @Override
    public void close() throws IOException {
        producer.close();
        consumer.close();
        ring.close();
        arena.close();
        Files.deleteIfExists(path);
    }
}
