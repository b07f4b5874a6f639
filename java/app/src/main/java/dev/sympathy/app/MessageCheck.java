package dev.sympathy.app;

/**
 * Verifies a stream of test messages in order (see {@link TestPattern}) and counts them. The
 * implementations read the bytes from their own buffers and call {@link #checkHead} and
 * {@link #tailMismatch}; the first difference throws {@link PatternMismatchException}.
 */
final class MessageCheck {
    /** {@code first} value meaning: take the first index from the first message's own bytes. */
    static final long FIRST_FROM_MESSAGE = -1;

    private final int expectedType;
    /** The index of the first message, or {@link #FIRST_FROM_MESSAGE} until it is seen. */
    private long first;
    private long received;
    private long bytes;

    /** @param expectedType the type every message must carry, or 0 for any type >= 1 */
    MessageCheck(int expectedType) {
        this(expectedType, 0);
    }

    /**
     * @param expectedType the type every message must carry, or 0 for any type >= 1
     * @param first the index the first message carries (a consumer resuming a stream), or
     *     {@link #FIRST_FROM_MESSAGE} to take it from the first message's first min(8, size)
     *     bytes
     */
    MessageCheck(int expectedType, long first) {
        this.expectedType = expectedType;
        this.first = first;
    }

    /** Messages verified so far. */
    long received() {
        return received;
    }

    /** Payload bytes verified so far. */
    long bytes() {
        return bytes;
    }

    /**
     * Checks type, size and the first min(8, size) bytes of the next message.
     *
     * @return the index the message carries (the caller checks the tail bytes with it)
     */
    long checkHead(int typeId, int size, long headValue) {
        if (first == FIRST_FROM_MESSAGE && size >= TestPattern.MIN_SIZE) {
            first = headValue;
        }
        long index = (first == FIRST_FROM_MESSAGE ? 0 : first) + received;
        if (expectedType != 0 && typeId != expectedType) {
            throw new PatternMismatchException("message #" + index + ": type " + typeId + ", expected " + expectedType);
        }
        if (size < TestPattern.MIN_SIZE) {
            throw new PatternMismatchException("message #" + index + ": " + size
                    + " bytes, test messages have at least " + TestPattern.MIN_SIZE);
        }
        long expected = TestPattern.head(index, size);
        if (headValue != expected) {
            throw new PatternMismatchException(String.format(
                    "message #%d (%d bytes): first %d bytes are 0x%x, expected 0x%x (the index, little-endian)",
                    index, size, Math.min(8, size), headValue, expected));
        }
        return index;
    }

    /** Reports a wrong byte {@code k >= 8} of message {@code index}. */
    PatternMismatchException tailMismatch(long index, int size, int k, byte actual) {
        return new PatternMismatchException(String.format(
                "message #%d (%d bytes): byte %d is 0x%02x, expected 0x%02x ((index + %d) mod 256)",
                index, size, k, actual & 0xff, TestPattern.tailByte(index, k) & 0xff, k));
    }

    /** Counts a message whose every byte was verified. */
    void accept(int size) {
        received++;
        bytes += size;
    }
}
