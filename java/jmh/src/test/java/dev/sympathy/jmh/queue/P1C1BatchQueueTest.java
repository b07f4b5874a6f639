package dev.sympathy.jmh.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** p1c1-batch's producer and consumer runs: up to the batch, wrapping round the slots, never past full. */
class P1C1BatchQueueTest {
    @Test
    void shouldFillUpToTheLimitAndDrainInSequence() {
        final P1C1BatchQueue queue = new P1C1BatchQueue(8);
        assertEquals(5, queue.offerSequence(0, 5));
        assertEquals(3, queue.offerSequence(5, 256), "only the free slots");
        assertEquals(0, queue.offerSequence(8, 256), "full: back pressure");
        final List<Integer> taken = new ArrayList<>();
        assertEquals(6, queue.drain(taken::add, 6));
        assertEquals(2, queue.drain(taken::add, 256), "only what is there");
        assertEquals(0, queue.drain(taken::add, 256), "empty");
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), taken);
    }

    @Test
    void shouldWrapRoundTheEndOfTheSlotsInBothRuns() {
        final P1C1BatchQueue queue = new P1C1BatchQueue(8);
        final List<Integer> taken = new ArrayList<>();
        assertEquals(6, queue.offerSequence(0, 6));
        assertEquals(6, queue.drain(taken::add, 256));
        assertEquals(8, queue.offerSequence(6, 256), "slots 6, 7, then 0..5");
        assertEquals(8, queue.drain(taken::add, 256));
        for (int i = 0; i < 14; i++) {
            assertEquals(i, taken.get(i));
        }
    }

    @Test
    void shouldSendTheValuesOfTheSequenceModuloThePool() {
        final P1C1BatchQueue queue = new P1C1BatchQueue(4);
        assertEquals(2, queue.offerSequence(Queues.POOL - 1L, 2));
        assertEquals(Queues.POOL - 1, queue.poll());
        assertEquals(0, queue.poll(), "the sequence number POOL carries 0, as every variant's");
    }
}
