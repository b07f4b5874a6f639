package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.ControlledMessageHandler.Action;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RingConsumer#readAhead} and {@link RingConsumer#releaseTo}: records read ahead of the
 * head stay the consumer's (the producer cannot reuse them) until released; a reader can go back
 * to the head and read them again (the bridge's sender after a rewind).
 */
class ReadAheadTest {
    private static final int RECORD = 16; // one byte of payload: an 8-byte header, aligned to 16

    @Test
    void shouldReadAheadWithoutReleasingAndReleaseOnlyWhenAsked() {
        RingFile ring = RingFile.inMemory(1024);
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            for (int i = 0; i < 5; i++) {
                assertTrue(producer.write(1, new byte[] {(byte) i}, 0, 1));
            }
            List<Long> positions = new ArrayList<>();
            List<Integer> bytes = new ArrayList<>();
            long cursor = consumer.readAhead(0, (position, type, buffer, offset, length) -> {
                positions.add(position);
                bytes.add((int) buffer.get(ValueLayout.JAVA_BYTE, offset));
                return Action.CONTINUE;
            }, 3);
            assertEquals(3 * RECORD, cursor);
            assertEquals(List.of(0L, 16L, 32L), positions);
            assertEquals(List.of(0, 1, 2), bytes);
            assertEquals(0, ring.headPosition(), "nothing released by a read ahead");
            // An abort leaves the cursor at that record.
            cursor = consumer.readAhead(cursor, (position, type, buffer, offset, length) -> Action.ABORT, 10);
            assertEquals(3 * RECORD, cursor);
            // Read again from the head: the same records.
            List<Integer> again = new ArrayList<>();
            long end = consumer.readAhead(consumer.position(), (position, type, buffer, offset, length) -> {
                again.add((int) buffer.get(ValueLayout.JAVA_BYTE, offset));
                return Action.CONTINUE;
            }, 10);
            assertEquals(List.of(0, 1, 2, 3, 4), again);
            assertEquals(5 * RECORD, end);
            consumer.releaseTo(2 * RECORD);
            assertEquals(2 * RECORD, ring.headPosition());
            assertEquals(2 * RECORD, consumer.position());
            consumer.releaseTo(RECORD); // behind the head: nothing
            assertEquals(2 * RECORD, ring.headPosition());
            assertThrows(IllegalArgumentException.class, () -> consumer.readAhead(0, (p, t, b, o, l) -> Action.CONTINUE, 1),
                    "behind the head");
            assertThrows(IllegalArgumentException.class, () -> consumer.releaseTo(2 * RECORD + 4), "not a record position");
            assertThrows(IllegalArgumentException.class, () -> consumer.releaseTo(2 * RECORD + 2048), "past a capacity");
        }
    }

    @Test
    void shouldHoldTheProducerBackUntilReleasedAndCrossTheWrap() {
        RingFile ring = RingFile.inMemory(1024);
        byte[] payload = new byte[56]; // 64-byte records: 16 fill the ring
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            int written = 0;
            while (producer.write(1, payload, 0, payload.length)) {
                written++;
            }
            long cursor = consumer.readAhead(0, (p, t, b, o, l) -> Action.CONTINUE, 100);
            assertEquals(written * 64L, cursor);
            assertFalse(producer.write(1, payload, 0, payload.length), "read ahead is not released");
            consumer.releaseTo(cursor);
            int more = 0;
            while (producer.write(1, payload, 0, payload.length)) {
                more++;
            }
            assertTrue(more > 0);
            // Past the wrap: the next read ahead goes on from the start of the area.
            int[] seen = {0};
            long next = cursor;
            for (int turn = 0; turn < 3; turn++) {
                next = consumer.readAhead(next, (p, t, b, o, l) -> {
                    seen[0]++;
                    return Action.CONTINUE;
                }, 100);
            }
            assertEquals(more, seen[0]);
        }
    }

    @Test
    void shouldRefuseReadAheadWhereReleasesZeroTheArea() {
        RingFile ring = RingFile.inMemory(1024, RingKind.MANY_TO_ONE);
        RingConsumer zeroing = new RingConsumer(ring, true); // a many-to-one consumer's reader
        try {
            assertThrows(IllegalStateException.class, () -> zeroing.readAhead(0, (p, t, b, o, l) -> Action.CONTINUE, 1));
            assertThrows(IllegalStateException.class, () -> zeroing.releaseTo(0));
        } finally {
            zeroing.close();
        }
    }
}
