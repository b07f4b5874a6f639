package dev.sympathy.map;

import static dev.sympathy.map.MapDescriptor.*;
import static dev.sympathy.map.MapMemory.INT;
import static dev.sympathy.map.MapMemory.LONG;

import dev.sympathy.mapped.FileSpace;
import dev.sympathy.mapped.Liveness;
import dev.sympathy.mapped.MappedOpen;
import dev.sympathy.mapped.NoSpaceError;
import dev.sympathy.mapped.OpenedFile;
import dev.sympathy.mapped.ProcessStamp;
import dev.sympathy.mapped.Processes;
import dev.sympathy.mapped.Progress;
import dev.sympathy.mapped.Sighting;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * A map file of {@code docs/map-layout.md}, mapped with the FFM API: lookups from any number of
 * threads and processes, and the one {@link MapWriter}. The same file as the Rust
 * {@code sympathy_map::MapFile}: either language writes it, both read it.
 *
 * <pre>{@code
 * try (MapFile map = MapFile.create(path, MapConfig.forEntries(1_000, 16));
 *      MapWriter writer = map.writer()) {
 *     writer.put(7, "seven".getBytes(UTF_8));
 *     byte[] value = map.getBytes(7);            // null when absent
 *     long record = map.find(7);                 // in place: -1, or the record's offset
 *     int length = map.valueLength(record);      // the value is data()[record + 16, + length)
 * }
 * }</pre>
 *
 * <p>Every value read from the file is checked before use: a hostile or damaged file gives a
 * {@link MapException}, never an out-of-bounds access. A record is never written again once
 * published, so a value read in place stays valid while the map is open. Closing unmaps the
 * file; a writer of a closed map must not be used.
 */
public final class MapFile implements AutoCloseable {
    /** How long {@link #open(Path)} waits for a creator's ready word. */
    public static final Duration DEFAULT_OPEN_TIMEOUT = Duration.ofSeconds(2);
    /** A writer heartbeat older than this reads as {@link WriterState#STALE}. */
    public static final long HEARTBEAT_STALE_MS = Liveness.HEARTBEAT_STALE_MS;
    /** The open steps every mapped file shares; a path that does not exist is refused at once. */
    private static final MappedOpen OPENER = new MappedOpen(KIND, MapOpenErrors.ERRORS);

    final Path path;
    private final Arena arena;
    final MemorySegment file;
    final MemorySegment slots;
    final MemorySegment data;
    final long slotCount;
    final long mask;
    final long dataCapacity;
    final int maxValueLength;
    final boolean writable;
    /** Whether records carry a checksum (layout version {@link MapDescriptor#FIRST_CHECKSUMMED_VERSION} on). */
    final boolean checksummed;
    /**
     * Lookups check the checksum of records at or past this data-area offset: {@code verified_end}
     * when the map was opened in another boot than its records past it were written in, else
     * {@link Long#MAX_VALUE} (none). This process's own word, not the file's (the Rust
     * {@code Region::verify_from}).
     */
    volatile long verifyFrom = Long.MAX_VALUE;

    private MapFile(Path path, Arena arena, MemorySegment file, long slotCount, long dataCapacity, boolean writable) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.slotCount = slotCount;
        this.mask = slotCount - 1;
        this.dataCapacity = dataCapacity;
        this.slots = file.asSlice(HEADER_LENGTH, slotCount * SLOT_LENGTH);
        this.data = file.asSlice(dataAreaOffset(slotCount), dataCapacity);
        this.maxValueLength = (int) INT.get(file, (long) MAX_VALUE_LENGTH_OFFSET);
        this.writable = writable;
        // A version the kind reads (checked by the open): 1, or 2 with checksums.
        this.checksummed = (int) INT.get(file, (long) LAYOUT_VERSION_OFFSET) >= FIRST_CHECKSUMMED_VERSION;
    }

    /**
     * Creates a new map file at {@code path} (which must not exist), reserves its blocks, writes
     * the header and stores {@code ready} last.
     *
     * @throws BadConfigException for an impossible size
     * @throws NoSpaceException if the filesystem cannot hold the file (the file is removed)
     * @throws PermissionDeniedException if the file cannot be created
     * @throws MapIoException for any other error, also when the path exists
     */
    public static MapFile create(Path path, MapConfig config) {
        config.check();
        long length = fileLength(config.slots(), config.dataCapacity());
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(path.toString(), "create the map file");
        } catch (IOException e) {
            throw new MapIoException(path.toString(), "create the map file", e);
        }
        Arena arena = Arena.ofShared();
        try (channel) {
            try {
                FileSpace.reserve(path, length);
            } catch (NoSpaceError e) {
                throw new NoSpaceException(path.toString(), e, length);
            }
            channel.write(ByteBuffer.allocate(1), length - 1); // sized; zero-filled
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            publish(file, config);
            return new MapFile(path, arena, file, config.slots(), config.dataCapacity(), true);
        } catch (IOException | RuntimeException e) {
            arena.close();
            try {
                java.nio.file.Files.deleteIfExists(path); // never a half-made file
            } catch (IOException ignored) {
                // the error that matters is e
            }
            if (e instanceof MapException m) {
                throw m;
            }
            throw new MapIoException(path.toString(), "create the map file", e);
        }
    }

    /**
     * A map in this process's memory only, no file: for threads of one process and tests (the
     * jcstress tests make one per trial). Laid out exactly as {@link #create} does; freed by the
     * garbage collector once unreachable.
     */
    public static MapFile inMemory(MapConfig config) {
        config.check();
        MemorySegment file = Arena.ofAuto().allocate(fileLength(config.slots(), config.dataCapacity()), 4096);
        publish(file, config);
        return new MapFile(null, null, file, config.slots(), config.dataCapacity(), true);
    }

    /** Writes the header of a new, zeroed map, {@code ready} last. */
    private static void publish(MemorySegment file, MapConfig config) {
        LONG.set(file, (long) MAGIC_OFFSET, MAGIC);
        INT.set(file, (long) LAYOUT_VERSION_OFFSET, LAYOUT_VERSION);
        LONG.set(file, (long) SLOTS_OFFSET, config.slots());
        LONG.set(file, (long) DATA_CAPACITY_OFFSET, config.dataCapacity());
        INT.set(file, (long) MAX_VALUE_LENGTH_OFFSET, config.maxValueLength());
        INT.set(file, (long) HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        LONG.set(file, (long) CREATION_TIME_OFFSET, System.currentTimeMillis());
        INT.set(file, (long) VALUE_FORMAT_OFFSET, config.valueFormat());
        LONG.set(file, (long) DATA_END_OFFSET, DATA_START);
        LONG.set(file, (long) VERIFIED_END_OFFSET, DATA_START);
        LONG.set(file, (long) BOOT_OFFSET, Processes.currentBoot());
        // SYNC POINT ready: every header field before `ready`.
        INT.setRelease(file, (long) READY_OFFSET, READY);
    }

    /** Opens an existing map for reading and writing, waiting up to {@link #DEFAULT_OPEN_TIMEOUT}. */
    public static MapFile open(Path path) {
        return open(path, DEFAULT_OPEN_TIMEOUT, false);
    }

    /**
     * Opens an existing map for reading and writing: refuses anything but a regular file, waits
     * up to {@code timeout} for the header page and {@code ready}, checks the header (the rules
     * of docs/map-layout.md, "Opening", the same as the Rust {@code MapFile::open}; the
     * conformance suite checks both) and reserves the blocks of a sparse file. Nothing is
     * rebuilt. The steps up to the version are those every mapped file shares
     * ({@link dev.sympathy.mapped.MappedOpen}); the map checks its own fields after them.
     *
     * @throws NotARegularFileException if the path is a directory, FIFO, device or socket
     * @throws MapTimeoutException if the creator never set {@code ready}
     * @throws NotAMapFileException if the magic is wrong
     * @throws UnsupportedVersionException if the layout version is not 1
     * @throws FileLengthException if the file's length is not what its header implies
     * @throws CorruptHeaderException if a header field or counter is impossible
     * @throws NoSpaceException if the file is sparse and its filesystem cannot hold it
     * @throws PermissionDeniedException if the file cannot be opened for reading and writing
     * @throws MapIoException for any other error of the operating system
     */
    public static MapFile open(Path path, Duration timeout) {
        return open(path, timeout, false);
    }

    /**
     * Opens an existing map to read only: a read-only channel and mapping, so it needs only read
     * permission and sees a writer's puts (in another process) as they happen;
     * {@link #writer()} throws {@link ReadOnlyException}.
     */
    public static MapFile openReadOnly(Path path) {
        return open(path, DEFAULT_OPEN_TIMEOUT, true);
    }

    private static MapFile open(Path path, Duration timeout, boolean readOnly) {
        String where = path.toString();
        MappedOpen.Access access = readOnly ? MappedOpen.Access.READ_ONLY : MappedOpen.Access.READ_WRITE;
        try (OpenedFile opened = OPENER.open(path, timeout, access)) {
            long size = opened.length();
            long[] geometry = checkHeader(opened.header(), where, size);
            if (!readOnly) {
                try {
                    FileSpace.allocateHoles(path, size);
                } catch (NoSpaceError e) {
                    throw new NoSpaceException(where, e, size);
                }
            }
            Arena arena = Arena.ofShared();
            try {
                FileChannel.MapMode mode = readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE;
                MemorySegment file = opened.channel().map(mode, 0, size, arena);
                MapFile map = new MapFile(path, arena, file, geometry[0], geometry[1], !readOnly);
                map.checkCounters();
                map.setVerifyFrom();
                return map;
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(where, "map the map file");
        } catch (IOException e) {
            throw new MapIoException(where, "map the map file", e);
        }
    }

    /**
     * Checks the map's own fields of a header that passed the shared checks, against the file's
     * length; returns slots and data capacity.
     */
    private static long[] checkHeader(MemorySegment header, String where, long size) {
        long slots = (long) LONG.get(header, (long) SLOTS_OFFSET);
        String problem = MapConfig.slotsProblem(slots);
        if (problem != null) {
            throw new CorruptHeaderException(where, "slots " + problem);
        }
        long dataCapacity = (long) LONG.get(header, (long) DATA_CAPACITY_OFFSET);
        problem = MapConfig.dataCapacityProblem(dataCapacity);
        if (problem != null) {
            throw new CorruptHeaderException(where, "data_capacity " + problem);
        }
        long expected = fileLength(slots, dataCapacity);
        if (size != expected) {
            throw new FileLengthException(where, size, expected, slots, dataCapacity);
        }
        int headerLength = (int) INT.get(header, (long) HEADER_LENGTH_OFFSET);
        if (headerLength != HEADER_LENGTH) {
            throw new CorruptHeaderException(where, "header_length is " + Integer.toUnsignedString(headerLength)
                    + ", expected 4096");
        }
        int maxValueLength = (int) INT.get(header, (long) MAX_VALUE_LENGTH_OFFSET);
        problem = MapConfig.maxValueLengthProblem(maxValueLength, dataCapacity);
        if (problem != null) {
            throw new CorruptHeaderException(where, "max_value_length " + problem);
        }
        return new long[] {slots, dataCapacity};
    }

    /**
     * Which records this process's lookups check against their checksum: in a version 2 map
     * opened in another boot than its records past {@code verified_end} were written in (or where
     * the boot is unknown), those; else none. Within one boot the page cache is the file.
     */
    private void setVerifyFrom() {
        if (!checksummed) {
            return;
        }
        long boot = Processes.currentBoot();
        if (boot == 0 || (long) LONG.get(file, (long) BOOT_OFFSET) != boot) {
            verifyFrom = (long) LONG.get(file, (long) VERIFIED_END_OFFSET);
        }
    }

    /** Checks the writer's counters: data_end a multiple of 8 in 8..capacity, count <= used <= slots. */
    private void checkCounters() {
        long dataEnd = dataEnd();
        if (Long.compareUnsigned(dataEnd, DATA_START) < 0 || Long.compareUnsigned(dataEnd, dataCapacity) > 0
                || dataEnd % RECORD_ALIGNMENT != 0) {
            throw new CorruptHeaderException(String.valueOf(path), "data_end is " + Long.toUnsignedString(dataEnd)
                    + ", expected a multiple of 8 between 8 and the data capacity " + dataCapacity);
        }
        if (checksummed) {
            long verifiedEnd = (long) LONG.get(file, (long) VERIFIED_END_OFFSET);
            if (Long.compareUnsigned(verifiedEnd, dataEnd) > 0) {
                throw new CorruptHeaderException(String.valueOf(path), "verified_end is "
                        + Long.toUnsignedString(verifiedEnd) + ", past data_end " + Long.toUnsignedString(dataEnd)
                        + " (a flush stores it as data_end, never past)");
            }
        }
        long count = (long) LONG.get(file, (long) COUNT_OFFSET);
        long used = (long) LONG.get(file, (long) USED_SLOTS_OFFSET);
        if (Long.compareUnsigned(used, slotCount) > 0 || Long.compareUnsigned(count, used) > 0) {
            throw new CorruptHeaderException(String.valueOf(path), "count " + Long.toUnsignedString(count)
                    + " and used_slots " + Long.toUnsignedString(used) + " are impossible with " + slotCount
                    + " slots (count <= used_slots <= slots)");
        }
    }

    /**
     * Attaches the one writer: claims the writer word for this process (from nobody, or from a
     * writer that no longer runs, whose counters it then recounts).
     *
     * @throws AlreadyAttachedException naming the live writer
     * @throws ReadOnlyException if the map was opened with {@link #openReadOnly}
     * @throws CorruptMapException when the recount finds an impossible slot
     */
    public MapWriter writer() {
        if (!writable) {
            throw new ReadOnlyException(String.valueOf(path));
        }
        return MapWriter.attach(this);
    }

    /**
     * The data-area offset of {@code key}'s record, or -1: the value is {@link #data()} from
     * {@code record + 16} ({@link #valueOffset}), {@link #valueLength} bytes. No allocation; one
     * acquire load per slot probed; the record a slot points at was written before the slot's
     * release store and never changes after, so the value is always whole, and it matches its
     * checksum (a record torn by an OS crash is never returned).
     *
     * @throws CorruptMapException when a slot or record is impossible
     * @throws TornRecordException when the key's record does not match its checksum
     */
    public long find(long key) {
        long hash = hash(key);
        long tag = tagOf(hash);
        long index = hash & mask;
        for (long n = 0; n < slotCount; n++) {
            // SYNC POINT slot: acquire pairs with the writer's release of the slot.
            long word = (long) LONG.getAcquire(slots, index << 3);
            if (word == EMPTY) {
                return -1;
            }
            if (word != TOMBSTONE && (word >>> OFFSET_BITS) == tag && recordKey(word) == key) {
                long record = recordOffset(word);
                checkRecord(record, key);
                return record;
            }
            index = (index + 1) & mask;
        }
        throw noEmptySlot();
    }

    /** The key of the record a live slot word points at, checked to lie in the data area. */
    long recordKey(long word) {
        long record = recordOffset(word);
        if (record < DATA_START || record + RECORD_HEADER_LENGTH > dataCapacity) {
            throw new CorruptMapException(pathText(), String.format("slot word 0x%016x points at offset %d, outside "
                    + "the data area of %d bytes", word, record, dataCapacity));
        }
        return (long) LONG.get(data, record + RECORD_KEY_OFFSET);
    }

    /** Checks the record at {@code record} holds a value within the maximum and the data area. */
    void checkValue(long record) {
        long length = Integer.toUnsignedLong((int) INT.get(data, record + RECORD_VALUE_LENGTH_OFFSET));
        if (length > Integer.toUnsignedLong(maxValueLength) || record + RECORD_HEADER_LENGTH + length > dataCapacity) {
            long key = (long) LONG.get(data, record + RECORD_KEY_OFFSET);
            throw new CorruptMapException(pathText(), "the record at offset " + record + " (key "
                    + Long.toUnsignedString(key) + ") holds a value of " + length + " bytes: over the maximum of "
                    + Integer.toUnsignedString(maxValueLength) + " or past the data area's " + dataCapacity + " bytes");
        }
    }

    /**
     * Checks the record of {@code key} at {@code record}: its value within the maximum and the
     * data area, and, when a crash of the system may have torn it (at or past
     * {@link #verifyFrom}), its bytes against its checksum.
     */
    private void checkRecord(long record, long key) {
        checkValue(record);
        if (record >= verifyFrom) {
            checkWhole(record, key);
        }
    }

    /** Checks the record of {@code key} at {@code record} against its checksum. */
    void checkWhole(long record, long key) {
        int stored = (int) INT.get(data, record + RECORD_CHECKSUM_OFFSET);
        int computed = recordChecksum(key, data, valueOffset(record), valueLength(record));
        if (computed != stored) {
            throw new TornRecordException(pathText(), record, key, stored, computed);
        }
    }


    CorruptMapException noEmptySlot() {
        return new CorruptMapException(pathText(), "no empty slot among " + slotCount
                + " (at most three quarters are ever used)");
    }

    /** The path for messages; null for an anonymous map (messages then name none). */
    String pathText() {
        return path == null ? null : path.toString();
    }

    /** The value length of the record at {@code record} (from {@link #find}). */
    public int valueLength(long record) {
        return (int) INT.get(data, record + RECORD_VALUE_LENGTH_OFFSET);
    }

    /** Where the value of the record at {@code record} starts in {@link #data()}. */
    public static long valueOffset(long record) {
        return record + RECORD_HEADER_LENGTH;
    }

    /** The data area: records, in place. */
    public MemorySegment data() {
        return data;
    }

    /** The value of {@code key} in place (a slice of {@link #data()}), or null. */
    public MemorySegment get(long key) {
        long record = find(key);
        return record < 0 ? null : data.asSlice(valueOffset(record), valueLength(record));
    }

    /** A copy of the value of {@code key}, or null. */
    public byte[] getBytes(long key) {
        long record = find(key);
        return record < 0 ? null
                : data.asSlice(valueOffset(record), valueLength(record)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Whether {@code key} is in the map. */
    public boolean containsKey(long key) {
        return find(key) >= 0;
    }

    /** Keys in the map (the writer's counter: exact when no writer is in the middle of a put). */
    public long size() {
        // SYNC POINT count: acquire pairs with the writer's release.
        return (long) LONG.getAcquire(file, (long) COUNT_OFFSET);
    }

    /** Whether the map holds no key. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** How values are encoded (a {@code VALUE_FORMAT_*} code). */
    public int valueFormat() {
        return (int) INT.get(file, (long) VALUE_FORMAT_OFFSET);
    }

    long dataEnd() {
        // SYNC POINT data-end: acquire pairs with the writer's release.
        return (long) LONG.getAcquire(file, (long) DATA_END_OFFSET);
    }

    /** The path this map was opened from (null for {@link #inMemory} maps). */
    public Path path() {
        return path;
    }

    /** The whole mapped file. */
    public MemorySegment segment() {
        return file;
    }

    /** A snapshot of the header. */
    public MapStats stats() {
        return new MapStats(slotCount, dataCapacity, maxValueLength, valueFormat(), dataEnd(), size(),
                (long) LONG.get(file, (long) USED_SLOTS_OFFSET), (long) LONG.get(file, (long) RECOVERIES_OFFSET),
                (long) LONG.get(file, (long) CREATION_TIME_OFFSET), fileLength(slotCount, dataCapacity));
    }

    /** The pid in the writer word (0: none attached). */
    public int writerPid() {
        return ProcessStamp.unpack((long) LONG.getAcquire(file, (long) WRITER_OFFSET)).pid();
    }

    /**
     * The writer as a reader sees it now (stale after {@link #HEARTBEAT_STALE_MS}): the liveness
     * rules every mapped file shares ({@link Liveness#classify}, the Rust {@code writer_state}),
     * its process named by its {@link ProcessStamp}. The map keeps no foreign writers: with nobody
     * in the writer word, the writer never attached or detached.
     */
    public WriterState writerState() {
        // SYNC POINT heartbeat, writer, detached: the Rust writer_state's order.
        long heartbeat = (long) LONG.getAcquire(file, (long) WRITER_HEARTBEAT_OFFSET);
        ProcessStamp stamp = ProcessStamp.unpack((long) LONG.getAcquire(file, (long) WRITER_OFFSET));
        long detached = (long) LONG.getAcquire(file, (long) WRITER_DETACHED_OFFSET);
        if (stamp.isNobody()) {
            return detached == 0 ? WriterState.NEVER_ATTACHED : WriterState.DETACHED;
        }
        Sighting sighting = new Sighting(stamp.pid(), heartbeat, detached);
        return WriterState.of(Liveness.classify(sighting, Progress.NONE, System.currentTimeMillis(),
                HEARTBEAT_STALE_MS, pid -> stamp.isRunning()));
    }

    /** Every key and value, in slot order (a snapshot per slot). */
    public void forEach(EntryVisitor visitor) {
        for (long index = 0; index < slotCount; index++) {
            // SYNC POINT slot
            long word = (long) LONG.getAcquire(slots, index << 3);
            if (word == EMPTY || word == TOMBSTONE) {
                continue;
            }
            long key = recordKey(word);
            long record = recordOffset(word);
            checkRecord(record, key);
            visitor.visit(key, data, valueOffset(record), valueLength(record));
        }
    }

    /** Unmaps the file (nothing for {@link #inMemory} maps). */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
