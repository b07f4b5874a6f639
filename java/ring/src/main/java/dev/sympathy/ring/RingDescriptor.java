package dev.sympathy.ring;

/**
 * Every offset and constant of the ring file of {@code docs/ring-layout.md}, in one place.
 *
 * <pre>
 *  0                                  4096                      4096 + capacity      + 768
 *  +----------------------------------+-------------------------+--------------------+
 *  | header page (ours)               | record area (capacity)  | trailer (768)      |
 *  +----------------------------------+-------------------------+--------------------+
 *                                     |&lt;------------ Agrona ring region ------------&gt;|
 *
 *  Header page (offsets from byte 0 of the file; FIXED):
 *    0 magic "SYMPRING" (u64)   8 layout_version (i32)   12 ready (i32, stored last with release)
 *   16 capacity (i64)          24 max_message_length     28 header_length (= 4096)
 *   32 creation_time_ms (i64)    40 kind (u32, version 2 only: 1 spsc, 2 mpsc, 3 broadcast)
 *  128 producer_pid (i32)     136 producer_heartbeat_ms (i64)
 *  256 consumer_pid (i32)
 *  512 consumer_wake_armed (i32)  576 consumer_waiting (i32)  580 consumer_wake_seq (i32, futex)
 *  640 producer_wake_armed (i32)  704 producer_waiting (i32)  708 producer_wake_seq (i32, futex)
 *
 *  Trailer (offsets from the end of the record area, as Agrona's RingBufferDescriptor):
 *  128 tail   256 head cache   384 head   512 correlation counter   640 consumer heartbeat (ms)
 *
 *  A broadcast ring's trailer is 128 bytes (Agrona's BroadcastBufferDescriptor; the file is
 *  4096 + capacity + 128 bytes):   0 tail intent   8 tail   16 latest
 *
 *  Record (Agrona's RecordDescriptor), aligned to 8 bytes:
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-------------------------------------------------------------+
 *   |R|                       Length (incl. header)                 |
 *   +-+-------------------------------------------------------------+
 *   |                            Type                               |
 *   +---------------------------------------------------------------+
 *   |                       Encoded Message                        ...
 *  ...                                                              |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * A record's length is negative while the producer is writing it and becomes positive when it
 * is published (stored with release); a broadcast record's header is stored plainly, its
 * transmitter publishing the tail instead. Type {@link #PADDING_MSG_TYPE_ID} fills the end of the
 * record area at wrap-around. All integers are little-endian.
 */
public final class RingDescriptor {
    private RingDescriptor() {}

    // ---- Whole file --------------------------------------------------------------------------

    /** Bytes of the header page; the Agrona ring region starts here. */
    public static final int HEADER_LENGTH = dev.sympathy.mapped.MappedHeader.HEADER_LENGTH;
    /** The ASCII bytes {@code SYMPRING} read as a little-endian u64. */
    public static final long MAGIC = 0x474E_4952_504D_5953L;
    /**
     * The layout version one-to-one rings are created with (unchanged bytes: older builds read
     * them); the oldest version this code reads. Its files have no {@code kind} word: they are
     * one-to-one.
     */
    public static final int LAYOUT_VERSION = 1;
    /**
     * The layout version many-to-one and broadcast rings are created with, the newest this code
     * reads: the header's {@code kind} word ({@link #KIND_OFFSET}) says which ring it is.
     */
    public static final int KIND_LAYOUT_VERSION = 2;
    /**
     * The ring as a kind of mapped file: its magic, the versions it reads ({@link #LAYOUT_VERSION}
     * to {@link #KIND_LAYOUT_VERSION}) and the words of its file errors.
     */
    public static final dev.sympathy.mapped.FileKind KIND = new dev.sympathy.mapped.FileKind("ring", MAGIC,
            LAYOUT_VERSION, KIND_LAYOUT_VERSION, "sympathy ring create", "recreate the ring",
            "the ring needs read and write access for both peers",
            "with a smaller capacity (the file is 4096 + capacity + 768 bytes)");

    // ---- Header page (offsets from byte 0 of the file) ---------------------------------------

    /** u64: {@link #MAGIC}. */
    public static final int MAGIC_OFFSET = dev.sympathy.mapped.MappedHeader.MAGIC_OFFSET;
    /** i32: {@link #LAYOUT_VERSION}. */
    public static final int LAYOUT_VERSION_OFFSET = dev.sympathy.mapped.MappedHeader.LAYOUT_VERSION_OFFSET;
    /** i32: 0 while the creator writes the file, 1 once it is complete (stored last, with release). */
    public static final int READY_OFFSET = dev.sympathy.mapped.MappedHeader.READY_OFFSET;
    /** i64: bytes in the record area, a power of two. */
    public static final int CAPACITY_OFFSET = 16;
    /** i32: largest payload in bytes, capacity / 8. */
    public static final int MAX_MESSAGE_LENGTH_OFFSET = 24;
    /** i32: {@link #HEADER_LENGTH}. */
    public static final int HEADER_LENGTH_OFFSET = 28;
    /** i64: creation time, ms since the Unix epoch. */
    public static final int CREATION_TIME_OFFSET = 32;
    /**
     * u32: the ring's kind in a version-2 file: {@link #KIND_ONE_TO_ONE},
     * {@link #KIND_MANY_TO_ONE} or {@link #KIND_BROADCAST} (0 in version-1 files, which are
     * one-to-one).
     */
    public static final int KIND_OFFSET = 40;
    /** {@code kind}: one producer, one consumer (Agrona's OneToOneRingBuffer). */
    public static final int KIND_ONE_TO_ONE = 1;
    /** {@code kind}: any number of producers, one consumer (Agrona's ManyToOneRingBuffer). */
    public static final int KIND_MANY_TO_ONE = 2;
    /** {@code kind}: one transmitter, any number of receivers (Agrona's broadcast buffer). */
    public static final int KIND_BROADCAST = 3;
    /** i32: pid of the attached producer (a broadcast ring's transmitter), 0 when none. */
    public static final int PRODUCER_PID_OFFSET = 128;
    /** i64: the producer's last sign of life, ms since the Unix epoch. */
    public static final int PRODUCER_HEARTBEAT_OFFSET = 136;
    /**
     * i64: the producer's heartbeat at its last clean detach, ms since the Unix epoch (0: never
     * detached). A heartbeat newer than this with no pid is a peer that does not use the header.
     */
    public static final int PRODUCER_DETACHED_OFFSET = 144;
    /** i32: pid of the attached consumer, 0 when none. */
    public static final int CONSUMER_PID_OFFSET = 256;
    /**
     * i64: the consumer's heartbeat at its last clean detach, ms since the Unix epoch (0: never
     * detached). A consumer heartbeat newer than this with no pid is an Agrona-only consumer.
     */
    public static final int CONSUMER_DETACHED_OFFSET = 264;

    // ---- Wake-up blocks (header page): the opt-in futex wait, see WakeBlock ------------------

    /** i32: 0 nobody sleeps, 1 the consumer asked to be woken, 2 the producer acknowledged. */
    public static final int CONSUMER_WAKE_ARMED_OFFSET = 512;
    /** i32: 1 while the consumer is in, or about to enter, a futex wait. */
    public static final int CONSUMER_WAITING_OFFSET = 576;
    /** i32: the consumer's futex word, incremented by the producer before each wake. */
    public static final int CONSUMER_WAKE_SEQ_OFFSET = 580;
    /** i32: the producer's {@code armed} (it sleeps on a full ring; the consumer wakes it). */
    public static final int PRODUCER_WAKE_ARMED_OFFSET = 640;
    /** i32: 1 while the producer is in, or about to enter, a futex wait. */
    public static final int PRODUCER_WAITING_OFFSET = 704;
    /** i32: the producer's futex word, incremented by the consumer before each wake. */
    public static final int PRODUCER_WAKE_SEQ_OFFSET = 708;

    // ---- Trailer (offsets from the end of the record area) -----------------------------------

    /** Bytes of the trailer after the record area. */
    public static final int TRAILER_LENGTH = 768;
    /** i64: the producer's position (bytes ever claimed). */
    public static final int TAIL_POSITION_OFFSET = 128;
    /** i64: the producer's cached copy of the head (may be stale, never ahead). */
    public static final int HEAD_CACHE_POSITION_OFFSET = 256;
    /** i64: the consumer's position (bytes ever consumed). */
    public static final int HEAD_POSITION_OFFSET = 384;
    /** i64: Agrona's correlation id counter (unused by sympathy, kept for compatibility). */
    public static final int CORRELATION_COUNTER_OFFSET = 512;
    /** i64: the consumer's last sign of life, ms since the Unix epoch. */
    public static final int CONSUMER_HEARTBEAT_OFFSET = 640;

    // ---- Broadcast trailer (offsets from the end of the record area) ---------------------------

    /**
     * Bytes of a broadcast ring's trailer after the record area (Agrona's
     * {@code BroadcastBufferDescriptor.TRAILER_LENGTH}, two cache lines): the file is
     * 4096 + capacity + 128 bytes.
     */
    public static final int BROADCAST_TRAILER_LENGTH = 128;
    /** i64: the position the transmitter is about to write up to (stored before it writes). */
    public static final int BROADCAST_TAIL_INTENT_OFFSET = 0;
    /** i64: the transmitter's position (bytes ever transmitted, padding included). */
    public static final int BROADCAST_TAIL_OFFSET = 8;
    /** i64: the position of the latest record transmitted (where a receiver joins). */
    public static final int BROADCAST_LATEST_OFFSET = 16;

    // ---- Records -----------------------------------------------------------------------------

    /** Bytes of a record header: length then type. */
    public static final int RECORD_HEADER_LENGTH = 8;
    /** Records start on multiples of this. */
    public static final int RECORD_ALIGNMENT = 8;
    /** Offset of the i32 length within a record header. */
    public static final int LENGTH_OFFSET = 0;
    /** Offset of the i32 type within a record header. */
    public static final int TYPE_OFFSET = 4;
    /** Type of the record that pads the end of the record area at wrap-around. */
    public static final int PADDING_MSG_TYPE_ID = -1;

    // ---- Limits of this implementation --------------------------------------------------------

    /** Smallest record area accepted (Agrona needs room for a record and the next header). */
    public static final long MIN_CAPACITY = 64;
    /** Largest record area: positions are masked as Java ints, as in Agrona. */
    public static final long MAX_CAPACITY = 1L << 30;

    /**
     * Largest head or tail position a file may hold: 2^62 bytes ever written. A position past it
     * is refused as corrupt, so a hostile file cannot bring the positions near
     * {@code Long.MAX_VALUE}, where the next record would overflow them (a producer writing
     * 10 GB/s would need 14 years to get here).
     */
    public static final long MAX_POSITION = 1L << 62;

    /** Total file length of a one-to-one or many-to-one ring with {@code capacity} bytes of record area. */
    public static long fileLength(long capacity) {
        return HEADER_LENGTH + capacity + TRAILER_LENGTH;
    }

    /** Largest payload for a record area of {@code capacity} bytes (Agrona's maxMsgLength). */
    public static int maxMessageLength(long capacity) {
        return (int) (capacity / 8);
    }

    /** {@code value} rounded up to a multiple of {@code alignment} (a power of two). */
    public static int align(int value, int alignment) {
        return (value + (alignment - 1)) & -alignment;
    }

    /** True when {@code capacity} is a power of two within [{@link #MIN_CAPACITY}, {@link #MAX_CAPACITY}]. */
    public static boolean isValidCapacity(long capacity) {
        return capacity >= MIN_CAPACITY && capacity <= MAX_CAPACITY && Long.bitCount(capacity) == 1;
    }

    /**
     * Checks a capacity, as Agrona's {@code checkCapacity}.
     *
     * @throws CapacityNotPowerOfTwoException naming the bad value
     */
    public static void checkCapacity(long capacity) {
        if (!isValidCapacity(capacity)) {
            throw new CapacityNotPowerOfTwoException(capacity);
        }
    }

    /** Name=value of every layout constant, in the order of {@code sympathy ring layout}. */
    public static java.util.Map<String, Long> constants() {
        var m = new java.util.LinkedHashMap<String, Long>();
        m.put("HEADER_LENGTH", (long) HEADER_LENGTH);
        m.put("MAGIC", MAGIC);
        m.put("LAYOUT_VERSION", (long) LAYOUT_VERSION);
        m.put("MAGIC_OFFSET", (long) MAGIC_OFFSET);
        m.put("LAYOUT_VERSION_OFFSET", (long) LAYOUT_VERSION_OFFSET);
        m.put("READY_OFFSET", (long) READY_OFFSET);
        m.put("CAPACITY_OFFSET", (long) CAPACITY_OFFSET);
        m.put("MAX_MESSAGE_LENGTH_OFFSET", (long) MAX_MESSAGE_LENGTH_OFFSET);
        m.put("HEADER_LENGTH_OFFSET", (long) HEADER_LENGTH_OFFSET);
        m.put("CREATION_TIME_OFFSET", (long) CREATION_TIME_OFFSET);
        m.put("PRODUCER_PID_OFFSET", (long) PRODUCER_PID_OFFSET);
        m.put("PRODUCER_HEARTBEAT_OFFSET", (long) PRODUCER_HEARTBEAT_OFFSET);
        m.put("PRODUCER_DETACHED_OFFSET", (long) PRODUCER_DETACHED_OFFSET);
        m.put("CONSUMER_PID_OFFSET", (long) CONSUMER_PID_OFFSET);
        m.put("CONSUMER_DETACHED_OFFSET", (long) CONSUMER_DETACHED_OFFSET);
        m.put("CONSUMER_WAKE_ARMED_OFFSET", (long) CONSUMER_WAKE_ARMED_OFFSET);
        m.put("CONSUMER_WAITING_OFFSET", (long) CONSUMER_WAITING_OFFSET);
        m.put("CONSUMER_WAKE_SEQ_OFFSET", (long) CONSUMER_WAKE_SEQ_OFFSET);
        m.put("PRODUCER_WAKE_ARMED_OFFSET", (long) PRODUCER_WAKE_ARMED_OFFSET);
        m.put("PRODUCER_WAITING_OFFSET", (long) PRODUCER_WAITING_OFFSET);
        m.put("PRODUCER_WAKE_SEQ_OFFSET", (long) PRODUCER_WAKE_SEQ_OFFSET);
        m.put("TRAILER_LENGTH", (long) TRAILER_LENGTH);
        m.put("TAIL_POSITION_OFFSET", (long) TAIL_POSITION_OFFSET);
        m.put("HEAD_CACHE_POSITION_OFFSET", (long) HEAD_CACHE_POSITION_OFFSET);
        m.put("HEAD_POSITION_OFFSET", (long) HEAD_POSITION_OFFSET);
        m.put("CORRELATION_COUNTER_OFFSET", (long) CORRELATION_COUNTER_OFFSET);
        m.put("CONSUMER_HEARTBEAT_OFFSET", (long) CONSUMER_HEARTBEAT_OFFSET);
        m.put("RECORD_HEADER_LENGTH", (long) RECORD_HEADER_LENGTH);
        m.put("RECORD_ALIGNMENT", (long) RECORD_ALIGNMENT);
        m.put("LENGTH_OFFSET", (long) LENGTH_OFFSET);
        m.put("TYPE_OFFSET", (long) TYPE_OFFSET);
        m.put("PADDING_MSG_TYPE_ID", (long) PADDING_MSG_TYPE_ID);
        m.put("MAX_POSITION", MAX_POSITION);
        m.put("KIND_LAYOUT_VERSION", (long) KIND_LAYOUT_VERSION);
        m.put("KIND_OFFSET", (long) KIND_OFFSET);
        m.put("KIND_ONE_TO_ONE", (long) KIND_ONE_TO_ONE);
        m.put("KIND_MANY_TO_ONE", (long) KIND_MANY_TO_ONE);
        m.put("KIND_BROADCAST", (long) KIND_BROADCAST);
        m.put("BROADCAST_TRAILER_LENGTH", (long) BROADCAST_TRAILER_LENGTH);
        m.put("BROADCAST_TAIL_INTENT_OFFSET", (long) BROADCAST_TAIL_INTENT_OFFSET);
        m.put("BROADCAST_TAIL_OFFSET", (long) BROADCAST_TAIL_OFFSET);
        m.put("BROADCAST_LATEST_OFFSET", (long) BROADCAST_LATEST_OFFSET);
        return m;
    }
}
