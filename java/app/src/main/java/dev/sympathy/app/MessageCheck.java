package dev.sympathy.app;

/**
 * Verifies a stream of test messages in order (see {@link TestPattern}) and counts them. The
 * implementations read the bytes from their own buffers and call {@link #checkHead} and
 * {@link #tailMismatch}; the first difference throws {@link PatternMismatchException}. A
 * consumer that reads the ring in place catches it in its handler, {@link #reject}s the message
 * (leaving it at the ring's head) and, once the read has released the messages before it,
 * throws {@link #failure}: consume takes exactly what it verified, as the Rust CLI's.
 *
 * <pre>{@code
 * try {
 *     FfmImpl.verify(check, typeId, buffer, offset, length);
 *     return Action.CONTINUE;
 * } catch (PatternMismatchException e) {
 *     check.reject(e);
 *     return Action.ABORT;           // then: if (check.failed()) throw check.failure(consumer.position());
 * }
 * }</pre>
 */
final class MessageCheck {
    /** {@code first} value meaning: take the first index from the first message's own bytes. */
    static final long FIRST_FROM_MESSAGE = -1;

    private final int expectedType;
    /** The index of the first message, or {@link #FIRST_FROM_MESSAGE} until it is seen. */
    private long first;
    private long received;
    private long bytes;
    /** The type of the message whose head was checked last (for {@link #tailMismatch}). */
    private int lastType;
    /** The first mismatch, once a message was rejected. */
    private PatternMismatchException mismatch;
    /**
     * -1 when the rejected message stays in the ring; else it was consumed (a copying reader),
     * with this many messages after it that were never verified.
     */
    private int consumedAfter = -1;

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
            throw new PatternMismatchException("message " + index + " (type " + typeId + "): expected type "
                    + expectedType);
        }
        if (size < TestPattern.MIN_SIZE) {
            throw new PatternMismatchException("message " + index + " (type " + typeId + "): " + size
                    + " bytes, test messages have at least " + TestPattern.MIN_SIZE);
        }
        long expected = TestPattern.head(index, size);
        if (headValue != expected) {
            int k = Long.numberOfTrailingZeros(headValue ^ expected) / 8;
            throw mismatch(index, typeId, k, (byte) (headValue >>> (8 * k)), (byte) (expected >>> (8 * k)));
        }
        lastType = typeId;
        return index;
    }

    /** Reports a wrong byte {@code k >= 8} of message {@code index}. */
    PatternMismatchException tailMismatch(long index, int size, int k, byte actual) {
        return mismatch(index, lastType, k, actual, TestPattern.tailByte(index, k));
    }

    /** The words of the Rust CLI: {@code message 5 (type 1): byte 0 is 0x55, expected 0x05}. */
    private static PatternMismatchException mismatch(long index, int typeId, int k, byte actual, byte expected) {
        return new PatternMismatchException(String.format("message %d (type %d): byte %d is 0x%02x, expected 0x%02x",
                index, typeId, k, actual & 0xff, expected & 0xff));
    }

    /** Records that the message {@code e} names is left in the ring (a reader in place aborts its read at it). */
    void reject(PatternMismatchException e) {
        if (mismatch == null) {
            mismatch = e;
        }
    }

    /**
     * Records that the message {@code e} names failed but was consumed already, with
     * {@code after} messages after it that are not verified: a reader that copies a batch out
     * of the ring and releases it before verifying ({@code --impl jni}).
     */
    void rejectConsumed(PatternMismatchException e, int after) {
        if (mismatch == null) {
            mismatch = e;
            consumedAfter = after;
        }
    }

    /** Whether a message was rejected. */
    boolean failed() {
        return mismatch != null;
    }

    /**
     * The error of a rejected message, in the words of the Rust CLI's consume: what differs, how
     * many messages were verified (and consumed) before it, and that it stays at the ring's head,
     * at {@code head} (the consumer's position after the read).
     */
    PatternMismatchException failure(long head) {
        String failed = "verification failed at " + mismatch.getMessage() + "; " + received
                + " messages before it were verified and consumed, ";
        return new PatternMismatchException(failed + (consumedAfter < 0
                ? "it is left unconsumed at the ring's head (position " + head + ": see `sidecar inspect`)"
                : "but it was consumed too, with " + consumedAfter + " messages after it that were never"
                        + " verified (--impl jni copies a batch out of the ring and releases it before it is"
                        + " verified; the head is at position " + head + ")"));
    }

    /** Counts a message whose every byte was verified. */
    void accept(int size) {
        received++;
        bytes += size;
    }
}
