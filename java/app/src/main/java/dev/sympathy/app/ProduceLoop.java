package dev.sympathy.app;

import dev.sympathy.ring.PeerDeadException;
import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingTimeoutException;

/**
 * Writes {@code count} test messages, waiting (back pressure) while the ring is full, keeping
 * the producer heartbeat fresh and watching the consumer: a consumer that dies while the
 * ring is full ends the loop with {@link PeerDeadException}; one that never comes, with a
 * timeout.
 */
final class ProduceLoop {
    long count;
    int typeId = 1;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /** Test hook: halt the JVM (no cleanup, like a kill) after this many messages; 0 = never. */
    long haltAfter;

    /** Produces and returns the number of payload bytes written. */
    long run(RingFile ring, RingImpl impl, SizeSpec sizes) {
        byte[] message = new byte[sizes.max];
        long bytes = 0;
        try (RingImpl.ProducerEnd producer = impl.producer(ring)) {
            Heartbeat beat = new Heartbeat(producer::heartbeat);
            for (long i = 0; i < count; i++) {
                int size = sizes.next();
                TestPattern.fill(message, i, size);
                if (!producer.offer(typeId, message, size)) {
                    waitForRoom(ring, producer, beat, message, size, i);
                }
                bytes += size;
                beat.tick();
                if (haltAfter != 0 && i + 1 == haltAfter) {
                    System.err.println("produce: halting after " + haltAfter + " messages (--halt-after)");
                    Runtime.getRuntime().halt(137);
                }
            }
        }
        return bytes;
    }

    private void waitForRoom(RingFile ring, RingImpl.ProducerEnd producer, Heartbeat beat, byte[] message, int size,
            long index) {
        long start = System.currentTimeMillis();
        long spins = 0;
        while (!producer.offer(typeId, message, size)) {
            Thread.onSpinWait();
            beat.tick();
            if ((++spins & 0xFFF) == 0) {
                long now = System.currentTimeMillis();
                PeerState consumer = ring.consumerState(staleMs);
                if (consumer == PeerState.DEAD) {
                    throw new PeerDeadException("consumer", ring.consumerPid(), "the ring is full and nobody reads it; "
                            + index + " of " + count + " messages were written");
                }
                if (now - start > timeoutMs) {
                    throw new RingTimeoutException("room in the ring (consumer " + consumer.name().toLowerCase()
                            + "; " + index + " of " + count + " messages written)", timeoutMs);
                }
            }
        }
    }
}
