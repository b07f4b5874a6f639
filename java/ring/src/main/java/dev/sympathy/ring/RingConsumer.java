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
 */
public final class RingConsumer implements AutoCloseable {
    private final RingFile ring;
    private final MemorySegment buffer;
    private final int capacity;
    private final int mask;
    private final int maxMessageLength;
    private final long headOffset;
    /** This consumer's wake-up block: where it sleeps in {@link #awaitMessage}. */
    private final WakeBlock sleep;
    /** The producer's wake-up block: woken after each release of the head. */
    private final WakeBlock producerWake;

    /** Bytes ever consumed; only this consumer writes it. */
    private long head;
    private boolean closed;

    RingConsumer(RingFile ring) {
        this.ring = ring;
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.mask = capacity - 1;
        this.maxMessageLength = ring.maxMessageLength();
        this.headOffset = (long) capacity + HEAD_POSITION_OFFSET;
        ring.claimConsumer();
        long loaded = (long) LONG.getVolatile(buffer, headOffset);
        long tail = (long) LONG.getVolatile(buffer, (long) capacity + TAIL_POSITION_OFFSET);
        if (tail - loaded < 0 || tail - loaded > capacity || ((loaded | tail) & (RECORD_ALIGNMENT - 1)) != 0) {
            ring.releaseConsumer();
            throw new CorruptRecordException(loaded, "head position " + loaded + " is impossible with tail "
                    + tail + " and capacity " + capacity);
        }
        this.head = loaded;
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
                    throw new CorruptRecordException(head + bytesRead, "record length " + recordLength
                            + " does not fit the " + (contiguousBlockLength - bytesRead) + " bytes to the end of the area");
                }
                final int typeId = (int) (header >>> 32);
                if (typeId == PADDING_MSG_TYPE_ID) {
                    bytesRead += alignedLength;
                    continue;
                }
                final int length = recordLength - RECORD_HEADER_LENGTH;
                if (typeId < 1 || length > maxMessageLength) {
                    throw new CorruptRecordException(head + bytesRead, typeId < 1
                            ? "record type " + typeId + " is neither a message type (>= 1) nor padding (-1)"
                            : "payload of " + length + " bytes exceeds the maximum " + maxMessageLength);
                }
                bytesRead += alignedLength;
                ++messagesRead;
                handler.onMessage(typeId, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
            }
        } finally {
            if (bytesRead != 0) {
                this.head = head + bytesRead;
                // SYNC POINT head: release pairs with RingProducer.loadHead's acquire.
                LONG.setRelease(buffer, headOffset, head + bytesRead);
                producerWake.wake(); // a producer asleep on a full ring (only if it armed)
            }
        }
        return messagesRead;
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

    /** The producer as this consumer sees it; see {@link RingFile#producerState(long)}. */
    public PeerState producerState(long staleMs) {
        return ring.producerState(staleMs);
    }

    /** Detaches: gives the consumer pid slot back. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            sleep.disarm(); // the producer stops fencing for us
            heartbeat();
            ring.releaseConsumer();
        }
    }
}
