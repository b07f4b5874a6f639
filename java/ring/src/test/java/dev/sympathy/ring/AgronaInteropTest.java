package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agrona is the reference peer: its {@code OneToOneRingBuffer}, wrapped at offset 4096 of the
 * same mapped file, reads what the FFM producer writes and writes what the FFM consumer reads,
 * concurrently on two threads, through many wrap-arounds with random sizes; every byte is
 * verified (byte k of message i is (i * 31 + k) mod 256, the length is drawn from a seed).
 */
class AgronaInteropTest {
    private static final int MESSAGES = 50_000;
    private static final int CAPACITY = 4096;
    private static final long SEED = 2026;

    @TempDir
    Path dir;

    private static byte expected(long i, int k) {
        return (byte) (i * 31 + k);
    }

    private static void check(long i, int type, int length, int[] sizes) {
        if (type != 1 + (int) (i % 7) || length != sizes[(int) i]) {
            throw new AssertionError("message " + i + ": type " + type + " length " + length + ", expected type "
                    + (1 + i % 7) + " length " + sizes[(int) i]);
        }
    }

    private static int[] sizes(int max) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] sizes = new int[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            sizes[i] = random.nextInt(max + 1);
        }
        return sizes;
    }

    private static OneToOneRingBuffer agronaOver(RingFile ring) {
        return new OneToOneRingBuffer(new UnsafeBuffer(ring.segment().address() + RingDescriptor.HEADER_LENGTH,
                ring.capacity() + RingDescriptor.TRAILER_LENGTH));
    }

    @Test
    void shouldDeliverEveryByteFromFfmProducerToAgronaConsumer() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("ffm-to-agrona"), CAPACITY)) {
            int[] sizes = sizes(ring.maxMessageLength());
            CompletableFuture<Long> consumer = CompletableFuture.supplyAsync(() -> {
                OneToOneRingBuffer agrona = agronaOver(ring);
                long[] next = {0};
                long[] bytes = {0};
                while (next[0] < MESSAGES) {
                    agrona.read((type, buffer, index, length) -> {
                        long i = next[0]++;
                        check(i, type, length, sizes);
                        for (int k = 0; k < length; k++) {
                            if (buffer.getByte(index + k) != expected(i, k)) {
                                throw new AssertionError("byte " + k + " of message " + i + " differs");
                            }
                        }
                        bytes[0] += length;
                    });
                }
                return bytes[0];
            });
            long sent = 0;
            try (RingProducer producer = ring.producer()) {
                byte[] message = new byte[ring.maxMessageLength()];
                for (int i = 0; i < MESSAGES; i++) {
                    for (int k = 0; k < sizes[i]; k++) {
                        message[k] = expected(i, k);
                    }
                    boolean claim = (i & 1) == 0;
                    while (true) {
                        if (claim) {
                            long index = producer.tryClaim(1 + i % 7, sizes[i]);
                            if (index >= 0) {
                                java.lang.foreign.MemorySegment.copy(message, 0, producer.buffer(), ValueLayout.JAVA_BYTE,
                                        index, sizes[i]);
                                producer.commit(index);
                                break;
                            }
                        } else if (producer.write(1 + i % 7, message, 0, sizes[i])) {
                            break;
                        }
                        Thread.onSpinWait();
                    }
                    sent += sizes[i];
                }
            }
            assertEquals(sent, consumer.get(60, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldDeliverEveryByteFromAgronaProducerToFfmConsumer() throws Exception {
        Path path = dir.resolve("agrona-to-ffm");
        RingFile.create(path, CAPACITY).close();
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(1))) {
            int[] sizes = sizes(ring.maxMessageLength());
            CompletableFuture<Long> consumer = CompletableFuture.supplyAsync(() -> {
                long[] next = {0};
                long[] bytes = {0};
                try (RingConsumer ffm = ring.consumer()) {
                    while (next[0] < MESSAGES) {
                        ffm.read((type, buffer, offset, length) -> {
                            long i = next[0]++;
                            check(i, type, length, sizes);
                            for (int k = 0; k < length; k++) {
                                if (buffer.get(ValueLayout.JAVA_BYTE, offset + k) != expected(i, k)) {
                                    throw new AssertionError("byte " + k + " of message " + i + " differs");
                                }
                            }
                            bytes[0] += length;
                        }, 64);
                    }
                }
                return bytes[0];
            });
            OneToOneRingBuffer agrona = agronaOver(ring);
            UnsafeBuffer message = new UnsafeBuffer(new byte[ring.maxMessageLength()]);
            long sent = 0;
            for (int i = 0; i < MESSAGES; i++) {
                for (int k = 0; k < sizes[i]; k++) {
                    message.putByte(k, expected(i, k));
                }
                while (!agrona.write(1 + i % 7, message, 0, sizes[i])) {
                    Thread.onSpinWait();
                }
                sent += sizes[i];
            }
            assertEquals(sent, consumer.get(60, TimeUnit.SECONDS));
        }
    }
}
