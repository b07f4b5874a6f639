package dev.sympathy.ring;

import java.lang.foreign.MemorySegment;

/**
 * Fills messages in place for {@link RingProducer#writeBatch(int, int, int, MessageFiller)}:
 * message {@code k} of the batch (counting from 0) is {@code buffer.asSlice(offset, length)},
 * room in the ring that only the producer may touch until the batch is published.
 *
 * <pre>{@code
 * producer.writeBatch(1, 4, 256, (k, buffer, offset, length) ->
 *         buffer.set(ValueLayout.JAVA_INT_UNALIGNED, offset, first + k));
 * }</pre>
 */
@FunctionalInterface
public interface MessageFiller {
    /**
     * @param k the message's place in the batch, from 0
     * @param buffer the ring region of the mapped file
     * @param offset where the payload starts in {@code buffer}
     * @param length payload bytes (every message of the batch has the same)
     */
    void fill(int k, MemorySegment buffer, long offset, int length);
}
