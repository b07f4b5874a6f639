package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer that dies inside a claim (simulated: a claim never committed, or a tail moved by a
 * compare-and-swap whose header was never written) stops the consumer at the head; our
 * {@link ManyToOneConsumer#unblock()} and Agrona's {@code unblock} over the same file alike turn
 * it into padding, and the consumer goes on with the messages after it.
 */
class ManyToOneUnblockTest {
    private static final int CAPACITY = 1024;

    @TempDir
    Path dir;

    /** Reads everything now waiting; returns "type:length" of each message. */
    private static List<String> drain(ManyToOneConsumer consumer) {
        List<String> seen = new ArrayList<>();
        while (consumer.read((type, buffer, offset, length) -> seen.add(type + ":" + length), 100) > 0) {
            // until nothing is left
        }
        return seen;
    }

    private RingFile ring(String name) throws Exception {
        return RingFile.create(dir.resolve(name), CAPACITY, RingKind.MANY_TO_ONE);
    }

    @Test
    void ourUnblockTurnsAnAbandonedClaimIntoPadding() throws Exception {
        try (RingFile ring = ring("ours"); ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            ManyToOneProducer dead = ring.manyToOneProducer();
            ManyToOneProducer live = ring.manyToOneProducer();
            assertTrue(live.write(1, new byte[4], 0, 4));
            long abandoned = dead.tryClaim(2, 20);
            assertTrue(abandoned >= 0);
            assertTrue(live.write(3, new byte[5], 0, 5));
            assertEquals(List.of("1:4"), drain(consumer), "the consumer stops at the claim");
            assertTrue(consumer.unblock(), "the claim at the head becomes padding");
            assertEquals(List.of("3:5"), drain(consumer), "after unblock the message behind the claim arrives");
            assertEquals(ring.tailPosition(), consumer.position());
            assertFalse(consumer.unblock(), "nothing left to unblock");
            assertEquals(1, consumer.unblockedCount());
            // The dead producer's claim is no longer its own.
            assertThrows(IllegalStateException.class, () -> dead.commit(abandoned));
        }
    }

    @Test
    void agronasUnblockFreesOurConsumerToo() throws Exception {
        try (RingFile ring = ring("agrona"); ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            ManyToOneProducer producer = ring.manyToOneProducer();
            ManyToOneRingBuffer agrona = new ManyToOneRingBuffer(Streams.agronaRegion(ring));
            assertTrue(producer.tryClaim(2, 30) >= 0);
            assertTrue(producer.write(1, new byte[6], 0, 6));
            assertEquals(List.of(), drain(consumer));
            assertTrue(agrona.unblock());
            assertEquals(List.of("1:6"), drain(consumer));
            assertFalse(agrona.unblock());
        }
    }

    /**
     * A producer killed between its compare-and-swap of the tail and its first store leaves a
     * zero header at the head: unblock pads up to the next header written, once it has checked
     * that the gap is all zeros.
     */
    @Test
    void bothUnblockAGapWhoseHeaderWasNeverWritten() throws Exception {
        for (boolean ours : new boolean[] {true, false}) {
            try (RingFile ring = ring("gap-" + ours); ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
                ManyToOneProducer producer = ring.manyToOneProducer();
                assertTrue(producer.write(1, new byte[8], 0, 8));
                // The dead producer's claim of 24 bytes: the tail moved, nothing written.
                long tailOffset = (long) CAPACITY + RingDescriptor.TAIL_POSITION_OFFSET;
                long tail = ring.ringRegion().get(java.lang.foreign.ValueLayout.JAVA_LONG, tailOffset);
                ring.ringRegion().set(java.lang.foreign.ValueLayout.JAVA_LONG, tailOffset, tail + 24);
                assertTrue(producer.write(4, new byte[12], 0, 12));
                assertEquals(List.of("1:8"), drain(consumer));
                boolean unblocked = ours ? consumer.unblock() : new ManyToOneRingBuffer(Streams.agronaRegion(ring)).unblock();
                assertTrue(unblocked, ours ? "ours" : "Agrona's");
                assertEquals(List.of("4:12"), drain(consumer), ours ? "ours" : "Agrona's");
                assertEquals(ring.tailPosition(), consumer.position());
            }
        }
    }

    /**
     * The stall rule: a read given a stall time unblocks a claim that has held the head that
     * long, and only then (a stall time of 0 unblocks at the second look at the same head; one
     * that never ends never unblocks).
     */
    @Test
    void aReadWithAStallTimeUnblocksAClaimThatHeldTheHead() throws Exception {
        try (RingFile ring = ring("stall"); ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            ManyToOneProducer producer = ring.manyToOneProducer();
            List<Integer> types = new ArrayList<>();
            MessageHandler handler = (type, buffer, offset, length) -> types.add(type);
            assertTrue(producer.tryClaim(9, 16) >= 0);
            assertTrue(producer.write(5, new byte[4], 0, 4));
            for (int i = 0; i < 10; i++) {
                assertEquals(0, consumer.read(handler, 10, Long.MAX_VALUE), "never stalled long enough");
            }
            assertEquals(0, consumer.unblockedCount());
            // The stall began at the first of those reads: with a stall time of 0 it is over.
            assertEquals(0, consumer.read(handler, 10, 0), "this read unblocks (and reads nothing yet)");
            assertEquals(1, consumer.unblockedCount());
            assertEquals(1, consumer.read(handler, 10, 0));
            assertEquals(List.of(5), types);
            // A second claim at the head: the first read after progress starts its stall, the next unblocks.
            assertTrue(producer.tryClaim(9, 8) >= 0);
            assertTrue(producer.write(6, new byte[4], 0, 4));
            assertEquals(0, consumer.read(handler, 10, 0), "the first look at this head starts the stall");
            assertEquals(1, consumer.unblockedCount());
            assertEquals(0, consumer.read(handler, 10, 0), "the second unblocks");
            assertEquals(2, consumer.unblockedCount());
            assertEquals(1, consumer.read(handler, 10, 0));
            assertEquals(List.of(5, 6), types);
            // An empty ring is not a stall.
            for (int i = 0; i < 3; i++) {
                assertEquals(0, consumer.read(handler, 10, 0));
            }
            assertEquals(2, consumer.unblockedCount());
        }
    }
}
