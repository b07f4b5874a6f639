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

    /** These with one more grow of {@code tables} tables and {@code dataAreas} data areas that took {@code nanos}. */
    Grows plus(long moreTables, long moreDataAreas, long nanos) {
        return new Grows(tables + moreTables, dataAreas + moreDataAreas, Math.max(longestNanos, nanos),
                totalNanos + nanos);
    }
}
