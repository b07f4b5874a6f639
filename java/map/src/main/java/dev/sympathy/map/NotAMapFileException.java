package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** The file does not start with the map magic (kind {@code not-a-map-file}). */
public final class NotAMapFileException extends MapException {
    private static final long serialVersionUID = 1L;

    public NotAMapFileException(String path, long found) {
        super("not-a-map-file", FileMessages.notThisKind(MapDescriptor.KIND, path, found));
    }
}
