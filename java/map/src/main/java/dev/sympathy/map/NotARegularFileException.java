package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The path names something other than a regular file (kind {@code not-a-regular-file}). */
public final class NotARegularFileException extends MapException {
    private static final long serialVersionUID = 1L;

    public NotARegularFileException(String path, String what) {
        super("not-a-regular-file", FileMessages.notARegularFile(MapDescriptor.KIND, path, what));
    }
}
