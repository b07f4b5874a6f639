package dev.sympathy.map;

/**
 * A snapshot of a map's header (the Rust {@code MapStats}).
 *
 * @param slots slots in the table
 * @param dataCapacity bytes of the data area
 * @param maxValueLength the largest value a put accepts
 * @param valueFormat how values are encoded
 * @param dataEnd bytes of the data area in use
 * @param count keys in the map
 * @param usedSlots slots holding keys or tombstones
 * @param recoveries writers that took over from a dead one
 * @param creationTimeMs creation time, ms since the Unix epoch
 * @param fileLength the file's length
 */
public record MapStats(long slots, long dataCapacity, int maxValueLength, int valueFormat, long dataEnd, long count,
        long usedSlots, long recoveries, long creationTimeMs, long fileLength) {
}
