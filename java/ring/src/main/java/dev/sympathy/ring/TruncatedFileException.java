package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/**
 * The file length is not 4096 + capacity + 768 (4096 + capacity + 128 for a broadcast ring): it
 * was truncated or resized, or it is shorter than the 4096-byte header page.
 */
public final class TruncatedFileException extends RingException {
    private static final long serialVersionUID = 1L;

    public TruncatedFileException(String path, long actual, long expected) {
        super("file-length", FileMessages.wrongLength(RingDescriptor.KIND, path, actual, expected,
                "capacity " + (expected - RingDescriptor.HEADER_LENGTH - RingDescriptor.TRAILER_LENGTH)));
    }

    /** A file of {@code actual} bytes where a ring of {@code capacity} bytes of record area needs {@code expected}. */
    public TruncatedFileException(String path, long actual, long expected, long capacity) {
        super("file-length", FileMessages.wrongLength(RingDescriptor.KIND, path, actual, expected, "capacity " + capacity));
    }

    private TruncatedFileException(String message) {
        super("file-length", message);
    }

    /** A file still shorter than the header page when the open's wait for its creator ends. */
    public static TruncatedFileException shorterThanTheHeader(String path, long actual) {
        return new TruncatedFileException(FileMessages.shorterThanHeader(RingDescriptor.KIND, path, actual));
    }
}
