package dev.sympathy.map;

/** The file does not start with the map magic (kind {@code not-a-map-file}). */
public final class NotAMapFileException extends MapException {
    private static final long serialVersionUID = 1L;

    public NotAMapFileException(String path, long found) {
        super("not-a-map-file", path + ": not a sympathy map file (magic " + String.format("0x%016x", found) + ", expected \"SYMPHMAP\"); check the path, or create the map with `sympathy map create`");
    }
}
