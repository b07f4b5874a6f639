package dev.sympathy.ring;

import java.lang.foreign.MemorySegment;

/**
 * Receives messages from {@link RingConsumer#controlledRead} and decides, message by message,
 * whether the read goes on: Agrona's {@code ControlledMessageHandler} without {@code COMMIT}.
 * The payload is not copied: it is {@code buffer.asSlice(offset, length)}, valid only during
 * the call.
 *
 * <p>A reader that takes messages only while they pass a check, and leaves the first bad one
 * at the head for the next read (or for whoever looks at the ring):
 *
 * <pre>{@code
 * ControlledMessageHandler check = (type, buffer, offset, length) ->
 *         buffer.get(ValueLayout.JAVA_BYTE, offset) == 0 ? Action.ABORT : Action.CONTINUE;
 * int taken = consumer.controlledRead(check, 100);   // the messages before the bad one
 * }</pre>
 */
@FunctionalInterface
public interface ControlledMessageHandler {
    /** What the read does after a message. */
    enum Action {
        /** The message is consumed; go on with the next. */
        CONTINUE,
        /** The message is consumed; end this read after it. */
        BREAK,
        /**
         * The message is not consumed: end this read before it, so the head stays at it and
         * the next read hands it out again.
         */
        ABORT
    }

    /**
     * @param typeId the message type ({@code >= 1})
     * @param buffer the ring region of the mapped file
     * @param offset where the payload starts in {@code buffer}
     * @param length payload bytes
     * @return whether the message is consumed and the read goes on
     */
    Action onMessage(int typeId, MemorySegment buffer, long offset, int length);
}
