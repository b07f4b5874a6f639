package dev.sympathy.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.jmh.queue.IntQueue;
import dev.sympathy.jmh.queue.Queues;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every queue of the queue benchmark against a bounded ArrayDeque model, single-threaded. */
class QueueModelTest {
    static String[] variants() {
        return Queues.VARIANTS;
    }

    @ParameterizedTest
    @MethodSource("variants")
    void shouldBehaveAsABoundedFifoUnderSeededRandomOperations(String variant) {
        for (long seed = 1; seed <= 5; seed++) {
            final int capacity = 8;
            final IntQueue queue = Queues.create(variant, capacity);
            final ArrayDeque<Integer> model = new ArrayDeque<>();
            final Random random = new Random(seed);
            int next = 0;
            for (int step = 0; step < 5_000; step++) {
                if (random.nextBoolean()) {
                    final boolean accepted = queue.offer(next);
                    // every queue holds `capacity` messages, except that the record rings (Agrona's
                    // and ours, one protocol) may refuse early: a message that would straddle the
                    // end needs a padding record, and each write keeps room to pre-zero the next header
                    if (model.size() < capacity && !isRecordRing(variant)) {
                        assertTrue(accepted, variant + " refused an offer with " + model.size() + " queued (seed " + seed + ")");
                    }
                    if (model.size() == capacity) {
                        assertFalse(accepted, variant + " accepted an offer when full (seed " + seed + ")");
                    }
                    if (accepted) {
                        model.add(next++);
                    }
                } else {
                    final Integer expected = model.poll();
                    assertEquals(expected == null ? IntQueue.EMPTY : expected, queue.poll(),
                            variant + " at step " + step + " (seed " + seed + ")");
                }
            }
            close(queue);
        }
    }

    @ParameterizedTest
    @MethodSource("variants")
    void shouldRefuseOffersWhenFullAndNeverDrop(String variant) {
        final IntQueue queue = Queues.create(variant, 4);
        int accepted = 0;
        while (accepted < 1_000 && queue.offer(accepted)) {
            accepted++;
        }
        if (!isRecordRing(variant)) {
            assertEquals(4, accepted, variant + " capacity");
        }
        assertFalse(queue.offer(999), variant + " accepted an offer when full");
        for (int i = 0; i < accepted; i++) {
            assertEquals(i, queue.poll(), variant);
        }
        assertEquals(IntQueue.EMPTY, queue.poll(), variant);
        close(queue);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void shouldDeliverEveryMessageInOrderBetweenTwoThreads(String variant) throws InterruptedException {
        final IntQueue queue = Queues.create(variant, 64);
        final int messages = 50_000;
        final Thread producer = new Thread(() -> {
            for (int i = 0; i < messages; i++) {
                while (!queue.offer(i)) {
                    Thread.yield();
                }
            }
        });
        producer.start();
        for (int expected = 0; expected < messages; expected++) {
            int value;
            while ((value = queue.poll()) == IntQueue.EMPTY) {
                Thread.yield();
            }
            assertEquals(expected, value, variant);
        }
        producer.join();
        assertEquals(IntQueue.EMPTY, queue.poll(), variant);
        close(queue);
    }

    @Test
    void shouldRejectACapacityThatIsNotAPowerOfTwo() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Queues.create("p1c1", 6));
        assertTrue(e.getMessage().contains("got 6"), e.getMessage());
    }

    private static boolean isRecordRing(String variant) {
        return variant.equals("agrona-one-to-one") || variant.equals("ring");
    }

    /** The ring variant owns a mapped file: close it so that the file is deleted. */
    @ParameterizedTest
    @MethodSource("variants")
    void shouldDrainInOrderAtMostItsBatchAtATime(String variant) {
        final IntQueue queue = Queues.create(variant, 512);
        int offered = 0;
        while (offered < 300 && queue.offer(offered)) {
            offered++;
        }
        final int batch = Queues.batch(variant);
        final java.util.List<Integer> taken = new java.util.ArrayList<>();
        final int first = queue.drain(taken::add, batch);
        assertEquals(Math.min(batch, offered), first, variant + ": one drain takes up to its batch");
        while (taken.size() < offered) {
            assertTrue(queue.drain(taken::add, batch) > 0, variant + " lost values after " + taken.size());
        }
        for (int i = 0; i < offered; i++) {
            assertEquals(i, taken.get(i), variant);
        }
        assertEquals(0, queue.drain(taken::add, batch), variant + " drained a value it never held");
        close(queue);
    }

    private static void close(IntQueue queue) {
        if (queue instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new AssertionError("closing the queue failed", e);
            }
        }
    }
}
