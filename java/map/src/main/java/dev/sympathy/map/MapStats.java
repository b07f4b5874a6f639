package dev.sympathy.map;

/**
 * A snapshot of a map's header (the Rust {@code MapStats}).
 *
 * @param slots slots in the table in use (the first table's, until the map grows)
 * @param firstSlots slots in the first table (the header's {@code slots}, fixed at creation)
 * @param dataCapacity bytes of the data area (the header's: a writer grows it in version 3)
 * @param maxValueLength the largest value a put accepts
 * @param valueFormat how values are encoded
 * @param dataEnd bytes of the data area in use
 * @param count keys in the map
 * @param usedSlots slots of the table in use holding keys or tombstones
 * @param recoveries writers that took over from a dead one
 * @param creationTimeMs creation time, ms since the Unix epoch
 * @param fileLength the file's length the header implies (the map's bytes)
 * @param mappings mappings this {@link MapFile} made of the file (1, and one more each time it saw the map grow)
 */
public record MapStats(long slots, long firstSlots, long dataCapacity, int maxValueLength, int valueFormat,
        long dataEnd, long count, long usedSlots, long recoveries, long creationTimeMs, long fileLength,
        int mappings) {
}
