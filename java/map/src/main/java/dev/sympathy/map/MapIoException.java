package dev.sympathy.map;

import dev.sympathy.mapped.FileMessages;

/** Another I/O error (kind {@code io}). */
public final class MapIoException extends MapException {
    private static final long serialVersionUID = 1L;

    public MapIoException(String path, String operation, Throwable cause) {
        super("io", FileMessages.io(path, operation, cause));
        initCause(cause);
    }
}
