package dev.sympathy.app;

import dev.sympathy.ring.BroadcastTransmitter;
import dev.sympathy.ring.ManyToOneProducer;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import dev.sympathy.ring.RingTimeoutException;

/**
 * {@code produce} on a many-to-one ring or a broadcast ring: writes {@code count} test messages
 * ({@link TestPattern}) of one type. A many-to-one producer does not register (several run at
 * once, each with its own {@code --type}) and waits out a full ring up to the timeout; a
 * transmitter registers as the ring's producer and never waits (slow receivers are lapped).
 */
final class KindProduceLoop {
    long count;
    int typeId = 1;
    /** The pattern index of the first message. */
    long first;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /** Many-to-one: write each message through tryClaim/commit, filled in place. */
    boolean claim;
    /** Test hook: halt the JVM (no cleanup, like a kill) after this many messages; 0 = never. */
    long haltAfter;
    /** Test hook (many-to-one): after this many messages, halt inside the claim of the next; 0 = never. */
    long haltInClaimAfter;
    /** Messages written by {@link #run}. */
    long written;

    /** Produces on {@code ring} (many-to-one or broadcast); returns the payload bytes written. */
    long run(RingFile ring, SizeSpec sizes) {
        return ring.kind() == RingKind.BROADCAST ? transmit(ring, sizes) : produce(ring, sizes);
    }

    private long transmit(RingFile ring, SizeSpec sizes) {
        byte[] message = new byte[sizes.max];
        long bytes = 0;
        try (BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            Heartbeat beat = new Heartbeat(transmitter::heartbeat);
            for (long i = 0; i < count; i++) {
                int size = sizes.next();
                TestPattern.fill(message, first + i, size);
                transmitter.transmit(typeId, message, 0, size);
                bytes += size;
                written = i + 1;
                beat.tick();
                haltIfAsked(i + 1);
            }
        }
        return bytes;
    }

    private long produce(RingFile ring, SizeSpec sizes) {
        byte[] message = new byte[sizes.max];
        long bytes = 0;
        try (ManyToOneProducer producer = ring.manyToOneProducer()) {
            PeerWatch consumer = ring.watchConsumer();
            for (long i = 0; i < count; i++) {
                int size = sizes.next();
                TestPattern.fill(message, first + i, size);
                if (haltInClaimAfter != 0 && i == haltInClaimAfter) {
                    haltInClaim(producer, size, i);
                }
                long start = 0;
                while (!send(producer, message, size, first + i)) {
                    if (start == 0) {
                        start = System.currentTimeMillis();
                    } else if (System.currentTimeMillis() - start > timeoutMs) {
                        throw new RingTimeoutException("room in the ring: the consumer (pid " + ring.consumerPid()
                                + ", " + consumer.look(staleMs).name().toLowerCase(java.util.Locale.ROOT)
                                + ") did not read (" + i + " of " + count + " messages written)", timeoutMs);
                    }
                    Thread.onSpinWait();
                }
                bytes += size;
                written = i + 1;
                haltIfAsked(i + 1);
            }
        }
        return bytes;
    }

    private boolean send(ManyToOneProducer producer, byte[] message, int size, long index) {
        if (!claim) {
            return producer.write(typeId, message, 0, size);
        }
        long at = producer.tryClaim(typeId, size);
        if (at < 0) {
            return false;
        }
        TestPattern.fill(producer.buffer(), at, index, size);
        producer.commit(at);
        return true;
    }

    /** Claims message {@code i}, fills it, and halts with the claim open (a producer killed mid-claim). */
    private void haltInClaim(ManyToOneProducer producer, int size, long i) {
        long start = System.currentTimeMillis();
        long at;
        while ((at = producer.tryClaim(typeId, size)) < 0) {
            if (System.currentTimeMillis() - start > timeoutMs) {
                throw new RingTimeoutException("room for the claim to halt in", timeoutMs);
            }
            Thread.onSpinWait();
        }
        TestPattern.fill(producer.buffer(), at, first + i, size);
        System.err.println("produce: halting inside the claim of message " + (first + i)
                + " (--halt-in-claim-after " + haltInClaimAfter + ")");
        Runtime.getRuntime().halt(137);
    }

    private void haltIfAsked(long done) {
        if (haltAfter != 0 && done == haltAfter) {
            System.err.println("produce: halting after " + haltAfter + " messages (--halt-after)");
            Runtime.getRuntime().halt(137);
        }
    }
}
