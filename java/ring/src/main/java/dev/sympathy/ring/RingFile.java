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
 * A ring file of {@code docs/ring-layout.md}, mapped into memory with the FFM API.
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
        checkCapacity(capacity);
        // Zeroed; 64-byte aligned (a cache line): every shared field sits on a multiple of its size.
        MemorySegment file = Arena.ofAuto().allocate(fileLength(capacity), 64);
        writeHeader(file, capacity);
        return new RingFile(null, null, file, (int) capacity);
    }

    /** Writes the header of a new ring into zeroed {@code file}, {@code ready} last. */
    private static void writeHeader(MemorySegment file, long capacity) {
        LONG.set(file, (long) MAGIC_OFFSET, MAGIC);
        INT.set(file, (long) LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        LONG.set(file, (long) CAPACITY_OFFSET, capacity);
        INT.set(file, (long) MAX_MESSAGE_LENGTH_OFFSET, RingDescriptor.maxMessageLength(capacity));
        INT.set(file, (long) HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        LONG.set(file, (long) CREATION_TIME_OFFSET, System.currentTimeMillis());
        // SYNC POINT ready: every header field and the zeroed ring region before `ready`.
        INT.setRelease(file, (long) READY_OFFSET, 1);
    }

    private RingFile(Path path, Arena arena, MemorySegment file, int capacity) {
        this(path, arena, file, capacity, false);
    }

    private RingFile(Path path, Arena arena, MemorySegment file, int capacity, boolean readOnly) {
        this.readOnly = readOnly;
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.capacity = capacity;
        this.ringRegion = file.asSlice(HEADER_LENGTH, (long) capacity + TRAILER_LENGTH);
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
        checkCapacity(capacity);
        long length = fileLength(capacity);
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
            writeHeader(file, capacity);
            return new RingFile(path, arena, file, (int) capacity);
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
     * @throws UnsupportedVersionException if the layout version is not 1
     * @throws CapacityNotPowerOfTwoException if the header's capacity is impossible
     * @throws TruncatedFileException if the file length does not match the header, or the file is
     *     still shorter than the header page when the timeout ends
     * @throws CorruptHeaderException if {@code ready} is neither 0 nor 1, or
     *     {@code max_message_length} or {@code header_length} is not what the capacity implies
     * @throws CorruptRecordException if the head and tail positions are impossible
     * @throws NoSpaceException if the file is sparse and its filesystem cannot hold it (see
     *     {@link #reserveSpace}, which open calls before it reads the trailer)
     * @throws PermissionDeniedException if the file cannot be opened for reading and writing
     * @throws RingIoException for any other error of the operating system
     */
    public static RingFile open(Path path, Duration timeout) throws IOException {
        RingFile ring = open(path, timeout, false);
        try {
            // Before the first look at the trailer: on tmpfs even reading a hole of the mapping
            // allocates a page, and a full filesystem answers that with SIGBUS.
            ring.reserveSpace();
            checkPositions(ring.headPosition(), ring.tailPosition(), ring.capacity());
            return ring;
        } catch (RuntimeException e) {
            ring.close();
            throw e;
        }
    }

    /**
     * Opens a ring file for looking only (the sidecar's {@code inspect}): the file is opened
     * read-only and mapped read-only, so it needs only read permission and nothing can be
     * written through it. The checks of {@link #open} but the positions, which a tool shows as
     * they are ({@link #checkPositions} says what is wrong with them). {@link #producer()},
     * {@link #consumer()} and the claims throw {@link IllegalStateException}.
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
            long capacity = checkHeader(opened.header(), where, opened.length());
            return map(path, opened, capacity, readOnly);
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(where, e);
        } catch (IOException e) {
            throw new RingIoException(where, "map the ring file", e);
        }
    }

    /**
     * Checks the ring's own fields of a header that passed the shared checks, against the file's
     * {@code length}: capacity, file length, {@code max_message_length}, {@code header_length}.
     * Returns the capacity.
     */
    private static long checkHeader(MemorySegment header, String where, long length) {
        long capacity = (long) LONG.get(header, (long) CAPACITY_OFFSET);
        checkCapacity(capacity);
        if (length != fileLength(capacity)) {
            throw new TruncatedFileException(where, length, fileLength(capacity));
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
    private static RingFile map(Path path, OpenedFile opened, long capacity, boolean readOnly) throws IOException {
        FileChannel.MapMode mode = readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE;
        Arena arena = Arena.ofShared();
        try {
            MemorySegment file = opened.channel().map(mode, 0, opened.length(), arena);
            return new RingFile(path, arena, file, (int) capacity, readOnly);
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

    /** Attaches the producer side (claims {@code producer_pid}). */
    public RingProducer producer() {
        return new RingProducer(this);
    }

    /** Attaches the consumer side (claims {@code consumer_pid}). */
    public RingConsumer consumer() {
        return new RingConsumer(this);
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

    /** The Agrona ring region: record area then trailer, from byte 4096 of the file. */
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

    /** The consumer's last heartbeat, ms since the Unix epoch (0: never). */
    public long consumerHeartbeatMs() {
        // SYNC POINT consumer-heartbeat: acquire pairs with consumerHeartbeat's release.
        return (long) LONG.getAcquire(ringRegion, (long) capacity + CONSUMER_HEARTBEAT_OFFSET);
    }

    /** The producer's position: bytes ever claimed (a multiple of 8). */
    public long tailPosition() {
        return (long) LONG.getVolatile(ringRegion, (long) capacity + TAIL_POSITION_OFFSET);
    }

    /** The consumer's position: bytes ever consumed (a multiple of 8). */
    public long headPosition() {
        return (long) LONG.getVolatile(ringRegion, (long) capacity + HEAD_POSITION_OFFSET);
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

    /** Stores the consumer's heartbeat in the trailer slot Agrona's consumerHeartbeatTime uses. */
    public void consumerHeartbeat() {
        storeHeartbeat(false, System.currentTimeMillis());
    }

    private void storeHeartbeat(boolean producer, long nowMs) {
        if (producer) {
            // SYNC POINT producer-heartbeat: release pairs with producerHeartbeatMs's acquire.
            LONG.setRelease(file, (long) PRODUCER_HEARTBEAT_OFFSET, nowMs);
        } else {
            // SYNC POINT consumer-heartbeat: release pairs with consumerHeartbeatMs's acquire.
            LONG.setRelease(ringRegion, (long) capacity + CONSUMER_HEARTBEAT_OFFSET, nowMs);
        }
    }

    private void claimPid(long pidOffset, String side, Runnable heartbeat) {
        if (readOnly) {
            throw new IllegalStateException(path + " was opened read-only (openReadOnly): open it with "
                    + "RingFile.open to attach a " + side);
        }
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
