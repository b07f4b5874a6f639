package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agrona's {@code ManyToOneRingBuffer} as the live peer of the many-to-one ring, in one JVM over
 * the same mapped file (Agrona wrapped at offset 4096): several of our producer threads into
 * Agrona's consumer, several Agrona producer threads (write, tryClaim/commit, tryClaim/abort)
 * into our consumer. Each producer is its own stream (its type): every message of every stream
 * arrives once, in its stream's order, every byte as sent, through many wrap-arounds of a small
 * ring with varied sizes.
 */
class ManyToOneInteropTest {
    private static final int CAPACITY = 1024;
    private static final int PRODUCERS = 3;
    private static final int MESSAGES = 20_000;
    private static final long SEED = 7;

    @TempDir
    Path dir;

    /** Per stream (type 1..PRODUCERS): the next index expected, and the payload bytes seen. */
    private static final class Expect {
        final int[][] sizes;
        final long[] next = new long[PRODUCERS + 1];
        long bytes;

        Expect(int max) {
            sizes = new int[PRODUCERS + 1][];
            for (int s = 1; s <= PRODUCERS; s++) {
                sizes[s] = Streams.sizes(SEED + s, MESSAGES, 0, max);
            }
        }

        /** The index the next message of {@code type} must be, checked against its length. */
        long take(int type, int length) {
            assertTrue(type >= 1 && type <= PRODUCERS, "unknown type " + type);
            long i = next[type]++;
            assertTrue(i < MESSAGES, "stream " + type + ": more than " + MESSAGES + " messages");
            assertEquals(sizes[type][(int) i], length, "stream " + type + " message " + i + ": length");
            bytes += length;
            return i;
        }

        boolean done() {
            for (int s = 1; s <= PRODUCERS; s++) {
                if (next[s] < MESSAGES) {
                    return false;
                }
            }
            return true;
        }
    }

    @Test
    void ourProducersIntoAgronasConsumer() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("ours-to-agrona"), CAPACITY, RingKind.MANY_TO_ONE)) {
            Expect expect = new Expect(ring.maxMessageLength());
            ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
            try {
                List<Future<?>> producers = new ArrayList<>();
                for (int s = 1; s <= PRODUCERS; s++) {
                    int stream = s;
                    producers.add(pool.submit(() -> produceOurs(ring, stream, expect.sizes[stream])));
                }
                ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(ring));
                while (!expect.done()) {
                    int n = agrona.read((type, buffer, index, length) ->
                            Streams.check(type, expect.take(type, length), buffer, index, length));
                    if (n == 0) {
                        failFast(producers);
                        Thread.yield();
                    }
                }
                for (Future<?> f : producers) {
                    f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(0, agrona.read((type, buffer, index, length) -> { }), "nothing more");
            } finally {
                stop(pool);
            }
            assertEquals(ring.tailPosition(), ring.headPosition());
        }
    }

    /** Our producer: writes from an array, claims committed in place, and claims aborted before a write. */
    private static void produceOurs(RingFile ring, int stream, int[] sizes) {
        try (ManyToOneProducer producer = ring.manyToOneProducer()) {
            byte[] message = new byte[producer.maxMessageLength()];
            for (int i = 0; i < MESSAGES; i++) {
                int size = sizes[i];
                switch (i % 3) {
                    case 0 -> {
                        Streams.fill(message, stream, i, size);
                        while (!producer.write(stream, message, 0, size)) {
                            pause();
                        }
                    }
                    case 1 -> {
                        long index;
                        while ((index = producer.tryClaim(stream, size)) < 0) {
                            pause();
                        }
                        Streams.fill(producer.buffer(), index, stream, i, size);
                        producer.commit(index);
                    }
                    default -> {
                        long index;
                        while ((index = producer.tryClaim(stream, size)) < 0) {
                            pause();
                        }
                        producer.abort(index); // padding: never delivered
                        Streams.fill(message, stream, i, size);
                        MemorySegment src = MemorySegment.ofArray(message);
                        while (!producer.write(stream, src, 0, size)) {
                            pause();
                        }
                    }
                }
            }
        }
    }

    @Test
    void agronaProducersIntoOurConsumer() throws Exception {
        Path path = dir.resolve("agrona-to-ours");
        RingFile.create(path, CAPACITY, RingKind.MANY_TO_ONE).close();
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(1), RingKind.MANY_TO_ONE);
                ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            Expect expect = new Expect(ring.maxMessageLength());
            ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS);
            try {
                List<Future<?>> producers = new ArrayList<>();
                for (int s = 1; s <= PRODUCERS; s++) {
                    int stream = s;
                    producers.add(pool.submit(() -> produceAgrona(ring, stream, expect.sizes[stream])));
                }
                while (!expect.done()) {
                    int n = consumer.read((type, buffer, offset, length) ->
                            Streams.check(type, expect.take(type, length), buffer, offset, length), 64);
                    if (n == 0) {
                        failFast(producers);
                        Thread.yield();
                    }
                }
                for (Future<?> f : producers) {
                    f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(0, consumer.read((type, buffer, offset, length) -> { }, 64), "nothing more");
            } finally {
                stop(pool);
            }
            assertEquals(ring.tailPosition(), consumer.position());
            // Everything read was zeroed before the head moved (Agrona's read does the same).
            byte[] area = ring.ringRegion().asSlice(0, CAPACITY).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertArrayEquals(new byte[CAPACITY], area, "the record area is zero once everything is read");
        }
    }

    /** Agrona's producer over the same file: write, tryClaim/commit, tryClaim/abort then write. */
    private static void produceAgrona(RingFile ring, int stream, int[] sizes) {
        ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(ring));
        UnsafeBuffer message = new UnsafeBuffer(new byte[agrona.maxMsgLength()]);
        for (int i = 0; i < MESSAGES; i++) {
            int size = sizes[i];
            if (i % 3 == 1) {
                int index;
                while ((index = agrona.tryClaim(stream, size)) < 0) {
                    pause();
                }
                Streams.fill(agrona.buffer(), index, stream, i, size);
                agrona.commit(index);
                continue;
            }
            if (i % 3 == 2) {
                int index;
                while ((index = agrona.tryClaim(stream, size)) < 0) {
                    pause();
                }
                agrona.abort(index);
            }
            Streams.fill(message, 0, stream, i, size);
            while (!agrona.write(stream, message, 0, size)) {
                pause();
            }
        }
    }

    /**
     * Stops the producers and waits for them before the file is unmapped (Agrona's write
     * through raw addresses: a write after the unmap would crash the JVM). Every wait loop of
     * the producers gives up when interrupted.
     */
    private static void stop(ExecutorService pool) throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "the producers stopped");
    }

    /** Waits a little for room; throws when the test is over (interrupted). */
    private static void pause() {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("stopped: the test is over");
        }
        Thread.yield();
    }

    /** Rethrows a producer's failure at once instead of waiting for messages that will not come. */
    private static void failFast(List<Future<?>> producers) throws Exception {
        for (Future<?> f : producers) {
            if (f.isDone()) {
                f.get(); // throws its failure, if any
            }
        }
    }
}
