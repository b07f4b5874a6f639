package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The file's length is not the one its header implies (kind {@code file-length}). */
public final class FileLengthException extends MapException {
    private static final long serialVersionUID = 1L;

    /** A file shorter than the header page once the open's wait for its creator ends. */
    public FileLengthException(String path, long actual) {
        super("file-length", FileMessages.shorterThanHeader(MapDescriptor.KIND, path, actual));
    }

    /** A file whose length is not {@code expected}, the length {@code slots} and {@code dataCapacity} imply. */
    public FileLengthException(String path, long actual, long expected, long slots, long dataCapacity) {
        super("file-length", FileMessages.wrongLength(MapDescriptor.KIND, path, actual, expected,
                slots + " slots and a data capacity of " + dataCapacity));
    }

    /**
     * A file of a map that grows (layout version {@link MapDescriptor#FIRST_GROWABLE_VERSION} on)
     * shorter than {@code expected}, the length {@code slots} and {@code dataCapacity} imply
     * (a longer one is a map whose writer extended it and had not yet stored the larger capacity).
     */
    public static FileLengthException shorterThan(String path, long actual, long expected, long slots,
            long dataCapacity) {
        return new FileLengthException(FileMessages.shorterThanSizes(MapDescriptor.KIND, path, actual, expected,
                slots + " slots and a data capacity of " + dataCapacity));
    }

    private FileLengthException(String message) {
        super("file-length", message);
    }
}
