package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batches of the FFM producer ({@link RingProducer#batch()} and
 * {@link RingProducer#writeBatch(int, int, int, MessageFiller)}): invisible until published,
 * published whole, back pressure, a failing filler, and the guards against mixing them with
 * one-message writes (the cases of the Rust ring's batch tests; the bytes are checked against
 * Agrona by {@link RingModelTest}).
 */
class BatchTest {
    private static List<Integer> readAll(RingConsumer consumer) {
        List<Integer> seen = new ArrayList<>();
        consumer.read((type, buffer, offset, length) -> seen.add((int) buffer.get(ValueLayout.JAVA_BYTE, offset)), 1000);
        return seen;
    }

    @Test
    void shouldKeepABatchInvisibleUntilItIsFinished() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            RingProducer.Batch batch = producer.batch();
            for (int i = 0; i < 3; i++) {
                assertTrue(batch.write(1, new byte[] {(byte) i}, 0, 1));
            }
            assertEquals(3, batch.size());
            assertEquals(List.of(), readAll(consumer), "nothing is visible before finish");
            assertEquals(0, ring.tailPosition(), "the tail is stored when the batch is published");
            assertEquals(3, batch.finish());
            assertEquals(3 * 16, ring.tailPosition());
            assertEquals(List.of(0, 1, 2), readAll(consumer));
            assertEquals(0, batch.finish(), "finishing an empty batch publishes nothing");
        }
    }

    @Test
    void shouldRefuseWhenFullAndPublishWhatFitted() {
        RingFile ring = RingFile.inMemory(64); // room for three 16-byte records and the next header
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            RingProducer.Batch batch = producer.batch();
            int written = 0;
            while (batch.write(1, new byte[] {(byte) written}, 0, 1)) {
                written++;
            }
            assertEquals(3, written);
            assertEquals(3, batch.finish());
            assertEquals(List.of(0, 1, 2), readAll(consumer));
            assertTrue(batch.write(1, new byte[] {9}, 0, 1), "room again once the consumer read");
            batch.finish();
            assertEquals(List.of(9), readAll(consumer));
        }
    }

    @Test
    void shouldFillMessagesInPlaceAcrossTheWrap() {
        RingFile ring = RingFile.inMemory(256);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            List<Integer> seen = new ArrayList<>();
            int next = 0;
            for (int round = 0; round < 20; round++) {
                int first = next;
                int n = producer.writeBatch(1, 4, 7, (k, buffer, offset, length) ->
                        buffer.set(ValueLayout.JAVA_INT_UNALIGNED, offset, first + k));
                assertTrue(n > 0, "an empty ring takes some");
                next += n;
                consumer.read((type, buffer, offset, length) -> seen.add(buffer.get(ValueLayout.JAVA_INT_UNALIGNED, offset)),
                        1000);
                consumer.read((type, buffer, offset, length) -> seen.add(buffer.get(ValueLayout.JAVA_INT_UNALIGNED, offset)),
                        1000); // past a wrap's padding
            }
            assertEquals(next, seen.size());
            for (int i = 0; i < next; i++) {
                assertEquals(i, seen.get(i));
            }
        }
    }

    @Test
    void shouldPublishNothingWhenTheFillerThrows() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            assertThrows(IllegalStateException.class, () -> producer.writeBatch(1, 4, 5, (k, buffer, offset, length) -> {
                if (k == 3) {
                    throw new IllegalStateException("fill failed");
                }
            }));
            assertEquals(0, producer.position(), "the position stays where the batch started");
            assertEquals(List.of(), readAll(consumer));
            assertTrue(producer.write(1, new byte[] {5}, 0, 1));
            assertEquals(List.of(5), readAll(consumer));
        }
    }

    @Test
    void shouldRefuseOneMessageWritesWhileABatchHoldsMessages() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            RingProducer.Batch batch = producer.batch();
            assertTrue(batch.write(1, new byte[] {1}, 0, 1));
            assertThrows(IllegalStateException.class, () -> producer.write(1, new byte[] {2}, 0, 1));
            assertThrows(IllegalStateException.class, () -> producer.tryClaim(1, 1));
            assertThrows(IllegalStateException.class, () -> producer.writeBatch(1, 1, 1, (k, b, o, l) -> { }));
            assertThrows(IllegalStateException.class,
                    () -> producer.writeBatch(1, new MemorySegment[] {MemorySegment.ofArray(new byte[1])}, 0, 1));
            batch.finish();
            assertTrue(producer.write(1, new byte[] {2}, 0, 1));
            assertEquals(List.of(1, 2), readAll(consumer));
        }
    }

    @Test
    void shouldPublishAnOpenBatchOnClose() {
        RingFile ring = RingFile.inMemory(1024);
        RingProducer producer = ring.producer();
        producer.batch().write(1, new byte[] {7}, 0, 1);
        producer.close();
        try (RingConsumer consumer = ring.consumer()) {
            assertEquals(List.of(7), readAll(consumer));
        }
    }

    @Test
    void shouldCheckEachMessageOfABatch() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer()) {
            RingProducer.Batch batch = producer.batch();
            assertThrows(InvalidTypeIdException.class, () -> batch.write(0, new byte[1], 0, 1));
            assertThrows(MessageTooLongException.class, () -> batch.write(1, new byte[200], 0, 200));
            assertThrows(IndexOutOfBoundsException.class, () -> batch.write(1, new byte[1], 0, 2));
            assertFalse(batch.size() != 0, "a refused message is not added");
            assertThrows(MessageTooLongException.class, () -> producer.writeBatch(1, 200, 1, (k, b, o, l) -> { }));
        }
    }
}
