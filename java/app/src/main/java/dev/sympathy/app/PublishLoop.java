package dev.sympathy.app;

import dev.sympathy.jni.NativeRing;
import dev.sympathy.ring.MessageFiller;
import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import dev.sympathy.ring.RingTimeoutException;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * The messaging experiment's sender: writes price updates {@code 0..count} encoded by a
 * {@link MessageWire}, waiting (back pressure) while the ring is full, keeping the producer
 * heartbeat fresh. On the FFM ring ({@code ffm}) a fixed-length wire fills its records in place,
 * up to {@value #BATCH} published together ({@link RingProducer#writeBatch}, as Rust's
 * {@code try_write_batch}), and a variable one's encoded bytes are copied into a
 * {@link RingProducer.Batch}; on the Rust ring through JNI ({@code jni}) each message is a claim
 * filled in place through {@code recordArea()} and committed: two JNI calls.
 */
final class PublishLoop {
    /** Records published together at most (Rust's messaging BATCH). */
    static final int BATCH = 256;

    long count;
    long timeoutMs = 30_000;
    long staleMs = 5_000;

    /** Fills message {@code first + k} in place: the filler of {@link RingProducer#writeBatch}. */
    private static final class Filler implements MessageFiller {
        final MessageWire wire;
        long first;

        Filler(MessageWire wire) {
            this.wire = wire;
        }

        @Override
        public void fill(int k, MemorySegment buffer, long offset, int length) {
            wire.encode(first + k, buffer, offset, length);
        }
    }

    /** Sends every message through {@code impl} ({@code ffm} or {@code jni}). */
    void run(RingFile ring, MessageWire wire, String impl) {
        switch (impl) {
            case "ffm" -> runFfm(ring, wire);
            case "jni" -> runJni(ring, wire);
            default -> throw new UsageException("publish: --impl " + impl + " (the sender drives ffm or jni)");
        }
    }

    private void runFfm(RingFile ring, MessageWire wire) {
        try (RingProducer producer = ring.producer()) {
            Heartbeat beat = new Heartbeat(producer::heartbeat);
            Waiting waiting = new Waiting(ring.watchConsumer());
            int length = wire.fixedLength();
            Filler filler = new Filler(wire);
            long seq = 0;
            while (seq < count) {
                int max = (int) Math.min(BATCH, count - seq);
                int n;
                if (length != MessageWire.VARIABLE) {
                    filler.first = seq;
                    n = producer.writeBatch(wire.typeId(), length, max, filler);
                } else {
                    n = writeCopies(producer, wire, seq, max);
                }
                seq += n;
                beat.tick();
                if (n == 0) {
                    waiting.spin(seq);
                }
            }
        }
    }

    /** Up to {@code max} messages from {@code seq} encoded into scratch and copied into one batch; returns how many. */
    private static int writeCopies(RingProducer producer, MessageWire wire, long seq, int max) {
        RingProducer.Batch batch = producer.batch();
        int n = 0;
        while (n < max) {
            MessageWire.Encoded encoded = wire.encode(seq + n);
            if (!batch.write(wire.typeId(), encoded.bytes, 0, encoded.length)) {
                break;
            }
            n++;
        }
        batch.finish();
        return n;
    }

    private void runJni(RingFile ring, MessageWire wire) {
        int length = wire.fixedLength();
        if (length == MessageWire.VARIABLE) {
            throw new UsageException("publish: --impl jni claims fixed-length records; " + wire.name()
                    + " messages each have their own length");
        }
        try (NativeRing nativeRing = NativeRing.open(ring.path(), Duration.ofSeconds(5));
                NativeRing.Producer producer = nativeRing.producer(Math.max(length, 8))) {
            MemorySegment records = producer.recordArea();
            Heartbeat beat = new Heartbeat(producer::heartbeat);
            Waiting waiting = new Waiting(ring.watchConsumer());
            long seq = 0;
            while (seq < count) {
                long index = producer.tryClaim(wire.typeId(), length);
                if (index < 0) {
                    waiting.spin(seq);
                    continue;
                }
                wire.encode(seq, records, index, length);
                producer.commit(index);
                seq++;
                beat.tick();
            }
        }
    }

    /** A full ring waited out: spin, look at the consumer now and then, give up after the timeout. */
    private final class Waiting {
        private final PeerWatch consumer;
        private long stuckAt = -1;
        private long sinceMs;
        private long spins;

        Waiting(PeerWatch consumer) {
            this.consumer = consumer;
        }

        void spin(long written) {
            Thread.onSpinWait();
            if ((++spins & 0xFFF) != 0) {
                return;
            }
            long now = System.currentTimeMillis();
            if (written != stuckAt) {
                stuckAt = written;
                sinceMs = now;
                return;
            }
            if (now - sinceMs > timeoutMs) {
                PeerState state = consumer.look(staleMs);
                throw new RingTimeoutException("room in the ring: the receiver " + state.name().toLowerCase(java.util.Locale.ROOT)
                        + " (" + written + " of " + count + " messages sent)", timeoutMs);
            }
        }
    }
}
