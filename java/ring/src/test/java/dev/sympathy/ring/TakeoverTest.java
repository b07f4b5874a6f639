package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer taking over a ring whose previous producer died mid-claim or mid-publish: the
 * Java port of crates/ring/tests/recovery.rs (docs/verification.md, bugs 1 to 3). A producer that
 * "dies" here detaches without finishing its claim (a kill leaves the same bytes; the pid of a
 * dead process is taken over like a released one). Each case: the consumer is not blocked
 * forever, no published record is overwritten, and every message the new producer writes is
 * delivered.
 */
class TakeoverTest {
    @TempDir
    Path dir;

    private static List<byte[]> drain(RingConsumer consumer) {
        List<byte[]> got = new ArrayList<>();
        for (int pass = 0; pass < 4; pass++) {
            consumer.read((type, buffer, offset, length) -> got.add(
                    buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE)), Integer.MAX_VALUE);
        }
        return got;
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static void assertMessages(List<byte[]> got, byte[]... expected) {
        assertEquals(expected.length, got.size(), "messages delivered");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Arrays.toString(expected[i]), Arrays.toString(got.get(i)), "message " + i);
        }
    }

    private RingFile ring(int capacity) throws IOException {
        return RingFile.create(dir.resolve("ring"), capacity);
    }

    /**
     * Bug 3: the Java producer (like Agrona) stores the tail when it claims, so a producer that
     * died inside a claim leaves a negative length below the trailer's tail; resuming at the
     * tail would leave the consumer blocked at it forever. The new producer turns it into padding.
     */
    @Test
    void shouldUnblockAClaimLeftBelowTheTailByADeadProducer() throws IOException {
        try (RingFile ring = ring(1024); RingConsumer consumer = ring.consumer()) {
            RingProducer dead = ring.producer();
            assertTrue(dead.write(1, filled(5, 1), 0, 5));
            long claim = dead.tryClaim(1, 13);
            assertTrue(claim >= 0);
            dead.close(); // dies mid-claim
            assertMessages(drain(consumer), filled(5, 1));
            assertMessages(drain(consumer)); // blocked at the dead claim
            try (RingProducer next = ring.producer()) {
                assertTrue(next.write(1, filled(6, 2), 0, 6));
            }
            assertMessages(drain(consumer), filled(6, 2));
        }
    }

    /**
     * Bug 1: a claim that wraps publishes its padding first. Killed inside it, the producer
     * left the padding consumable and the claim at index 0; the consumer's head moves past the
     * padding. The new producer must attach (no "impossible head" refusal) and unblock the claim.
     */
    @Test
    void shouldResumeAfterAClaimLeftAcrossTheWrap() throws IOException {
        // Capacity 128: 8-byte messages take 16 bytes; after 7 of them a 12-byte claim (24 bytes)
        // at index 112 wraps: padding 16 at 112, the claim at 0.
        try (RingFile ring = ring(128); RingConsumer consumer = ring.consumer()) {
            RingProducer dead = ring.producer();
            for (int i = 0; i < 7; i++) {
                assertTrue(dead.write(1, filled(8, i), 0, 8));
            }
            assertEquals(7, drain(consumer).size());
            long claim = dead.tryClaim(1, 12);
            assertEquals(8, claim, "the claim wrapped to index 0");
            dead.close();
            assertMessages(drain(consumer)); // skips the padding, waits at the claim
            try (RingProducer next = ring.producer()) {
                assertTrue(next.write(1, filled(8, 9), 0, 8));
            }
            assertMessages(drain(consumer), filled(8, 9));
        }
    }

    /**
     * Bug 2: the Rust producer publishes a record before it stores the tail. Killed between
     * the two, it left a published record past the trailer's tail (simulated by rolling the tail
     * back). The new producer must not overwrite it, whether or not the consumer read it (when
     * it did, the head is past the trailer's tail).
     */
    @Test
    void shouldKeepARecordPublishedPastTheTrailerTail() throws IOException {
        for (boolean consumedFirst : new boolean[] {false, true}) {
            Path path = dir.resolve("ring-" + consumedFirst);
            try (RingFile ring = RingFile.create(path, 1024); RingConsumer consumer = ring.consumer()) {
                try (RingProducer before = ring.producer()) {
                    assertTrue(before.write(1, "first".getBytes(), 0, 5));
                    assertTrue(before.write(1, "second".getBytes(), 0, 6));
                }
                // Roll the tail back to the start of "second": its header is published, its tail not.
                MemorySegment region = ring.ringRegion();
                region.set(SharedMemory.LONG_LAYOUT, 1024L + RingDescriptor.TAIL_POSITION_OFFSET, 16L);
                List<byte[]> got = new ArrayList<>();
                if (consumedFirst) {
                    got.addAll(drain(consumer)); // the head is now past the trailer's tail
                }
                try (RingProducer next = ring.producer()) {
                    assertTrue(next.write(1, "third".getBytes(), 0, 5));
                }
                got.addAll(drain(consumer));
                assertMessages(got, "first".getBytes(), "second".getBytes(), "third".getBytes());
            }
        }
    }
}
