package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A receiver of a broadcast ring that copies each record out before it hands it out: Agrona's
 * {@code BroadcastReceiver} with {@code CopyBroadcastReceiver}'s copy (2.6), except that being
 * lapped is not an error. The transmitter never waits for receivers; one that falls a capacity
 * behind is lapped: it counts the lap ({@link #lappedCount()}) and goes on from the latest
 * record, and a record the transmitter overwrote while it was being copied is never handed out.
 * The only receiver offered: handing out the ring's bytes in place would race the transmitter.
 *
 * <p>Joins at the latest record when created (that record is the first received, if any). Does
 * not register in the header: any number receive, from any threads and processes (one instance
 * per thread), on a ring opened read-only too. Every record header is checked once the copy is
 * known good: a hostile file gives {@link CorruptRecordException}, never an out-of-bounds access.
 *
 * <pre>{@code
 * BroadcastReceiver receiver = ring.broadcastReceiver();
 * while (running) {
 *     if (receiver.receive((type, buffer, offset, length) -> handle(buffer.asSlice(offset, length)), 64) == 0) {
 *         Thread.onSpinWait();
 *     }
 * }
 * long laps = receiver.lappedCount();
 * }</pre>
 */
public final class BroadcastReceiver {
    /** {@link #receiveOne}: a lap was found after the copy; nothing was handed out. */
    private static final int LAPPED = -1;

    private final MemorySegment buffer;
    private final int capacity;
    private final int mask;
    private final int maxMessageLength;
    private final long tailIntentOffset;
    private final long tailOffset;
    private final long latestOffset;
    /** Where each record's payload is copied to before it is validated and handed out. */
    private final MemorySegment scratch;
    private final long joinedAt;
    /** The position of the next record to receive. */
    private long nextRecord;
    private long lapped;

    BroadcastReceiver(RingFile ring) {
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.mask = capacity - 1;
        this.maxMessageLength = ring.maxMessageLength();
        this.tailIntentOffset = (long) capacity + BROADCAST_TAIL_INTENT_OFFSET;
        this.tailOffset = (long) capacity + BROADCAST_TAIL_OFFSET;
        this.latestOffset = (long) capacity + BROADCAST_LATEST_OFFSET;
        this.scratch = Arena.ofAuto().allocate(Math.max(maxMessageLength, RECORD_ALIGNMENT), RECORD_ALIGNMENT);
        ring.checkPositions();
        this.joinedAt = latest();
        this.nextRecord = joinedAt;
    }

    /**
     * Hands the next record, if the transmitter has sent one, to {@code handler}: its payload
     * copied into this receiver's own buffer (valid until the next receive). After a lap it is
     * the latest record.
     *
     * @return 1 when a record was handed out, 0 when none is waiting or a lap was found while
     *     copying (counted; the next receive goes on from the latest record)
     * @throws CorruptRecordException if a record header is impossible
     */
    public int receive(MessageHandler handler) {
        return Math.max(receiveOne(handler), 0);
    }

    /**
     * Hands up to {@code limit} records to {@code handler}, one by one as {@link #receive(MessageHandler)}.
     *
     * @return the number of records handed out (fewer when none is left, or laps were found)
     * @throws CorruptRecordException if a record header is impossible
     */
    public int receive(MessageHandler handler, int limit) {
        int received = 0;
        for (int tries = 0; tries < limit; tries++) {
            int n = receiveOne(handler);
            if (n == 0) {
                break;
            }
            if (n > 0) {
                received++;
            }
        }
        return received;
    }

    /**
     * One receive: 1 a record handed out, 0 none waiting, {@link #LAPPED} a lap found after the
     * copy (counted, resynchronised, nothing handed out).
     */
    private int receiveOne(MessageHandler handler) {
        final MemorySegment buffer = this.buffer;
        // SYNC POINT broadcast-tail: acquire pairs with the transmitter's release of the tail.
        final long tail = (long) LONG.getAcquire(buffer, tailOffset);
        long cursor = nextRecord;
        if (tail <= cursor) {
            return 0;
        }
        if (!validate(cursor)) {
            lapped++;
            cursor = latest();
        }
        // The first position read from: the copy is good while the transmitter has not reached it a lap later.
        final long first = cursor;
        int index = (int) cursor & mask;
        long header = (long) LONG.get(buffer, (long) index);
        int length = (int) header;
        int typeId = (int) (header >>> 32);
        boolean padding = false;
        if (typeId == PADDING_MSG_TYPE_ID) {
            // Padding fills the end of the area; the record is at index 0.
            padding = true;
            if (length == capacity - index) {
                cursor += length;
                index = 0;
                header = (long) LONG.get(buffer, 0L);
                length = (int) header;
                typeId = (int) (header >>> 32);
                padding = false;
            }
        }
        final int payload = length - RECORD_HEADER_LENGTH;
        final boolean sane = !padding && length >= RECORD_HEADER_LENGTH && payload <= maxMessageLength
                && (long) index + align(length, RECORD_ALIGNMENT) <= capacity && typeId >= 1;
        if (sane) {
            MemorySegment.copy(buffer, (long) index + RECORD_HEADER_LENGTH, scratch, 0L, payload);
        }
        // Every load of the header and the copy before the validating load of the tail intent.
        VarHandle.acquireFence();
        if (!validate(first)) {
            lapped++;
            nextRecord = latest();
            return LAPPED;
        }
        if (!sane) {
            throw corrupt(cursor, padding, length, typeId, index);
        }
        nextRecord = cursor + align(length, RECORD_ALIGNMENT);
        handler.onMessage(typeId, scratch, 0L, payload);
        return 1;
    }

    /**
     * Agrona's {@code validate}: the transmitter has not begun to write a lap past {@code position}
     * ({@code position + capacity > tail_intent}), so the bytes from there on are as written.
     */
    private boolean validate(long position) {
        // SYNC POINT broadcast-tail-intent: acquire pairs with the transmitter's release (and fence).
        return position + capacity > (long) LONG.getAcquire(buffer, tailIntentOffset);
    }

    /** The latest record's position, where a receiver joins and resynchronises after a lap. */
    private long latest() {
        // SYNC POINT broadcast-latest: acquire pairs with the transmitter's release.
        long latest = (long) LONG.getAcquire(buffer, latestOffset);
        if (latest < 0 || latest > MAX_POSITION || (latest & (RECORD_ALIGNMENT - 1)) != 0) {
            throw new CorruptRecordException(latest, "the broadcast's latest position " + latest
                    + " is negative, misaligned (not a multiple of 8) or past 2^62");
        }
        return latest;
    }

    /** A record header that is impossible although no lap overwrote it: in the Rust ring's words. */
    private CorruptRecordException corrupt(long position, boolean padding, int length, int typeId, int index) {
        String why;
        if (padding) {
            why = "padding of " + length + " bytes at index " + index + " does not end at the end of the "
                    + capacity + "-byte area";
        } else if (length < RECORD_HEADER_LENGTH) {
            why = "record length " + length + " is shorter than the " + RECORD_HEADER_LENGTH + "-byte header";
        } else if (length - RECORD_HEADER_LENGTH > maxMessageLength || (long) index + align(length, RECORD_ALIGNMENT)
                > capacity) {
            why = "record length " + length + " exceeds the "
                    + Math.min(maxMessageLength + RECORD_HEADER_LENGTH, capacity - index) + " bytes it may span";
        } else {
            why = "type id " + typeId + " is neither a message type (>= 1) nor padding (-1)";
        }
        return new CorruptRecordException(position, why);
    }

    /** Laps so far: each time the transmitter overwrote records before this receiver got to them. */
    public long lappedCount() {
        return lapped;
    }

    /** The position of the next record to receive. */
    public long position() {
        return nextRecord;
    }

    /** The position this receiver joined at: the latest record when it was created. */
    public long joinedAt() {
        return joinedAt;
    }
}
