package dev.sympathy.ring;

import dev.sympathy.mapped.FileMessages;

/** The file is not a sympathy ring file (wrong magic or a header that contradicts itself). */
public final class NotARingFileException extends RingException {
    private static final long serialVersionUID = 1L;

    /** A file whose first 8 bytes, {@code found}, are not the ring's magic. */
    public NotARingFileException(String path, long found) {
        super("not-a-ring-file", FileMessages.notThisKind(RingDescriptor.KIND, path, found));
    }

    /** A native ring's error, its message made by the Rust ring. */
    public NotARingFileException(String path, String message) {
        super("not-a-ring-file", message);
    }
}
