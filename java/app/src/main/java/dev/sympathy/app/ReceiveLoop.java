package dev.sympathy.app;

import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.MemorySegment;

/**
 * The messaging experiment's receiver: reads {@code count} price updates from the FFM ring, each
 * handed out in place from the ring's memory, decodes it and checks every field against the
 * message it must be ({@link MessageWire#verify}), timed from the read that found the first
 * message to the last; the head is released once per read, after its messages were checked. A
 * sender that dies, detaches early or sends nothing for the timeout ends it with what was
 * received (as {@link ConsumeLoop}).
 */
final class ReceiveLoop {
    long count;
    long timeoutMs = 30_000;
    long staleMs = 5_000;

    /** Nanoseconds from the first message to the last. */
    long elapsedNanos;
    /** Payload bytes received. */
    long bytes;

    /** Checks each message against the next sequence number; keeps the first failure. */
    private static final class Checker implements MessageHandler {
        final MessageWire wire;
        long next;
        long bytes;
        RuntimeException failure;

        Checker(MessageWire wire) {
            this.wire = wire;
        }

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            try {
                if (typeId != wire.typeId()) {
                    throw new MessageWire.Mismatch("a record of type " + typeId + ", not " + wire.typeId());
                }
                wire.verify(next, buffer, offset, length);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = new MessageWire.Mismatch("message " + next + ": " + e.getMessage(), e);
                }
            }
            bytes += length;
            next++;
        }
    }

    void run(RingFile ring, MessageWire wire) {
        Checker checker = new Checker(wire);
        try (RingConsumer consumer = ring.consumer()) {
            Heartbeat beat = new Heartbeat(consumer::heartbeat);
            PeerWatch watch = ring.watchProducer();
            long firstNanos = 0;
            long lastProgressMs = System.currentTimeMillis();
            long seenAtCheck = 0;
            long idle = 0;
            long lookedMs = 0;
            while (checker.next < count) {
                // Until the first message, the clock is read before each poll: the run starts when
                // the read that finds the first message starts.
                long before = firstNanos == 0 ? System.nanoTime() : 0;
                int n = consumer.read(checker, (int) Math.min(count - checker.next, 1 << 16));
                beat.tick();
                if (n > 0) {
                    if (firstNanos == 0) {
                        firstNanos = before;
                    }
                    continue;
                }
                Thread.onSpinWait();
                if ((++idle & 0xFFF) != 0) {
                    continue;
                }
                long now = System.currentTimeMillis();
                if (checker.next != seenAtCheck) {
                    seenAtCheck = checker.next;
                    lastProgressMs = now;
                }
                if (now - lookedMs < ConsumeLoop.LOOK_EVERY_MS) {
                    continue;
                }
                lookedMs = now;
                PeerState sender = watch.look(staleMs);
                if (watch.hasLeft(sender)) {
                    // Drain what it sent before it left: two empty reads in a row (a wrap's padding reads
                    // as empty once) end it.
                    int empty = 0;
                    while (empty < 2 && checker.next < count) {
                        empty = consumer.read(checker, (int) Math.min(count - checker.next, 1 << 16)) == 0 ? empty + 1 : 0;
                    }
                    if (checker.next >= count) {
                        break;
                    }
                    throw new ConsumeLoop.Incomplete((sender == PeerState.DEAD ? "sender died" : "sender detached early")
                            + ": received " + checker.next + " of " + count + " messages");
                }
                if (now - lastProgressMs > timeoutMs) {
                    throw new ConsumeLoop.Incomplete("the sender (" + sender.name().toLowerCase(java.util.Locale.ROOT)
                            + ") sent nothing for " + timeoutMs + " ms: received " + checker.next + " of " + count
                            + " messages");
                }
            }
            elapsedNanos = Math.max(System.nanoTime() - firstNanos, 1);
        }
        bytes = checker.bytes;
        if (checker.failure != null) {
            throw checker.failure;
        }
    }
}
