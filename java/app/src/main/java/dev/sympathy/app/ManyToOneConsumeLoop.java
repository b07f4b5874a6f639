package dev.sympathy.app;

import dev.sympathy.ring.ManyToOneConsumer;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.MemorySegment;

/**
 * {@code consume} on a many-to-one ring: reads and verifies {@code count} test messages from
 * {@link #producers} producers, each its own stream: the messages of type {@code t} in
 * {@code 1..producers} carry the pattern indices {@code first, first + 1, ...} in order; any other
 * type is a mismatch. A claim that holds the head for {@link #unblockAfterMs} (its producer died
 * inside it) is unblocked. Fails after {@link #timeoutMs} without a message.
 */
final class ManyToOneConsumeLoop {
    long count;
    int producers = 1;
    long first;
    long timeoutMs = 10_000;
    long unblockAfterMs = 1_000;

    /** Per stream (index = type - 1): the checks, counting what each verified. */
    private MessageCheck[] checks;
    private long received;
    private long bytes;
    /** Claims unblocked by the consumer. */
    long unblocked;

    /** Messages verified. */
    long received() {
        return received;
    }

    /** Payload bytes verified. */
    long bytes() {
        return bytes;
    }

    /** Messages verified of stream {@code type} (1-based). */
    long receivedOf(int type) {
        return checks[type - 1].received();
    }

    void run(RingFile ring) {
        checks = new MessageCheck[producers];
        for (int t = 0; t < producers; t++) {
            checks[t] = new MessageCheck(t + 1, first);
        }
        MessageHandler verify = (type, buffer, offset, length) -> verify(type, buffer, offset, length);
        long stallNanos = unblockAfterMs * 1_000_000;
        try (ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
            Heartbeat beat = new Heartbeat(consumer::heartbeat);
            long lastProgressMs = System.currentTimeMillis();
            long idle = 0;
            while (received < count) {
                int limit = (int) Math.min(count - received, 1 << 16);
                int n = consumer.read(verify, limit, stallNanos);
                beat.tick();
                if (n > 0) {
                    lastProgressMs = System.currentTimeMillis();
                    continue;
                }
                Thread.onSpinWait();
                if ((++idle & 0xFFF) == 0 && System.currentTimeMillis() - lastProgressMs > timeoutMs) {
                    unblocked = consumer.unblockedCount();
                    throw new ConsumeLoop.Incomplete("no message for " + timeoutMs + " ms: received and verified "
                            + received + " of " + count + " messages (" + bytes + " bytes)"
                            + (received == 0 ? "; many-to-one producers do not register: start one" : ""));
                }
            }
            unblocked = consumer.unblockedCount();
        }
    }

    private void verify(int type, MemorySegment buffer, long offset, int length) {
        if (type < 1 || type > producers) {
            throw new PatternMismatchException("verification failed at message " + received + " (type " + type
                    + "): expected a type in 1.." + producers + " (one per producer: --producers " + producers + ")");
        }
        MessageCheck check = checks[type - 1];
        try {
            FfmImpl.verify(check, type, buffer, offset, length);
        } catch (PatternMismatchException e) {
            throw new PatternMismatchException("verification failed at " + e.getMessage() + "; " + received
                    + " messages before it were verified");
        }
        received++;
        bytes += length;
    }
}
