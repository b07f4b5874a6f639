package dev.sympathy.map;

/** Another I/O error (kind {@code io}). */
public final class MapIoException extends MapException {
    private static final long serialVersionUID = 1L;

    public MapIoException(String path, String operation, Throwable cause) {
        super("io", path + ": could not " + operation + ": " + cause.getMessage());
        initCause(cause);
    }
}
