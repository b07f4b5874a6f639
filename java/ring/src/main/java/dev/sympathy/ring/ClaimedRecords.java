package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.PADDING_MSG_TYPE_ID;
import static dev.sympathy.ring.RingDescriptor.RECORD_HEADER_LENGTH;
import static dev.sympathy.ring.RingDescriptor.TYPE_OFFSET;
import static dev.sympathy.ring.SharedMemory.INT;

import java.lang.foreign.MemorySegment;

/**
 * Commit and abort of a claimed record, shared by {@link RingProducer} and
 * {@link ManyToOneProducer}: the claim index checked, the record's negative length checked,
 * then the length made positive with release (and, for an abort, the type made padding first).
 *
 * <p>{@code consumerUnblocks} says whether a consumer may turn the claim into padding under the
 * producer ({@link ManyToOneConsumer#unblock()}): then the length is read with volatile and the
 * error says the claim may have been unblocked.
 */
final class ClaimedRecords {

    private ClaimedRecords() {
    }

    /**
     * Publishes the claimed record whose payload is at {@code index}.
     *
     * @throws IllegalArgumentException if index was not returned by {@code tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    static void commit(MemorySegment buffer, int capacity, long index, boolean consumerUnblocks) {
        int recordIndex = claimedRecordIndex(capacity, index);
        int recordLength = claimedLength(buffer, recordIndex, consumerUnblocks);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        INT.setRelease(buffer, (long) recordIndex, -recordLength);
    }

    /**
     * Drops the claimed record whose payload is at {@code index}: it becomes padding.
     *
     * @throws IllegalArgumentException if index was not returned by {@code tryClaim}
     * @throws IllegalStateException if it was already committed or aborted
     */
    static void abort(MemorySegment buffer, int capacity, long index, boolean consumerUnblocks) {
        int recordIndex = claimedRecordIndex(capacity, index);
        int recordLength = claimedLength(buffer, recordIndex, consumerUnblocks);
        INT.set(buffer, (long) recordIndex + TYPE_OFFSET, PADDING_MSG_TYPE_ID);
        // SYNC POINT record-length: publishing release pairs with RingConsumer.read's acquire.
        INT.setRelease(buffer, (long) recordIndex, -recordLength);
    }

    private static int claimedRecordIndex(int capacity, long index) {
        long recordIndex = index - RECORD_HEADER_LENGTH;
        if (recordIndex < 0 || recordIndex > capacity - RECORD_HEADER_LENGTH || (recordIndex & 7) != 0) {
            throw new IllegalArgumentException("invalid claim index " + index + " (use the value tryClaim returned)");
        }
        return (int) recordIndex;
    }

    private static int claimedLength(MemorySegment buffer, int recordIndex, boolean consumerUnblocks) {
        int recordLength = consumerUnblocks
                ? (int) INT.getVolatile(buffer, (long) recordIndex)
                : (int) INT.get(buffer, (long) recordIndex);
        if (recordLength < 0) {
            return recordLength;
        }
        int type = (int) INT.get(buffer, (long) recordIndex + TYPE_OFFSET);
        throw new IllegalStateException("claimed space was already "
                + (type == PADDING_MSG_TYPE_ID ? "aborted" : "committed")
                + (consumerUnblocks ? " (or unblocked by the consumer)" : ""));
    }
}
