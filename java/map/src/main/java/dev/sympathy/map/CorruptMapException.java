package dev.sympathy.map;

/** A slot or record of the map is impossible (kind {@code corrupt-map}). */
public final class CorruptMapException extends MapException {
    private static final long serialVersionUID = 1L;

    public CorruptMapException(String path, String what) {
        super("corrupt-map", "corrupt map" + (path == null ? "" : " " + path) + ": " + what + "; the file was modified by something other than a map writer: rebuild the map");
    }
}
