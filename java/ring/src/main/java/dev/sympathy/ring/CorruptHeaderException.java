package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/**
 * A header field other than magic, version and capacity is impossible: {@code ready} neither 0
 * nor 1, or {@code max_message_length} / {@code header_length} not what the capacity implies.
 */
public final class CorruptHeaderException extends RingException {
    private static final long serialVersionUID = 1L;

    public CorruptHeaderException(String path, String what) {
        super("corrupt-header", FileMessages.corruptHeader(RingDescriptor.KIND, path, what));
    }
}
