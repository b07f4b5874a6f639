package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A producer of a many-to-one ring: writes records exactly as Agrona's
 * {@code ManyToOneRingBuffer} (2.6) does, so Agrona and the Rust ring read them and write among
 * them. Producers claim room with a compare-and-swap of the trailer's tail and do not register
 * in the header: any number may write at once, from any threads and processes (one instance
 * per thread; an instance keeps no state of its own beyond its ring, so sharing one is safe
 * too).
 *
 * <p>A full ring is back pressure: {@link #write} returns {@code false} and {@link #tryClaim}
 * returns {@link #INSUFFICIENT_CAPACITY}; nothing is dropped. A claim must be committed or
 * aborted soon: until then the consumer waits at it, and a consumer that judges it stalled (its
 * producer dead) turns it into padding ({@link ManyToOneConsumer#unblock()}).
 *
 * <pre>{@code
 * try (ManyToOneProducer producer = ring.manyToOneProducer()) {
 *     producer.write(3, bytes, 0, bytes.length);          // false when full
 *     long index = producer.tryClaim(3, 16);
 *     if (index >= 0) {
 *         producer.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, index, 42L);
 *         producer.commit(index);                          // or producer.abort(index)
 *     }
 * }
 * }</pre>
 */
public final class ManyToOneProducer implements AutoCloseable {
    /** What {@link #tryClaim} returns when the ring is full (Agrona's value). */
    public static final long INSUFFICIENT_CAPACITY = -2;

    private final MemorySegment buffer;
    private final int capacity;
    private final int mask;
    private final int maxMessageLength;
    private final long tailOffset;
    private final long headCacheOffset;
    private final long headOffset;
    private final long correlationOffset;
    /** The consumer's wake-up block: woken after each publish (only if it sleeps). */
    private final WakeBlock consumerWake;

    ManyToOneProducer(RingFile ring) {
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.mask = capacity - 1;
        this.maxMessageLength = ring.maxMessageLength();
        this.tailOffset = (long) capacity + TAIL_POSITION_OFFSET;
        this.headCacheOffset = (long) capacity + HEAD_CACHE_POSITION_OFFSET;
        this.headOffset = (long) capacity + HEAD_POSITION_OFFSET;
        this.correlationOffset = (long) capacity + CORRELATION_COUNTER_OFFSET;
        this.consumerWake = WakeBlock.consumer(ring.segment());
    }

    /** The ring region: claimed payloads are written here at the index {@link #tryClaim} gave. */
    public MemorySegment buffer() {
        return buffer;
    }

    /** Largest payload in bytes (capacity / 8). */
    public int maxMessageLength() {
        return maxMessageLength;
    }

    /**
     * Writes one message copied from {@code src[offset, offset + length)}: Agrona's
     * {@code write}: the negative length (in progress), the payload, the type, then the
     * positive length with release.
     *
     * @return {@code false} when the ring is full (back pressure: try again later)
     * @throws InvalidTypeIdException if {@code typeId < 1}
     * @throws MessageTooLongException if length is negative or above {@link #maxMessageLength()}
     * @throws IndexOutOfBoundsException if the range lies outside {@code src} (nothing is claimed)
     * @throws CorruptRecordException if the trailer's positions are impossible (a hostile file)
     */
    public boolean write(int typeId, byte[] src, int offset, int length) {
        checkTypeId(typeId);
        checkLength(length);
        // Before anything is claimed: a copy that failed half-way would leave a claim nobody ends.
        Objects.checkFromIndexSize(offset, length, src.length);
        int recordLength = length + RECORD_HEADER_LENGTH;
        int recordIndex = claimCapacity(recordLength);
        if (recordIndex < 0) {
            return false;
        }
        INT.setRelease(buffer, (long) recordIndex, -recordLength);
        VarHandle.releaseFence();
        MemorySegment.copy(src, offset, buffer, ValueLayout.JAVA_BYTE, (long) recordIndex + RECORD_HEADER_LENGTH,
                length);
        publish(recordIndex, typeId, recordLength);
        return true;
    }

    /** Writes one message copied from {@code src[offset, offset + length)}; see {@link #write(int, byte[], int, int)}. */
    public boolean write(int typeId, MemorySegment src, long offset, int length) {
        checkTypeId(typeId);
        checkLength(length);
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        int recordLength = length + RECORD_HEADER_LENGTH;
        int recordIndex = claimCapacity(recordLength);
        if (recordIndex < 0) {
            return false;
        }
        INT.setRelease(buffer, (long) recordIndex, -recordLength);
        VarHandle.releaseFence();
        MemorySegment.copy(src, offset, buffer, (long) recordIndex + RECORD_HEADER_LENGTH, length);
        publish(recordIndex, typeId, recordLength);
        return true;
    }

    /** The type, then the positive length with release: the record is the consumer's. */
    private void publish(int recordIndex, int typeId, int recordLength) {
        INT.set(buffer, (long) recordIndex + TYPE_OFFSET, typeId);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        INT.setRelease(buffer, (long) recordIndex, recordLength);
        consumerWake.wake(); // a consumer asleep in awaitMessage (only if it armed)
    }

    /**
     * Claims room for a message of {@code length} bytes to be written in place into
     * {@link #buffer()}; publish it with {@link #commit} or drop it with {@link #abort}, soon
     * (the consumer waits at it). Agrona's {@code tryClaim}: the negative length with release,
     * a release fence, then the type.
     *
     * @return the index of the payload in {@link #buffer()}, or {@link #INSUFFICIENT_CAPACITY}
     * @throws InvalidTypeIdException if {@code typeId < 1}
     * @throws MessageTooLongException if length is negative or above {@link #maxMessageLength()}
     * @throws CorruptRecordException if the trailer's positions are impossible (a hostile file)
     */
    public long tryClaim(int typeId, int length) {
        checkTypeId(typeId);
        checkLength(length);
        int recordLength = length + RECORD_HEADER_LENGTH;
        int recordIndex = claimCapacity(recordLength);
        if (recordIndex < 0) {
            return INSUFFICIENT_CAPACITY;
        }
        INT.setRelease(buffer, (long) recordIndex, -recordLength);
        VarHandle.releaseFence();
        INT.set(buffer, (long) recordIndex + TYPE_OFFSET, typeId);
        return recordIndex + RECORD_HEADER_LENGTH;
    }

    /**
     * Publishes a claimed message: its length made positive with release.
     *
     * @throws IllegalArgumentException if index was not returned by {@link #tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    public void commit(long index) {
        // SYNC POINT record-length: ClaimedRecords.commit publishes the length with release.
        ClaimedRecords.commit(buffer, capacity, index, true);
        consumerWake.wake();
    }

    /**
     * Drops a claimed message: it becomes padding that the consumer skips.
     *
     * @throws IllegalArgumentException if index was not returned by {@link #tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    public void abort(long index) {
        // SYNC POINT record-length: ClaimedRecords.abort publishes the length with release.
        ClaimedRecords.abort(buffer, capacity, index, true);
        consumerWake.wake();
    }

    /**
     * A new correlation id, unique among every user of the ring: a fetch-and-add on the
     * trailer's correlation counter (Agrona's {@code nextCorrelationId}).
     */
    public long nextCorrelationId() {
        return (long) LONG.getAndAdd(buffer, correlationOffset, 1L);
    }

    /** The tail as it is now: bytes ever claimed by every producer. */
    public long tailPosition() {
        return (long) LONG.getVolatile(buffer, tailOffset);
    }

    /** Nothing to release: a many-to-one producer holds nothing in the header. */
    @Override
    public void close() {
    }

    /**
     * Agrona's {@code ManyToOneRingBuffer.claimCapacity}, step for step: room for the aligned
     * record from the cached head (reloaded and cached when it shows none), a compare-and-swap
     * of the tail, and a padding record to the end of the area when the record does not fit
     * before it; when it fits neither there nor at the start, only the padding is claimed and
     * the ring reads as full.
     *
     * @return the record index, or {@link #INSUFFICIENT_CAPACITY} when the ring is full
     */
    private int claimCapacity(int recordLength) {
        final int requiredCapacity = align(recordLength, RECORD_ALIGNMENT);
        final MemorySegment buffer = this.buffer;
        final int capacity = this.capacity;
        final int mask = this.mask;

        // SYNC POINT head-cache: acquire pairs with the other producers' release of the cache.
        long head = (long) LONG.getAcquire(buffer, headCacheOffset);
        long tail;
        long newTail;
        int tailIndex;
        int padding;
        int writeIndex;
        do {
            // SYNC POINT mpsc-tail: acquire pairs with the other producers' compare-and-swap.
            tail = (long) LONG.getAcquire(buffer, tailOffset);
            final int availableCapacity = capacity - (int) (tail - head);
            if (requiredCapacity > availableCapacity) {
                head = loadHead(tail);
                if (requiredCapacity > (capacity - (int) (tail - head))) {
                    return (int) INSUFFICIENT_CAPACITY;
                }
                // SYNC POINT head-cache: release pairs with the other producers' acquire.
                LONG.setRelease(buffer, headCacheOffset, head);
            }
            newTail = tail + requiredCapacity;
            padding = 0;
            tailIndex = (int) tail & mask;
            writeIndex = tailIndex;
            final int toBufferEndLength = capacity - tailIndex;

            if (requiredCapacity > toBufferEndLength) {
                int headIndex = (int) head & mask;
                writeIndex = 0;
                if (requiredCapacity > headIndex) {
                    head = loadHead(tail);
                    headIndex = (int) head & mask;
                    if (requiredCapacity > headIndex) {
                        writeIndex = (int) INSUFFICIENT_CAPACITY;
                        newTail = tail; // claim nothing but the padding to the end of the area
                    }
                    LONG.setRelease(buffer, headCacheOffset, head); // SYNC POINT head-cache
                }
                padding = toBufferEndLength;
                newTail += padding;
            }
            // SYNC POINT mpsc-tail: the compare-and-swap orders the claim among producers.
        } while (!LONG.compareAndSet(buffer, tailOffset, tail, newTail));

        if (padding != 0) {
            INT.setRelease(buffer, (long) tailIndex, -padding);
            VarHandle.releaseFence();
            INT.set(buffer, (long) tailIndex + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
            // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
            INT.setRelease(buffer, (long) tailIndex, padding);
        }
        return writeIndex;
    }

    /**
     * Reads the consumer's head (after the {@code tail} it is compared with) and checks the
     * pair against a hostile file: possible positions at most a capacity apart. The head may be
     * past this tail (others claimed and the consumer read meanwhile: the compare-and-swap
     * fails), never more than a capacity behind it.
     */
    private long loadHead(long tail) {
        // SYNC POINT head: acquire pairs with RingConsumer's release of the head position.
        long head = (long) LONG.getAcquire(buffer, headOffset);
        if (head < 0 || head > MAX_POSITION || (head & (RECORD_ALIGNMENT - 1)) != 0 || tail < 0
                || tail > MAX_POSITION || (tail & (RECORD_ALIGNMENT - 1)) != 0 || tail - head > capacity) {
            RingFile.checkProducerPositions(head, tail, capacity);
        }
        return head;
    }

    private void checkLength(int length) {
        if (length < 0 || length > maxMessageLength) {
            throw new MessageTooLongException(length, maxMessageLength);
        }
    }

    private static void checkTypeId(int typeId) {
        if (typeId < 1) {
            throw new InvalidTypeIdException(typeId);
        }
    }
}
