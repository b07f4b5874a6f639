package dev.sympathy.jmh.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code p1c1-ipc}'s queue: the P1C1 queue of {@link P1C1OffHeapQueue} in a mapped file, laid out
 * byte for byte as Rust's {@code sympathy_queue} queue file ({@code crates/queue/src/layout.rs},
 * docs/queue-layout.md), so that the producer in one JVM and the consumer in another
 * ({@link IpcConsumer}) share it, as the seed's two JVMs did:
 *
 * <pre>
 * offset   0  magic u64 ("SYMPQ1C1", native order) | version u32 = 1 | element_size u32 = 4 |
 *             capacity u64 | roles u32 (bit 0: a producer attached, bit 1: a consumer)
 * offset 128  head u64        (consumer stores release, producer loads acquire)
 * offset 256  cached_tail u64 (Rust's consumer keeps its copy of tail here; Java's in a field)
 * offset 384  tail u64        (producer stores release, consumer loads acquire)
 * offset 512  cached_head u64 (Rust's producer keeps its copy of head here; Java's in a field)
 * offset 640  int[capacity] slots, the slot area rounded up to a whole 128-byte line
 * </pre>
 *
 * The header's fields are written before the magic, which is stored with release; an attach
 * loads the magic with acquire and checks every field and the file's length. Each side claims its
 * role with an atomic or of {@code roles} and releases it when it closes; the consumer process
 * takes the producer's release as the end of the run ({@link #producerAttached}).
 *
 * <p>The hot paths are {@link P1C1OffHeapQueue}'s: one slot access and one release store per
 * message; each side's exact copy of its own counter and its cached copy of the other's are
 * padded heap fields ({@link P1C1Counters}) of its own process. The file lives in
 * {@code /dev/shm} where that exists (memory only, as Rust's), else in the temporary folder;
 * {@link #close} unmaps it and, in the process that made it, deletes it.
 *
 * <pre>{@code
 * P1C1FileQueue q = P1C1FileQueue.create(32768, P1C1FileQueue.PRODUCER_ROLE); // producer JVM
 * P1C1FileQueue c = P1C1FileQueue.attachConsumer(q.path());                    // consumer JVM
 * }</pre>
 */
public final class P1C1FileQueue extends P1C1Counters implements IntQueue, AutoCloseable {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle().withInvokeExactBehavior();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle().withInvokeExactBehavior();
    private static final ValueLayout.OfInt SLOT = ValueLayout.JAVA_INT;

    /** One line: every counter has one of its own. */
    static final long LINE = 128;
    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 8;
    static final long ELEMENT_SIZE_OFFSET = 12;
    static final long CAPACITY_OFFSET = 16;
    static final long ROLES_OFFSET = 24;
    static final long HEAD = LINE;
    static final long CACHED_TAIL = 2 * LINE;
    static final long TAIL = 3 * LINE;
    static final long CACHED_HEAD = 4 * LINE;
    static final long SLOTS = 5 * LINE;
    /** {@code b"SYMPQ1C1"} read as a native-order long (Rust's {@code QueueLayout::MAGIC}). */
    static final long MAGIC = ByteBuffer.wrap("SYMPQ1C1".getBytes(StandardCharsets.US_ASCII))
            .order(ByteOrder.nativeOrder()).getLong();
    static final int VERSION = 1;
    /** The bit of {@code roles} a producer claims. */
    public static final int PRODUCER_ROLE = 1;
    /** The bit of {@code roles} a consumer claims. */
    public static final int CONSUMER_ROLE = 2;

    private final Path path;
    private final Arena arena;
    private final MemorySegment memory;
    /** The roles this handle claimed (and releases on {@link #close}). */
    private int roles;
    /** Whether {@link #close} deletes the file (the handle that made it). */
    private final boolean owner;

    private P1C1FileQueue(Path path, Arena arena, MemorySegment memory, int capacity, boolean owner) {
        super("p1c1-ipc", capacity);
        this.path = path;
        this.arena = arena;
        this.memory = memory;
        this.owner = owner;
        // an attaching consumer starts where the file's head is (0 in a fresh file)
        this.head = (long) LONG.getAcquire(memory, HEAD);
        this.consumerCache = this.head;
        this.tail = (long) LONG.getAcquire(memory, TAIL);
        this.producerCache = this.head;
    }

    /** Bytes of a queue file of {@code capacity} int slots (Rust's {@code QueueLayout::total_len}). */
    static long fileLength(int capacity) {
        final long slots = (long) capacity * Integer.BYTES;
        return SLOTS + (slots + LINE - 1) / LINE * LINE;
    }

    /**
     * Makes a fresh queue file of {@code capacity} slots in {@code /dev/shm} (or the temporary
     * folder) and claims {@code roles} in it ({@link #PRODUCER_ROLE}, or both for one process).
     *
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     * @throws UncheckedIOException when the file cannot be made or mapped
     */
    public static P1C1FileQueue create(int capacity, int roles) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("p1c1-ipc: capacity must be a power of two >= 2, got " + capacity);
        }
        final Path dir = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
        final Path path = dir.resolve("sympathy-jmh-queue-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".queue");
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // mapping past the end grows the (new, empty) file: zeroes, as Rust's set_len
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, fileLength(capacity), arena);
            memory.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
            memory.set(ValueLayout.JAVA_INT, ELEMENT_SIZE_OFFSET, Integer.BYTES);
            memory.set(ValueLayout.JAVA_LONG, CAPACITY_OFFSET, capacity);
            // SYNC POINT: header published -- pairs with attach's getAcquire of the magic
            LONG.setRelease(memory, MAGIC_OFFSET, MAGIC);
            // a run that fails skips its teardown (JMH): the file goes when the JVM exits
            path.toFile().deleteOnExit();
            final P1C1FileQueue queue = new P1C1FileQueue(path, arena, memory, capacity, true);
            queue.claim(roles);
            return queue;
        } catch (IOException e) {
            arena.close();
            deleteQuietly(path);
            throw new UncheckedIOException("p1c1-ipc: cannot make the queue file " + path, e);
        } catch (RuntimeException e) {
            arena.close();
            deleteQuietly(path);
            throw e;
        }
    }

    /**
     * Maps the queue file {@code path} made by another process and claims its consumer role.
     *
     * @throws IllegalStateException naming what is wrong with the file, or that a consumer is
     *     attached already
     * @throws UncheckedIOException when the file cannot be opened or mapped
     */
    public static P1C1FileQueue attachConsumer(Path path) {
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final long length = channel.size();
            if (length < SLOTS) {
                throw new IllegalStateException("p1c1-ipc: " + path + " is " + length + " bytes, shorter than a queue header (" + SLOTS + ")");
            }
            final MemorySegment memory = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            // SYNC POINT: header published -- pairs with create's setRelease of the magic
            final long magic = (long) LONG.getAcquire(memory, MAGIC_OFFSET);
            if (magic != MAGIC) {
                throw new IllegalStateException("p1c1-ipc: " + path + " is no queue file (magic " + Long.toHexString(magic) + ")");
            }
            final int version = memory.get(ValueLayout.JAVA_INT, VERSION_OFFSET);
            final int elementSize = memory.get(ValueLayout.JAVA_INT, ELEMENT_SIZE_OFFSET);
            final long capacity = memory.get(ValueLayout.JAVA_LONG, CAPACITY_OFFSET);
            if (version != VERSION || elementSize != Integer.BYTES || capacity < 2 || capacity > Integer.MAX_VALUE / 8
                    || Long.bitCount(capacity) != 1 || length != fileLength((int) capacity)) {
                throw new IllegalStateException("p1c1-ipc: " + path + " holds version " + version + ", element size "
                        + elementSize + ", capacity " + capacity + " in " + length + " bytes; expected version " + VERSION
                        + ", 4-byte ints, a power-of-two capacity and its length");
            }
            final P1C1FileQueue queue = new P1C1FileQueue(path, arena, memory, (int) capacity, false);
            queue.claim(CONSUMER_ROLE);
            return queue;
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("p1c1-ipc: cannot map the queue file " + path, e);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private void claim(int wanted) {
        // SYNC POINT: role claim -- pairs with release's getAndBitwiseAnd
        final int before = (int) INT.getAndBitwiseOr(memory, ROLES_OFFSET, wanted);
        if ((before & wanted) != 0) {
            throw new IllegalStateException("p1c1-ipc: " + path + " already has a "
                    + ((before & wanted & PRODUCER_ROLE) != 0 ? "producer" : "consumer"));
        }
        roles |= wanted;
    }

    /** The queue file. */
    public Path path() {
        return path;
    }

    @Override
    public boolean offer(int value) {
        final MemorySegment memory = this.memory;
        final long tail = this.tail;
        final long wrapPoint = tail - capacity;
        if (producerCache <= wrapPoint) {
            // SYNC POINT: file head published -- pairs with poll's setRelease(HEAD)
            producerCache = (long) LONG.getAcquire(memory, HEAD);
            if (producerCache <= wrapPoint) {
                return false;
            }
        }
        memory.set(SLOT, SLOTS + ((tail & mask) << 2), value);
        // SYNC POINT: file tail published -- pairs with poll's getAcquire(TAIL)
        LONG.setRelease(memory, TAIL, tail + 1);
        this.tail = tail + 1;
        return true;
    }

    @Override
    public int poll() {
        final MemorySegment memory = this.memory;
        final long head = this.head;
        if (head >= consumerCache) {
            // SYNC POINT: file tail published -- pairs with offer's setRelease(TAIL)
            consumerCache = (long) LONG.getAcquire(memory, TAIL);
            if (head >= consumerCache) {
                return EMPTY;
            }
        }
        final int value = memory.get(SLOT, SLOTS + ((head & mask) << 2));
        // SYNC POINT: file head published -- pairs with offer's getAcquire(HEAD)
        LONG.setRelease(memory, HEAD, head + 1);
        this.head = head + 1;
        return value;
    }

    /** Values the consumer (in whichever process) has taken so far: the file's {@code head}, acquired. */
    public long consumed() {
        return (long) LONG.getAcquire(memory, HEAD);
    }

    /** Values this producer has published: its {@code tail}. Producer thread only. */
    public long published() {
        return tail;
    }

    /** Whether a consumer has claimed its role (the producer waits for its peer process). */
    public boolean consumerAttached() {
        // SYNC POINT: role claim -- pairs with claim's getAndBitwiseOr
        return ((int) INT.getAcquire(memory, ROLES_OFFSET) & CONSUMER_ROLE) != 0;
    }

    /**
     * Whether a producer holds its role. Once it has released it, every value it offered is
     * published: its last store of {@code tail} came before the release.
     */
    public boolean producerAttached() {
        // SYNC POINT: role claim -- pairs with release's getAndBitwiseAnd
        return ((int) INT.getAcquire(memory, ROLES_OFFSET) & PRODUCER_ROLE) != 0;
    }

    /** Releases the roles this handle holds (the producer's release ends the consumer's run). */
    public void release() {
        if (roles != 0 && memory.scope().isAlive()) {
            // SYNC POINT: role claim -- pairs with producerAttached's getAcquire
            final int before = (int) INT.getAndBitwiseAnd(memory, ROLES_OFFSET, ~roles);
            assert (before & roles) == roles : "released a role this handle did not hold";
            roles = 0;
        }
    }

    /** Releases this handle's roles, unmaps the file and, in the process that made it, deletes it. */
    @Override
    public void close() throws IOException {
        release();
        if (memory.scope().isAlive()) {
            arena.close();
        }
        if (owner) {
            Files.deleteIfExists(path);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // the creation failed already; that error is the one reported
        }
    }
}
