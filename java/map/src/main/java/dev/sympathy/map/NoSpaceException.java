package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;
import dev.sympathy.mapped.NoSpaceError;

/** The filesystem cannot hold the map file (found when its blocks are reserved) (kind {@code no-space}). */
public final class NoSpaceException extends MapException {
    private static final long serialVersionUID = 1L;

    /** {@code path} needs {@code needed} bytes where {@code space} says what was free. */
    public NoSpaceException(String path, NoSpaceError space, long needed) {
        super("no-space", FileMessages.noSpace(MapDescriptor.KIND, path, space, needed));
    }
}
