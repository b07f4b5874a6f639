package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The filesystem cannot hold the map file (found when its blocks are reserved) (kind {@code no-space}). */
public final class NoSpaceException extends MapException {
    private static final long serialVersionUID = 1L;

    public NoSpaceException(String path, String filesystem, long available, long needed) {
        super("no-space", FileMessages.noSpace(MapDescriptor.KIND, path, filesystem, available, needed));
    }
}
