package dev.sympathy.mapped;

/**
 * The start of the header page every sympathy mapped file shares, whatever its kind (the ring, the
 * map); the Rust twin is {@code sympathy_mapped::header}.
 *
 * <pre>
 *  0                8            12           16                                      4096
 *  +----------------+------------+------------+---------------------------------------+
 *  | magic (u64)    | version    | ready      | the kind's own fields                  |
 *  | e.g. SYMPRING  | (u32)      | (u32, 0/1) | (sizes, counters, attachments)         |
 *  +----------------+------------+------------+---------------------------------------+
 * </pre>
 *
 * A creator writes every field of a zero-filled file and stores {@code ready} = {@link #READY}
 * last, with release; an opener waits for it with acquire.
 */
public final class MappedHeader {
    /** Bytes in the header page; the kind's data starts here. */
    public static final int HEADER_LENGTH = 4096;
    /** u64 the kind's magic (8 ASCII bytes read as a little-endian u64). */
    public static final int MAGIC_OFFSET = 0;
    /** u32 the kind's layout version. */
    public static final int LAYOUT_VERSION_OFFSET = 8;
    /** u32 {@code ready}: 0 while the creator writes the header, {@link #READY} once complete. */
    public static final int READY_OFFSET = 12;
    /** The {@code ready} value once the file is complete. */
    public static final int READY = 1;

    private MappedHeader() {
    }
}
