package dev.sympathy.ring;

import java.lang.foreign.MemorySegment;

/**
 * Receives messages from {@link RingConsumer#readAhead}, each with the ring position of its
 * record, and decides whether the read goes on. The payload is not copied: it is
 * {@code buffer.asSlice(offset, length)}, valid until the head is released past it.
 *
 * <p>A forwarder that sends records ahead of the head and releases them only once the far side
 * confirms them (the bridge's sender works this way):
 *
 * <pre>{@code
 * cursor = consumer.readAhead(cursor, (position, type, buffer, offset, length) ->
 *         link.trySend(type, buffer, offset, length) ? Action.CONTINUE : Action.ABORT, 64);
 * // ... later, when the far side has confirmed everything before `confirmed`:
 * consumer.releaseTo(confirmed);
 * }</pre>
 */
@FunctionalInterface
public interface ReadAheadHandler {
    /**
     * @param position the ring position of the record (its header), bytes since the ring began
     * @param typeId the message type ({@code >= 1})
     * @param buffer the ring region of the mapped file
     * @param offset where the payload starts in {@code buffer}
     * @param length payload bytes
     * @return whether the message is taken ({@code CONTINUE}, {@code BREAK}) or left for the
     *     next read ({@code ABORT})
     */
    ControlledMessageHandler.Action onMessage(long position, int typeId, MemorySegment buffer, long offset, int length);
}
