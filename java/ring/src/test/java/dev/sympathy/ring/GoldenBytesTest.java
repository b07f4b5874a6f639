package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;

/**
 * Byte compatibility: the same fixed sequence of operations done by our peers on one ring and
 * by Agrona's on another leaves identical ring regions (records, padding at the wrap, aborted
 * claims, zeroed reads, trailer positions and head cache), compared after every step, for the
 * many-to-one ring ({@code ManyToOneRingBuffer}) and the broadcast buffer
 * ({@code BroadcastTransmitter}).
 */
class GoldenBytesTest {
    private static final int CAPACITY = 256;

    private static byte[] region(RingFile ring) {
        return ring.ringRegion().toArray(ValueLayout.JAVA_BYTE);
    }

    private static UnsafeBuffer payload(int type, int i, int size) {
        UnsafeBuffer message = new UnsafeBuffer(new byte[Math.max(size, 1)]);
        Streams.fill(message, 0, type, i, size);
        return message;
    }

    @Test
    void manyToOneRegionsMatchAgronaByteForByte() {
        RingFile ours = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        RingFile theirs = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(theirs));
        ManyToOneProducer first = ours.manyToOneProducer();
        ManyToOneProducer second = ours.manyToOneProducer();
        List<String> oursRead = new ArrayList<>();
        List<String> agronaRead = new ArrayList<>();
        int full = 0;
        int unblocked = 0;
        try (ManyToOneConsumer consumer = ours.manyToOneConsumer()) {
            agrona.consumerHeartbeatTime(ours.consumerHeartbeatMs()); // the one slot attaching writes
            for (int i = 0; i < 600; i++) {
                int type = 1 + i % 4;
                int size = (i * 13) % 33;
                ManyToOneProducer producer = (i & 1) == 0 ? first : second;
                String step = "step " + i;
                switch (i % 7) {
                    case 0, 3 -> {
                        UnsafeBuffer message = payload(type, i, size);
                        boolean wrote = producer.write(type, message.byteArray(), 0, size);
                        assertEquals(agrona.write(type, message, 0, size), wrote, step);
                        full += wrote ? 0 : 1;
                    }
                    case 1 -> {
                        long index = producer.tryClaim(type, size);
                        int theirIndex = agrona.tryClaim(type, size);
                        assertEquals(theirIndex, (int) index, step);
                        if (index >= 0) {
                            Streams.fill(producer.buffer(), index, type, i, size);
                            Streams.fill(agrona.buffer(), theirIndex, type, i, size);
                            producer.commit(index);
                            agrona.commit(theirIndex);
                        }
                    }
                    case 2 -> {
                        long index = producer.tryClaim(type, size);
                        int theirIndex = agrona.tryClaim(type, size);
                        assertEquals(theirIndex, (int) index, step);
                        if (index >= 0) {
                            producer.abort(index);
                            agrona.abort(theirIndex);
                        }
                    }
                    case 4 -> {
                        // A claim left open (its producer "died"), then unblocked by each side.
                        long index = producer.tryClaim(type, size);
                        int theirIndex = agrona.tryClaim(type, size);
                        assertEquals(theirIndex, (int) index, step);
                        // Everything before it read (two reads: one to the end of the area, one after the wrap).
                        drain(consumer, agrona, oursRead, agronaRead, 100);
                        drain(consumer, agrona, oursRead, agronaRead, 100);
                        if (index >= 0) {
                            boolean ourUnblock = consumer.unblock();
                            assertEquals(agrona.unblock(), ourUnblock, step);
                            unblocked += ourUnblock ? 1 : 0;
                        }
                    }
                    case 5 -> assertEquals(agrona.nextCorrelationId(), first.nextCorrelationId(), step);
                    default -> drain(consumer, agrona, oursRead, agronaRead, 2 + i % 3);
                }
                assertArrayEquals(region(theirs), region(ours), step + " leaves different bytes");
            }
            // Then a ring kept full: writes until one is refused, a short read, again.
            for (int round = 0; round < 60; round++) {
                for (int j = 0; ; j++) {
                    int size = (round * 11 + j * 5) % 33;
                    UnsafeBuffer message = payload(2, j, size);
                    boolean wrote = first.write(2, message.byteArray(), 0, size);
                    assertEquals(agrona.write(2, message, 0, size), wrote, "round " + round + " write " + j);
                    assertArrayEquals(region(theirs), region(ours), "round " + round + " write " + j);
                    if (!wrote) {
                        full++;
                        break;
                    }
                }
                drain(consumer, agrona, oursRead, agronaRead, 1 + round % 3);
                assertArrayEquals(region(theirs), region(ours), "round " + round + " read");
            }
        }
        assertEquals(agronaRead, oursRead);
        assertTrue(oursRead.size() > 100, "messages read: " + oursRead.size());
        assertTrue(full > 0 && unblocked > 0,
                "the sequence covers a full ring (" + full + ") and unblocked claims (" + unblocked + ")");
    }

    /**
     * The claim that finds no room at the end of the area nor before the head at its start: it
     * claims the padding to the end alone, and the ring reads as full; then an aborted claim at
     * the start of the next lap. Our bytes and Agrona's after every step.
     */
    @Test
    void aFullClaimAtTheWrapPadsLikeAgrona() {
        RingFile ours = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        RingFile theirs = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(theirs));
        ManyToOneProducer producer = ours.manyToOneProducer();
        List<String> oursRead = new ArrayList<>();
        List<String> agronaRead = new ArrayList<>();
        try (ManyToOneConsumer consumer = ours.manyToOneConsumer()) {
            agrona.consumerHeartbeatTime(ours.consumerHeartbeatMs());
            int[] sizes = {8, 8, 32, 32, 32, 32, 32}; // records of 16, 16, then 40 bytes: the tail at 232
            for (int i = 0; i < sizes.length; i++) {
                UnsafeBuffer message = payload(1, i, sizes[i]);
                assertTrue(producer.write(1, message.byteArray(), 0, sizes[i]));
                assertTrue(agrona.write(1, message, 0, sizes[i]));
            }
            drain(consumer, agrona, oursRead, agronaRead, 2); // the head at 32
            assertEquals(232, ours.tailPosition());
            UnsafeBuffer big = payload(2, 0, 32);
            assertEquals(false, producer.write(2, big.byteArray(), 0, 32), "40 bytes fit neither before the end nor the head");
            assertEquals(false, agrona.write(2, big, 0, 32));
            assertEquals(256, ours.tailPosition(), "the padding to the end was claimed");
            assertArrayEquals(region(theirs), region(ours), "after the full claim");
            drain(consumer, agrona, oursRead, agronaRead, 100);
            drain(consumer, agrona, oursRead, agronaRead, 100);
            long index = producer.tryClaim(3, 20);
            int theirIndex = agrona.tryClaim(3, 20);
            assertEquals(theirIndex, (int) index);
            assertEquals(RingDescriptor.RECORD_HEADER_LENGTH, index, "at the start of the next lap");
            producer.abort(index);
            agrona.abort(theirIndex);
            assertTrue(producer.write(2, big.byteArray(), 0, 32));
            assertTrue(agrona.write(2, big, 0, 32));
            assertArrayEquals(region(theirs), region(ours), "after the aborted claim and a write");
            drain(consumer, agrona, oursRead, agronaRead, 100);
            assertArrayEquals(region(theirs), region(ours), "after the last read");
        }
        assertEquals(agronaRead, oursRead);
        assertEquals(8, oursRead.size(), "the seven messages and the last write");
    }

    /** One read by each side (limit {@code limit}), same count, same messages. */
    private static void drain(ManyToOneConsumer consumer, ManyToOneRingBuffer agrona, List<String> oursRead,
            List<String> agronaRead, int limit) {
        int n = consumer.read((type, buffer, offset, length) ->
                oursRead.add(type + ":" + describe(buffer.asSlice(offset, length))), limit);
        int m = agrona.read((type, buffer, index, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(index, bytes);
            agronaRead.add(type + ":" + describe(MemorySegment.ofArray(bytes)));
        }, limit);
        assertEquals(m, n, "messages read");
    }

    private static String describe(MemorySegment payload) {
        return java.util.HexFormat.of().formatHex(payload.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void broadcastRegionsMatchAgronaByteForByte() {
        RingFile ours = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        RingFile theirs = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        org.agrona.concurrent.broadcast.BroadcastTransmitter agrona =
                new org.agrona.concurrent.broadcast.BroadcastTransmitter(Streams.agronaRegion(theirs));
        int paddings = 0;
        try (BroadcastTransmitter transmitter = ours.broadcastTransmitter()) {
            for (int i = 0; i < 500; i++) {
                int type = 1 + i % 5;
                int size = (i * 7) % 33;
                UnsafeBuffer message = payload(type, i, size);
                long before = transmitter.position();
                if ((i & 1) == 0) {
                    transmitter.transmit(type, message.byteArray(), 0, size);
                } else {
                    transmitter.transmit(type, MemorySegment.ofArray(message.byteArray()), 0, size);
                }
                agrona.transmit(type, message, 0, size);
                long aligned = RingDescriptor.align(size + RingDescriptor.RECORD_HEADER_LENGTH, 8);
                paddings += transmitter.position() - before != aligned ? 1 : 0;
                assertArrayEquals(region(theirs), region(ours), "transmit " + i + " leaves different bytes");
            }
        }
        assertTrue(paddings > 5, "wraps with padding: " + paddings);
    }
}
