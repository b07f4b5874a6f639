package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.junit.jupiter.api.Test;

/**
 * A ring full at the wrap, step by step against Agrona's {@code OneToOneRingBuffer}: the same
 * story as the Rust golden fixture ({@code crates/ring/tests/golden.rs}) on a 64-byte ring.
 * Records of type 9 at 0, 16, 32 (8-byte payloads) and 48 (empty); the consumer reads the one at
 * 0 (head 16). A record of 16 bytes then fits neither the 8 bytes before the end nor the 16
 * before the head at index 0: Agrona pads the end (length 8, type -1 at 56), zeroes the header
 * at 0 and moves the tail to 64 before it reports the ring full, and so must the FFM producer,
 * whether it writes, claims or writes a batch. The ring regions are compared after every step.
 */
class FullAtWrapTest {
    private static final int CAPACITY = 64;

    /** How the refused record is asked for. */
    enum Way { WRITE, SEGMENT_WRITE, CLAIM, BATCH }

    @Test
    void shouldPadTheEndAndMoveTheTailAsAgronaWhenFullAtTheWrap() {
        for (Way way : Way.values()) {
            try (Arena arena = Arena.ofConfined();
                    RingFile ring = RingFile.inMemory(CAPACITY);
                    RingProducer producer = ring.producer();
                    RingConsumer consumer = ring.consumer()) {
                MemorySegment agronaMemory = arena.allocate(CAPACITY + RingDescriptor.TRAILER_LENGTH, 64);
                OneToOneRingBuffer agrona = new OneToOneRingBuffer(
                        new UnsafeBuffer(agronaMemory.address(), (int) agronaMemory.byteSize()));
                byte[] ee = new byte[8];
                Arrays.fill(ee, (byte) 0xee);
                for (int i = 0; i < 3; i++) {
                    assertTrue(producer.write(9, ee, 0, 8));
                    assertTrue(agrona.write(9, new UnsafeBuffer(ee), 0, 8));
                    same(ring, agrona, agronaMemory, way + " write " + i);
                }
                assertTrue(producer.write(9, ee, 0, 0));
                assertTrue(agrona.write(9, new UnsafeBuffer(ee), 0, 0));
                assertEquals(1, consumer.read((t, b, o, l) -> { }, 1));
                assertEquals(1, agrona.read((t, b, o, l) -> { }, 1));
                same(ring, agrona, agronaMemory, way + " first read");

                byte[] eleven = new byte[8];
                Arrays.fill(eleven, (byte) 0x11);
                assertFalse(agrona.write(7, new UnsafeBuffer(eleven), 0, 8), "Agrona: full at the wrap");
                assertFalse(refused(way, producer, arena, eleven), way + ": full at the wrap");
                same(ring, agrona, agronaMemory, way + " full at the wrap");
                MemorySegment area = ring.ringRegion();
                assertEquals(64, ring.tailPosition(), way + ": tail past the padding");
                assertEquals(64, producer.position(), way + ": the producer's position past the padding");
                assertEquals(8, area.get(ValueLayout.JAVA_INT_UNALIGNED, 56), way + ": padding length");
                assertEquals(RingDescriptor.PADDING_MSG_TYPE_ID, area.get(ValueLayout.JAVA_INT_UNALIGNED, 60));
                assertEquals(0L, area.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), way + ": the header at 0 zeroed");
                assertEquals(16L, area.get(ValueLayout.JAVA_LONG_UNALIGNED, CAPACITY + RingDescriptor.HEAD_CACHE_POSITION_OFFSET),
                        way + ": the head cache refreshed");

                // The consumer reads the rest and skips the padding; the record then goes to 0.
                List<Integer> types = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    consumer.read((t, b, o, l) -> types.add(t), 10);
                    agrona.read((t, b, o, l) -> { }, 10);
                }
                assertEquals(List.of(9, 9, 9), types);
                assertEquals(64, consumer.position());
                same(ring, agrona, agronaMemory, way + " drained");
                assertTrue(producer.write(7, eleven, 0, 8));
                assertTrue(agrona.write(7, new UnsafeBuffer(eleven), 0, 8));
                same(ring, agrona, agronaMemory, way + " the write at 0");
                assertEquals(1, consumer.read((t, b, o, l) -> assertEquals(7, t), 10));
            }
        }
    }

    /** Asks for the 8-byte record of type 7 the way {@code way} says; true if it was taken. */
    private static boolean refused(Way way, RingProducer producer, Arena arena, byte[] payload) {
        MemorySegment source = arena.allocate(payload.length);
        MemorySegment.copy(payload, 0, source, ValueLayout.JAVA_BYTE, 0, payload.length);
        return switch (way) {
            case WRITE -> producer.write(7, payload, 0, payload.length);
            case SEGMENT_WRITE -> producer.write(7, source, 0, payload.length);
            case CLAIM -> producer.tryClaim(7, payload.length) >= 0;
            case BATCH -> producer.writeBatch(7, new MemorySegment[] {source, source}, 0, 2) > 0;
        };
    }

    /** The two ring regions are byte-identical (the consumer heartbeat copied over: Agrona's read does not store it). */
    private static void same(RingFile ring, OneToOneRingBuffer agrona, MemorySegment agronaMemory, String step) {
        agrona.consumerHeartbeatTime(ring.consumerHeartbeatMs());
        assertArrayEquals(agronaMemory.toArray(ValueLayout.JAVA_BYTE), ring.ringRegion().toArray(ValueLayout.JAVA_BYTE),
                "ring region differs from Agrona's after: " + step);
    }
}
