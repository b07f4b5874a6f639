package dev.sympathy.map;

/**
 * A slot or record of the map is impossible (kind {@code corrupt-map}; the Rust
 * {@code MapError::Corrupt}), or, as {@link TornRecordException}, a record does not match its
 * checksum.
 */
public class CorruptMapException extends MapException {
    private static final long serialVersionUID = 1L;

    public CorruptMapException(String path, String what) {
        super("corrupt-map", "corrupt map" + (path == null ? "" : " " + path) + ": " + what + "; the file was modified by something other than a map writer: rebuild the map");
    }

    /** For {@link TornRecordException}, whose message is its own. */
    CorruptMapException(String message) {
        super("corrupt-map", message);
    }
}
