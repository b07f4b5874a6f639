package dev.sympathy.app;

import dev.sympathy.ring.RingFile;

/**
 * One way of driving the ring file: {@code ffm} (the pure-Java ring of the ring module),
 * {@code agrona} (Agrona's OneToOneRingBuffer at offset 4096, the reference peer) and
 * {@code jni} (the Rust ring through JNI, {@link JniImpl}); each is registered in {@link Impls}.
 *
 * <p>Every implementation claims the producer/consumer pid and keeps the heartbeats through
 * {@link RingFile}, so the peer-liveness checks work whatever is at the other end.
 */
interface RingImpl {
    /** The name given to {@code --impl}. */
    String name();

    /** The name in results ({@code params.producer}/{@code params.consumer}), e.g. {@code java-ffm}. */
    default String label() {
        return "java-" + name();
    }

    /** Attaches as the producer of {@code ring}. */
    ProducerEnd producer(RingFile ring);

    /** Attaches as the consumer of {@code ring}; every message is verified with {@code check}. */
    ConsumerEnd consumer(RingFile ring, MessageCheck check);

    /** The producing end. */
    interface ProducerEnd extends AutoCloseable {
        /** The most messages {@link #offerBatched} holds back (the Rust ipc loop's {@code DEFAULT_BATCH}). */
        int BATCH = 256;

        /** Writes {@code src[0, length)} as one message; false when the ring is full. */
        boolean offer(int typeId, byte[] src, int length);

        /**
         * Writes like {@link #offer}, but may hold the message back to publish it with the ones
         * after it, at most {@link #BATCH} together, as the Rust producer's per-message loop does
         * (one tail store and one hand-over of the records' lines per batch); false when the ring
         * is full, after publishing what was held. Implementations without batches write at once.
         */
        default boolean offerBatched(int typeId, byte[] src, int length) {
            return offer(typeId, src, length);
        }

        /**
         * Writes test messages {@code first, first + 1, ..} ({@link TestPattern}) of {@code size}
         * bytes, at most {@code max}, filled in place and published together where the ring has
         * a batch write ({@link WriteMode#BATCH}); returns how many were written, 0 when the ring
         * is full. Publishes anything {@link #offerBatched} held first.
         */
        int writeRun(int typeId, int size, int max, long first);

        /** Publishes what {@link #offerBatched} holds back (call before waiting, sleeping or leaving). */
        default void flush() {}

        /**
         * Writes {@code src[0, length)} zero-copy style: claims room in the ring, fills the claim
         * in place and commits it; false when the ring is full. With {@code commit} false the
         * claim is left open (the test hook of a producer that dies mid-claim).
         */
        boolean claim(int typeId, byte[] src, int length, boolean commit);

        void heartbeat();

        /**
         * After a failed write: waits for the consumer to release room, at most {@code nanos}
         * (the futex wait of {@code --wait futex}); implementations without one spin once.
         */
        default void awaitRoom(long nanos) {
            Thread.onSpinWait();
        }

        @Override
        void close();
    }

    /** The consuming end. */
    interface ConsumerEnd extends AutoCloseable {
        /** Verifies and counts up to {@code limit} messages; returns how many. */
        int poll(int limit);

        /**
         * Copies up to {@code limit} messages, unverified, to {@code out} (spinning while it is
         * full): the echo side of {@code latency}. Returns how many.
         */
        int echo(ProducerEnd out, int limit);

        /**
         * After an empty poll: waits for a message, at most {@code nanos} (the futex wait of
         * {@code --wait futex}); implementations without one spin once.
         */
        default void awaitMessage(long nanos) {
            Thread.onSpinWait();
        }

        void heartbeat();

        @Override
        void close();
    }
}
