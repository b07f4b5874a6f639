package dev.sympathy.app;

/**
 * Verifies a stream of test messages in order (see {@link TestPattern}) and counts them. The
 * implementations read the bytes from their own buffers and call {@link #checkHead} and
 * {@link #tailMismatch}; the first difference throws {@link PatternMismatchException}.
 */
final class MessageCheck {
    private final int expectedType;
    private long received;
    private long bytes;

    /** @param expectedType the type every message must carry, or 0 for any type >= 1 */
    MessageCheck(int expectedType) {
        this.expectedType = expectedType;
    }

    /** Messages verified so far (also the index the next message must carry). */
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
        long index = received;
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
