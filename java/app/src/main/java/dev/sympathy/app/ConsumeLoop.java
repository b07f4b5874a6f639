package dev.sympathy.app;

import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.RingFile;

/**
 * Reads and verifies {@code count} test messages, keeping the consumer heartbeat fresh, and
 * tells the ways of receiving nothing apart: no producer yet (waits up to the timeout), a
 * producer that died or left early (fails with what was received), a live producer that
 * sends nothing (fails after the timeout).
 */
final class ConsumeLoop {
    long count;
    int expectedType;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /**
     * Read until the producer detaches (a clean exit) and the ring is drained, however many
     * messages that is (at most {@link #count}): a soak. A producer that dies is still a failure.
     */
    boolean untilDetached;
    /**
     * Sleep in the futex wait ({@code --wait futex}) instead of spinning while the ring is empty:
     * the producer wakes this consumer; the liveness checks run after every sleep.
     */
    boolean futexWait;

    /**
     * The longest one futex sleep lasts before the peer's liveness and the timeout are looked at
     * (also how late a message from a producer that never wakes, e.g. Agrona's, is seen at worst).
     * 20 ms, and the producer's liveness looked at every 8 sleeps: an idle JVM then stays under 1%
     * of a core on a 2-vCPU VM (the Rust wait uses 10 ms slices).
     */
    static final long SLEEP_SLICE_NANOS = 20_000_000;

    /** Nanoseconds from the first message to the last (for bench). */
    long elapsedNanos;

    /** Why the loop ended early; the message says what was received. */
    static final class Incomplete extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Incomplete(String message) {
            super(message);
        }
    }

    MessageCheck run(RingFile ring, RingImpl impl) {
        MessageCheck check = new MessageCheck(expectedType);
        try (RingImpl.ConsumerEnd consumer = impl.consumer(ring, check)) {
            long start = System.currentTimeMillis();
            long lastProgressMs = start;
            Heartbeat beat = new Heartbeat(consumer::heartbeat);
            long seenAtCheck = 0;
            long firstNanos = 0;
            long idle = 0;
            while (check.received() < count) {
                int limit = (int) Math.min(count - check.received(), 1 << 16);
                int n = consumer.poll(limit);
                beat.tick();
                if (n > 0) {
                    if (firstNanos == 0) {
                        firstNanos = System.nanoTime();
                    }
                    continue;
                }
                if (futexWait) {
                    consumer.awaitMessage(SLEEP_SLICE_NANOS);
                    beat.tickAfterSleep();
                    // Looking at the producer's process costs ~100 µs: every 8 empty sleeps.
                    if ((++idle & 7) != 0) {
                        continue;
                    }
                } else {
                    Thread.onSpinWait();
                    if ((++idle & 0xFFF) != 0) {
                        continue;
                    }
                }
                long now = System.currentTimeMillis();
                if (check.received() != seenAtCheck) {
                    seenAtCheck = check.received();
                    lastProgressMs = now;
                }
                PeerState producer = ring.producerState(staleMs);
                if (producer == PeerState.DEAD || producer == PeerState.DETACHED) {
                    drain(consumer, check);
                    if (check.received() >= count || (untilDetached && producer == PeerState.DETACHED)) {
                        break;
                    }
                    throw new Incomplete((producer == PeerState.DEAD ? "producer died" : "producer detached early")
                            + ": received and verified " + check.received() + " of " + count
                            + " messages (" + check.bytes() + " bytes)");
                }
                if (now - lastProgressMs > timeoutMs) {
                    throw new Incomplete(producer == PeerState.NEVER_ATTACHED
                            ? "no messages yet: no producer attached within " + timeoutMs + " ms"
                            : "producer (pid " + ring.producerPid() + ") is alive but sent nothing for " + timeoutMs
                                    + " ms: received and verified " + check.received() + " of " + count + " messages");
                }
            }
            elapsedNanos = System.nanoTime() - firstNanos;
        }
        return check;
    }

    /** Reads what is left; two empty polls in a row (a wrap's padding reads as empty once) end it. */
    private void drain(RingImpl.ConsumerEnd consumer, MessageCheck check) {
        int empty = 0;
        while (empty < 2 && check.received() < count) {
            int n = consumer.poll((int) Math.min(count - check.received(), 1 << 16));
            empty = n == 0 ? empty + 1 : 0;
        }
    }
}
