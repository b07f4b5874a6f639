package dev.sympathy.jmh.queue;

import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The queue benchmark's {@code ring} variant: the pure-Java FFM ring of {@code java/ring} (the
 * Agrona-compatible record ring) in one JVM, over a fresh ring file in {@code /dev/shm} (or the
 * temporary folder where that does not exist). Each int is one 16-byte record (8-byte header + 4
 * bytes, aligned to 8), the records {@code agrona-one-to-one} writes. Each {@link #offer} is
 * one published write (an offered value is visible at once, as the queue contract wants),
 * copied from a 4-byte array by the ring's short-copy path (not a bulk {@code MemorySegment}
 * copy); {@link #poll} takes up to {@link #READ_BATCH} records with one read, which releases
 * the head once for all of them, and hands them out from a consumer-side array: the ring's batch
 * read, as a consumer of this ring reads (a read of one record per poll pays a head store per
 * value). {@link #close} unmaps and deletes the file.
 */
final class FfmRingQueue implements IntQueue, AutoCloseable {
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    /** The most records one {@link #poll} takes from the ring. */
    static final int READ_BATCH = 256;

    private final Path path;
    private final RingFile ring;
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final byte[] message = new byte[Integer.BYTES];
    /** Values taken from the ring by the last read, handed out from {@link #next} to {@link #end}. */
    private final int[] taken = new int[READ_BATCH];
    private int next;
    private int end;
    private final MessageHandler handler = (type, buffer, offset, length) -> taken[end++] = buffer.get(INT_LE, offset);

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
        ARRAY_INT.set(message, 0, value);
        return producer.write(1, message, 0, Integer.BYTES);
    }

    @Override
    public int poll() {
        if (next == end) {
            next = 0;
            end = 0;
            if (consumer.read(handler, READ_BATCH) == 0) {
                return EMPTY;
            }
        }
        return taken[next++];
    }

    @Override
    public void close() throws IOException {
        producer.close();
        consumer.close();
        ring.close();
        Files.deleteIfExists(path);
    }
}
