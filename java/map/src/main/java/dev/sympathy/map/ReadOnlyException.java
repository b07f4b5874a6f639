package dev.sympathy.map;

/** A write was asked of a map opened to read only (kind {@code read-only}). */
public final class ReadOnlyException extends MapException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyException(String path) {
        super("read-only", path + ": opened read-only; open it with MapFile.open to write");
    }
}
