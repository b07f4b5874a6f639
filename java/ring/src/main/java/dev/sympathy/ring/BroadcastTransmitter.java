package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * The one transmitter of a broadcast ring: writes records exactly as Agrona's
 * {@code BroadcastTransmitter} (2.6) does, so Agrona's receivers and the Rust ring's read them.
 * It never waits: there is no back pressure, and a receiver that falls a capacity behind is
 * lapped (it counts the lap and skips to the latest record). Registers as the ring's producer
 * ({@code producer_pid}, heartbeat), so only one transmits; it resumes at the trailer's tail.
 * Not thread-safe: one thread transmits.
 *
 * <pre>{@code
 * try (BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
 *     transmitter.transmit(1, bytes, 0, bytes.length);
 * }
 * }</pre>
 */
public final class BroadcastTransmitter implements AutoCloseable {
    private final RingFile ring;
    private final MemorySegment buffer;
    private final int capacity;
    private final int maxMessageLength;
    private final long tailIntentOffset;
    private final long tailOffset;
    private final long latestOffset;
    /** Bytes ever transmitted (padding included); only this transmitter writes the trailer's tail. */
    private long tail;
    private boolean closed;

    BroadcastTransmitter(RingFile ring) {
        this.ring = ring;
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.maxMessageLength = ring.maxMessageLength();
        this.tailIntentOffset = (long) capacity + BROADCAST_TAIL_INTENT_OFFSET;
        this.tailOffset = (long) capacity + BROADCAST_TAIL_OFFSET;
        this.latestOffset = (long) capacity + BROADCAST_LATEST_OFFSET;
        ring.claimProducer();
        try {
            ring.checkPositions();
            this.tail = (long) LONG.getAcquire(buffer, tailOffset);
        } catch (RuntimeException e) {
            ring.releaseProducer();
            throw e;
        }
    }

    /** Largest payload in bytes (capacity / 8). */
    public int maxMessageLength() {
        return maxMessageLength;
    }

    /**
     * Transmits one message copied from {@code src[offset, offset + length)}; never waits.
     *
     * @throws InvalidTypeIdException if {@code typeId < 1}
     * @throws MessageTooLongException if length is negative or above {@link #maxMessageLength()}
     * @throws IndexOutOfBoundsException if the range lies outside {@code src} (nothing is written)
     */
    public void transmit(int typeId, byte[] src, int offset, int length) {
        check(typeId, length);
        Objects.checkFromIndexSize(offset, length, src.length);
        int recordOffset = begin(typeId, length);
        MemorySegment.copy(src, offset, buffer, ValueLayout.JAVA_BYTE, (long) recordOffset + RECORD_HEADER_LENGTH,
                length);
        finish(length);
    }

    /** Transmits one message copied from {@code src[offset, offset + length)}; see {@link #transmit(int, byte[], int, int)}. */
    public void transmit(int typeId, MemorySegment src, long offset, int length) {
        check(typeId, length);
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        int recordOffset = begin(typeId, length);
        MemorySegment.copy(src, offset, buffer, (long) recordOffset + RECORD_HEADER_LENGTH, length);
        finish(length);
    }

    /**
     * Agrona's {@code transmit} up to the payload: signals the tail it is about to write up to
     * ({@code tail_intent}, release, then a release fence), pads the end of the area when the
     * record does not fit before it, and writes the record's length and type (plain stores).
     * Returns the record's index.
     */
    private int begin(int typeId, int length) {
        final MemorySegment buffer = this.buffer;
        int recordOffset = (int) tail & (capacity - 1);
        final int recordLength = RECORD_HEADER_LENGTH + length;
        final int recordLengthAligned = align(recordLength, RECORD_ALIGNMENT);
        final long newTail = tail + recordLengthAligned;
        final int toEndOfBuffer = capacity - recordOffset;
        if (toEndOfBuffer < recordLengthAligned) {
            signalTailIntent(newTail + toEndOfBuffer);
            INT.set(buffer, (long) recordOffset, toEndOfBuffer);
            INT.set(buffer, (long) recordOffset + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
            tail += toEndOfBuffer;
            recordOffset = 0;
        } else {
            signalTailIntent(newTail);
        }
        INT.set(buffer, (long) recordOffset, recordLength);
        INT.set(buffer, (long) recordOffset + TYPE_OFFSET, typeId);
        return recordOffset;
    }

    /** After the payload: {@code latest} then {@code tail}, each with release. */
    private void finish(int length) {
        final long recordStart = tail;
        tail = recordStart + align(RECORD_HEADER_LENGTH + length, RECORD_ALIGNMENT);
        // SYNC POINT broadcast-latest: release pairs with a receiver's acquire when it joins or resyncs.
        LONG.setRelease(buffer, latestOffset, recordStart);
        // SYNC POINT broadcast-tail: release pairs with BroadcastReceiver's acquire of the tail.
        LONG.setRelease(buffer, tailOffset, tail);
    }

    /**
     * Agrona's {@code signalTailIntent}: the store with release, then a release fence, so no
     * store of the record can become visible before the intent (a receiver validating against
     * it sees that its record may be overwritten).
     */
    private void signalTailIntent(long newTail) {
        // SYNC POINT broadcast-tail-intent: pairs with BroadcastReceiver's validating acquire.
        LONG.setRelease(buffer, tailIntentOffset, newTail);
        VarHandle.releaseFence();
    }

    private void check(int typeId, int length) {
        if (typeId < 1) {
            throw new InvalidTypeIdException(typeId);
        }
        if (length < 0 || length > maxMessageLength) {
            throw new MessageTooLongException(length, maxMessageLength);
        }
    }

    /** The transmitter's position: bytes ever transmitted, padding included. */
    public long position() {
        return tail;
    }

    /** Records a sign of life: now, in ms since the Unix epoch. */
    public void heartbeat() {
        ring.producerHeartbeat();
    }

    /**
     * Detaches (a clean exit): a last heartbeat, recorded as {@code producer_detached_ms}, then
     * the pid slot back; see {@link RingFile#releaseProducer()}.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            ring.releaseProducer();
        }
    }
}
