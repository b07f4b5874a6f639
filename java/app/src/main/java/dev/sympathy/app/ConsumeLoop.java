package dev.sympathy.app;

import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;

/**
 * Reads and verifies {@code count} test messages, keeping the consumer heartbeat fresh, and
 * tells the ways of receiving nothing apart: no producer yet, or only one that left before this
 * consumer attached (a reused ring: waits up to the timeout for a new one), a producer that
 * died or left early while this consumer counted on it (fails with what was received), a
 * stalled producer (stale: paused, stopped, in a long GC; waited for, never taken for dead),
 * a live producer that sends nothing (fails after the timeout). With {@link #producerRestarts}
 * a producer that leaves is waited for too: a new one may go on writing the stream.
 */
final class ConsumeLoop {
    /** How often, at most, an idle loop looks at its peer (the Rust ring's PEER_LOOK_EVERY_MS). */
    static final long LOOK_EVERY_MS = 10;

    long count;
    int expectedType;
    /** The pattern index of the first message, or {@link MessageCheck#FIRST_FROM_MESSAGE}. */
    long first;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /**
     * Read until the producer detaches (a clean exit) and the ring is drained, however many
     * messages that is (at most {@link #count}): a soak. A producer that dies is still a failure.
     */
    boolean untilDetached;
    /**
     * A producer that dies or detaches is waited for: a new one (a restarted {@code bridge
     * receive}) may attach and go on writing the stream; only {@link #timeoutMs} without a message
     * ends the read ({@code --producer-restarts}). With {@link #untilDetached} a clean detach still
     * ends it, and only a producer that died is waited for.
     */
    boolean producerRestarts;
    /**
     * Sleep in the futex wait ({@code --wait futex}) instead of spinning while the ring is empty:
     * the producer wakes this consumer; the liveness checks run after every sleep.
     */
    boolean futexWait;

    /**
     * The longest one futex sleep lasts before the peer's liveness and the timeout are looked at
     * (also how late a message from a producer that never wakes, e.g. Agrona's, is seen at worst).
     * 20 ms, and the producer's liveness looked at every 8 sleeps: an idle JVM then uses ~0.6% of a
     * core on a 2-vCPU VM once this loop is compiled (~1.5% in its first 15 s, while the JIT
     * compiles it; docs/ring-performance.md). The Rust wait uses 10 ms slices.
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
        MessageCheck check = new MessageCheck(expectedType, first);
        try (RingImpl.ConsumerEnd consumer = impl.consumer(ring, check)) {
            long start = System.currentTimeMillis();
            long lastProgressMs = start;
            Heartbeat beat = new Heartbeat(consumer::heartbeat);
            PeerWatch watch = ring.watchProducer();
            long seenAtCheck = 0;
            long firstNanos = 0;
            long idle = 0;
            long lookedMs = 0;
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
                // A look costs a /proc read: at most every LOOK_EVERY_MS.
                if (now - lookedMs < LOOK_EVERY_MS) {
                    continue;
                }
                lookedMs = now;
                PeerState producer = watch.look(staleMs);
                boolean left = watch.hasLeft(producer);
                if (left) {
                    drain(consumer, check);
                    if (check.received() >= count || (untilDetached && producer == PeerState.DETACHED)) {
                        break;
                    }
                }
                if (left && producerRestarts) {
                    // Waits on for the next producer; what the drain verified is progress.
                    if (check.received() != seenAtCheck) {
                        seenAtCheck = check.received();
                        lastProgressMs = now;
                    } else if (now - lastProgressMs > timeoutMs) {
                        throw new Incomplete("producer " + (producer == PeerState.DEAD ? "died" : "detached")
                                + ": received and verified " + check.received() + " of " + count + " messages ("
                                + check.bytes() + " bytes), and no new producer wrote within " + timeoutMs
                                + " ms (--producer-restarts)");
                    }
                    continue;
                }
                if (left) {
                    throw new Incomplete((producer == PeerState.DEAD ? "producer died" : "producer detached early")
                            + ": received and verified " + check.received() + " of " + count
                            + " messages (" + check.bytes() + " bytes)");
                }
                if (now - lastProgressMs > timeoutMs) {
                    throw new Incomplete(whyNothingCame(producer, watch, check));
                }
            }
            elapsedNanos = System.nanoTime() - firstNanos;
        }
        return check;
    }

    /** Why nothing came for {@link #timeoutMs}, from the producer's state (not one that has left). */
    private String whyNothingCame(PeerState producer, PeerWatch watch, MessageCheck check) {
        String received = "received and verified " + check.received() + " of " + count + " messages";
        String nothingYet = check.received() == 0 ? "no messages yet: " : "";
        String who = watch.pid() == 0 ? "a producer that does not register in the ring's header (Agrona-only)"
                : "producer (pid " + watch.pid() + ")";
        return switch (producer) {
            case NEVER_ATTACHED -> check.received() == 0
                    ? "no messages yet: no producer attached within " + timeoutMs + " ms"
                    : "no message for " + timeoutMs + " ms and no producer is attached (the messages came"
                            + " from one that does not register in the ring's header): " + received;
            case DETACHED, DEAD -> nothingYet + "the last producer " + (producer == PeerState.DEAD ? "died" : "detached")
                    + " before this consumer attached and no new producer came within " + timeoutMs
                    + " ms; start one (" + received + ")";
            case STALE -> who + " is attached but stalled: no sign of life for over "
                    + staleMs + " ms (paused, stopped or hung) and nothing for " + timeoutMs + " ms: " + received;
            case ALIVE -> who + " is alive but sent nothing for " + timeoutMs + " ms: " + received;
        };
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
