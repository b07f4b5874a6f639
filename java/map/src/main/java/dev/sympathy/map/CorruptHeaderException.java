package dev.sympathy.map;

/** A header field disagrees with the layout (kind {@code corrupt-header}). */
public final class CorruptHeaderException extends MapException {
    private static final long serialVersionUID = 1L;

    public CorruptHeaderException(String path, String what) {
        super("corrupt-header", path + ": corrupt header: " + what + "; rebuild the map");
    }
}
