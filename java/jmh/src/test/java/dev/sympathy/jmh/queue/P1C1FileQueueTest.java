package dev.sympathy.jmh.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** p1c1-ipc's queue file: Rust's layout (crates/queue/src/layout.rs), byte for byte, and its role claims. */
class P1C1FileQueueTest {
    @Test
    void shouldLayTheFileOutAsRustsQueueFile() throws IOException {
        try (P1C1FileQueue queue = P1C1FileQueue.create(64, P1C1FileQueue.PRODUCER_ROLE | P1C1FileQueue.CONSUMER_ROLE)) {
            assertTrue(queue.offer(7));
            assertTrue(queue.offer(9));
            assertEquals(7, queue.poll());
            final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(queue.path())).order(ByteOrder.nativeOrder());
            assertEquals(640 + 256, file.capacity(), "Rust's total_len(64, 4): 5 lines and the slots in whole lines");
            assertEquals("SYMPQ1C1", new String(Arrays.copyOfRange(file.array(), 0, 8), StandardCharsets.US_ASCII));
            assertEquals(1, file.getInt(8), "version");
            assertEquals(4, file.getInt(12), "element_size");
            assertEquals(64, file.getLong(16), "capacity");
            assertEquals(3, file.getInt(24), "roles: producer and consumer");
            assertEquals(1, file.getLong(128), "head");
            assertEquals(2, file.getLong(384), "tail");
            assertEquals(7, file.getInt(640), "slot 0");
            assertEquals(9, file.getInt(644), "slot 1");
        }
    }

    @Test
    void shouldLetOneConsumerAttachAndSeeTheProducerLeave() throws IOException {
        try (P1C1FileQueue producer = P1C1FileQueue.create(8, P1C1FileQueue.PRODUCER_ROLE)) {
            assertFalse(producer.consumerAttached());
            try (P1C1FileQueue consumer = P1C1FileQueue.attachConsumer(producer.path())) {
                assertTrue(producer.consumerAttached());
                final IllegalStateException second = assertThrows(IllegalStateException.class,
                        () -> P1C1FileQueue.attachConsumer(producer.path()));
                assertTrue(second.getMessage().contains("already has a consumer"), second.getMessage());
                assertTrue(producer.offer(5));
                assertEquals(5, consumer.poll());
                assertEquals(1, producer.consumed());
                assertTrue(consumer.producerAttached());
                producer.release();
                assertFalse(consumer.producerAttached());
            }
            assertFalse(producer.consumerAttached(), "a closed consumer releases its role");
        }
    }

    @Test
    void shouldRefuseAFileThatIsNoQueue() throws IOException {
        final Path junk = Files.createTempFile("sympathy-not-a-queue", ".queue");
        try {
            Files.write(junk, new byte[1024]);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> P1C1FileQueue.attachConsumer(junk));
            assertTrue(e.getMessage().contains("no queue file"), e.getMessage());
        } finally {
            Files.deleteIfExists(junk);
        }
    }

    @Test
    void shouldDeleteItsFileWhenTheMakerCloses() throws IOException {
        final P1C1FileQueue queue = P1C1FileQueue.create(8, P1C1FileQueue.PRODUCER_ROLE);
        final Path path = queue.path();
        assertTrue(Files.exists(path));
        queue.close();
        assertFalse(Files.exists(path));
    }
}
