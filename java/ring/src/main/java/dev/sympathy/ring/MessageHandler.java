package dev.sympathy.ring;

import java.lang.foreign.MemorySegment;

/**
 * Receives messages from {@link RingConsumer#read}. The payload is not copied: it is
 * {@code buffer.asSlice(offset, length)}, valid only during the call (the producer reuses the
 * space once the batch is released).
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * @param typeId the message type ({@code >= 1})
     * @param buffer the ring region of the mapped file
     * @param offset where the payload starts in {@code buffer}
     * @param length payload bytes
     */
    void onMessage(int typeId, MemorySegment buffer, long offset, int length);
}
