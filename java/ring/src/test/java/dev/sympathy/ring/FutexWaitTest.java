package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The opt-in idle wait: a consumer asleep in {@link RingConsumer#awaitMessage} is woken by every
 * write, a producer asleep in {@link RingProducer#awaitRoom} by every release of the head. The
 * sleeps here last up to an hour, so only a wake-up ends them: a lost one would hang, and the
 * five-minute guard fails the test instead.
 */
class FutexWaitTest {
    private static final long HOUR_NANOS = 3_600_000_000_000L;
    private static final Duration GUARD = Duration.ofMinutes(5);
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static void pauseNowAndThen(long k) {
        if (k % 7 == 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        } else if (k % 3 == 0) {
            Thread.yield();
        }
    }

    private static byte[] bytes(long k) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (k >>> (8 * i));
        }
        return b;
    }

    @Test
    void theFutexIsReachedThroughFfmOnLinux() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"));
        assertTrue(Futex.available(), "no futex through FFM: the wait would only poll");
    }

    @Test
    void aSleepingConsumerIsWokenByEveryWrite() throws Exception {
        final int count = 3000;
        RingFile ring = RingFile.inMemory(4096);
        RingConsumer consumer = ring.consumer();
        RingProducer producer = ring.producer();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (long k = 0; k < count; k++) {
                    pauseNowAndThen(k);
                    while (!producer.write(1, bytes(k), 0, 8)) {
                        Thread.onSpinWait();
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        writer.start();
        long[] next = {0};
        assertTimeoutPreemptively(GUARD, () -> {
            while (next[0] < count) {
                int n = consumer.read((type, buffer, offset, length) -> {
                    assertEquals(next[0], buffer.get(LONG_LE, offset));
                    next[0]++;
                }, 64);
                if (n == 0) {
                    consumer.awaitMessage(HOUR_NANOS);
                }
            }
        }, "the consumer slept through a write (a lost wake-up)");
        writer.join();
        assertEquals(null, failure.get());
        int[] state = consumer.wakeState();
        assertEquals(WakeBlock.ACKNOWLEDGED, state[0], "armed and acknowledged by the producer");
        assertEquals(0, state[1], "not waiting");
        assertTrue(state[2] > 0, "the producer never had to wake it");
        consumer.close();
        assertArrayEquals(new int[] {0, 0, state[2]}, consumer.wakeState(), "a consumer that left clears its block");
        producer.close();
    }

    @Test
    void aProducerSleepingOnAFullRingIsWokenByEveryRelease() throws Exception {
        final int count = 3000;
        RingFile ring = RingFile.inMemory(256);
        RingConsumer consumer = ring.consumer();
        RingProducer producer = ring.producer();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                long[] next = {0};
                long k = 0;
                while (next[0] < count) {
                    pauseNowAndThen(++k);
                    consumer.read((type, buffer, offset, length) -> {
                        if (buffer.get(LONG_LE, offset) != next[0]) {
                            throw new AssertionError("message " + next[0] + " reads " + buffer.get(LONG_LE, offset));
                        }
                        next[0]++;
                    }, 3);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        assertTimeoutPreemptively(GUARD, () -> {
            for (long k = 0; k < count; k++) {
                while (!producer.write(1, bytes(k), 0, 8)) {
                    producer.awaitRoom(HOUR_NANOS);
                }
            }
        }, "the producer slept through a release (a lost wake-up)");
        reader.join();
        assertEquals(null, failure.get());
        int[] state = producer.wakeState();
        assertEquals(WakeBlock.ACKNOWLEDGED, state[0]);
        assertTrue(state[2] > 0, "the consumer never had to wake it");
        producer.close();
        consumer.close();
    }

    @Test
    void ringsWithoutAFutexWaiterLeaveTheWakeUpBlocksZero() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingConsumer consumer = ring.consumer(); RingProducer producer = ring.producer()) {
            for (long k = 0; k < 100; k++) {
                assertTrue(producer.write(1, bytes(k), 0, 8));
                assertEquals(1, consumer.read((type, buffer, offset, length) -> {}, 8));
            }
            assertArrayEquals(new int[] {0, 0, 0}, consumer.wakeState());
            assertArrayEquals(new int[] {0, 0, 0}, producer.wakeState());
        }
    }
}
