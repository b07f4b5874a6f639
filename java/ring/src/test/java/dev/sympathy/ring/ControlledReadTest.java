package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.ControlledMessageHandler.Action;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RingConsumer#controlledRead}: the handler decides, message by message, whether the
 * read goes on, stops after the message, or stops before it and leaves it at the head (the
 * cases of the Rust ring's {@code Consumer::read_controlled} tests).
 */
class ControlledReadTest {
    /** A 1024-byte ring holding messages {@code 0..n}, one byte each (16-byte records). */
    private static RingFile ringWith(int n) {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer()) {
            for (int i = 0; i < n; i++) {
                assertTrue(producer.write(1, new byte[] {(byte) i}, 0, 1));
            }
        }
        return ring;
    }

    private static int firstByte(java.lang.foreign.MemorySegment buffer, long offset) {
        return buffer.get(ValueLayout.JAVA_BYTE, offset);
    }

    @Test
    void shouldReadOnWithContinueAndStopAfterTheMessageWithBreak() {
        RingFile ring = ringWith(6);
        try (RingConsumer consumer = ring.consumer()) {
            List<Integer> seen = new ArrayList<>();
            int n = consumer.controlledRead((type, buffer, offset, length) -> {
                seen.add(firstByte(buffer, offset));
                return firstByte(buffer, offset) == 2 ? Action.BREAK : Action.CONTINUE;
            }, 100);
            assertEquals(3, n);
            assertEquals(List.of(0, 1, 2), seen);
            assertEquals(3 * 16, consumer.position());
            assertEquals(3 * 16, ring.headPosition(), "the head is released");
            n = consumer.controlledRead((type, buffer, offset, length) -> {
                seen.add(firstByte(buffer, offset));
                return Action.CONTINUE;
            }, 100);
            assertEquals(3, n);
            assertEquals(List.of(0, 1, 2, 3, 4, 5), seen);
        }
    }

    @Test
    void shouldLeaveAnAbortedMessageAtTheHeadForTheNextRead() {
        RingFile ring = ringWith(5);
        try (RingConsumer consumer = ring.consumer()) {
            int n = consumer.controlledRead((type, buffer, offset, length) ->
                    firstByte(buffer, offset) == 3 ? Action.ABORT : Action.CONTINUE, 100);
            assertEquals(3, n);
            assertEquals(3 * 16, consumer.position(), "the head stops before message 3");
            assertEquals(3 * 16, ring.headPosition());
            // Aborting the first message of a read consumes nothing.
            assertEquals(0, consumer.controlledRead((type, buffer, offset, length) -> Action.ABORT, 100));
            assertEquals(3 * 16, consumer.position());
            List<Integer> rest = new ArrayList<>();
            consumer.read((type, buffer, offset, length) -> rest.add(firstByte(buffer, offset)), 100);
            assertEquals(List.of(3, 4), rest);
        }
    }

    @Test
    void shouldKeepTheWrapPaddingConsumedWhenTheMessageAfterItIsAborted() {
        // Capacity 128: seven 16-byte records, then one of 24 bytes does not fit the 16 left
        // before the end, so the producer pads them and writes it at index 0.
        RingFile ring = RingFile.inMemory(128);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            for (int i = 0; i < 7; i++) {
                assertTrue(producer.write(1, new byte[] {(byte) i}, 0, 1));
            }
            assertEquals(7, consumer.read((type, buffer, offset, length) -> { }, 100));
            byte[] nines = new byte[16];
            java.util.Arrays.fill(nines, (byte) 9);
            assertTrue(producer.write(1, nines, 0, 16));
            // The first read ends at the end of the area: the padding only.
            assertEquals(0, consumer.controlledRead((type, buffer, offset, length) -> Action.ABORT, 100));
            assertEquals(128, consumer.position(), "the padding is released");
            assertEquals(0, consumer.controlledRead((type, buffer, offset, length) -> Action.ABORT, 100));
            assertEquals(128, consumer.position(), "the message after it is not");
            assertEquals(1, consumer.read((type, buffer, offset, length) ->
                    assertArrayEquals(nines, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE)), 100));
            assertEquals(128 + 24, consumer.position());
        }
    }

    @Test
    void shouldHoldTheLimitAndValidateLikeRead() {
        RingFile ring = ringWith(4);
        try (RingConsumer consumer = ring.consumer()) {
            assertEquals(3, consumer.controlledRead((type, buffer, offset, length) -> Action.CONTINUE, 3));
            assertEquals(3 * 16, consumer.position());
            // A record whose type is neither a message nor padding.
            ring.ringRegion().set(ValueLayout.JAVA_INT, 3 * 16 + 4, -2);
            CorruptRecordException e = assertThrows(CorruptRecordException.class,
                    () -> consumer.controlledRead((type, buffer, offset, length) -> Action.CONTINUE, 100));
            assertTrue(e.getMessage().contains("type id -2"), e.getMessage());
            assertEquals(3 * 16, consumer.position());
        }
    }

    @Test
    void shouldGiveTheReasonsTheRustRingGivesForImpossibleLengths() {
        RingFile ring = ringWith(4);
        try (RingConsumer consumer = ring.consumer()) {
            // A positive length shorter than the record header: too short, whatever room is left.
            ring.ringRegion().set(ValueLayout.JAVA_INT, 0, 4);
            CorruptRecordException e = assertThrows(CorruptRecordException.class,
                    () -> consumer.read((type, buffer, offset, length) -> { }, 100));
            assertTrue(e.getMessage().contains("record length 4 is shorter than the 8-byte header"), e.getMessage());
            e = assertThrows(CorruptRecordException.class,
                    () -> consumer.controlledRead((type, buffer, offset, length) -> Action.CONTINUE, 100));
            assertTrue(e.getMessage().contains("record length 4 is shorter than the 8-byte header"), e.getMessage());
            // One longer than the area left.
            ring.ringRegion().set(ValueLayout.JAVA_INT, 0, 1 << 20);
            e = assertThrows(CorruptRecordException.class,
                    () -> consumer.read((type, buffer, offset, length) -> { }, 100));
            assertTrue(e.getMessage().contains("record length 1048576 exceeds the 1024 bytes it may span"),
                    e.getMessage());
        }
    }
}
