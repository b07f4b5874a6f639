package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** A header field disagrees with the layout (kind {@code corrupt-header}). */
public final class CorruptHeaderException extends MapException {
    private static final long serialVersionUID = 1L;

    public CorruptHeaderException(String path, String what) {
        super("corrupt-header", FileMessages.corruptHeader(MapDescriptor.KIND, path, what));
    }
}
