package dev.sympathy.jmh.serialization;

import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ring-claim}: the struct-over-ring case. A write claims a record of
 * {@value OrderLayout#SIZE} bytes in the FFM ring of {@code java/ring}
 * ({@link RingProducer#tryClaim}), encodes the order in place with {@link FfmCodec#encode} and
 * commits it; a read hands each record to a {@link MessageHandler} ({@link RingConsumer#read})
 * that decodes it in place with {@link FfmCodec#decode}. Producer and consumer run on the
 * benchmark thread over a fresh ring file in {@code /dev/shm} (or the temporary folder), removed by
 * {@link #close}. A ring record's payload starts 8 bytes after an 8-aligned record header, so the
 * aligned layouts apply.
 */
final class RingClaimCodec implements OrderCodec {
    /** The message type of an order record. */
    static final int ORDER_TYPE = 9;
    /** Room for a whole batch (256 records of 8 + 184 bytes = 48 KiB) plus wrap-around padding. */
    private static final long RING_CAPACITY = 128 * 1024;

    private final Path path;
    private final RingFile ring;
    private final RingProducer producer;
    private final RingConsumer consumer;
    private final MessageHandler handler = this::onMessage;
    private Order[] target;
    private int received;
    private boolean closed;

    private RingClaimCodec(Path path, RingFile ring) {
        this.path = path;
        this.ring = ring;
        this.producer = ring.producer();
        this.consumer = ring.consumer();
    }

    /** A codec over a new ring file. @throws UncheckedIOException when the file cannot be created */
    static RingClaimCodec create() {
        final Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        final Path path = dir.resolve("sympathy-serialization-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".ring");
        try {
            return new RingClaimCodec(path, RingFile.create(path, RING_CAPACITY));
        } catch (IOException e) {
            throw new UncheckedIOException("ring-claim: could not create the ring file " + path, e);
        }
    }

    @Override
    public String variant() {
        return "ring-claim";
    }

    /** @throws IllegalStateException when the ring is full (a read must drain each batch first) */
    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        final RingProducer producer = this.producer;
        final MemorySegment buffer = producer.buffer();
        for (int i = 0; i < n; i++) {
            final long index = producer.tryClaim(ORDER_TYPE, OrderLayout.SIZE);
            if (index < 0) {
                throw new IllegalStateException("ring-claim: the ring is full after " + i + " of " + n
                        + " orders (read each batch before writing the next)");
            }
            FfmCodec.encode(buffer, index, orders[i]);
            producer.commit(index);
        }
    }

    /** @throws IllegalStateException when the ring holds fewer than {@code n} records */
    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        target = out;
        received = 0;
        while (received < n) {
            final long before = consumer.position();
            // a read that only skips the wrap-around padding at the end of the area hands out
            // no message but moves the head: read again; a read that moves nothing means empty
            if (consumer.read(handler, n - received) == 0 && consumer.position() == before) {
                throw new IllegalStateException("ring-claim: the ring holds " + received + " of the " + n + " orders written");
            }
        }
        target = null;
    }

    private void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
        if (typeId != ORDER_TYPE || length != OrderLayout.SIZE) {
            throw new IllegalArgumentException("ring-claim: record of type " + typeId + " and " + length
                    + " bytes is not an order (type " + ORDER_TYPE + ", " + OrderLayout.SIZE + " bytes)");
        }
        target[received++] = FfmCodec.decode(buffer, offset);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        producer.close();
        consumer.close();
        ring.close();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("ring-claim: could not delete the ring file " + path, e);
        }
    }
}
