package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** {@link RingFile#inMemory}: the same ring without a file (the jcstress tests use it). */
class InMemoryRingTest {
    @Test
    void shouldCarryMessagesLikeAFileRing() {
        RingFile ring = RingFile.inMemory(1024);
        assertNull(ring.path());
        assertEquals(128, ring.maxMessageLength());
        try (RingProducer producer = ring.producer(); RingConsumer consumer = ring.consumer()) {
            assertTrue(producer.write(4, new byte[] {1, 2, 3}, 0, 3));
            int[] seen = new int[2];
            assertEquals(1, consumer.read((type, buffer, offset, length) -> {
                seen[0] = type;
                seen[1] = buffer.get(ValueLayout.JAVA_BYTE, offset + 2);
            }, 10));
            assertEquals(4, seen[0]);
            assertEquals(3, seen[1]);
            assertThrows(AlreadyAttachedException.class, ring::producer);
        }
        ring.close(); // nothing to unmap
        assertThrows(CapacityNotPowerOfTwoException.class, () -> RingFile.inMemory(1000));
    }
}
