package dev.sympathy.app;

import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingTimeoutException;

/**
 * Writes {@code count} test messages, waiting (back pressure) while the ring is full, keeping
 * the producer heartbeat fresh. A full ring is waited out whatever the consumer does (a stale
 * one may resume; one that died or detached may be restarted, resuming at the ring's head) up
 * to the timeout, whose message says what the consumer was doing and what to do.
 */
final class ProduceLoop {
    long count;
    int typeId = 1;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /** Test hook: halt the JVM (no cleanup, like a kill) after this many messages; 0 = never. */
    long haltAfter;
    /**
     * Test hook: after this many messages, claim the next one, fill it, and halt with the claim
     * open (a producer killed mid-claim); 0 = never.
     */
    long haltInClaimAfter;
    /** Write each message through a claim filled in place (tryClaim/commit) instead of a copy. */
    boolean claim;
    /** The pattern index of the first message (a restarted producer continues the sequence). */
    long first;
    /** Stop after this many milliseconds even before {@link #count} messages (a soak); 0 = no limit. */
    long durationMs;
    /** Sleep in the futex wait ({@code --wait futex}) while the ring is full; the consumer wakes it. */
    boolean futexWait;
    /**
     * How messages are written: one call per message (each copied from a message built here), or
     * runs of up to {@link #batch} messages filled in place ({@link WriteMode}).
     */
    WriteMode writes = WriteMode.PER_MESSAGE;
    /** Messages per run with {@link WriteMode#BATCH}. */
    int batch = RingImpl.ProducerEnd.BATCH;
    /** Messages written by {@link #run}. */
    long written;

    /**
     * Produces and returns the number of payload bytes written.
     *
     * @throws IllegalArgumentException for {@link WriteMode#BATCH} with several sizes, claims or
     *     {@link #haltInClaimAfter} (a run's messages have one size and are filled in place)
     */
    long run(RingFile ring, RingImpl impl, SizeSpec sizes) {
        if (writes == WriteMode.BATCH && (sizes.min != sizes.max || claim || haltInClaimAfter != 0 || batch < 1)) {
            throw new IllegalArgumentException("batch writes take one message size, a run of 1 or more, and no claims ("
                    + sizes + ", batch " + batch + (claim ? ", claims" : "") + ")");
        }
        try (RingImpl.ProducerEnd producer = impl.producer(ring)) {
            Heartbeat beat = new Heartbeat(producer::heartbeat);
            RoomWait wait = new RoomWait(ring.watchConsumer(), beat);
            return writes == WriteMode.BATCH
                    ? runs(producer, beat, wait, sizes.min)
                    : perMessage(ring, producer, beat, wait, sizes);
        }
    }

    /** {@link WriteMode#BATCH}: runs filled in place, one call each; returns the payload bytes. */
    private long runs(RingImpl.ProducerEnd producer, Heartbeat beat, RoomWait wait, int size) {
        long deadline = System.nanoTime() + durationMs * 1_000_000;
        long i = 0;
        while (i < count) {
            if (durationMs != 0 && System.nanoTime() - deadline >= 0) {
                break;
            }
            long left = haltAfter > i ? Math.min(count, haltAfter) - i : count - i;
            int max = (int) Math.min(batch, left);
            int n = producer.writeRun(typeId, size, max, first + i);
            if (n == 0) {
                n = waitForRun(producer, wait, size, max, i);
            }
            i += n;
            written = i;
            beat.tick();
            if (haltAfter != 0 && i == haltAfter) {
                halt();
            }
        }
        return i * size;
    }

    /** {@link WriteMode#PER_MESSAGE}: one call per message; returns the payload bytes. */
    private long perMessage(RingFile ring, RingImpl.ProducerEnd producer, Heartbeat beat, RoomWait wait,
            SizeSpec sizes) {
        byte[] message = new byte[sizes.max];
        long bytes = 0;
        long deadline = System.nanoTime() + durationMs * 1_000_000;
        for (long i = 0; i < count; i++) {
            // Reading the clock costs ~20 ns: look every 256 messages.
            if (durationMs != 0 && (i & 0xFF) == 0 && System.nanoTime() - deadline >= 0) {
                break;
            }
            int size = sizes.next();
            TestPattern.fill(message, first + i, size);
            if (haltInClaimAfter != 0 && i == haltInClaimAfter) {
                producer.flush();
                haltInClaim(ring, producer, beat, message, size, i);
            }
            if (!send(producer, message, size)) {
                waitForRoom(producer, wait, message, size, i);
            }
            bytes += size;
            written = i + 1;
            beat.tick();
            if (haltAfter != 0 && i + 1 == haltAfter) {
                producer.flush();
                halt();
            }
        }
        producer.flush();
        return bytes;
    }

    /**
     * Waits until the ring takes the message (out of line: the hot loop stays small enough for
     * C2 to keep the write inlined and its values in registers).
     */
    private void waitForRoom(RingImpl.ProducerEnd producer, RoomWait wait, byte[] message, int size, long index) {
        wait.begin();
        do {
            wait.step(producer, index);
        } while (!send(producer, message, size));
    }

    /** Waits until the ring takes a run starting at message {@code index}; returns its length. */
    private int waitForRun(RingImpl.ProducerEnd producer, RoomWait wait, int size, int max, long index) {
        wait.begin();
        int n;
        do {
            wait.step(producer, index);
        } while ((n = producer.writeRun(typeId, size, max, first + index)) == 0);
        return n;
    }

    private void halt() {
        System.err.println("produce: halting after " + haltAfter + " messages (--halt-after)");
        Runtime.getRuntime().halt(137);
    }

    private boolean send(RingImpl.ProducerEnd producer, byte[] message, int size) {
        return claim ? producer.claim(typeId, message, size, true) : producer.offerBatched(typeId, message, size);
    }

    private void haltInClaim(RingFile ring, RingImpl.ProducerEnd producer, Heartbeat beat, byte[] message, int size,
            long index) {
        long start = System.currentTimeMillis();
        while (!producer.claim(typeId, message, size, false)) {
            beat.tick();
            if (System.currentTimeMillis() - start > timeoutMs) {
                throw new RingTimeoutException("room for the claim to halt in", timeoutMs);
            }
            Thread.onSpinWait();
        }
        System.err.println("produce: halting inside the claim of message " + (first + index)
                + " (--halt-in-claim-after " + haltInClaimAfter + ")");
        Runtime.getRuntime().halt(137);
    }

    /**
     * Waiting out a full ring, whatever the consumer does (a stale one may resume; one that died
     * or detached may be restarted, resuming at the ring's head), up to {@link #timeoutMs}: spinning
     * (or asleep in the futex wait with {@link #futexWait}) with the heartbeat kept fresh, looking
     * at the consumer now and then. One per run, reused by every wait (no allocation per wait).
     */
    private final class RoomWait {
        private final PeerWatch consumer;
        private final Heartbeat beat;
        private long start;
        private long lookedMs;
        private long spins;

        RoomWait(PeerWatch consumer, Heartbeat beat) {
            this.consumer = consumer;
            this.beat = beat;
        }

        /** A new wait begins: its timeout counts from now. */
        void begin() {
            start = System.currentTimeMillis();
            lookedMs = 0;
            spins = 0;
        }

        /**
         * Waits a little for room, before the write is tried again.
         *
         * @throws RingTimeoutException after {@link #timeoutMs} of waiting; its text says what the
         *     consumer was doing and what to do
         */
        void step(RingImpl.ProducerEnd producer, long index) {
            if (futexWait) {
                producer.awaitRoom(ConsumeLoop.SLEEP_SLICE_NANOS);
                beat.tickAfterSleep();
            } else {
                Thread.onSpinWait();
                beat.tick();
            }
            // Spinning: look at the consumer every 4096 tries; sleeping: every 8 sleeps.
            if ((++spins & (futexWait ? 7 : 0xFFF)) == 0) {
                long now = System.currentTimeMillis();
                // A look costs a /proc read: at most every LOOK_EVERY_MS (progress is seen between looks).
                if (now - lookedMs >= ConsumeLoop.LOOK_EVERY_MS) {
                    lookedMs = now;
                    consumer.look(staleMs);
                }
                if (now - start > timeoutMs) {
                    throw new RingTimeoutException("room in the ring: " + whyNoRoom(consumer, consumer.look(staleMs))
                            + " (" + index + " of " + count + " messages written)", timeoutMs);
                }
            }
        }
    }

    /** What a producer that timed out on a full ring was waiting for (the Rust ring's why_no_room). */
    private static String whyNoRoom(PeerWatch consumer, PeerState state) {
        String pid = "(pid " + consumer.pid() + ")";
        return switch (state) {
            case ALIVE -> "the consumer " + pid + " is attached but did not read (slow or stuck)";
            case STALE -> "the consumer " + pid + " is attached but its heartbeat is stale (paused, stopped or hung); "
                    + "resume it, or give it longer";
            case DEAD, DETACHED -> consumer.hasLeft(state)
                    ? "the consumer " + (state == PeerState.DEAD ? pid + " died" : "detached")
                            + " and no consumer took its place; start one (it resumes at the ring's head), or give it longer"
                    : NO_CONSUMER;
            case NEVER_ATTACHED -> NO_CONSUMER;
        };
    }

    private static final String NO_CONSUMER = "no consumer came; start one (it resumes at the ring's head), or give "
            + "it longer";
}
