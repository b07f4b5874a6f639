package dev.sympathy.map;

/** The path names something other than a regular file (kind {@code not-a-regular-file}). */
public final class NotARegularFileException extends MapException {
    private static final long serialVersionUID = 1L;

    public NotARegularFileException(String path, String what) {
        super("not-a-regular-file", path + ": not a regular file (" + what + "); a map is a regular file made by `sympathy map create`: check the path");
    }
}
