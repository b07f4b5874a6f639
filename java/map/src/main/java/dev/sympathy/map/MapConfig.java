package dev.sympathy.map;

import static dev.sympathy.map.MapDescriptor.*;

/**
 * How large a new map is, fixed at create (the Rust {@code MapConfig}).
 *
 * <pre>{@code
 * MapConfig config = MapConfig.forEntries(1_000_000, 100).withValueFormat(VALUE_FORMAT_USER_FLYWEIGHT);
 * }</pre>
 *
 * @param slots slots in the table: a power of two in {@link MapDescriptor#MIN_SLOTS}..{@link MapDescriptor#MAX_SLOTS}
 * @param dataCapacity bytes of the data area: a multiple of 8 in
 *     {@link MapDescriptor#MIN_DATA_CAPACITY}..{@link MapDescriptor#MAX_DATA_CAPACITY}
 * @param maxValueLength the largest value a put accepts (1 to 2^30, and its record fits the data area)
 * @param valueFormat how values are encoded (a {@code VALUE_FORMAT_*} code)
 */
public record MapConfig(long slots, long dataCapacity, int maxValueLength, int valueFormat) {
    /**
     * The {@code maxValueLength} of a map {@link #forEntries} sizes (64 KiB, or the data area if
     * smaller), and so the longest mean value it sizes for.
     */
    private static final long MAX_MEAN_VALUE_LENGTH = 64 * 1024;

    /**
     * A map for {@code entries} values of about {@code meanValueLength} bytes: the smallest
     * power of two of slots that keeps the load at or under one half, a data area with room for
     * every record plus a quarter, {@code maxValueLength} 64 KiB (or the data area, if smaller),
     * values as bytes. The same sizes as the Rust {@code MapConfig::for_entries}, and the same
     * refusals: both counts are unsigned.
     *
     * @throws BadConfigException when they cannot fit one map: more entries than the largest slot
     *     table holds at load one half (2^31), a mean value longer than 64 KiB, or records past the
     *     largest data area (2^42 bytes); nothing is rounded down to a smaller map
     */
    public static MapConfig forEntries(long entries, long meanValueLength) {
        long maxEntries = MAX_SLOTS / 2;
        if (Long.compareUnsigned(entries, maxEntries) > 0) {
            throw new BadConfigException(Long.toUnsignedString(entries) + " entries do not fit one map: at most "
                    + maxEntries + " (2^31) keep its largest slot table (2^32) at load 1/2; split them over several maps");
        }
        if (Long.compareUnsigned(meanValueLength, MAX_MEAN_VALUE_LENGTH) > 0) {
            throw new BadConfigException("a mean value length of " + Long.toUnsignedString(meanValueLength)
                    + " bytes is over the " + MAX_MEAN_VALUE_LENGTH + "-byte largest value of a map sized for entries; "
                    + "give --slots, --data-capacity and --max-value-length instead");
        }
        // At most 2^31 records of at most 64 KiB + 24 bytes: no overflow below.
        long records = entries * recordLength(meanValueLength);
        long wanted = (records + records / 4 + 4096 + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
        if (wanted > MAX_DATA_CAPACITY) {
            throw new BadConfigException(entries + " entries of " + meanValueLength + " bytes need a data area of "
                    + wanted + " bytes (their records and a quarter more), over the largest, 2^42 bytes; "
                    + "split them over several maps");
        }
        long slots = Math.max(MIN_SLOTS, nextPowerOfTwo(entries * 2));
        long data = Math.max(MIN_DATA_CAPACITY, wanted);
        long room = data - DATA_START - RECORD_HEADER_LENGTH;
        return new MapConfig(slots, data, (int) Math.min(room, MAX_MEAN_VALUE_LENGTH), VALUE_FORMAT_BYTES);
    }

    /** The same map with values in {@code format}. */
    public MapConfig withValueFormat(int format) {
        return new MapConfig(slots, dataCapacity, maxValueLength, format);
    }

    /**
     * Checks every size.
     *
     * @throws BadConfigException saying which size is wrong and what would do
     */
    public void check() {
        String problem = slotsProblem(slots);
        if (problem != null) {
            throw new BadConfigException("slots " + problem);
        }
        problem = dataCapacityProblem(dataCapacity);
        if (problem != null) {
            throw new BadConfigException("data capacity " + problem);
        }
        problem = maxValueLengthProblem(maxValueLength, dataCapacity);
        if (problem != null) {
            throw new BadConfigException("max value length " + problem);
        }
    }

    static String slotsProblem(long slots) {
        return Long.bitCount(slots) == 1 && slots >= MIN_SLOTS && slots <= MAX_SLOTS ? null
                : "is " + Long.toUnsignedString(slots) + ", expected a power of two between 8 and 2^32 (such as 1048576)";
    }

    static String dataCapacityProblem(long data) {
        return data % RECORD_ALIGNMENT == 0 && data >= MIN_DATA_CAPACITY && data <= MAX_DATA_CAPACITY ? null
                : "is " + Long.toUnsignedString(data) + ", expected a multiple of 8 between 64 and 2^42 bytes";
    }

    static String maxValueLengthProblem(int max, long data) {
        boolean fits = data >= DATA_START && recordLength(Integer.toUnsignedLong(max)) <= data - DATA_START;
        return max >= 1 && max <= MAX_VALUE_LENGTH_LIMIT && fits ? null
                : "is " + Integer.toUnsignedString(max) + ", expected 1 to 2^30 bytes, and a record of it (16 + the value, "
                        + "padded to 8) within the data area after its first 8 bytes";
    }

    private static long nextPowerOfTwo(long n) {
        return n <= 1 ? 1 : Long.highestOneBit(n - 1) << 1;
    }
}
