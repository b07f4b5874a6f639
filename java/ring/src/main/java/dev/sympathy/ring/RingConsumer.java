package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The single consumer of a ring: reads records as Agrona's {@code OneToOneRingBuffer.read} does,
 * handing each payload out in place and releasing the head once per batch.
 *
 * <p>Every record header is validated before use (length within the area, type >= 1 or
 * padding, payload within the maximum): a hostile file gives {@link CorruptRecordException}
 * with the position, never an out-of-bounds access. Not thread-safe: one thread consumes.
 *
 * <pre>{@code
 * int n = consumer.read((type, buffer, offset, length) -> sum += buffer.get(JAVA_BYTE, offset), 256);
 * }</pre>
 *
 * <p>{@link #controlledRead} lets the handler stop the read after a message or before it,
 * leaving that message at the head.
 */
public final class RingConsumer implements AutoCloseable {
    private final RingFile ring;
    private final MemorySegment buffer;
    private final int capacity;
    private final int mask;
    private final int maxMessageLength;
    private final long headOffset;
    /** The producer as this consumer watches it (progress of the tail, departures seen). */
    private final PeerWatch producerWatch;
    /** This consumer's wake-up block: where it sleeps in {@link #awaitMessage}. */
    private final WakeBlock sleep;
    /** The producer's wake-up block: woken after each release of the head. */
    private final WakeBlock producerWake;

    /**
     * Zero what was read before the head is released: a many-to-one ring's consumer
     * ({@link ManyToOneConsumer}), as Agrona's {@code ManyToOneRingBuffer.read}: its producers
     * do not pre-zero the header after their record, so the consumer leaves the area zeroed.
     */
    private final boolean zeroReleased;

    /** Bytes ever consumed; only this consumer writes it. */
    private long head;
    private boolean closed;

    RingConsumer(RingFile ring) {
        this(ring, false);
    }

    /** The consumer of a ring; {@code zeroReleased} for a many-to-one ring's. */
    RingConsumer(RingFile ring, boolean zeroReleased) {
        this.zeroReleased = zeroReleased;
        this.ring = ring;
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.mask = capacity - 1;
        this.maxMessageLength = ring.maxMessageLength();
        this.headOffset = (long) capacity + HEAD_POSITION_OFFSET;
        ring.claimConsumer();
        long loaded = (long) LONG.getVolatile(buffer, headOffset);
        long tail = (long) LONG.getVolatile(buffer, (long) capacity + TAIL_POSITION_OFFSET);
        try {
            RingFile.checkPositions(loaded, tail, capacity);
        } catch (CorruptRecordException e) {
            ring.releaseConsumer();
            throw e;
        }
        this.head = loaded;
        this.producerWatch = ring.watchProducer();
        this.sleep = WakeBlock.consumer(ring.segment());
        this.producerWake = WakeBlock.producer(ring.segment());
        sleep.disarm(); // a predecessor may have died armed
    }

    /**
     * Hands up to {@code limit} messages to {@code handler}, from the head to at most the end of
     * the record area, then releases the head once.
     *
     * @return the number of messages handed out (padding is skipped and not counted)
     * @throws CorruptRecordException if a record header is impossible
     */
    public int read(MessageHandler handler, int limit) {
        final MemorySegment buffer = this.buffer;
        final long head = this.head;
        final int headIndex = (int) head & mask;
        final int contiguousBlockLength = capacity - headIndex;
        int bytesRead = 0;
        int messagesRead = 0;
        try {
            while (bytesRead < contiguousBlockLength && messagesRead < limit) {
                final int recordIndex = headIndex + bytesRead;
                // SYNC POINT record-length: acquire pairs with RingProducer's publishing release.
                // One load takes length and type (the type is written before the length's release).
                final long header = (long) LONG.getAcquire(buffer, (long) recordIndex);
                final int recordLength = (int) header;
                if (recordLength <= 0) {
                    break;
                }
                final int alignedLength = align(recordLength, RECORD_ALIGNMENT);
                if (recordLength < RECORD_HEADER_LENGTH || alignedLength > contiguousBlockLength - bytesRead
                        || alignedLength < 0) {
                    throw badLength(head + bytesRead, recordLength, contiguousBlockLength - bytesRead);
                }
                final int typeId = (int) (header >>> 32);
                if (typeId == PADDING_MSG_TYPE_ID) {
                    bytesRead += alignedLength;
                    continue;
                }
                final int length = recordLength - RECORD_HEADER_LENGTH;
                if (typeId < 1 || length > maxMessageLength) {
                    throw badMessage(head + bytesRead, typeId, length);
                }
                bytesRead += alignedLength;
                ++messagesRead;
                handler.onMessage(typeId, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
            }
        } finally {
            if (bytesRead != 0) {
                release(head + bytesRead);
            }
        }
        return messagesRead;
    }

    /**
     * Reads like {@link #read}, but the handler decides after each message whether the read
     * goes on ({@link ControlledMessageHandler.Action#CONTINUE CONTINUE}), stops after it
     * ({@link ControlledMessageHandler.Action#BREAK BREAK}) or stops before it, leaving it
     * unconsumed ({@link ControlledMessageHandler.Action#ABORT ABORT}: the head is released up
     * to the message before, and the next read hands the same message out again). Agrona's
     * {@code controlledRead} without {@code COMMIT}; the Rust ring's
     * {@code Consumer::read_controlled}. Zero-copy, the same validation as {@link #read}, and
     * still one release of the head per call.
     *
     * <pre>{@code
     * // Take messages while their first byte is not 0; a 0 stays at the head.
     * int taken = consumer.controlledRead((type, buffer, offset, length) ->
     *         buffer.get(ValueLayout.JAVA_BYTE, offset) == 0 ? Action.ABORT : Action.CONTINUE, 100);
     * }</pre>
     *
     * @return the number of messages consumed (an aborted one is not counted; padding is skipped
     *     and not counted)
     * @throws CorruptRecordException if a record header is impossible (the messages before it
     *     were handed out and are released)
     */
    public int controlledRead(ControlledMessageHandler handler, int limit) {
        final MemorySegment buffer = this.buffer;
        final long head = this.head;
        final int headIndex = (int) head & mask;
        final int contiguousBlockLength = capacity - headIndex;
        int bytesRead = 0;
        int messagesRead = 0;
        try {
            while (bytesRead < contiguousBlockLength && messagesRead < limit) {
                final int recordIndex = headIndex + bytesRead;
                // SYNC POINT record-length: acquire pairs with RingProducer's publishing release.
                // One load takes length and type (the type is written before the length's release).
                final long header = (long) LONG.getAcquire(buffer, (long) recordIndex);
                final int recordLength = (int) header;
                if (recordLength <= 0) {
                    break;
                }
                final int alignedLength = align(recordLength, RECORD_ALIGNMENT);
                if (recordLength < RECORD_HEADER_LENGTH || alignedLength > contiguousBlockLength - bytesRead
                        || alignedLength < 0) {
                    throw badLength(head + bytesRead, recordLength, contiguousBlockLength - bytesRead);
                }
                final int typeId = (int) (header >>> 32);
                if (typeId == PADDING_MSG_TYPE_ID) {
                    bytesRead += alignedLength;
                    continue;
                }
                final int length = recordLength - RECORD_HEADER_LENGTH;
                if (typeId < 1 || length > maxMessageLength) {
                    throw badMessage(head + bytesRead, typeId, length);
                }
                // Counted before the call, as in read: a handler that throws consumes its message.
                bytesRead += alignedLength;
                ++messagesRead;
                final ControlledMessageHandler.Action action =
                        handler.onMessage(typeId, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
                if (action == ControlledMessageHandler.Action.ABORT) {
                    // The message stays in the ring: release only the records before it.
                    bytesRead -= alignedLength;
                    --messagesRead;
                    break;
                }
                if (action == ControlledMessageHandler.Action.BREAK) {
                    break;
                }
            }
        } finally {
            if (bytesRead != 0) {
                release(head + bytesRead);
            }
        }
        return messagesRead;
    }

    /**
     * Reads records from {@code from} without releasing any: the head stays where it is and the
     * producer cannot reuse what was read until {@link #releaseTo} gives it back. For a consumer
     * that must keep records until someone else confirms them (a forwarder to another host).
     * Reads at most up to the end of the record area (the next call goes on from the start),
     * with the validation of {@link #read}; an {@code ABORT} leaves the cursor at that record.
     *
     * <pre>{@code
     * long cursor = consumer.position();
     * cursor = consumer.readAhead(cursor, (position, type, buffer, offset, length) -> Action.CONTINUE, 16);
     * consumer.releaseTo(cursor); // everything read so far goes back to the producer
     * }</pre>
     *
     * @param from where to read: the head, or a position a previous call returned
     * @return the position after the last record taken and the padding skipped: the next call's
     *     {@code from}
     * @throws IllegalArgumentException if {@code from} is behind the head or more than the
     *     capacity ahead of it
     * @throws CorruptRecordException if a record header is impossible
     */
    public long readAhead(long from, ReadAheadHandler handler, int limit) {
        requireOneToOne();
        if (from < head || from - head > capacity || (from & (RECORD_ALIGNMENT - 1)) != 0) {
            throw new IllegalArgumentException("read-ahead position " + from + " is not a record position between the head "
                    + head + " and one capacity (" + capacity + " bytes) ahead of it");
        }
        final MemorySegment buffer = this.buffer;
        final int fromIndex = (int) from & mask;
        final int contiguousBlockLength = (int) Math.min(capacity - fromIndex, capacity - (from - head));
        int bytesRead = 0;
        int messagesRead = 0;
        while (bytesRead < contiguousBlockLength && messagesRead < limit) {
            final int recordIndex = fromIndex + bytesRead;
            // SYNC POINT record-length: acquire pairs with RingProducer's publishing release.
            final long header = (long) LONG.getAcquire(buffer, (long) recordIndex);
            final int recordLength = (int) header;
            if (recordLength <= 0) {
                break;
            }
            final int alignedLength = align(recordLength, RECORD_ALIGNMENT);
            if (recordLength < RECORD_HEADER_LENGTH || alignedLength > contiguousBlockLength - bytesRead
                    || alignedLength < 0) {
                throw badLength(from + bytesRead, recordLength, contiguousBlockLength - bytesRead);
            }
            final int typeId = (int) (header >>> 32);
            if (typeId == PADDING_MSG_TYPE_ID) {
                bytesRead += alignedLength;
                continue;
            }
            final int length = recordLength - RECORD_HEADER_LENGTH;
            if (typeId < 1 || length > maxMessageLength) {
                throw badMessage(from + bytesRead, typeId, length);
            }
            final ControlledMessageHandler.Action action = handler.onMessage(
                    from + bytesRead, typeId, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
            if (action == ControlledMessageHandler.Action.ABORT) {
                break;
            }
            bytesRead += alignedLength;
            ++messagesRead;
            if (action == ControlledMessageHandler.Action.BREAK) {
                break;
            }
        }
        return from + bytesRead;
    }

    /**
     * Gives the records before {@code position} back to the producer: the release that
     * {@link #readAhead} leaves to its caller. A position at or behind the head does nothing.
     *
     * @param position a position {@link #readAhead} returned or handed to its handler as a
     *     record's end, at most one capacity ahead of the head
     * @throws IllegalArgumentException if {@code position} is more than a capacity ahead of the
     *     head or not a record position
     */
    public void releaseTo(long position) {
        requireOneToOne();
        if (position <= head) {
            return;
        }
        if (position - head > capacity || (position & (RECORD_ALIGNMENT - 1)) != 0) {
            throw new IllegalArgumentException("release position " + position + " is not a record position within one capacity ("
                    + capacity + " bytes) of the head " + head);
        }
        release(position);
    }

    /** Read-ahead is a one-to-one ring's: a many-to-one ring's release zeroes what it gives back, one block at a time. */
    private void requireOneToOne() {
        if (zeroReleased) {
            throw new IllegalStateException("read-ahead and releaseTo are for one-to-one rings; a many-to-one consumer reads with read");
        }
    }

    /**
     * Moves the head to {@code newHead}: the records before it are the producer's again (zeroed
     * first on a many-to-one ring, the bytes never past the end of the area: a read stops there).
     */
    private void release(long newHead) {
        if (zeroReleased) {
            buffer.asSlice((int) head & mask, newHead - head).fill((byte) 0);
        }
        this.head = newHead;
        // SYNC POINT head: release pairs with RingProducer.loadHead's acquire.
        LONG.setRelease(buffer, headOffset, newHead);
        producerWake.wake(); // a producer asleep on a full ring (only if it armed)
    }

    /*
     * The release above and the errors below are out of line: javac copies a finally block into
     * every exit, and the errors' message concatenation is long; inline, they kept read and
     * controlledRead over the JIT's inlining limit (FreqInlineSize, 325 bytes of bytecode).
     */

    /** A record length that is too short, or too long for the room left: in the Rust ring's words. */
    private static CorruptRecordException badLength(long position, int recordLength, int room) {
        return new CorruptRecordException(position, recordLength < RECORD_HEADER_LENGTH
                ? "record length " + recordLength + " is shorter than the " + RECORD_HEADER_LENGTH + "-byte header"
                : "record length " + recordLength + " exceeds the " + room + " bytes it may span");
    }

    /** An unknown type, or a payload over the maximum: in the Rust ring's words. */
    private CorruptRecordException badMessage(long position, int typeId, int length) {
        return new CorruptRecordException(position, typeId < 1
                ? "type id " + typeId + " is neither a message type (>= 1) nor padding (-1)"
                : "record length " + (length + RECORD_HEADER_LENGTH) + " exceeds the "
                        + (maxMessageLength + RECORD_HEADER_LENGTH) + " bytes it may span");
    }

    /**
     * The opt-in idle wait: sleeps until the producer publishes a record at the head, or at most
     * {@code maxNanos}, in a futex wait on this consumer's wake-up block (the producer pays a
     * fence per message while a consumer sleeps this way; see docs/ring-layout.md). Returns at
     * once when a record is already there. Returning says only "look again": call {@link #read}.
     * Where there is no futex (not Linux) it parks for at most 50 µs.
     *
     * <pre>{@code
     * while (consumer.read(handler, 256) == 0) {
     *     consumer.awaitMessage(10_000_000); // then check the producer's liveness, a timeout...
     * }
     * }</pre>
     *
     * @return true if a record was ready without sleeping
     */
    public boolean awaitMessage(long maxNanos) {
        return sleep.sleep(this::recordAtHead, maxNanos);
    }

    private boolean recordAtHead() {
        // SYNC POINT record-length: acquire pairs with RingProducer's publishing release.
        return (int) INT.getAcquire(buffer, (long) ((int) head & mask)) > 0;
    }

    /** This consumer's wake-up block as {@code (armed, waiting, wake_seq)}, for tests and tools. */
    int[] wakeState() {
        return sleep.state();
    }

    /** Reads at most one message; see {@link #read}. */
    public int readOne(MessageHandler handler) {
        return read(handler, 1);
    }

    /** Records a sign of life in the trailer's consumer-heartbeat slot (ms since the Unix epoch). */
    public void heartbeat() {
        ring.consumerHeartbeat();
    }

    /** The consumer's position: bytes ever consumed. */
    public long position() {
        return head;
    }

    /**
     * The producer as this consumer sees it: the tail moving since this consumer's previous
     * look counts as a sign of life, so a foreign producer (Agrona's, Aeron's) reads as alive
     * while it writes; see {@link PeerState#classify}.
     *
     * @param staleMs the age of its last sign of life above which it reads as {@link PeerState#STALE}
     */
    public PeerState producerState(long staleMs) {
        return producerWatch.look(staleMs);
    }

    /**
     * This consumer's watch on the producer: {@link PeerWatch#hasLeft} tells a producer that
     * left while this consumer counted on it (drain, then report) from one that left a reused
     * ring before (wait for a new one).
     */
    public PeerWatch producerWatch() {
        return producerWatch;
    }

    /**
     * Detaches (a clean exit): a last heartbeat, recorded as {@code consumer_detached_ms}, then
     * the pid slot back; see {@link RingFile#releaseConsumer()}.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            sleep.disarm(); // the producer stops fencing for us
            ring.releaseConsumer();
        }
    }
}
