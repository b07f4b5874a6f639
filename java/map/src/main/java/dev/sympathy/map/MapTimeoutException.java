package dev.sympathy.map;

/** The file's creator never set ready (kind {@code timeout}). */
public final class MapTimeoutException extends MapException {
    private static final long serialVersionUID = 1L;

    public MapTimeoutException(long waitedMs) {
        super("timeout", "timed out after " + waitedMs + " ms waiting for the map's creator to set the ready word (an all-zero header means its creator died or is still writing; recreate the map)");
    }
}
