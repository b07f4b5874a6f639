package dev.sympathy.map;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every offset and constant of the map file of {@code docs/map-layout.md}, in one place (the
 * Rust {@code sympathy_map::layout}; a test compares the two).
 *
 * <pre>
 *  0             4096                        4096 + 8 x slots                  + data_capacity
 *  +-------------+---------------------------+--------------------------------------------+
 *  | header page | first slot table:         | data area: records, appended, never moved, |
 *  |             | slots x u64               | and the slot tables of later grows         |
 *  +-------------+---------------------------+--------------------------------------------+
 *
 *  header page       0 magic "SYMPHMAP"  8 version  12 ready  16 slots  24 data_capacity
 *                   32 max_value_length  36 header_length  40 creation_time_ms  48 value_format
 *                   64 data_end  72 count  80 used_slots  88 verified_end  96 boot  104 table
 *                                                                   (the writer's counters)
 *                  128 writer  136 writer_heartbeat_ms  144 writer_detached_ms  152 recoveries
 *
 *  slot (u64)        0 empty | -1 tombstone | tag (24 bits) &lt;&lt; 40 | record offset / 8
 *
 *  record            +0 key (u64)  +8 value_length (u32)  +12 checksum (u32; 0 in version 1)
 *  (8-aligned)      +16 value bytes, zero padding to a multiple of 8
 * </pre>
 *
 * A key's slot is found by linear probing from {@code hash(key) & (slots - 1)}; the slot's tag
 * is {@code hash(key) >>> 40}. Records are appended at {@code data_end} and never written
 * again: a put publishes its record with one release store of the key's slot. All integers are
 * little-endian; the u64s are Java {@code long}s read unsigned where it matters. A record's
 * checksum ({@link #recordChecksum}) covers its key, length and value: a reader in a later boot
 * than the records past {@code verified_end} were written in checks theirs, so it never returns
 * a record torn by an OS crash. From version 3 the writer grows the data area (the file) and the
 * slot table (a new, larger one in the data area, named by the {@code table} word:
 * {@link #tableWord}) as they fill, while readers read.
 */
public final class MapDescriptor {
    private MapDescriptor() {}

    /** Bytes of the header page; the slot table starts here. */
    public static final int HEADER_LENGTH = dev.sympathy.mapped.MappedHeader.HEADER_LENGTH;
    /** The ASCII bytes {@code SYMPHMAP} read as a little-endian u64. */
    public static final long MAGIC = 0x5041_4D48_504D_5953L;
    /** The layout version this code creates: 3, whose maps grow. */
    public static final int LAYOUT_VERSION = 3;
    /** The oldest layout version this code reads and writes: 1, whose records' checksum word is 0 and not checked. */
    public static final int OLDEST_LAYOUT_VERSION = 1;
    /** The first layout version whose records carry a checksum. */
    public static final int FIRST_CHECKSUMMED_VERSION = 2;
    /** The first layout version whose maps grow (the {@code table} word; a longer file is allowed). */
    public static final int FIRST_GROWABLE_VERSION = 3;
    /** The map as a kind of mapped file: its magic, versions and the words of its file errors. */
    public static final dev.sympathy.mapped.FileKind KIND = new dev.sympathy.mapped.FileKind("map", MAGIC,
            OLDEST_LAYOUT_VERSION, LAYOUT_VERSION, "sympathy map create", "rebuild the map",
            "a reader needs read access, a writer read and write", "with fewer slots or a smaller data area");

    /** u64 {@link #MAGIC}. */
    public static final int MAGIC_OFFSET = dev.sympathy.mapped.MappedHeader.MAGIC_OFFSET;
    /** u32 {@link #LAYOUT_VERSION}. */
    public static final int LAYOUT_VERSION_OFFSET = dev.sympathy.mapped.MappedHeader.LAYOUT_VERSION_OFFSET;
    /** u32 ready: 0 while the creator writes the header, 1 once complete (stored last, release). */
    public static final int READY_OFFSET = dev.sympathy.mapped.MappedHeader.READY_OFFSET;
    /** u64 slots in the first slot table, at {@link #HEADER_LENGTH} (a power of two in {@link #MIN_SLOTS}..{@link #MAX_SLOTS}). */
    public static final int SLOTS_OFFSET = 16;
    /**
     * u64 bytes of the data area (a multiple of 8 in {@link #MIN_DATA_CAPACITY}..{@link #MAX_DATA_CAPACITY}).
     * From version 3 the writer grows it, storing it with release once the file is that long.
     */
    public static final int DATA_CAPACITY_OFFSET = 24;
    /** u32 the largest value a put accepts. */
    public static final int MAX_VALUE_LENGTH_OFFSET = 32;
    /** u32 {@link #HEADER_LENGTH}. */
    public static final int HEADER_LENGTH_OFFSET = 36;
    /** i64 creation time, ms since the Unix epoch. */
    public static final int CREATION_TIME_OFFSET = 40;
    /** u32 how values are encoded: a {@code VALUE_FORMAT_*} code. */
    public static final int VALUE_FORMAT_OFFSET = 48;
    /** u64 bytes of the data area in use; stored (release) after a record and before its slot. */
    public static final int DATA_END_OFFSET = 64;
    /** u64 keys in the map. */
    public static final int COUNT_OFFSET = 72;
    /** u64 slots not empty (keys and tombstones). */
    public static final int USED_SLOTS_OFFSET = 80;
    /** u64 (version 2 on) records below this data-area offset are whole on the disk (flushed, or checked after a restart). */
    public static final int VERIFIED_END_OFFSET = 88;
    /** u64 (version 2 on) the system boot the records at or past verified_end were written in ({@code Processes.currentBoot}). */
    public static final int BOOT_OFFSET = 96;
    /** u64 the attached writer: {@code pid | start << 32} (a ProcessStamp), 0 when none. */
    public static final int WRITER_OFFSET = 128;
    /** i64 the writer's last heartbeat, ms since the Unix epoch. */
    public static final int WRITER_HEARTBEAT_OFFSET = 136;
    /** i64 the writer's heartbeat at its last clean detach (0: never). */
    public static final int WRITER_DETACHED_OFFSET = 144;
    /** u64 writers that took over from a dead one and recounted. */
    public static final int RECOVERIES_OFFSET = 152;
    /**
     * u64 (version 3 on) the slot table in use: 0 for the first one (at {@link #HEADER_LENGTH},
     * {@code slots} slots), else {@link #tableWord}: a table a grow made in the data area. Stored
     * with release once the table is filled and {@code data_end} lies past it. Every lookup loads
     * it, so it has a cache line of its own, away from the counters a put stores.
     */
    public static final int TABLE_OFFSET = 192;
    /** The ready value once the file is complete. */
    public static final int READY = dev.sympathy.mapped.MappedHeader.READY;

    /** Values are opaque bytes. */
    public static final int VALUE_FORMAT_BYTES = 0;
    /** Values are users in the flyweight layout ({@link dev.sympathy.map.user.FlyweightCodec}). */
    public static final int VALUE_FORMAT_USER_FLYWEIGHT = 1;
    /** Reserved: users encoded with the project's SBE schema, once it exists. */
    public static final int VALUE_FORMAT_USER_SBE = 2;
    /** Users as Java serialization writes them (Java only: the seed's slow baseline). */
    public static final int VALUE_FORMAT_USER_JAVA_SERIALIZATION = 3;

    /** Bytes of one slot. */
    public static final int SLOT_LENGTH = 8;
    /** The slot word of a slot never used. */
    public static final long EMPTY = 0;
    /** The slot word of a removed key (u64::MAX). */
    public static final long TOMBSTONE = -1L;
    /** Bits of a slot word that hold the record's offset in 8-byte units. */
    public static final int OFFSET_BITS = 40;
    /** Mask of those bits. */
    public static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
    /** Bits of the tag above them. */
    public static final int TAG_BITS = 24;
    /** The smallest slot table. */
    public static final long MIN_SLOTS = 8;
    /** The largest slot table: 2^32. */
    public static final long MAX_SLOTS = 1L << 32;
    /** A put into an empty slot is refused once this many percent of the slots are used. */
    public static final long MAX_LOAD_PERCENT = 75;
    /** The low bits of a {@link #TABLE_OFFSET} word: the log2 of its table's slots. */
    public static final long TABLE_BITS_MASK = 63;
    /** A grown table's data-area offset is a multiple of this (the low bits of its word hold {@link #TABLE_BITS_MASK}). */
    public static final long TABLE_ALIGNMENT = 64;
    /** A grown data capacity is a multiple of this, and a grown table starts at a multiple of it in the file. */
    public static final long GROWTH_ALIGNMENT = 4096;
    /** Every record starts at a multiple of this many bytes. */
    public static final int RECORD_ALIGNMENT = 8;
    /** Bytes before a record's value. */
    public static final int RECORD_HEADER_LENGTH = 16;
    /** u64 key within a record. */
    public static final int RECORD_KEY_OFFSET = 0;
    /** u32 value length within a record. */
    public static final int RECORD_VALUE_LENGTH_OFFSET = 8;
    /** u32 the record's {@link #recordChecksum} within a record (layout version 2 on; 0 in version 1). */
    public static final int RECORD_CHECKSUM_OFFSET = 12;
    /** Where {@link #recordChecksum}'s running sum starts, so that a record of zeros does not check. */
    public static final long CHECKSUM_SEED = 0x9e37_79b9_7f4a_7c15L;
    /** The first record's offset in the data area (offset 0 is never a record). */
    public static final long DATA_START = 8;
    /** The smallest data area. */
    public static final long MIN_DATA_CAPACITY = 64;
    /** The largest data area: 4 TiB. */
    public static final long MAX_DATA_CAPACITY = 1L << 42;
    /** The largest max_value_length: 1 GiB. */
    public static final int MAX_VALUE_LENGTH_LIMIT = 1 << 30;

    /** The file length of a map (exact in versions 1 and 2; a version 3 file may be longer). */
    public static long fileLength(long slots, long dataCapacity) {
        return HEADER_LENGTH + slots * SLOT_LENGTH + dataCapacity;
    }

    /** Where the data area starts in the file. */
    public static long dataAreaOffset(long slots) {
        return HEADER_LENGTH + slots * SLOT_LENGTH;
    }

    /** Bytes a record of a value of {@code valueLength} bytes takes: header, value, padding to 8. */
    public static long recordLength(long valueLength) {
        return (RECORD_HEADER_LENGTH + valueLength + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
    }

    /** How many slots may be used (keys and tombstones) before a put into an empty slot is full. */
    public static long maxUsedSlots(long slots) {
        return slots / 100 * MAX_LOAD_PERCENT + slots % 100 * MAX_LOAD_PERCENT / 100;
    }

    /** The key's 64-bit hash: MurmurHash3's {@code fmix64} (the Rust {@code layout::hash}). */
    public static long hash(long key) {
        long k = key;
        k ^= k >>> 33;
        k *= 0xff51_afd7_ed55_8ccdL;
        k ^= k >>> 33;
        k *= 0xc4ce_b9fe_1a85_ec53L;
        k ^= k >>> 33;
        return k;
    }

    /**
     * A record's checksum (layout version 2 on; the Rust {@code layout::record_checksum}): over
     * the 64-bit little-endian words of the key, the value's length and the value zero-padded to
     * a multiple of 8, {@code sum} starting at {@link #CHECKSUM_SEED} and {@code weighted} at 0,
     * for each word {@code sum += w; weighted += sum}; the checksum is the high 32 bits of
     * {@code hash(sum ^ rotateLeft(weighted, 32))}. No allocation.
     *
     * @param key the record's key
     * @param data the segment holding the value, at least to the value's end rounded up to a
     *     multiple of 8 (a record's padding: the last word is read whole and its bytes past the
     *     value masked off, whatever they hold)
     * @param valueOffset where the value starts in {@code data}: 8-aligned, as a record's is
     * @param length the value's length in bytes
     */
    public static int recordChecksum(long key, MemorySegment data, long valueOffset, int length) {
        long sum = CHECKSUM_SEED + key;
        long weighted = sum;
        sum += Integer.toUnsignedLong(length);
        weighted += sum;
        // An int-counted loop over whole words: the JIT hoists the segment's bounds checks out
        // of it (a long-counted one it strip-mines and checks each word).
        int words = length >>> 3;
        for (int i = 0; i < words; i++) {
            sum += data.get(WORD, valueOffset + ((long) i << 3));
            weighted += sum;
        }
        int rest = length & 7;
        if (rest != 0) {
            long last = data.get(WORD, valueOffset + ((long) words << 3)) & ((1L << (rest << 3)) - 1);
            sum += last;
            weighted += sum;
        }
        return (int) (hash(sum ^ Long.rotateLeft(weighted, 32)) >>> 32);
    }

    /** A little-endian u64, 8-aligned (a record's words are). */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The {@link #TABLE_OFFSET} word of a table of {@code slots} slots (a power of two) at
     * data-area {@code offset} (a multiple of {@link #TABLE_ALIGNMENT}; the Rust {@code table_word}).
     *
     * <pre>{@code
     * long word = MapDescriptor.tableWord(8192, 1 << 20);   // 8192 | 20
     * assert (word & TABLE_BITS_MASK) == 20 && (word & ~TABLE_BITS_MASK) == 8192;
     * }</pre>
     */
    public static long tableWord(long offset, long slots) {
        return offset | Long.numberOfTrailingZeros(slots);
    }

    /** The tag of a hash: its high {@link #TAG_BITS} bits. */
    public static long tagOf(long hash) {
        return hash >>> OFFSET_BITS;
    }

    /** The slot word of a record at {@code offset} for a key of hash {@code hash}. */
    public static long slotWord(long hash, long offset) {
        return (tagOf(hash) << OFFSET_BITS) | (offset / RECORD_ALIGNMENT);
    }

    /** The record offset (in the data area) a live slot word points at. */
    public static long recordOffset(long word) {
        return (word & OFFSET_MASK) * RECORD_ALIGNMENT;
    }

    /** A value format's name, for messages (the Rust {@code format_name}). */
    public static String formatName(int format) {
        return switch (format) {
            case VALUE_FORMAT_BYTES -> "bytes";
            case VALUE_FORMAT_USER_FLYWEIGHT -> "user-flyweight";
            case VALUE_FORMAT_USER_SBE -> "user-sbe";
            case VALUE_FORMAT_USER_JAVA_SERIALIZATION -> "user-java-serialization";
            default -> "unknown";
        };
    }

    /**
     * Every constant as NAME to value (u64s unsigned, as {@code sympathy map layout} prints
     * them), for the parity test against the Rust descriptor.
     */
    public static Map<String, String> constants() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Field f : MapDescriptor.class.getDeclaredFields()) {
            // The layout's numbers only (not KIND, the words of the map's errors).
            if (Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers())
                    && f.getType().isPrimitive()) {
                try {
                    Object v = f.get(null);
                    out.put(f.getName(), v instanceof Long l ? Long.toUnsignedString(l) : String.valueOf(v));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }
}
