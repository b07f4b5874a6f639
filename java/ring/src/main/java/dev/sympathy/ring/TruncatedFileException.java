package dev.sympathy.ring;

/** The file length is not 4096 + capacity + 768: it was truncated or resized. */
public final class TruncatedFileException extends RingException {
    private static final long serialVersionUID = 1L;

    public TruncatedFileException(String path, long actual, long expected) {
        super(path + ": file is " + actual + " bytes but its header says " + expected
                + " (4096 + capacity + 768): it was truncated or resized; recreate it");
    }
}
