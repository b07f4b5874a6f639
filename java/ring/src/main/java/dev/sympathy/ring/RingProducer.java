package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.INT_UNALIGNED;
import static dev.sympathy.ring.SharedMemory.LONG;
import static dev.sympathy.ring.SharedMemory.LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The single producer of a ring: writes records exactly as Agrona's {@code OneToOneRingBuffer}
 * (2.x) does, so Agrona, Aeron's C ring and the Rust ring can read them.
 *
 * <p>A full ring is back pressure: {@link #write} returns {@code false} and {@link #tryClaim}
 * returns {@link #INSUFFICIENT_CAPACITY}; nothing is ever dropped. Not thread-safe: one thread
 * of one process produces.
 *
 * <pre>{@code
 * long index = producer.tryClaim(7, 16);
 * if (index >= 0) {
 *     producer.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, index, 42L);
 *     producer.commit(index);            // or producer.abort(index)
 * }
 * }</pre>
 */
public final class RingProducer implements AutoCloseable {
    /** What {@link #tryClaim} returns when the ring is full (Agrona's value). */
    public static final long INSUFFICIENT_CAPACITY = -2;

    private final RingFile ring;
    private final MemorySegment buffer;
    private final int capacity;
    private final int mask;
    private final int maxMessageLength;
    private final long tailOffset;
    private final long headCacheOffset;
    private final long headOffset;
    /** The consumer as this producer watches it (progress of the head, departures seen). */
    private final PeerWatch consumerWatch;

    /** This producer's wake-up block: where it sleeps in {@link #awaitRoom}. */
    private final WakeBlock sleep;
    /** The consumer's wake-up block: woken after each publish. */
    private final WakeBlock consumerWake;
    /** The head seen by the last claim that found the ring full ({@link #awaitRoom} waits for it to move). */
    private long headWhenFull = -1;

    /** Bytes ever claimed; only this producer writes it. */
    private long tail;
    /** The consumer's head as last read: may be stale (behind), never ahead. */
    private long cachedHead;
    private boolean closed;

    RingProducer(RingFile ring) {
        this.ring = ring;
        this.buffer = ring.ringRegion();
        this.capacity = ring.capacity();
        this.mask = capacity - 1;
        this.maxMessageLength = ring.maxMessageLength();
        this.tailOffset = (long) capacity + TAIL_POSITION_OFFSET;
        this.headCacheOffset = (long) capacity + HEAD_CACHE_POSITION_OFFSET;
        this.headOffset = (long) capacity + HEAD_POSITION_OFFSET;
        this.sleep = WakeBlock.producer(ring.segment());
        this.consumerWake = WakeBlock.consumer(ring.segment());
        ring.claimProducer();
        try {
            // SYNC POINT head: acquire pairs with RingConsumer's release of the head position.
            long head = (long) LONG.getAcquire(buffer, headOffset);
            long trailerTail = (long) LONG.getVolatile(buffer, tailOffset);
            this.tail = resumePosition(head, trailerTail);
            this.cachedHead = loadHead();
            sleep.disarm(); // a predecessor may have died armed
        } catch (RuntimeException e) {
            ring.releaseProducer();
            throw e;
        }
        this.consumerWatch = ring.watchConsumer();
    }

    /**
     * Where a producer taking over the ring resumes (the port of the Rust producer's
     * {@code resume_position}, docs/verification.md bugs 1 to 3). Its predecessor may have died:
     * <ul>
     *   <li>inside a claim, after storing the tail (this producer and Agrona store it when they
     *       claim): a negative length below the trailer's tail, at which the consumer would wait
     *       forever. Claims below the tail are turned into padding ({@link #unblockDeadClaims},
     *       Agrona's {@code unblock}); nobody will finish them, the role is ours now;</li>
     *   <li>after publishing a record and before storing the tail (the Rust producer's order):
     *       complete records past the trailer's tail, perhaps already read (the head is then past
     *       the tail). Starting at the tail would overwrite a published record under the
     *       consumer. So the producer starts at the later of head and tail and walks over
     *       complete records to the first header that is not one (zero, or a claim in progress
     *       at the tail, which it overwrites).</li>
     * </ul>
     * Impossible positions are left for {@link #loadHead} to report.
     */
    private long resumePosition(long head, long trailerTail) {
        if (!aligned(head) || !aligned(trailerTail) || trailerTail - head > capacity || head - trailerTail > capacity) {
            return trailerTail;
        }
        unblockDeadClaims(head, trailerTail);
        long position = Math.max(head, trailerTail);
        while (position - head < capacity) {
            int index = (int) position & mask;
            // SYNC POINT record-length: acquire pairs with the predecessor's publishing release.
            int length = (int) INT.getAcquire(buffer, (long) index);
            long aligned = alignLong(length);
            if (length < RECORD_HEADER_LENGTH || aligned > capacity - index || position + aligned - head > capacity) {
                break;
            }
            position += aligned;
        }
        return position;
    }

    /**
     * Turns claims left unfinished between {@code head} and {@code trailerTail} into padding
     * that the consumer skips; stops at a zero or impossible header (nothing to skip by).
     */
    private void unblockDeadClaims(long head, long trailerTail) {
        long position = head;
        while (position < trailerTail) {
            int index = (int) position & mask;
            // SYNC POINT record-length: acquire pairs with the predecessor's publishing release.
            int length = (int) INT.getAcquire(buffer, (long) index);
            long record = Math.abs((long) length);
            if (record < RECORD_HEADER_LENGTH || alignLong(record) > capacity - index) {
                break;
            }
            if (length < 0) {
                INT.set(buffer, (long) index + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
                // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
                INT.setRelease(buffer, (long) index, (int) record);
            }
            position += alignLong(record);
        }
    }

    private static boolean aligned(long position) {
        return position >= 0 && (position & (RECORD_ALIGNMENT - 1)) == 0;
    }

    private static long alignLong(long length) {
        return (length + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
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
     * Writes one message copied from {@code src[offset, offset + length)}.
     *
     * @return {@code false} when the ring is full (back pressure: try again later)
     * @throws InvalidTypeIdException if {@code typeId < 1}
     * @throws MessageTooLongException if length is negative or above {@link #maxMessageLength()}
     * @throws IndexOutOfBoundsException if the range lies outside {@code src} (nothing is claimed)
     */
    public boolean write(int typeId, byte[] src, int offset, int length) {
        checkTypeId(typeId);
        checkLength(length);
        requireNoBatch();
        // Before anything is claimed: a copy that failed half-way would leave a claim nobody ends.
        Objects.checkFromIndexSize(offset, length, src.length);
        int recordLength = length + RECORD_HEADER_LENGTH;
        int recordIndex = begin(typeId, recordLength);
        if (recordIndex < 0) {
            return false;
        }
        copyPayload(src, offset, recordIndex + RECORD_HEADER_LENGTH, length);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        INT.setRelease(buffer, (long) recordIndex, recordLength);
        consumerWake.wake(); // a consumer asleep in awaitMessage (only if it armed)
        return true;
    }

    /** Payloads up to this many bytes are copied by {@link #copyShort}, not a bulk copy. */
    private static final int SHORT_COPY = 16;
    private static final VarHandle ARRAY_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN)
            .withInvokeExactBehavior();
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN)
            .withInvokeExactBehavior();

    /**
     * Claims room for a record of {@code recordLength} bytes and marks it in progress: the
     * negative length and the type in one store (Agrona stores them apart), ordered before the
     * payload. Returns the record's index, or a negative value when the ring is full.
     */
    private int begin(int typeId, int recordLength) {
        int recordIndex = claimCapacity(recordLength);
        if (recordIndex >= 0) {
            LONG.setRelease(buffer, (long) recordIndex, header(typeId, -recordLength)); // in progress
            VarHandle.releaseFence();
        }
        return recordIndex;
    }

    /** Copies {@code src[offset, offset + length)} to the payload at {@code payloadIndex}. */
    private void copyPayload(byte[] src, int offset, long payloadIndex, int length) {
        if (length <= SHORT_COPY) {
            copyShort(src, offset, buffer, payloadIndex, length);
        } else {
            MemorySegment.copy(src, offset, buffer, ValueLayout.JAVA_BYTE, payloadIndex, length);
        }
    }

    /**
     * Copies {@code length <= 16} bytes with two overlapping word moves (one at the start, one
     * ending at the end), as the Rust ring's {@code short_bytes}: a 4-byte message otherwise
     * pays for a bulk-copy call (bounds and liveness checks, a stub) several times its own cost.
     * Array accesses are bounds-checked, so a short {@code src} still throws.
     */
    private static void copyShort(byte[] src, int offset, MemorySegment dst, long at, int length) {
        if (length >= 8) {
            long head = (long) ARRAY_LONG.get(src, offset);
            long tail = (long) ARRAY_LONG.get(src, offset + length - 8);
            LONG_UNALIGNED.set(dst, at, head);
            LONG_UNALIGNED.set(dst, at + length - 8, tail);
        } else if (length >= 4) {
            int head = (int) ARRAY_INT.get(src, offset);
            int tail = (int) ARRAY_INT.get(src, offset + length - 4);
            INT_UNALIGNED.set(dst, at, head);
            INT_UNALIGNED.set(dst, at + length - 4, tail);
        } else {
            for (int k = 0; k < length; k++) {
                dst.set(ValueLayout.JAVA_BYTE, at + k, src[offset + k]);
            }
        }
    }

    /** Writes one message copied from {@code src[offset, offset + length)}; see {@link #write(int, byte[], int, int)}. */
    public boolean write(int typeId, MemorySegment src, long offset, int length) {
        checkTypeId(typeId);
        checkLength(length);
        requireNoBatch();
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        int recordLength = length + RECORD_HEADER_LENGTH;
        int recordIndex = begin(typeId, recordLength);
        if (recordIndex < 0) {
            return false;
        }
        MemorySegment.copy(src, offset, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        INT.setRelease(buffer, (long) recordIndex, recordLength);
        consumerWake.wake(); // a consumer asleep in awaitMessage (only if it armed)
        return true;
    }

    /**
     * Writes messages {@code from, from + 1, ...} of {@code messages} (each whole segment is one
     * payload) until one does not fit, as one batch: they become visible together (see
     * {@link #batch()}).
     *
     * @return how many were written (fewer than {@code count} means the ring filled up)
     * @throws MessageTooLongException if a message is longer than {@link #maxMessageLength()}
     *     (the messages before it are published)
     * @throws IllegalStateException if a {@link #batch()} is open with messages in it
     */
    public int writeBatch(int typeId, MemorySegment[] messages, int from, int count) {
        checkTypeId(typeId);
        requireNoBatch();
        Objects.checkFromIndexSize(from, count, messages.length);
        int written = 0;
        try {
            while (written < count) {
                MemorySegment message = messages[from + written];
                if (message.byteSize() > maxMessageLength) {
                    throw new MessageTooLongException(message.byteSize(), maxMessageLength);
                }
                int length = (int) message.byteSize();
                int recordIndex = reserve(align(length + RECORD_HEADER_LENGTH, RECORD_ALIGNMENT));
                if (recordIndex < 0) {
                    break;
                }
                MemorySegment.copy(message, 0, buffer, recordIndex + RECORD_HEADER_LENGTH, length);
                hold(recordIndex, header(typeId, length + RECORD_HEADER_LENGTH));
                written++;
            }
        } finally {
            publishBatch();
        }
        return written;
    }

    /**
     * Writes up to {@code max} messages of type {@code typeId} with {@code length}-byte payloads
     * as one batch, filling message {@code k} (counting from 0) in place with
     * {@code fill.fill(k, buffer, offset, length)}; the Rust producer's {@code try_write_batch}.
     * The messages become visible together: the first record's header is stored last, with
     * release, then the tail. The bytes left in the ring are those of the same messages written
     * one by one (and by Agrona), but each message costs only its payload and one header store:
     * the room check, the pre-zeroing of the next header and the tail store are paid once per
     * contiguous run of records (the one-record path handles the wrap and a possibly full ring).
     * If {@code fill} throws, nothing of the batch is published and the producer's position
     * stays where the batch started.
     *
     * <pre>{@code
     * int n = producer.writeBatch(1, 4, 256, (k, buffer, offset, length) ->
     *         buffer.set(ValueLayout.JAVA_INT_UNALIGNED, offset, k));
     * }</pre>
     *
     * @return how many were written: fewer than {@code max} when the ring filled up, 0 when it
     *     is full (back pressure)
     * @throws IllegalStateException if a {@link #batch()} is open with messages in it
     */
    public int writeBatch(int typeId, int length, int max, MessageFiller fill) {
        checkTypeId(typeId);
        checkLength(length);
        requireNoBatch();
        final int recordLength = length + RECORD_HEADER_LENGTH;
        final int aligned = align(recordLength, RECORD_ALIGNMENT);
        final long header = header(typeId, recordLength);
        final MemorySegment buffer = this.buffer;
        final long start = tail;
        int written = 0;
        try {
            while (written < max) {
                final long tail = this.tail;
                final int index = (int) tail & mask;
                // Whole records that fit before the end of the area and before the cached head,
                // leaving the 8 bytes of the header after the last one (claimCapacity's rule).
                final int fit = (roomAhead(tail) - RECORD_HEADER_LENGTH) / aligned;
                if (fit <= 0) {
                    // At the wrap or possibly full: the one-record path pads and refreshes the head.
                    final int at = reserve(aligned);
                    if (at < 0) {
                        break;
                    }
                    fill.fill(written, buffer, at + RECORD_HEADER_LENGTH, length);
                    hold(at, header);
                    written++;
                    continue;
                }
                final int n = Math.min(fit, max - written);
                for (int k = 0; k < n; k++) {
                    final int at = index + k * aligned;
                    fill.fill(written + k, buffer, at + RECORD_HEADER_LENGTH, length);
                    hold(at, header); // invisible until the held-back first header is released
                }
                written += n;
                this.tail = tail + (long) n * aligned;
            }
        } catch (RuntimeException | Error e) {
            // Nothing of the batch is published: the first header was never stored.
            this.tail = start;
            batchFirstIndex = -1;
            throw e;
        }
        publishBatch();
        return written;
    }

    /**
     * The producer's batch: records written through it become visible together when it is
     * {@linkplain Batch#finish finished}, which costs the consumer one cache-line handover per
     * batch rather than per record, and the producer one tail store; the Rust producer's
     * {@code Producer::batch}. One reusable object per producer (no allocation). While it holds
     * messages, the one-message writes and claims throw {@link IllegalStateException};
     * {@link #close} finishes it.
     *
     * <pre>{@code
     * RingProducer.Batch batch = producer.batch();
     * while (batch.size() < 256 && batch.write(1, bytes, 0, bytes.length)) {
     *     // fill bytes with the next message
     * }
     * batch.finish(); // publishes them, also when the ring filled up
     * }</pre>
     */
    public Batch batch() {
        return batch;
    }

    /** See {@link RingProducer#batch()}. Not thread-safe, as its producer. */
    public final class Batch {
        private Batch() {}

        /**
         * Adds one message copied from {@code src[offset, offset + length)}, invisible until
         * {@link #finish}.
         *
         * @return {@code false} when the ring is full: finish the batch and let the consumer
         *     catch up (a full ring at the wrap may have added its padding to the batch, as a
         *     one-by-one write would have)
         * @throws InvalidTypeIdException if {@code typeId < 1}
         * @throws MessageTooLongException if length is negative or above {@link #maxMessageLength()}
         * @throws IndexOutOfBoundsException if the range lies outside {@code src} (nothing is added)
         */
        public boolean write(int typeId, byte[] src, int offset, int length) {
            checkTypeId(typeId);
            checkLength(length);
            Objects.checkFromIndexSize(offset, length, src.length);
            final int recordLength = length + RECORD_HEADER_LENGTH;
            final int aligned = align(recordLength, RECORD_ALIGNMENT);
            final long tail = RingProducer.this.tail;
            int recordIndex = (int) tail & mask;
            // The fast path, kept small so the JIT inlines this method into its caller: record and
            // next header fit before the end of the area and before the cached head (reserve's
            // first case, without a head refresh). The wrap, a refresh and a full ring: reserve.
            if (aligned + RECORD_HEADER_LENGTH <= roomAhead(tail)) {
                RingProducer.this.tail = tail + aligned;
            } else {
                recordIndex = reserve(aligned);
                if (recordIndex < 0) {
                    return false;
                }
            }
            copyPayload(src, offset, recordIndex + RECORD_HEADER_LENGTH, length);
            hold(recordIndex, header(typeId, recordLength));
            batchCount++;
            return true;
        }

        /** Messages written since the batch was last finished. */
        public int size() {
            return batchCount;
        }

        /** Publishes the batch (nothing to do when it is empty); returns its number of messages. */
        public int finish() {
            int n = batchCount;
            batchCount = 0;
            publishBatch();
            return n;
        }
    }

    private final Batch batch = new Batch();
    /** The index of the open batch's first record, whose header is held back; -1: none. */
    private int batchFirstIndex = -1;
    /** The held-back header (length and type) of the batch's first record. */
    private long batchFirstHeader;
    /** Messages in {@link #batch} since its last finish. */
    private int batchCount;

    /**
     * Bytes free from {@code tail} to the end of the area or to the cached head, whichever comes
     * first: the room the batch paths fill without a head refresh or a wrap.
     */
    private int roomAhead(long tail) {
        return Math.min(capacity - ((int) tail & mask), capacity - (int) (tail - cachedHead));
    }

    private static long header(int typeId, int recordLength) {
        return ((long) typeId << 32) | (recordLength & 0xFFFF_FFFFL);
    }

    /**
     * Holds {@code header} back as the batch's first (published last) or, when the batch has
     * one, stores it now: the consumer cannot reach it before the first header is released.
     */
    private void hold(int index, long header) {
        if (batchFirstIndex < 0) {
            batchFirstIndex = index;
            batchFirstHeader = header;
        } else {
            LONG.set(buffer, (long) index, header); // published by the first header's release
        }
    }

    /**
     * Publishes the records held since the batch began, in the Rust batch's order: the header
     * after the last record pre-zeroed (the consumer stops there), the first record's header
     * released, then the tail. A producer that dies between the two releases leaves complete
     * records past the trailer's tail, which a successor walks over ({@link #resumePosition});
     * the tail first would leave a zero header below the tail, where the consumer would wait
     * forever.
     */
    private void publishBatch() {
        final int first = batchFirstIndex;
        if (first < 0) {
            return;
        }
        batchFirstIndex = -1;
        LONG.set(buffer, (long) ((int) tail & mask), 0L);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        LONG.setRelease(buffer, (long) first, batchFirstHeader);
        // The trailer's tail, as publishTail stores it: read by a successor's resumePosition and
        // by the peer watch (progress), never to find records.
        LONG.setRelease(buffer, tailOffset, tail);
        consumerWake.wake(); // a consumer asleep in awaitMessage (only if it armed)
    }

    private void requireNoBatch() {
        if (batchFirstIndex >= 0) {
            throw new IllegalStateException("a batch holds unpublished messages: finish it first (batch().finish())");
        }
    }

    /**
     * The room of {@link #claimCapacity} for a batch: the same checks, head refreshes, head-cache
     * stores and padding as a one-by-one write (so the bytes come out the same), but the tail
     * moves only in this producer's field and the headers (padding included) go through
     * {@link #hold}; nothing is pre-zeroed (the batch's publish zeroes the header after its last
     * record; those in between are overwritten by the next record's).
     *
     * @return the record index, or -1 when the ring is full
     */
    private int reserve(int alignedRecordLength) {
        final int requiredCapacity = alignedRecordLength + RECORD_HEADER_LENGTH;
        final long tail = this.tail;
        final long head = headWithRoomFor(requiredCapacity);
        if (head < 0) {
            return -1;
        }
        final int recordIndex = (int) tail & mask;
        final int toBufferEndLength = capacity - recordIndex;
        if (requiredCapacity <= toBufferEndLength || alignedRecordLength == toBufferEndLength) {
            this.tail = tail + alignedRecordLength;
            return recordIndex;
        }
        // Full at the start: still pad to the end, as Agrona does.
        final int writeIndex = fitsAtStart(requiredCapacity, head) ? 0 : -1;
        hold(recordIndex, header(PADDING_MSG_TYPE_ID, toBufferEndLength));
        this.tail = tail + toBufferEndLength + (writeIndex < 0 ? 0 : alignedRecordLength);
        return writeIndex;
    }

    /**
     * Claims room for a message of {@code length} bytes to be written in place into
     * {@link #buffer()}; publish it with {@link #commit} or drop it with {@link #abort}.
     *
     * @return the index of the payload in {@link #buffer()}, or {@link #INSUFFICIENT_CAPACITY}
     */
    public long tryClaim(int typeId, int length) {
        checkTypeId(typeId);
        checkLength(length);
        requireNoBatch();
        int recordIndex = begin(typeId, length + RECORD_HEADER_LENGTH);
        if (recordIndex < 0) {
            return INSUFFICIENT_CAPACITY;
        }
        return recordIndex + RECORD_HEADER_LENGTH;
    }

    /**
     * Publishes a claimed message.
     *
     * @throws IllegalArgumentException if index was not returned by {@link #tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    public void commit(long index) {
        // SYNC POINT record-length: ClaimedRecords.commit publishes the length with release.
        ClaimedRecords.commit(buffer, capacity, index, false);
        consumerWake.wake();
    }

    /**
     * Drops a claimed message: it becomes padding that consumers skip.
     *
     * @throws IllegalArgumentException if index was not returned by {@link #tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    public void abort(long index) {
        // SYNC POINT record-length: ClaimedRecords.abort publishes the length with release.
        ClaimedRecords.abort(buffer, capacity, index, false);
        consumerWake.wake();
    }

    /**
     * The opt-in idle wait on a full ring: after a write or claim failed for lack of room, sleeps
     * until the consumer releases some, or at most {@code maxNanos}, in a futex wait on this
     * producer's wake-up block (the consumer pays a fence per read batch while a producer sleeps
     * this way; see docs/ring-layout.md). Returns at once if the head has moved since. Returning
     * says only "try again". Where there is no futex (not Linux) it parks for at most 50 µs.
     *
     * <pre>{@code
     * while (!producer.write(1, bytes, 0, bytes.length)) {
     *     producer.awaitRoom(10_000_000); // then check the consumer's liveness, a timeout...
     * }
     * }</pre>
     *
     * @return true if room was released without sleeping
     */
    public boolean awaitRoom(long maxNanos) {
        return sleep.sleep(this::headMoved, maxNanos);
    }

    private boolean headMoved() {
        // SYNC POINT head: acquire pairs with RingConsumer's release of the head position.
        return (long) LONG.getAcquire(buffer, headOffset) != headWhenFull;
    }

    /** This producer's wake-up block as {@code (armed, waiting, wake_seq)}, for tests and tools. */
    int[] wakeState() {
        return sleep.state();
    }

    /** Records a sign of life: now, in ms since the Unix epoch. */
    public void heartbeat() {
        ring.producerHeartbeat();
    }

    /**
     * The consumer as this producer sees it: the head moving since this producer's previous
     * look counts as a sign of life, as does a trailer heartbeat newer than the last clean
     * detach, so an Agrona-only consumer reads as alive; see {@link PeerState#classify}.
     *
     * @param staleMs the age of its last sign of life above which it reads as {@link PeerState#STALE}
     */
    public PeerState consumerState(long staleMs) {
        return consumerWatch.look(staleMs);
    }

    /** This producer's watch on the consumer; see {@link RingConsumer#producerWatch()}. */
    public PeerWatch consumerWatch() {
        return consumerWatch;
    }

    /** The producer's position: bytes ever claimed. */
    public long position() {
        return tail;
    }

    /**
     * Detaches (a clean exit): a last heartbeat, recorded as {@code producer_detached_ms}, then
     * the pid slot back; see {@link RingFile#releaseProducer()}.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            batch.finish(); // what a batch holds is published, as the Rust batch's drop does
            sleep.disarm(); // the consumer stops fencing for us
            ring.releaseProducer();
        }
    }

    /**
     * Agrona's claimCapacity (OneToOneRingBuffer, 2.x), with tail and head cache also held in
     * fields: room for the aligned record plus the next record header (pre-zeroed so the
     * consumer stops there); a padding record fills the end of the area when the record does
     * not fit before it.
     *
     * @return the record index, or a negative value when the ring is full
     */
    private int claimCapacity(int recordLength) {
        final int alignedRecordLength = align(recordLength, RECORD_ALIGNMENT);
        final int requiredCapacity = alignedRecordLength + RECORD_HEADER_LENGTH;
        final int capacity = this.capacity;
        final MemorySegment buffer = this.buffer;
        final long tail = this.tail;
        final long head = headWithRoomFor(requiredCapacity);
        if (head < 0) {
            return (int) INSUFFICIENT_CAPACITY;
        }

        int padding = 0;
        final int recordIndex = (int) tail & mask;
        final int toBufferEndLength = capacity - recordIndex;
        int writeIndex = recordIndex;
        long newTail = tail + alignedRecordLength;

        if (alignedRecordLength == toBufferEndLength) {
            // Ends exactly at the end of the area: the next header is at index 0.
            publishTail(newTail);
            LONG.set(buffer, 0L, 0L);
            return recordIndex;
        }
        if (requiredCapacity > toBufferEndLength) {
            writeIndex = 0;
            if (!fitsAtStart(requiredCapacity, head)) {
                writeIndex = (int) INSUFFICIENT_CAPACITY;
                newTail = tail; // still pad to the end, as Agrona does
            }
            padding = toBufferEndLength;
            newTail += padding;
        }

        publishTail(newTail);
        if (padding != 0) {
            LONG.set(buffer, 0L, 0L);
            INT.setRelease(buffer, (long) recordIndex, -padding);
            VarHandle.releaseFence();
            INT.set(buffer, (long) recordIndex + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
            // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
            INT.setRelease(buffer, (long) recordIndex, padding);
        }
        if (writeIndex >= 0) {
            LONG.set(buffer, (long) writeIndex + alignedRecordLength, 0L); // pre-zero the next header
        }
        return writeIndex;
    }

    /**
     * Agrona's room check: the consumer's head if {@code requiredCapacity} bytes fit between the
     * tail and it (the cached head when that shows room, else the head reloaded and cached), or
     * -1 when the ring is full (remembered for {@link #awaitRoom}).
     */
    private long headWithRoomFor(int requiredCapacity) {
        long head = cachedHead;
        if (requiredCapacity > capacity - (int) (tail - head)) {
            head = loadHead();
            if (requiredCapacity > capacity - (int) (tail - head)) {
                headWhenFull = head;
                return -1;
            }
            cacheHead(head);
        }
        return head;
    }

    /**
     * Whether a record needing {@code requiredCapacity} bytes fits at the start of the area
     * (a wrap): before {@code head}'s index, or the reloaded (and cached) head's; when it does
     * not, the ring is full (remembered for {@link #awaitRoom}).
     */
    private boolean fitsAtStart(int requiredCapacity, long head) {
        if (requiredCapacity <= ((int) head & mask)) {
            return true;
        }
        final long reloaded = loadHead();
        cacheHead(reloaded);
        if (requiredCapacity > ((int) reloaded & mask)) {
            headWhenFull = reloaded;
            return false;
        }
        return true;
    }

    private void publishTail(long newTail) {
        tail = newTail;
        LONG.setRelease(buffer, tailOffset, newTail);
    }

    private void cacheHead(long head) {
        cachedHead = head;
        LONG.set(buffer, headCacheOffset, head);
    }

    /** Reads the consumer's head and checks it is a possible value with our tail (hostile files). */
    private long loadHead() {
        // SYNC POINT head: acquire pairs with RingConsumer's release of the head position.
        long head = (long) LONG.getAcquire(buffer, headOffset);
        RingFile.checkProducerPositions(head, tail, capacity);
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
