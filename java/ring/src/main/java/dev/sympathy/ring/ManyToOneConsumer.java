package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The one consumer of a many-to-one ring: reads as Agrona's {@code ManyToOneRingBuffer.read}
 * does (the one-to-one consumer's read, validation and liveness), and zeroes what it read
 * before it releases the head, since its producers do not pre-zero the header after their
 * records. Not thread-safe: one thread consumes.
 *
 * <p>A producer that dies inside a claim leaves a negative length at the head, where the
 * consumer waits forever: {@link #unblock()} (Agrona's) turns such a claim into padding, and
 * {@link #read(MessageHandler, int, long)} does so by itself once the head has been stuck
 * behind the tail for a given time (the producers' liveness timeout: a live producer's claim
 * unblocked under it corrupts its record, so the time must be longer than any claim takes).
 *
 * <pre>{@code
 * try (ManyToOneConsumer consumer = ring.manyToOneConsumer()) {
 *     // unblock a claim that has held the head for a second
 *     int n = consumer.read((type, buffer, offset, length) -> { ... }, 256, 1_000_000_000L);
 * }
 * }</pre>
 */
public final class ManyToOneConsumer implements AutoCloseable {
    private final RingFile ring;
    private final RingConsumer reader;
    private final MemorySegment buffer;
    private final int capacity;
    private final long headOffset;
    private final long tailOffset;

    /** The head when a stall was first seen ({@code -1}: not stalled), and when. */
    private long stalledHead = -1;
    private long stalledSinceNanos;
    /** Claims this consumer turned into padding. */
    private long unblocked;

    ManyToOneConsumer(RingFile ring) {
        this.ring = ring;
        this.reader = new RingConsumer(ring, true);
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.headOffset = (long) capacity + HEAD_POSITION_OFFSET;
        this.tailOffset = (long) capacity + TAIL_POSITION_OFFSET;
    }

    /**
     * Hands up to {@code limit} messages to {@code handler}, from the head to at most the end of
     * the record area, then zeroes the bytes read and releases the head once.
     *
     * @return the number of messages handed out (padding is skipped and not counted)
     * @throws CorruptRecordException if a record header is impossible
     */
    public int read(MessageHandler handler, int limit) {
        return reader.read(handler, limit);
    }

    /**
     * Reads as {@link #read(MessageHandler, int)}; when nothing could be read while the tail is
     * past the head and the head has not moved for {@code stallNanos} (a claim whose producer
     * died, most likely), calls {@link #unblock()}, so the next read goes on past it.
     *
     * @param stallNanos how long the head may wait at a claim before it is unblocked: longer
     *     than any live producer holds a claim (the CLI's {@code --unblock-after-ms}, 1000 ms by
     *     default)
     * @return the number of messages handed out
     */
    public int read(MessageHandler handler, int limit, long stallNanos) {
        int n = reader.read(handler, limit);
        long head = reader.position();
        if (n > 0 || head != stalledHead) {
            // Progress (or a first look at this head): a stall, if any, counts from now.
            stalledHead = n > 0 ? -1 : head;
            stalledSinceNanos = System.nanoTime();
            return n;
        }
        // SYNC POINT mpsc-tail: acquire pairs with the producers' compare-and-swap.
        if ((long) LONG.getAcquire(buffer, tailOffset) == head) {
            stalledSinceNanos = System.nanoTime(); // empty, not stalled
        } else if (System.nanoTime() - stalledSinceNanos >= stallNanos) {
            if (unblock()) {
                stalledHead = -1;
            }
            stalledSinceNanos = System.nanoTime();
        }
        return 0;
    }

    /**
     * Agrona's {@code ManyToOneRingBuffer.unblock}, exactly: when the head is behind the tail
     * and a claim that will never be finished holds it (a negative length at the head), turns
     * that claim into padding; when the head's header is still zero although later records
     * exist (a producer died between its claim and its first store), pads up to the first
     * non-zero header, after checking that nothing was written meanwhile. Call it only when the
     * producer of the claim at the head is known dead (or has held it far longer than any claim
     * takes): a live producer's record turned into padding is lost, and its commit then corrupts
     * the ring.
     *
     * @return true when a claim was turned into padding
     */
    public boolean unblock() {
        final MemorySegment buffer = this.buffer;
        final long headPosition = (long) LONG.getVolatile(buffer, headOffset);
        final long tailPosition = (long) LONG.getVolatile(buffer, tailOffset);
        if (headPosition == tailPosition) {
            return false;
        }
        final int mask = capacity - 1;
        final int consumerIndex = (int) (headPosition & mask) & -RECORD_ALIGNMENT;
        final int producerIndex = (int) (tailPosition & mask);

        boolean done = false;
        int length = (int) INT.getVolatile(buffer, (long) consumerIndex);
        if (length < 0) {
            INT.set(buffer, (long) consumerIndex + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
            // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
            INT.setRelease(buffer, (long) consumerIndex, -length);
            done = true;
        } else if (length == 0) {
            // From the head to the tail's index, or to the end of the area.
            final int limit = producerIndex > consumerIndex ? producerIndex : capacity;
            int i = consumerIndex + RECORD_ALIGNMENT;
            while (i < limit) {
                // The length word of every 8-byte slot: the first record header written after the gap.
                length = (int) INT.getVolatile(buffer, (long) i);
                if (length != 0) {
                    if (stillZeroed(buffer, i, consumerIndex)) {
                        INT.set(buffer, (long) consumerIndex + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
                        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
                        INT.setRelease(buffer, (long) consumerIndex, i - consumerIndex);
                        done = true;
                    }
                    break;
                }
                i += RECORD_ALIGNMENT;
            }
        }
        if (done) {
            unblocked++;
        }
        return done;
    }

    /** Agrona's {@code scanBackToConfirmStillZeroed}: the length words from {@code from - 8} down to {@code limit} are 0. */
    private static boolean stillZeroed(MemorySegment buffer, int from, int limit) {
        for (int i = from - RECORD_ALIGNMENT; i >= limit; i -= RECORD_ALIGNMENT) {
            if ((int) INT.getVolatile(buffer, (long) i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Claims this consumer turned into padding ({@link #unblock()}, by itself or by a stalled read). */
    public long unblockedCount() {
        return unblocked;
    }

    /**
     * Reads like {@link #read(MessageHandler, int)}, the handler deciding after each message
     * whether the read goes on; see {@link RingConsumer#controlledRead}.
     */
    public int controlledRead(ControlledMessageHandler handler, int limit) {
        return reader.controlledRead(handler, limit);
    }

    /**
     * The opt-in idle wait: sleeps until a producer publishes a record at the head, or at most
     * {@code maxNanos}; see {@link RingConsumer#awaitMessage}. Returning says only "look again".
     *
     * @return true if a record was ready without sleeping
     */
    public boolean awaitMessage(long maxNanos) {
        return reader.awaitMessage(maxNanos);
    }

    /** Records a sign of life in the trailer's consumer-heartbeat slot (ms since the Unix epoch). */
    public void heartbeat() {
        reader.heartbeat();
    }

    /** The consumer's position: bytes ever consumed. */
    public long position() {
        return reader.position();
    }

    /**
     * This consumer's watch on the producers: they do not register in the header, so the tail
     * moving is their only sign of life ({@link PeerState#ALIVE} while it moves).
     */
    public PeerWatch producerWatch() {
        return reader.producerWatch();
    }

    /** The ring this consumer reads. */
    public RingFile ring() {
        return ring;
    }

    /** Detaches (a clean exit); see {@link RingConsumer#close()}. */
    @Override
    public void close() {
        reader.close();
    }
}
