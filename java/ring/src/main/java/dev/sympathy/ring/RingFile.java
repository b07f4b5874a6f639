package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import dev.sympathy.mapped.MappedOpen;
import dev.sympathy.mapped.OpenedFile;
import dev.sympathy.mapped.Progress;
import dev.sympathy.mapped.Sighting;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * A ring file of {@code docs/ring-layout.md}, mapped into memory with the FFM API: a one-to-one
 * ring, a many-to-one ring or a broadcast buffer ({@link RingKind}, fixed at creation). One open,
 * one set of checks and one liveness for every kind; each kind has its own peers:
 * {@link #producer()} and {@link #consumer()} (one-to-one), {@link #manyToOneProducer()} and
 * {@link #manyToOneConsumer()} (many-to-one), {@link #broadcastTransmitter()} and
 * {@link #broadcastReceiver()} (broadcast). Asking a file for the peers of another kind is a
 * {@link WrongKindException}.
 *
 * <pre>{@code
 * try (RingFile ring = RingFile.create(Path.of("/dev/shm/r"), 1 << 20);
 *      RingProducer producer = ring.producer();
 *      RingConsumer consumer = ring.consumer()) {
 *     producer.write(1, new byte[] {1, 2, 3, 4}, 0, 4);   // false when full: back pressure
 *     consumer.read((type, buffer, offset, length) -> { ... }, 100);
 * }
 * }</pre>
 *
 * <p>Every value read from the file is validated before use: a hostile or damaged file gives a
 * {@link RingException}, never an out-of-bounds access. Closing unmaps the file; the producer
 * and consumer of a closed ring must not be used.
 */
public final class RingFile implements AutoCloseable {
    /** The open steps every mapped file shares; a path not yet created is waited for. */
    private static final MappedOpen OPENER =
            new MappedOpen(RingDescriptor.KIND, RingOpenErrors.ERRORS, RingOpenErrors::notCreated);

    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final MemorySegment ringRegion;
    private final int capacity;
    private final RingKind kind;
    /** Opened by {@link #openReadOnly}: no producer, consumer or claims. */
    private final boolean readOnly;

    /**
     * A ring in this process's memory only, no file: for threads of one process and tests (the
     * jcstress tests make one per trial). Laid out and initialised exactly as {@link #create}
     * does, pids and heartbeats included; {@link #path()} is null. The memory is freed by the
     * garbage collector once the ring, its producer and consumer are unreachable;
     * {@link #close()} does nothing.
     *
     * @throws CapacityNotPowerOfTwoException if capacity is not a power of two in range
     */
    public static RingFile inMemory(long capacity) {
        return inMemory(capacity, RingKind.ONE_TO_ONE);
    }

    /**
     * A ring of {@code kind} in this process's memory only, no file; see {@link #inMemory(long)}.
     *
     * <pre>{@code
     * RingFile ring = RingFile.inMemory(1024, RingKind.BROADCAST);
     * BroadcastTransmitter transmitter = ring.broadcastTransmitter();
     * }</pre>
     *
     * @throws CapacityNotPowerOfTwoException if capacity is not a power of two in range
     */
    public static RingFile inMemory(long capacity, RingKind kind) {
        checkCapacity(capacity);
        // Zeroed; 64-byte aligned (a cache line): every shared field sits on a multiple of its size.
        MemorySegment file = Arena.ofAuto().allocate(kind.fileLength(capacity), 64);
        writeHeader(file, capacity, kind);
        return new RingFile(null, null, file, (int) capacity, kind, false);
    }

    /**
     * Writes the header of a new ring of {@code kind} into zeroed {@code file}, {@code ready}
     * last: layout version 1 for a one-to-one ring (no {@code kind} word, the bytes older builds
     * read), 2 with the {@code kind} word for the others.
     */
    private static void writeHeader(MemorySegment file, long capacity, RingKind kind) {
        LONG.set(file, (long) MAGIC_OFFSET, MAGIC);
        INT.set(file, (long) LAYOUT_VERSION_OFFSET, kind.layoutVersion());
        if (kind.layoutVersion() >= KIND_LAYOUT_VERSION) {
            INT.set(file, (long) KIND_OFFSET, kind.code());
        }
        LONG.set(file, (long) CAPACITY_OFFSET, capacity);
        INT.set(file, (long) MAX_MESSAGE_LENGTH_OFFSET, RingDescriptor.maxMessageLength(capacity));
        INT.set(file, (long) HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        LONG.set(file, (long) CREATION_TIME_OFFSET, System.currentTimeMillis());
        // SYNC POINT ready: every header field and the zeroed ring region before `ready`.
        INT.setRelease(file, (long) READY_OFFSET, 1);
    }

    private RingFile(Path path, Arena arena, MemorySegment file, int capacity, RingKind kind, boolean readOnly) {
        this.readOnly = readOnly;
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.capacity = capacity;
        this.kind = kind;
        this.ringRegion = file.asSlice(HEADER_LENGTH, (long) capacity + kind.trailerLength());
    }

    /**
     * Creates a new ring file of {@code capacity} bytes of record area, reserves its blocks
     * ({@code posix_fallocate}) and maps it. A filesystem without room for the file fails here,
     * and the file is removed, rather than the first write to the mapping killing its writer
     * with {@code SIGBUS}.
     *
     * @throws CapacityNotPowerOfTwoException if capacity is not a power of two in range
     * @throws NoSpaceException if the filesystem cannot hold the file (naming it and its free space)
     * @throws PermissionDeniedException if the file cannot be created for reading and writing
     * @throws java.nio.file.FileAlreadyExistsException if the path exists (never overwritten:
     *     a live peer may have it mapped)
     */
    public static RingFile create(Path path, long capacity) throws IOException {
        return create(path, capacity, RingKind.ONE_TO_ONE);
    }

    /**
     * Creates a new ring file of {@code kind}, as {@link #create(Path, long)} does: a one-to-one
     * ring as layout version 1 (4096 + capacity + 768 bytes), a many-to-one ring as version 2
     * with the same length, a broadcast buffer as version 2 of 4096 + capacity + 128 bytes.
     *
     * <pre>{@code
     * try (RingFile ring = RingFile.create(Path.of("/dev/shm/events"), 1 << 20, RingKind.BROADCAST);
     *      BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
     *     transmitter.transmit(1, new byte[] {1, 2, 3, 4}, 0, 4);   // never waits
     * }
     * }</pre>
     *
     * @throws CapacityNotPowerOfTwoException if capacity is not a power of two in range
     * @throws NoSpaceException if the filesystem cannot hold the file (naming it and its free space)
     * @throws PermissionDeniedException if the file cannot be created for reading and writing
     * @throws java.nio.file.FileAlreadyExistsException if the path exists (never overwritten)
     */
    public static RingFile create(Path path, long capacity, RingKind kind) throws IOException {
        checkCapacity(capacity);
        long length = kind.fileLength(capacity);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(path.toString(), e);
        }
        // From here the file is ours: any failure removes it (without `ready`, every opener
        // would wait on it).
        Arena arena = Arena.ofShared();
        try (channel) {
            FileSpace.reserve(path, length);
            channel.write(ByteBuffer.allocate(1), length - 1); // sized; zero-filled
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            writeHeader(file, capacity, kind);
            return new RingFile(path, arena, file, (int) capacity, kind, false);
        } catch (IOException | RuntimeException e) {
            arena.close();
            java.nio.file.Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Opens an existing ring file, waiting up to {@code timeout} for it to exist and for its
     * creator to set {@code ready}; then checks magic, version, capacity, file length, the derived
     * header fields and the positions: the rules of docs/ring-layout.md ("Opening"), the same as
     * the Rust ring's {@code Ring::open} (the conformance suite checks both). The steps up to the
     * version are those every mapped file shares ({@link dev.sympathy.mapped.MappedOpen}); the
     * ring checks its own fields after them.
     *
     * @throws NotARegularFileException if the path is a directory, FIFO, device or socket (also
     *     through a symbolic link): refused before opening, so a FIFO never blocks
     * @throws RingTimeoutException if the file does not appear or get ready in time
     * @throws NotARingFileException if the magic is wrong
     * @throws UnsupportedVersionException if the layout version is not 1 or 2
     * @throws WrongKindException if the file is a many-to-one ring or a broadcast buffer (open
     *     those with {@link #open(Path, Duration, RingKind)} or {@link #openAnyKind})
     * @throws CapacityNotPowerOfTwoException if the header's capacity is impossible
     * @throws TruncatedFileException if the file length does not match the header, or the file is
     *     still shorter than the header page when the timeout ends
     * @throws CorruptHeaderException if {@code ready} is neither 0 nor 1, the {@code kind} of a
     *     version-2 file is not 1, 2 or 3, or {@code max_message_length} or {@code header_length}
     *     is not what the capacity implies
     * @throws CorruptRecordException if the head and tail positions are impossible
     * @throws NoSpaceException if the file is sparse and its filesystem cannot hold it (see
     *     {@link #reserveSpace}, which open calls before it reads the trailer)
     * @throws PermissionDeniedException if the file cannot be opened for reading and writing
     * @throws RingIoException for any other error of the operating system
     */
    public static RingFile open(Path path, Duration timeout) throws IOException {
        return open(path, timeout, RingKind.ONE_TO_ONE);
    }

    /**
     * Opens an existing ring file that must be of {@code kind}: the checks of
     * {@link #open(Path, Duration)}, the positions those of the kind ({@link #checkPositions()}).
     *
     * <pre>{@code
     * try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5), RingKind.MANY_TO_ONE);
     *      ManyToOneProducer producer = ring.manyToOneProducer()) { ... }
     * }</pre>
     *
     * @throws WrongKindException if the file is a ring of another kind
     * @throws RingException as {@link #open(Path, Duration)}
     */
    public static RingFile open(Path path, Duration timeout, RingKind kind) throws IOException {
        return open(path, timeout, kind, false);
    }

    /**
     * Opens an existing ring file of whichever kind it is ({@link #kind()} says which): the
     * checks of {@link #open(Path, Duration)} but the kind. For tools that serve every kind.
     *
     * @throws RingException as {@link #open(Path, Duration)}, but never {@link WrongKindException}
     */
    public static RingFile openAnyKind(Path path, Duration timeout) throws IOException {
        return open(path, timeout, null, false);
    }

    private static RingFile open(Path path, Duration timeout, RingKind wanted, boolean readOnly) throws IOException {
        RingFile ring = open(path, timeout, readOnly);
        try {
            if (wanted != null && ring.kind != wanted) {
                throw new WrongKindException(path.toString(), ring.kind, wanted);
            }
            // Before the first look at the trailer: on tmpfs even reading a hole of the mapping
            // allocates a page, and a full filesystem answers that with SIGBUS.
            ring.reserveSpace();
            ring.checkPositions();
            return ring;
        } catch (RuntimeException e) {
            ring.close();
            throw e;
        }
    }

    /**
     * Opens a ring file of any kind for looking only (the sidecar's {@code inspect}): the file is
     * opened read-only and mapped read-only, so it needs only read permission and nothing can be
     * written through it. The checks of {@link #open} but the kind and the positions, which a
     * tool shows as they are ({@link #checkPositions()} says what is wrong with them).
     * {@link #producer()}, {@link #consumer()}, the other writing peers and the claims throw
     * {@link IllegalStateException}; a {@link #broadcastReceiver()}, which only reads, works.
     *
     * @throws RingException as {@link #open}, but never {@link CorruptRecordException}
     */
    public static RingFile openReadOnly(Path path, Duration timeout) throws IOException {
        return open(path, timeout, true);
    }

    /**
     * Checks a head/tail pair read from the trailer, at open and attach: both non-negative,
     * 8-aligned and at most {@link RingDescriptor#MAX_POSITION}, and at most a capacity apart
     * either way (the Rust ring's {@code check_trailer}). The head may be ahead of the trailer's
     * tail: the Rust producer stores its tail after it publishes, so a consumer can read records
     * the tail does not count yet, and a producer killed then leaves the head past the tail; the
     * next producer resumes after those records.
     *
     * @throws CorruptRecordException at the head's position when they are impossible
     */
    public static void checkPositions(long head, long tail, long capacity) {
        long gap = tail - head;
        if (!possiblePosition(head) || !possiblePosition(tail) || gap < -capacity || gap > capacity) {
            throw badPositions(head, tail);
        }
    }

    /**
     * Checks a producer's own position {@code tail} against the consumer's {@code head}:
     * possible positions and {@code 0 <= tail - head <= capacity} (the Rust ring's
     * {@code check_positions}).
     *
     * @throws CorruptRecordException at the head's position when they are impossible
     */
    static void checkProducerPositions(long head, long tail, long capacity) {
        long gap = tail - head;
        if (!possiblePosition(head) || !possiblePosition(tail) || gap < 0 || gap > capacity) {
            throw badPositions(head, tail);
        }
    }

    /**
     * Checks the positions of a broadcast ring's trailer, at open and when a transmitter or a
     * receiver attaches: each a multiple of 8 in 0..=2^62, {@code latest <= tail <= tailIntent},
     * {@code tail - latest <= capacity} and {@code tailIntent - tail <= capacity}.
     *
     * @throws CorruptRecordException at the latest record's position when they are impossible
     */
    public static void checkBroadcastPositions(long tailIntent, long tail, long latest, long capacity) {
        if (!possiblePosition(tailIntent) || !possiblePosition(tail) || !possiblePosition(latest) || latest > tail
                || tail > tailIntent || tail - latest > capacity || tailIntent - tail > capacity) {
            throw new CorruptRecordException(latest, "broadcast positions latest " + latest + " / tail " + tail
                    + " / tail_intent " + tailIntent + " are negative, misaligned (not multiples of 8), past 2^62, "
                    + "out of order (latest <= tail <= tail_intent) or further apart than the capacity allows");
        }
    }

    /**
     * Checks this ring's positions as they are now, by its kind: head and tail
     * ({@link #checkPositions(long, long, long)}) for the rings, the broadcast trailer
     * ({@link #checkBroadcastPositions}) for a broadcast buffer.
     *
     * @throws CorruptRecordException when they are impossible
     */
    public void checkPositions() {
        if (kind == RingKind.BROADCAST) {
            checkBroadcastPositions(broadcastTailIntent(), tailPosition(), broadcastLatest(), capacity);
        } else {
            checkPositions(headPosition(), tailPosition(), capacity);
        }
    }

    private static CorruptRecordException badPositions(long head, long tail) {
        return new CorruptRecordException(head, "head " + head + " / tail " + tail
                + " are negative, misaligned (not multiples of 8), past 2^62, or further apart than the capacity allows");
    }

    private static boolean possiblePosition(long position) {
        return position >= 0 && position <= MAX_POSITION && (position & (RECORD_ALIGNMENT - 1)) == 0;
    }

    private static RingFile open(Path path, Duration timeout, boolean readOnly) throws IOException {
        String where = path.toString();
        MappedOpen.Access access = readOnly ? MappedOpen.Access.READ_ONLY : MappedOpen.Access.READ_WRITE;
        try (OpenedFile opened = OPENER.open(path, timeout, access)) {
            RingKind kind = kindOf(opened.header(), where);
            long capacity = checkHeader(opened.header(), where, opened.length(), kind);
            return map(path, opened, capacity, kind, readOnly);
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(where, e);
        } catch (IOException e) {
            throw new RingIoException(where, "map the ring file", e);
        }
    }

    /**
     * The kind of a header that passed the shared checks: one-to-one for layout version 1, else
     * the {@code kind} word.
     *
     * @throws CorruptHeaderException if the {@code kind} word names no kind
     */
    private static RingKind kindOf(MemorySegment header, String where) {
        int version = (int) INT.get(header, (long) LAYOUT_VERSION_OFFSET);
        if (version == LAYOUT_VERSION) {
            return RingKind.ONE_TO_ONE;
        }
        int code = (int) INT.get(header, (long) KIND_OFFSET);
        RingKind kind = RingKind.ofCode(code);
        if (kind == null) {
            throw new CorruptHeaderException(where, "kind is " + Integer.toUnsignedString(code)
                    + ", expected 1 (spsc), 2 (mpsc) or 3 (broadcast)");
        }
        return kind;
    }

    /**
     * Checks the ring's own fields of a header that passed the shared checks, against the file's
     * {@code length}: capacity, file length (by the {@code kind}), {@code max_message_length},
     * {@code header_length}. Returns the capacity.
     */
    private static long checkHeader(MemorySegment header, String where, long length, RingKind kind) {
        long capacity = (long) LONG.get(header, (long) CAPACITY_OFFSET);
        checkCapacity(capacity);
        if (length != kind.fileLength(capacity)) {
            throw new TruncatedFileException(where, length, kind.fileLength(capacity), capacity);
        }
        int maxMessage = (int) INT.get(header, (long) MAX_MESSAGE_LENGTH_OFFSET);
        if (maxMessage != RingDescriptor.maxMessageLength(capacity)) {
            throw new CorruptHeaderException(where, "max_message_length is " + maxMessage
                    + ", expected capacity / 8 = " + RingDescriptor.maxMessageLength(capacity));
        }
        int headerLength = (int) INT.get(header, (long) HEADER_LENGTH_OFFSET);
        if (headerLength != HEADER_LENGTH) {
            throw new CorruptHeaderException(where, "header_length is " + Integer.toUnsignedString(headerLength)
                    + ", expected 4096");
        }
        return capacity;
    }

    /** Maps the whole checked file, read-only or for reading and writing. */
    private static RingFile map(Path path, OpenedFile opened, long capacity, RingKind kind, boolean readOnly)
            throws IOException {
        FileChannel.MapMode mode = readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE;
        Arena arena = Arena.ofShared();
        try {
            MemorySegment file = opened.channel().map(mode, 0, opened.length(), arena);
            return new RingFile(path, arena, file, (int) capacity, kind, readOnly);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Allocates the blocks of this ring's file that are not yet allocated (the holes of a sparse
     * file, such as one made by a create that did not reserve its space, or sized by another
     * tool), so that a full filesystem is a {@link NoSpaceException} now instead of a
     * {@code SIGBUS} in whichever peer first writes there. Safe while peers use the ring: it
     * allocates holes only (the {@code fallocate} system call through FFM, never a write of
     * zeros); a file already allocated costs one cheap call. Does nothing for
     * {@link #inMemory} and read-only rings, or where the filesystem cannot allocate ahead.
     * The Rust ring's {@code Ring::reserve_space}.
     *
     * <p>{@link #open} calls it before it first reads the trailer (on tmpfs, even a read of a
     * hole through the mapping takes a page, so a full filesystem would fault there already),
     * so an opened ring has its space; calling it again re-checks a file someone may have
     * extended or punched since.
     *
     * <pre>{@code
     * try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {   // reserves: NoSpaceException
     *     ring.reserveSpace();            // already reserved: one cheap call
     * }
     * }</pre>
     *
     * @throws NoSpaceException if the filesystem cannot hold the file (naming it and its free
     *     space, as {@link #create} does)
     * @throws IOException for any other error of the operating system
     */
    public void reserveSpace() throws IOException {
        if (path != null && !readOnly) {
            FileSpace.allocateHoles(path, file.byteSize());
        }
    }

    /**
     * Attaches the producer side of a one-to-one ring (claims {@code producer_pid}).
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws AlreadyAttachedException if a live process holds the producer side
     */
    public RingProducer producer() {
        requireKind(RingKind.ONE_TO_ONE);
        return new RingProducer(this);
    }

    /**
     * Attaches the consumer side of a one-to-one ring (claims {@code consumer_pid}).
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws AlreadyAttachedException if a live process holds the consumer side
     */
    public RingConsumer consumer() {
        requireKind(RingKind.ONE_TO_ONE);
        return new RingConsumer(this);
    }

    /**
     * A producer of a many-to-one ring: it does not register in the header, so any number of
     * them may write at once, from any threads and processes (one instance per thread).
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws IllegalStateException if the ring was opened read-only
     */
    public ManyToOneProducer manyToOneProducer() {
        requireKind(RingKind.MANY_TO_ONE);
        requireWritable("a many-to-one producer");
        return new ManyToOneProducer(this);
    }

    /**
     * Attaches the one consumer of a many-to-one ring (claims {@code consumer_pid}, as the
     * one-to-one consumer does).
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws AlreadyAttachedException if a live process holds the consumer side
     */
    public ManyToOneConsumer manyToOneConsumer() {
        requireKind(RingKind.MANY_TO_ONE);
        return new ManyToOneConsumer(this);
    }

    /**
     * Attaches the one transmitter of a broadcast ring (claims {@code producer_pid}, as a
     * one-to-one producer does); it resumes at the trailer's tail.
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws AlreadyAttachedException if a live process holds the transmitter side
     * @throws CorruptRecordException if the broadcast trailer's positions are impossible
     */
    public BroadcastTransmitter broadcastTransmitter() {
        requireKind(RingKind.BROADCAST);
        return new BroadcastTransmitter(this);
    }

    /**
     * A receiver of a broadcast ring, joined at the latest record: it copies each record out and
     * hands it out only once it knows the transmitter did not overwrite it meanwhile. Receivers
     * do not register: any number may receive, from any threads and processes (one instance per
     * thread), on a ring opened read-only too.
     *
     * @throws WrongKindException if this ring is of another kind
     * @throws CorruptRecordException if the broadcast trailer's positions are impossible
     */
    public BroadcastReceiver broadcastReceiver() {
        requireKind(RingKind.BROADCAST);
        return new BroadcastReceiver(this);
    }

    /** Throws {@link WrongKindException} unless this ring is of {@code wanted}. */
    private void requireKind(RingKind wanted) {
        if (kind != wanted) {
            throw new WrongKindException(String.valueOf(path), kind, wanted);
        }
    }

    /** Throws {@link IllegalStateException} for a ring opened read-only; {@code who} would write. */
    private void requireWritable(String who) {
        if (readOnly) {
            throw new IllegalStateException(path + " was opened read-only (openReadOnly): open it with "
                    + "RingFile.open to attach " + who);
        }
    }

    /** The ring's kind, fixed when it was created. */
    public RingKind kind() {
        return kind;
    }

    /** The file's layout version: 1 (a one-to-one ring of the first layout) or 2 (with the {@code kind} word). */
    public int layoutVersion() {
        return (int) INT.get(file, (long) LAYOUT_VERSION_OFFSET);
    }

    /** The path this ring was opened from (null for {@link #inMemory} rings). */
    public Path path() {
        return path;
    }

    /** Bytes in the record area (a power of two). */
    public int capacity() {
        return capacity;
    }

    /** Largest payload in bytes (capacity / 8). */
    public int maxMessageLength() {
        return RingDescriptor.maxMessageLength(capacity);
    }

    /** The whole mapped file (header page, record area, trailer). */
    public MemorySegment segment() {
        return file;
    }

    /**
     * The Agrona region: record area then trailer (768 bytes, or 128 for a broadcast ring), from
     * byte 4096 of the file.
     */
    public MemorySegment ringRegion() {
        return ringRegion;
    }

    /** Creation time, ms since the Unix epoch. */
    public long creationTimeMs() {
        return (long) LONG.get(file, (long) CREATION_TIME_OFFSET);
    }

    /** Pid of the attached producer, 0 when none. */
    public int producerPid() {
        return (int) INT.getVolatile(file, (long) PRODUCER_PID_OFFSET);
    }

    /** Pid of the attached consumer, 0 when none. */
    public int consumerPid() {
        return (int) INT.getVolatile(file, (long) CONSUMER_PID_OFFSET);
    }

    /** The producer's last heartbeat, ms since the Unix epoch (0: never). */
    public long producerHeartbeatMs() {
        // SYNC POINT producer-heartbeat: acquire pairs with producerHeartbeat's release.
        return (long) LONG.getAcquire(file, (long) PRODUCER_HEARTBEAT_OFFSET);
    }

    /** The consumer's last heartbeat, ms since the Unix epoch (0: never; always 0 for a broadcast ring). */
    public long consumerHeartbeatMs() {
        if (kind == RingKind.BROADCAST) {
            return 0; // receivers have no heartbeat slot
        }
        // SYNC POINT consumer-heartbeat: acquire pairs with consumerHeartbeat's release.
        return (long) LONG.getAcquire(ringRegion, (long) capacity + CONSUMER_HEARTBEAT_OFFSET);
    }

    /**
     * The producer's position: bytes ever claimed (a multiple of 8); a broadcast ring's
     * transmitter's {@code tail}.
     */
    public long tailPosition() {
        if (kind == RingKind.BROADCAST) {
            // SYNC POINT broadcast-tail: acquire pairs with the transmitter's release of the tail.
            return (long) LONG.getAcquire(ringRegion, (long) capacity + BROADCAST_TAIL_OFFSET);
        }
        return (long) LONG.getVolatile(ringRegion, (long) capacity + TAIL_POSITION_OFFSET);
    }

    /**
     * The consumer's position: bytes ever consumed (a multiple of 8); for a broadcast ring,
     * which has no head (receivers are not waited for), the latest record's position.
     */
    public long headPosition() {
        if (kind == RingKind.BROADCAST) {
            return broadcastLatest();
        }
        return (long) LONG.getVolatile(ringRegion, (long) capacity + HEAD_POSITION_OFFSET);
    }

    /**
     * A broadcast ring's {@code tail_intent}: the position the transmitter is writing up to.
     *
     * @throws WrongKindException if this ring is not a broadcast ring
     */
    public long broadcastTailIntent() {
        requireKind(RingKind.BROADCAST);
        // SYNC POINT broadcast-tail-intent: acquire pairs with the transmitter's release.
        return (long) LONG.getAcquire(ringRegion, (long) capacity + BROADCAST_TAIL_INTENT_OFFSET);
    }

    /**
     * A broadcast ring's {@code latest}: the position of the latest record transmitted.
     *
     * @throws WrongKindException if this ring is not a broadcast ring
     */
    public long broadcastLatest() {
        requireKind(RingKind.BROADCAST);
        // SYNC POINT broadcast-latest: acquire pairs with the transmitter's release.
        return (long) LONG.getAcquire(ringRegion, (long) capacity + BROADCAST_LATEST_OFFSET);
    }

    /** The producer's heartbeat at its last clean detach, ms since the Unix epoch (0: never detached). */
    public long producerDetachedMs() {
        // SYNC POINT detached: acquire pairs with the detach's release in detach().
        return (long) LONG.getAcquire(file, (long) PRODUCER_DETACHED_OFFSET);
    }

    /** The consumer's heartbeat at its last clean detach, ms since the Unix epoch (0: never detached). */
    public long consumerDetachedMs() {
        // SYNC POINT detached: acquire pairs with the detach's release in detach().
        return (long) LONG.getAcquire(file, (long) CONSUMER_DETACHED_OFFSET);
    }

    /**
     * The producer as an observer sees it (no memory of earlier looks, so no progress: a side
     * watches its peer with a {@link PeerWatch}); see {@link PeerState#classify}.
     *
     * @param staleMs heartbeat age above which a live pid reads as {@link PeerState#STALE} (never dead)
     */
    public PeerState producerState(long staleMs) {
        return PeerState.classify(sight(true), Progress.NONE, System.currentTimeMillis(), staleMs,
                SharedMemory::processAlive);
    }

    /** The consumer as an observer sees it; see {@link #producerState(long)}. */
    public PeerState consumerState(long staleMs) {
        return PeerState.classify(sight(false), Progress.NONE, System.currentTimeMillis(), staleMs,
                SharedMemory::processAlive);
    }

    /** True when the producer is attached, its process lives and its heartbeat is younger than staleMs. */
    public boolean producerAlive(long staleMs) {
        return producerState(staleMs) == PeerState.ALIVE;
    }

    /** True when the consumer is attached, its process lives and its heartbeat is younger than staleMs. */
    public boolean consumerAlive(long staleMs) {
        return consumerState(staleMs) == PeerState.ALIVE;
    }

    /**
     * A watch on the producer for a consumer that has just attached: it counts the tail's
     * progress between looks and tells a departure it saw happen from one that predates it
     * ({@link PeerWatch#hasLeft}). Records waiting now make the producer's departure news.
     */
    public PeerWatch watchProducer() {
        return new PeerWatch(this, true, recordsWaiting());
    }

    /** A watch on the consumer for a producer that has just attached; see {@link #watchProducer()}. */
    public PeerWatch watchConsumer() {
        return new PeerWatch(this, false, false);
    }

    /**
     * One look at a side's header words: the heartbeat, then the pid, then the detach record.
     * An attach stores the pid, then the heartbeat (release); a detach stores a heartbeat and the
     * same value as {@code detached_ms}, then pid 0. The heartbeat before the pid: the other way
     * round, a pid of 0 from just before an attach could meet the heartbeat that attach then
     * stored, and a peer that is starting would read as detached. {@code detached_ms} after the
     * pid: a pid of 0 from a detach makes that detach's record visible (the compare-and-swap
     * releases it), so a detach is never mistaken for a foreign peer's heartbeat.
     */
    Sighting sight(boolean producer) {
        long heartbeatMs = producer ? producerHeartbeatMs() : consumerHeartbeatMs(); // SYNC POINT *-heartbeat
        int pid = producer ? producerPid() : consumerPid(); // SYNC POINT attach
        long detachedMs = producer ? producerDetachedMs() : consumerDetachedMs(); // SYNC POINT detached
        return new Sighting(pid, heartbeatMs, detachedMs);
    }

    /**
     * Whether records wait for the consumer: the tail is past the head, or a record is published
     * at the head (a producer killed between publishing it and storing the tail).
     */
    boolean recordsWaiting() {
        if (kind == RingKind.BROADCAST) {
            return false; // nobody waits for a broadcast's receivers
        }
        long head = headPosition();
        int index = (int) head & (capacity - 1) & -RECORD_ALIGNMENT;
        // SYNC POINT record-length: acquire pairs with the producer's publishing release.
        int length = (int) INT.getAcquire(ringRegion, (long) index);
        return tailPosition() != head || length > 0;
    }

    /**
     * Claims the producer side for this process without the FFM data path, for peers that
     * bring their own (Agrona, JNI): compare-and-swap of {@code producer_pid} from 0 or from a
     * dead pid, then a fresh heartbeat (the order of the Rust ring).
     *
     * @throws AlreadyAttachedException if a live process (this one included) holds it
     */
    public void claimProducer() {
        claimPid(PRODUCER_PID_OFFSET, "producer", this::producerHeartbeat);
    }

    /**
     * Detaches the producer side, if this process holds it: a heartbeat, the same time as
     * {@code producer_detached_ms}, then pid 0.
     */
    public void releaseProducer() {
        detach(true);
    }

    /** Claims the consumer side for this process; see {@link #claimProducer()}. */
    public void claimConsumer() {
        claimPid(CONSUMER_PID_OFFSET, "consumer", this::consumerHeartbeat);
    }

    /**
     * Detaches the consumer side, if this process holds it: a heartbeat, the same time as
     * {@code consumer_detached_ms}, then pid 0.
     */
    public void releaseConsumer() {
        detach(false);
    }

    /** Stores the producer's heartbeat: now, ms since the Unix epoch. */
    public void producerHeartbeat() {
        storeHeartbeat(true, System.currentTimeMillis());
    }

    /**
     * Stores the consumer's heartbeat in the trailer slot Agrona's consumerHeartbeatTime uses
     * (nothing for a broadcast ring, whose trailer has no such slot).
     */
    public void consumerHeartbeat() {
        storeHeartbeat(false, System.currentTimeMillis());
    }

    private void storeHeartbeat(boolean producer, long nowMs) {
        if (producer) {
            // SYNC POINT producer-heartbeat: release pairs with producerHeartbeatMs's acquire.
            LONG.setRelease(file, (long) PRODUCER_HEARTBEAT_OFFSET, nowMs);
        } else if (kind != RingKind.BROADCAST) {
            // SYNC POINT consumer-heartbeat: release pairs with consumerHeartbeatMs's acquire.
            LONG.setRelease(ringRegion, (long) capacity + CONSUMER_HEARTBEAT_OFFSET, nowMs);
        }
    }

    private void claimPid(long pidOffset, String side, Runnable heartbeat) {
        requireWritable("a " + side);
        int me = (int) ProcessHandle.current().pid();
        while (true) {
            int current = (int) INT.getVolatile(file, pidOffset);
            if (current != 0 && (current == me || SharedMemory.processAlive(current))) {
                throw new AlreadyAttachedException(String.valueOf(path), side, current);
            }
            // SYNC POINT attach: the compare-and-swap pairs with the pid loads of sight().
            if (INT.compareAndSet(file, pidOffset, current, me)) {
                // Heartbeat after the claim, as the Rust ring does: a heartbeat stored before it
                // would show a peer "detached" (pid 0, heartbeat set) to a Rust peer meanwhile.
                heartbeat.run();
                return;
            }
        }
    }

    /**
     * Detaches a side, if this process holds it: stores a heartbeat, records the same time as
     * {@code detached_ms}, then gives the pid back (the order of the Rust ring's detach), so a
     * peer tells this clean detach from a foreign peer's later heartbeat.
     */
    private void detach(boolean producer) {
        long pidOffset = producer ? PRODUCER_PID_OFFSET : CONSUMER_PID_OFFSET;
        int me = (int) ProcessHandle.current().pid();
        if ((int) INT.getVolatile(file, pidOffset) != me) {
            return; // not ours (a peer may have judged us dead and taken over)
        }
        long now = System.currentTimeMillis();
        storeHeartbeat(producer, now);
        // SYNC POINT detached: release pairs with producerDetachedMs/consumerDetachedMs's acquire.
        LONG.setRelease(file, (long) (producer ? PRODUCER_DETACHED_OFFSET : CONSUMER_DETACHED_OFFSET), now);
        // SYNC POINT attach: the compare-and-swap releases the detach record to sight()'s pid load.
        boolean unused = (boolean) INT.compareAndSet(file, pidOffset, me, 0); // someone else's slot stays theirs
    }

    /** Unmaps the file (nothing for {@link #inMemory} rings). */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
