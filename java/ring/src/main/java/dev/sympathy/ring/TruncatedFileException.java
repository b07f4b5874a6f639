package dev.sympathy.ring;

/**
 * The file length is not 4096 + capacity + 768: it was truncated or resized, or it is shorter
 * than the 4096-byte header page.
 */
public final class TruncatedFileException extends RingException {
    private static final long serialVersionUID = 1L;

    public TruncatedFileException(String path, long actual, long expected) {
        super("file-length", path + ": file is " + actual + " bytes but its header says " + expected
                + " (4096 + capacity + 768): it was truncated or resized; recreate it");
    }

    private TruncatedFileException(String message) {
        super("file-length", message);
    }

    /** A file still shorter than the header page when the open's wait for its creator ends. */
    public static TruncatedFileException shorterThanTheHeader(String path, long actual) {
        return new TruncatedFileException(path + ": file is " + actual + " bytes, shorter than the "
                + RingDescriptor.HEADER_LENGTH + "-byte header page (its creator never sized it, or it is "
                + "not a ring file); recreate it");
    }
}
