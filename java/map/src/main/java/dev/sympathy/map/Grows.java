package dev.sympathy.map;

/**
 * What a writer's grows took ({@link MapWriter#grows()}): the pauses of the puts that grew the map
 * (docs/map-layout.md, "Growing"); the Rust {@code sympathy_map::Grows}.
 *
 * @param tables grows of the slot table
 * @param dataAreas grows of the data area (a table's grow may make one too)
 * @param longestNanos the longest one: the longest a put waited for a grow
 * @param totalNanos all of them together
 */
public record Grows(long tables, long dataAreas, long longestNanos, long totalNanos) {
    /** No grow yet. */
    static final Grows NONE = new Grows(0, 0, 0, 0);

    /** These and one more grow of the table. */
    Grows plusTable() {
        return new Grows(tables + 1, dataAreas, longestNanos, totalNanos);
    }

    /** These and one more grow of the data area. */
    Grows plusDataArea() {
        return new Grows(tables, dataAreas + 1, longestNanos, totalNanos);
    }

    /** These with a put's wait of {@code nanos} for the grows it made counted. */
    Grows took(long nanos) {
        return new Grows(tables, dataAreas, Math.max(longestNanos, nanos), totalNanos + nanos);
    }
}
