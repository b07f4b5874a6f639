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
 *
 * <p>A map of layout version 3 in a file grows while it is read (docs/map-layout.md, "Growing"):
 * each lookup probes the slot table the header's {@code table} word names, and a lookup that
 * meets a table or a record past the data area this process mapped maps the file again, at the
 * header's newer {@code data_capacity}. Every mapping made stays until {@link #close()}, so a
 * value read in place from an older one stays valid; {@link #data()} is the newest, which covers
 * every record any lookup returned.
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
    /** The first mapping: the header page and the first slot table (every later mapping starts there too). */
    final MemorySegment file;
    /** Slots in the first table (the header's {@code slots}): where the data area starts. */
    final long firstSlots;
    final int maxValueLength;
    final boolean writable;
    /** Whether records carry a checksum (layout version {@link MapDescriptor#FIRST_CHECKSUMMED_VERSION} on). */
    final boolean checksummed;
    /**
     * Whether the map grows: a file of layout version {@link MapDescriptor#FIRST_GROWABLE_VERSION}
     * on (an in-memory map, and a map of version 1 or 2, never does). Lookups of such a map load
     * the {@code table} word; the others probe the first table.
     */
    final boolean growable;
    /**
     * Lookups check the checksum of records at or past this data-area offset: {@code verified_end}
     * when the map was opened in another boot than its records past it were written in, else
     * {@link Long#MAX_VALUE} (none). This process's own word, not the file's (the Rust
     * {@code Region::verify_from}).
     */
    volatile long verifyFrom = Long.MAX_VALUE;
    /** The newest mapping and the table in use: lookups read it once; replaced only under {@link #growLock}. */
    private volatile View view;
    /** Held while the view is replaced: a table switch or a new mapping (rare; lookups never take it). */
    private final Object growLock = new Object();

    /**
     * One mapping of the file with the slot table in use, immutable: a lookup reads it once (one
     * volatile load) and probes its table; seeing the map grow publishes a new one. Both only
     * grow: a newer view maps at least the data area of an older one, and its table is the same
     * or a later one.
     */
    static final class View {
        /** The mapping: the file's first {@code fileLength(firstSlots, dataCapacity)} bytes. */
        final MemorySegment whole;
        /** Its data area. */
        final MemorySegment data;
        /** Bytes of the data area it maps. */
        final long dataCapacity;
        /** The slot table in use: in this mapping or an older one (each stays until close). */
        final MemorySegment slots;
        /** Slots in that table. */
        final long slotCount;
        /** {@code slotCount - 1}: masks a hash into a slot index. */
        final long mask;
        /** The {@code table} word naming that table (0: the first table). */
        final long tableWord;
        /** Mappings made of the file up to this view's (1 for the first). */
        final int mappings;

        View(MemorySegment whole, MemorySegment data, long dataCapacity, MemorySegment slots, long slotCount,
                long tableWord, int mappings) {
            this.whole = whole;
            this.data = data;
            this.dataCapacity = dataCapacity;
            this.slots = slots;
            this.slotCount = slotCount;
            this.mask = slotCount - 1;
            this.tableWord = tableWord;
            this.mappings = mappings;
        }

        /** This mapping with the table of {@code slotCount} slots at {@code slots}, named by {@code tableWord}. */
        View withTable(MemorySegment table, long tableSlots, long word) {
            return new View(whole, data, dataCapacity, table, tableSlots, word, mappings);
        }

        /**
         * A new mapping, {@code mapped}, of a data area of {@code capacity} bytes at
         * {@code dataOffset}, with this table.
         */
        View withMapping(MemorySegment mapped, long dataOffset, long capacity) {
            return new View(mapped, mapped.asSlice(dataOffset, capacity), capacity, slots, slotCount, tableWord,
                    mappings + 1);
        }
    }

    private MapFile(Path path, Arena arena, MemorySegment file, long slotCount, long dataCapacity, boolean writable) {
        this.path = path;
        this.arena = arena;
        this.file = file;
        this.firstSlots = slotCount;
        this.maxValueLength = (int) INT.get(file, (long) MAX_VALUE_LENGTH_OFFSET);
        this.writable = writable;
        // A version the kind reads (checked by the open): 1, 2 with checksums, 3 growing.
        int version = (int) INT.get(file, (long) LAYOUT_VERSION_OFFSET);
        this.checksummed = version >= FIRST_CHECKSUMMED_VERSION;
        this.growable = version >= FIRST_GROWABLE_VERSION && path != null;
        this.view = new View(file, file.asSlice(dataAreaOffset(slotCount), dataCapacity), dataCapacity,
                file.asSlice(HEADER_LENGTH, slotCount * SLOT_LENGTH), slotCount, 0, 1);
    }

    /**
     * Creates a new map file at {@code path} (which must not exist), reserves its blocks, writes
     * the header (layout version {@link MapDescriptor#LAYOUT_VERSION}: the map grows as it fills)
     * and stores {@code ready} last.
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
     * garbage collector once unreachable. It never grows: a put past its sizes is
     * {@link MapFullException}.
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
     * ({@link dev.sympathy.mapped.MappedOpen}); the map checks its own fields after them. A map of
     * version 3 may lie in a longer file (a writer that died growing it had extended the file):
     * only the map's bytes are mapped.
     *
     * @throws NotARegularFileException if the path is a directory, FIFO, device or socket
     * @throws MapTimeoutException if the creator never set {@code ready}
     * @throws NotAMapFileException if the magic is wrong
     * @throws UnsupportedVersionException if the layout version is not 1, 2 or 3
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
     * permission and sees a writer's puts (in another process) as they happen, and its grows;
     * {@link #writer()} throws {@link ReadOnlyException}.
     */
    public static MapFile openReadOnly(Path path) {
        return open(path, DEFAULT_OPEN_TIMEOUT, true);
    }

    private static MapFile open(Path path, Duration timeout, boolean readOnly) {
        String where = path.toString();
        MappedOpen.Access access = readOnly ? MappedOpen.Access.READ_ONLY : MappedOpen.Access.READ_WRITE;
        try (OpenedFile opened = OPENER.open(path, timeout, access)) {
            long[] geometry = checkHeader(opened, where);
            // The map's bytes: a longer file's rest is not read.
            long length = fileLength(geometry[0], geometry[1]);
            if (!readOnly) {
                try {
                    FileSpace.allocateHoles(path, length);
                } catch (NoSpaceError e) {
                    throw new NoSpaceException(where, e, length);
                }
            }
            Arena arena = Arena.ofShared();
            try {
                FileChannel.MapMode mode = readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE;
                MemorySegment file = opened.channel().map(mode, 0, length, arena);
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
    private static long[] checkHeader(OpenedFile opened, String where) throws IOException {
        MemorySegment header = opened.header();
        int version = (int) INT.get(header, (long) LAYOUT_VERSION_OFFSET);
        long slots = (long) LONG.get(header, (long) SLOTS_OFFSET);
        String problem = MapConfig.slotsProblem(slots);
        if (problem != null) {
            throw new CorruptHeaderException(where, "slots " + problem);
        }
        // SYNC POINT: capacity (acquire pairs with a writer's release after it extended the file,
        // so the length read after it is at least the map's).
        long dataCapacity = (long) LONG.getAcquire(header, (long) DATA_CAPACITY_OFFSET);
        problem = MapConfig.dataCapacityProblem(dataCapacity);
        if (problem != null) {
            throw new CorruptHeaderException(where, "data_capacity " + problem);
        }
        long size = opened.channel().size();
        long expected = fileLength(slots, dataCapacity);
        if (size < expected && version >= FIRST_GROWABLE_VERSION) {
            throw FileLengthException.shorterThan(where, size, expected, slots, dataCapacity);
        }
        if (size != expected && version < FIRST_GROWABLE_VERSION) {
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

    /**
     * Checks the writer's counters (docs/map-layout.md, "Opening", step 8): data_end a multiple
     * of 8 in 8..capacity, verified_end not past it, the table word (version 3) 0 or a table
     * ending by data_end, count <= used_slots <= the table's slots; then probes that table.
     * They are loaded in the order that a live writer's stores keep consistent: count before
     * used_slots (a put stores used_slots first), the table word before data_end (a grow stores
     * data_end past the new table first); they are checked in the doc's order.
     */
    private void checkCounters() {
        String where = String.valueOf(path);
        // SYNC POINT count
        long count = (long) LONG.getAcquire(file, (long) COUNT_OFFSET);
        long used = (long) LONG.get(file, (long) USED_SLOTS_OFFSET);
        long verifiedEnd = checksummed ? (long) LONG.get(file, (long) VERIFIED_END_OFFSET) : DATA_START;
        // SYNC POINT: table (acquire pairs with the writer's release of the switch).
        long word = growable ? (long) LONG.getAcquire(file, (long) TABLE_OFFSET) : 0;
        long dataEnd = dataEnd();
        View v = view;
        if (growable && Long.compareUnsigned(dataEnd, v.dataCapacity) > 0
                && Long.compareUnsigned(dataEnd, MAX_DATA_CAPACITY) <= 0) {
            v = cover(dataEnd); // a live writer grew the map since its capacity was read
        }
        if (Long.compareUnsigned(dataEnd, DATA_START) < 0 || Long.compareUnsigned(dataEnd, v.dataCapacity) > 0
                || dataEnd % RECORD_ALIGNMENT != 0) {
            throw new CorruptHeaderException(where, "data_end is " + Long.toUnsignedString(dataEnd)
                    + ", expected a multiple of 8 between 8 and the data capacity " + v.dataCapacity);
        }
        if (checksummed && Long.compareUnsigned(verifiedEnd, dataEnd) > 0) {
            throw new CorruptHeaderException(where, "verified_end is " + Long.toUnsignedString(verifiedEnd)
                    + ", past data_end " + Long.toUnsignedString(dataEnd)
                    + " (a flush stores it as data_end, never past)");
        }
        long slots = firstSlots;
        if (word != 0) {
            slots = grownTableSlots(word);
            if (slots == 0 || tableOffset(word) + slots * SLOT_LENGTH > dataEnd) {
                throw new CorruptHeaderException(where, String.format("table is 0x%x, expected 0 or a table of %d to "
                        + "%d slots (log2 in the low 6 bits) at a data-area offset that is a multiple of %d from %d, "
                        + "ending by data_end %d", word, MIN_SLOTS, MAX_SLOTS, TABLE_ALIGNMENT, TABLE_ALIGNMENT,
                        dataEnd));
            }
        }
        if (Long.compareUnsigned(used, slots) > 0 || Long.compareUnsigned(count, used) > 0) {
            throw new CorruptHeaderException(where, "count " + Long.toUnsignedString(count)
                    + " and used_slots " + Long.toUnsignedString(used) + " are impossible with " + slots
                    + " slots (count <= used_slots <= slots)");
        }
        if (word != 0) {
            synchronized (growLock) {
                View current = view;
                view = current.withTable(current.data.asSlice(tableOffset(word), slots * SLOT_LENGTH), slots, word);
            }
        }
    }

    /** The data-area offset of the grown table a non-zero {@code table} word names. */
    private static long tableOffset(long word) {
        return word & ~TABLE_BITS_MASK;
    }

    /**
     * The slots of the grown table a non-zero {@code table} word names, or 0 when it names none:
     * a log2 of {@link MapDescriptor#MIN_SLOTS} to {@link MapDescriptor#MAX_SLOTS} at an offset
     * from {@link MapDescriptor#TABLE_ALIGNMENT} within the largest data area.
     */
    private static long grownTableSlots(long word) {
        long bits = word & TABLE_BITS_MASK;
        long offset = tableOffset(word);
        if (bits < Long.numberOfTrailingZeros(MIN_SLOTS) || bits > Long.numberOfTrailingZeros(MAX_SLOTS)
                || Long.compareUnsigned(offset, TABLE_ALIGNMENT) < 0
                || Long.compareUnsigned(offset, MAX_DATA_CAPACITY) > 0) {
            return 0;
        }
        return 1L << bits;
    }

    /**
     * The view to probe: the newest, with the table the header names now (version 3: the
     * {@code table} word loaded with acquire; the first table otherwise).
     *
     * @throws CorruptMapException when the word names no table inside the data area
     */
    View view() {
        View v = view;
        if (growable) {
            // SYNC POINT: table (acquire pairs with the writer's release of the switch: the table
            // is filled, and data_end past it, before the word names it).
            long word = (long) LONG.getAcquire(file, (long) TABLE_OFFSET);
            if (word != v.tableWord) {
                v = switchTable();
            }
        }
        return v;
    }

    /**
     * Publishes a view of the table the header names now (loaded again under the lock, so views
     * only move forward), mapping the file again if it lies past the newest mapping.
     */
    private View switchTable() {
        synchronized (growLock) {
            View v = view;
            // SYNC POINT: table
            long word = (long) LONG.getAcquire(file, (long) TABLE_OFFSET);
            if (word == v.tableWord) {
                return v;
            }
            if (word == 0) {
                view = v.withTable(file.asSlice(HEADER_LENGTH, firstSlots * SLOT_LENGTH), firstSlots, 0);
                return view;
            }
            long slots = grownTableSlots(word);
            if (slots == 0) {
                throw new CorruptMapException(pathText(), String.format("the table word 0x%x names an impossible table "
                        + "(expected %d to %d slots at a multiple of %d from %d)", word, MIN_SLOTS, MAX_SLOTS,
                        TABLE_ALIGNMENT, TABLE_ALIGNMENT));
            }
            long end = tableOffset(word) + slots * SLOT_LENGTH;
            if (end > v.dataCapacity) {
                v = cover(end);
                if (end > v.dataCapacity) {
                    throw new CorruptMapException(pathText(), String.format("the table word 0x%x names a table "
                            + "ending at %d, past the data area of %d bytes", word, end, v.dataCapacity));
                }
            }
            view = v.withTable(v.data.asSlice(tableOffset(word), slots * SLOT_LENGTH), slots, word);
            return view;
        }
    }

    /**
     * The newest view, made to cover {@code end} bytes of the data area when the header's
     * {@code data_capacity} (loaded with acquire) covers them: the file is mapped again at that
     * capacity. A view short of {@code end} when it does not (a map that does not grow, or a
     * slot or table word that points past every capacity the writer stored).
     *
     * @throws FileLengthException when the file is shorter than its header's capacity
     * @throws MapIoException when the file cannot be mapped again
     */
    View cover(long end) {
        synchronized (growLock) {
            View v = view;
            if (end <= v.dataCapacity || !growable) {
                return v;
            }
            // SYNC POINT: capacity (acquire pairs with the writer's release once the file is that long).
            long capacity = (long) LONG.getAcquire(file, (long) DATA_CAPACITY_OFFSET);
            if (capacity < end || MapConfig.dataCapacityProblem(capacity) != null) {
                return v;
            }
            view = v.withMapping(mapFile(capacity), dataAreaOffset(firstSlots), capacity);
            return view;
        }
    }

    /**
     * The writer's grow: maps the file again at {@code capacity} bytes of data area (the writer
     * extended the file to it and will store it in the header after), and publishes the view.
     */
    View mapGrown(long capacity) {
        synchronized (growLock) {
            View v = view;
            view = v.withMapping(mapFile(capacity), dataAreaOffset(firstSlots), capacity);
            return view;
        }
    }

    /**
     * Maps the file's first {@code fileLength(firstSlots, capacity)} bytes into this map's arena
     * (so they stay mapped until {@link #close()}), read-only or for reading and writing as the
     * open did.
     */
    private MemorySegment mapFile(long capacity) {
        long length = fileLength(firstSlots, capacity);
        String where = path.toString();
        try (FileChannel channel = writable
                ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.READ)) {
            long actual = channel.size();
            if (actual < length) {
                // Never mapped past the end: a read-write mapping would extend the file.
                throw FileLengthException.shorterThan(where, actual, length, firstSlots, capacity);
            }
            return channel.map(writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, length,
                    arena);
        } catch (AccessDeniedException e) {
            throw new PermissionDeniedException(where, "map the map file again");
        } catch (IOException e) {
            throw new MapIoException(where, "map the map file again", e);
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
     * acquire load per slot probed (and, in a map that grows, of the {@code table} word); the
     * record a slot points at was written before the slot's release store and never changes
     * after, so the value is always whole, and it matches its checksum (a record torn by an OS
     * crash is never returned). A record past the data area this process mapped maps the file
     * again first.
     *
     * @throws CorruptMapException when a slot or record is impossible
     * @throws TornRecordException when the key's record does not match its checksum
     */
    public long find(long key) {
        View v = view();
        // The table stays the one loaded; only the data area's view may grow below (a record past it).
        MemorySegment slots = v.slots;
        long mask = v.mask;
        long slotCount = v.slotCount;
        long hash = hash(key);
        long tag = tagOf(hash);
        long index = hash & mask;
        for (long n = 0; n < slotCount; n++) {
            // SYNC POINT slot: acquire pairs with the writer's release of the slot.
            long word = (long) LONG.getAcquire(slots, index << 3);
            if (word == EMPTY) {
                return -1;
            }
            if (word != TOMBSTONE && (word >>> OFFSET_BITS) == tag) {
                long record = recordOffset(word);
                if (record < DATA_START || record + RECORD_HEADER_LENGTH > v.dataCapacity) {
                    v = coverRecord(word);
                }
                if ((long) LONG.get(v.data, record + RECORD_KEY_OFFSET) == key) {
                    long length = Integer.toUnsignedLong((int) INT.get(v.data, record + RECORD_VALUE_LENGTH_OFFSET));
                    if (length > Integer.toUnsignedLong(maxValueLength)
                            || record + RECORD_HEADER_LENGTH + length > v.dataCapacity || record >= verifyFrom) {
                        checkRecord(v, record, key);
                    }
                    return record;
                }
            }
            index = (index + 1) & mask;
        }
        throw noEmptySlot(slotCount);
    }

    /**
     * A view whose data area holds the 16-byte header of the record {@code word} points at,
     * mapping the file again if the header's capacity grew to it.
     *
     * @throws CorruptMapException when the record lies outside every data area the writer stored
     */
    private View coverRecord(long word) {
        long record = recordOffset(word);
        View v = record < DATA_START ? view : cover(record + RECORD_HEADER_LENGTH);
        if (record < DATA_START || record + RECORD_HEADER_LENGTH > v.dataCapacity) {
            throw outsideDataArea(word, v.dataCapacity);
        }
        return v;
    }

    /** A slot word pointing outside a data area of {@code capacity} bytes. */
    CorruptMapException outsideDataArea(long word, long capacity) {
        return new CorruptMapException(pathText(), String.format("slot word 0x%016x points at offset %d, outside "
                + "the data area of %d bytes", word, recordOffset(word), capacity));
    }

    /**
     * Checks the record at {@code record} (its header inside {@code data}, a data area of
     * {@code capacity} bytes) holds a value within the maximum and the data area, and throws
     * otherwise.
     */
    void checkValue(MemorySegment data, long capacity, long record) {
        long length = Integer.toUnsignedLong((int) INT.get(data, record + RECORD_VALUE_LENGTH_OFFSET));
        if (length > Integer.toUnsignedLong(maxValueLength) || record + RECORD_HEADER_LENGTH + length > capacity) {
            long key = (long) LONG.get(data, record + RECORD_KEY_OFFSET);
            throw new CorruptMapException(pathText(), "the record at offset " + record + " (key "
                    + Long.toUnsignedString(key) + ") holds a value of " + length + " bytes: over the maximum of "
                    + Integer.toUnsignedString(maxValueLength) + " or past the data area's " + capacity + " bytes");
        }
    }

    /**
     * Checks the record of {@code key} at {@code record} (its header inside {@code v}'s data
     * area): its value within the maximum and the data area (mapping the file again when it runs
     * past {@code v}'s), and, when a crash of the system may have torn it (at or past
     * {@link #verifyFrom}), its bytes against its checksum. Lookups call it only when one of
     * these is in doubt.
     */
    private void checkRecord(View v, long record, long key) {
        long length = Integer.toUnsignedLong((int) INT.get(v.data, record + RECORD_VALUE_LENGTH_OFFSET));
        if (length > Integer.toUnsignedLong(maxValueLength) || record + RECORD_HEADER_LENGTH + length > v.dataCapacity) {
            View covering = length > Integer.toUnsignedLong(maxValueLength) ? v
                    : cover(record + RECORD_HEADER_LENGTH + length);
            checkValue(covering.data, covering.dataCapacity, record);
        }
        if (record >= verifyFrom) {
            checkWhole(record, key);
        }
    }

    /** Checks the record of {@code key} at {@code record} (inside the newest mapping) against its checksum. */
    void checkWhole(long record, long key) {
        MemorySegment data = view.data;
        int stored = (int) INT.get(data, record + RECORD_CHECKSUM_OFFSET);
        int computed = recordChecksum(key, data, valueOffset(record), valueLength(record));
        if (computed != stored) {
            throw new TornRecordException(pathText(), record, key, stored, computed);
        }
    }

    CorruptMapException noEmptySlot(long slotCount) {
        return new CorruptMapException(pathText(), "no empty slot among " + slotCount
                + " (at most three quarters are ever used)");
    }

    /** The path for messages; null for an anonymous map (messages then name none). */
    String pathText() {
        return path == null ? null : path.toString();
    }

    /** The value length of the record at {@code record} (from {@link #find}). */
    public int valueLength(long record) {
        return (int) INT.get(view.data, record + RECORD_VALUE_LENGTH_OFFSET);
    }

    /** Where the value of the record at {@code record} starts in {@link #data()}. */
    public static long valueOffset(long record) {
        return record + RECORD_HEADER_LENGTH;
    }

    /**
     * The data area, records in place: the newest mapping's, which holds every record a lookup
     * returned (a lookup that met a record past it mapped the file again first).
     */
    public MemorySegment data() {
        return view.data;
    }

    /** The value of {@code key} in place (a slice of {@link #data()}), or null. */
    public MemorySegment get(long key) {
        long record = find(key);
        return record < 0 ? null : data().asSlice(valueOffset(record), valueLength(record));
    }

    /** A copy of the value of {@code key}, or null. */
    public byte[] getBytes(long key) {
        long record = find(key);
        return record < 0 ? null
                : data().asSlice(valueOffset(record), valueLength(record)).toArray(ValueLayout.JAVA_BYTE);
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

    /** The newest mapping of the file: header page, first slot table and the data area mapped. */
    public MemorySegment segment() {
        return view.whole;
    }

    /**
     * Slots in the table lookups probe now: the first table's until the map grows, then the
     * table the header's {@code table} word names.
     *
     * @throws CorruptMapException when the word names no table inside the data area
     */
    public long tableSlots() {
        return view().slotCount;
    }

    /** Bytes of the data area this process mapped (the file's newest mapping); a grow maps more. */
    public long mappedDataCapacity() {
        return view.dataCapacity;
    }

    /**
     * Mappings this {@code MapFile} made of the file: 1 at open, one more each time it met the
     * map grown past what it mapped (every one stays until {@link #close()}).
     */
    public int mappings() {
        return view.mappings;
    }

    /**
     * A snapshot of the header: the table in use, the header's data capacity (loaded with
     * acquire), the counters.
     *
     * @throws CorruptMapException when the header's {@code table} word names no table inside the data area
     */
    public MapStats stats() {
        View v = view();
        // SYNC POINT: capacity
        long capacity = (long) LONG.getAcquire(file, (long) DATA_CAPACITY_OFFSET);
        return new MapStats(v.slotCount, firstSlots, capacity, maxValueLength, valueFormat(), dataEnd(), size(),
                (long) LONG.get(file, (long) USED_SLOTS_OFFSET), (long) LONG.get(file, (long) RECOVERIES_OFFSET),
                (long) LONG.get(file, (long) CREATION_TIME_OFFSET), fileLength(firstSlots, capacity), v.mappings);
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

    /**
     * Every key and value, in slot order (a snapshot per slot) of the table in use when it
     * starts: a grow meanwhile does not change what it visits (the old table keeps every key it
     * held). The visitor gets the newest mapping's data area.
     */
    public void forEach(EntryVisitor visitor) {
        View v = view();
        MemorySegment slots = v.slots;
        long slotCount = v.slotCount;
        for (long index = 0; index < slotCount; index++) {
            // SYNC POINT slot
            long word = (long) LONG.getAcquire(slots, index << 3);
            if (word == EMPTY || word == TOMBSTONE) {
                continue;
            }
            long record = recordOffset(word);
            if (record < DATA_START || record + RECORD_HEADER_LENGTH > v.dataCapacity) {
                v = coverRecord(word);
            }
            long key = (long) LONG.get(v.data, record + RECORD_KEY_OFFSET);
            checkRecord(v, record, key);
            visitor.visit(key, data(), valueOffset(record), valueLength(record));
        }
    }

    /** Unmaps the file, every mapping made of it (nothing for {@link #inMemory} maps). */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
