package dev.sympathy.ring;

import static dev.sympathy.ring.RingDescriptor.*;
import static dev.sympathy.ring.SharedMemory.INT;
import static dev.sympathy.ring.SharedMemory.LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
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
    private static final long POLL_NANOS = 1_000_000;

    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final MemorySegment ringRegion;
    private final int capacity;

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
        LONG.set(file, (long) MAGIC_OFFSET, MAGIC);
        INT.set(file, (long) LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        LONG.set(file, (long) CAPACITY_OFFSET, capacity);
        INT.set(file, (long) MAX_MESSAGE_LENGTH_OFFSET, RingDescriptor.maxMessageLength(capacity));
        INT.set(file, (long) HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        LONG.set(file, (long) CREATION_TIME_OFFSET, System.currentTimeMillis());
        // SYNC POINT ready: every header field and the zeroed ring region before `ready`.
        INT.setRelease(file, (long) READY_OFFSET, 1);
        return new RingFile(null, null, file, (int) capacity);
    }

    private RingFile(Path path, Arena arena, MemorySegment file, int capacity) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.capacity = capacity;
        this.ringRegion = file.asSlice(HEADER_LENGTH, (long) capacity + TRAILER_LENGTH);
    }

    /**
     * Creates a new ring file of {@code capacity} bytes of record area and maps it.
     *
     * @throws CapacityNotPowerOfTwoException if capacity is not a power of two in range
     * @throws PermissionDeniedException if the file cannot be created for reading and writing
     * @throws java.nio.file.FileAlreadyExistsException if the path exists (never overwritten:
     *     a live peer may have it mapped)
     */
    public static RingFile create(Path path, long capacity) throws IOException {
        checkCapacity(capacity);
        long length = fileLength(capacity);
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), length - 1); // the file is zero-filled
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            LONG.set(file, (long) MAGIC_OFFSET, MAGIC);
            INT.set(file, (long) LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
            LONG.set(file, (long) CAPACITY_OFFSET, capacity);
            INT.set(file, (long) MAX_MESSAGE_LENGTH_OFFSET, RingDescriptor.maxMessageLength(capacity));
            INT.set(file, (long) HEADER_LENGTH_OFFSET, HEADER_LENGTH);
            LONG.set(file, (long) CREATION_TIME_OFFSET, System.currentTimeMillis());
            // SYNC POINT ready: every header field and the zeroed ring region before `ready`.
            INT.setRelease(file, (long) READY_OFFSET, 1);
            return new RingFile(path, arena, file, (int) capacity);
        } catch (AccessDeniedException e) {
            arena.close();
            throw new PermissionDeniedException(path.toString(), e);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Opens an existing ring file, waiting up to {@code timeout} for it to exist and for its
     * creator to set {@code ready}; then checks magic, version, capacity and length.
     *
     * @throws RingTimeoutException if the file does not appear or get ready in time
     * @throws NotARingFileException if the magic or a header field is wrong
     * @throws UnsupportedVersionException if the layout version is not 1
     * @throws CapacityNotPowerOfTwoException if the header's capacity is impossible
     * @throws TruncatedFileException if the file length does not match the header
     * @throws PermissionDeniedException if the file cannot be opened for reading and writing
     */
    public static RingFile open(Path path, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String where = path.toString();
        while (true) {
            FileChannel channel;
            try {
                channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (NoSuchFileException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new RingTimeoutException(where + " to be created", timeout.toMillis());
                }
                pause();
                continue;
            } catch (AccessDeniedException e) {
                throw new PermissionDeniedException(where, e);
            }
            try (channel) {
                return openReady(path, channel, deadline, timeout);
            }
        }
    }

    private static RingFile openReady(Path path, FileChannel channel, long deadline, Duration timeout)
            throws IOException {
        String where = path.toString();
        long size;
        while (true) {
            size = channel.size();
            if (size >= HEADER_LENGTH) {
                try (Arena headerArena = Arena.ofConfined()) {
                    MemorySegment header = channel.map(FileChannel.MapMode.READ_ONLY, 0, HEADER_LENGTH, headerArena);
                    long magic = (long) LONG.get(header, (long) MAGIC_OFFSET);
                    if (magic != 0 && magic != MAGIC) {
                        throw new NotARingFileException(where, String.format(
                                "magic is 0x%016x, expected 0x%016x (\"SYMPRING\")", magic, MAGIC));
                    }
                    // SYNC POINT ready: acquire pairs with the creator's release of `ready`.
                    int ready = (int) INT.getAcquire(header, (long) READY_OFFSET);
                    if (ready == 1) {
                        if (magic != MAGIC) {
                            throw new NotARingFileException(where, "ready is set but the magic is missing");
                        }
                        break;
                    }
                    if (ready != 0) {
                        throw new NotARingFileException(where, "ready flag is " + ready + ", expected 0 or 1");
                    }
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                if (size > 0 && size < HEADER_LENGTH) {
                    throw new NotARingFileException(where, "the file is only " + size
                            + " bytes, shorter than the 4096-byte header page");
                }
                throw new RingTimeoutException(where + " to become ready (its creator has not finished)",
                        timeout.toMillis());
            }
            pause();
        }

        Arena arena = Arena.ofShared();
        try {
            MemorySegment header = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_LENGTH, arena);
            int version = (int) INT.get(header, (long) LAYOUT_VERSION_OFFSET);
            if (version != LAYOUT_VERSION) {
                throw new UnsupportedVersionException(where, version);
            }
            long capacity = (long) LONG.get(header, (long) CAPACITY_OFFSET);
            checkCapacity(capacity);
            int headerLength = (int) INT.get(header, (long) HEADER_LENGTH_OFFSET);
            if (headerLength != HEADER_LENGTH) {
                throw new NotARingFileException(where, "header_length is " + headerLength + ", expected 4096");
            }
            int maxMessage = (int) INT.get(header, (long) MAX_MESSAGE_LENGTH_OFFSET);
            if (maxMessage != RingDescriptor.maxMessageLength(capacity)) {
                throw new NotARingFileException(where, "max_message_length is " + maxMessage
                        + ", expected capacity / 8 = " + RingDescriptor.maxMessageLength(capacity));
            }
            if (size != fileLength(capacity)) {
                throw new TruncatedFileException(where, size, fileLength(capacity));
            }
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            return new RingFile(path, arena, file, (int) capacity);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private static void pause() {
        java.util.concurrent.locks.LockSupport.parkNanos(POLL_NANOS);
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
        return sight(true).classify(0, 0, System.currentTimeMillis(), staleMs);
    }

    /** The consumer as an observer sees it; see {@link #producerState(long)}. */
    public PeerState consumerState(long staleMs) {
        return sight(false).classify(0, 0, System.currentTimeMillis(), staleMs);
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

    /** The header words of one side, as {@link #sight} loaded them. */
    record Sighting(int pid, long heartbeatMs, long detachedMs) {
        PeerState classify(long movedAfterMs, long movedSeenMs, long nowMs, long staleMs) {
            return PeerState.classify(pid, heartbeatMs, detachedMs, movedAfterMs, movedSeenMs, nowMs, staleMs,
                    SharedMemory::processAlive);
        }
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
        INT.compareAndSet(file, pidOffset, me, 0);
    }

    /** Unmaps the file (nothing for {@link #inMemory} rings). */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
