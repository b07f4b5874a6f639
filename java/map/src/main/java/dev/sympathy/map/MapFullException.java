package dev.sympathy.map;

/** The map has no room for the put; nothing was written (kind {@code full}). */
public final class MapFullException extends MapException {
    private static final long serialVersionUID = 1L;

    private final String of;
    private final long used;
    private final long limit;

    public MapFullException(String of, long used, long limit) {
        super("full", "map full (" + of + "): " + (of.equals("slots") ? used + " of " + limit + " usable slots hold keys or tombstones (3/4 of the table)" : "the record needs room past " + used + " of " + limit + " data bytes") + "; nothing was written: copy the map into a larger one (`sympathy map copy`)");
        this.of = of;
        this.used = used;
        this.limit = limit;
    }

    /** Which limit: {@code slots} or {@code data}. */
    public String of() {
        return of;
    }

    /** Slots used, or data bytes used. */
    public long used() {
        return used;
    }

    /** The most there may be. */
    public long limit() {
        return limit;
    }
}
