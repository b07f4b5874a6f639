package dev.sympathy.map;

import static dev.sympathy.map.MapDescriptor.*;
import static dev.sympathy.map.MapMemory.INT;
import static dev.sympathy.map.MapMemory.LONG;

import dev.sympathy.mapped.FileSpace;
import dev.sympathy.mapped.NoSpaceError;
import dev.sympathy.mapped.ProcessStamp;
import dev.sympathy.mapped.Processes;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The one writer of a map ({@link MapFile#writer()}; the Rust {@code Writer}), attached by a
 * compare-and-swap of the header's writer word like the ring's producer, with heartbeats and a
 * clean detach on {@link #close()}.
 *
 * <p>Every put appends a record at {@code data_end} and publishes it with one release store of
 * the key's slot; a remove stores the tombstone. A put that returned is in the file: a writer
 * killed at any point leaves every returned put readable and no record half-written (the next
 * writer recounts). {@link #flush()} makes them durable across an operating-system crash.
 *
 * <p>A map of layout version 3 in a file grows instead of refusing a put (docs/map-layout.md,
 * "Growing"): the data area when a record does not fit (the file extended, its blocks reserved
 * and its length written to the disk before the header's {@code data_capacity} says so), the
 * slot table when a put needs an empty slot and three quarters are used (a new table in the data
 * area, every key inserted, switched to by one release store of the {@code table} word). Readers
 * never wait. An in-memory map, and a map of version 1 or 2, refuse with {@link MapFullException}.
 *
 * <pre>{@code
 * try (MapWriter writer = map.writer()) {
 *     writer.put(1, bytes);                                        // INSERTED or REPLACED
 *     writer.putWith(2, codec.encodedLength(user), (data, at, n) -> codec.encode(user, data, at));
 *     writer.remove(1);
 * }
 * }</pre>
 */
public final class MapWriter implements AutoCloseable {
    private static final int HEARTBEAT_EVERY = 4096;

    private final MapFile map;
    /** The first mapping: the header page and the first slot table. */
    private final MemorySegment file;
    private final long stamp;
    /** The slot table in use: its slots, how many, {@code slotCount - 1}, and how many a put may use. */
    private MemorySegment slots;
    private long slotCount;
    private long mask;
    private long maxUsedSlots;
    /** The data area as this writer mapped it: the header's {@code data_capacity} bytes. */
    private MemorySegment data;
    private long dataCapacity;
    private long dataEnd;
    private long count;
    private long usedSlots;
    private int countdown = HEARTBEAT_EVERY;
    private boolean closed;
    /** Records the attach found torn and removed ({@link #tornRecordsDropped}). */
    private long tornRecordsDropped;
    /** The grows this writer made ({@link #grows()}). */
    private Grows grows = Grows.NONE;

    /** Where the last probe found the key, or where it would go. */
    private long probeIndex;
    private boolean probeFound;
    private boolean probeIntoEmpty;

    private MapWriter(MapFile map, long stamp) {
        this.map = map;
        this.file = map.file;
        this.stamp = stamp;
    }

    /**
     * Loads the header as the attach found it: the table and data area it names now (a writer
     * that died may have grown the map after this process opened it), data_end and the counters.
     */
    private void load() {
        MapFile.View view = map.view();
        if (map.growable) {
            // SYNC POINT: capacity (acquire pairs with the grow's release once the file is that long).
            long capacity = (long) LONG.getAcquire(file, (long) DATA_CAPACITY_OFFSET);
            view = map.cover(capacity);
        }
        useTable(view.slots, view.slotCount);
        useData(view);
        dataEnd = map.dataEnd();
        count = (long) LONG.get(file, (long) COUNT_OFFSET);
        usedSlots = (long) LONG.get(file, (long) USED_SLOTS_OFFSET);
    }

    /** Probes and puts into the table of {@code count} slots at {@code table} from now on. */
    private void useTable(MemorySegment table, long count) {
        slots = table;
        slotCount = count;
        mask = count - 1;
        maxUsedSlots = maxUsedSlots(count);
    }

    /** Writes records into {@code view}'s data area from now on. */
    private void useData(MapFile.View view) {
        data = view.data;
        dataCapacity = view.dataCapacity;
    }

    /**
     * Claims the writer word: from 0, or from a writer that no longer runs, then checks the slots
     * against the header ({@link #recount}; the Rust {@code Writer::attach}): after a dead writer
     * the counters are recounted and stored; after a clean detach they must match, or the header
     * was changed by something other than a writer, and the attach is refused before a put could
     * write over a live record.
     */
    static MapWriter attach(MapFile map) {
        long me = ProcessStamp.current().pack();
        long expected = 0;
        while (true) {
            // SYNC POINT writer: the compare-and-swap pairs with the writer-word loads of others.
            long found = (long) LONG.compareAndExchange(map.file, (long) WRITER_OFFSET, expected, me);
            if (found == expected) {
                break;
            }
            if (found == 0) {
                expected = 0; // detached meanwhile: retry from nobody
                continue;
            }
            ProcessStamp other = ProcessStamp.unpack(found);
            if (found == me || other.isRunning()) {
                throw new AlreadyAttachedException(other.pid());
            }
            expected = found; // take over from a dead writer
        }
        // SYNC POINT heartbeat
        LONG.setRelease(map.file, (long) WRITER_HEARTBEAT_OFFSET, System.currentTimeMillis());
        MapWriter writer = new MapWriter(map, me);
        try {
            writer.load();
            writer.recount(expected != 0);
        } catch (RuntimeException e) {
            writer.close();
            throw e;
        }
        return writer;
    }

    /**
     * Counts the keys and used slots from the slot table in use and checks every record lies below
     * {@code data_end} (a {@code data_end} below a live record would let the next put write over
     * it). After a writer died attached ({@code tookOver}) its last put or remove may have
     * published its slot and not yet stored the counters: the counts are stored. After a clean
     * detach the header's counters must be the counts (the Rust recount).
     */
    private void recount(boolean tookOver) {
        // Records a crash of the system may have torn: those at or past verified_end when they
        // were written in another boot (MapFile.verifyFrom, set at open).
        long suspectFrom = map.verifyFrom;
        long keys = 0;
        long used = 0;
        List<Long> torn = new ArrayList<>();
        for (long index = 0; index < slotCount; index++) {
            // SYNC POINT slot
            long word = (long) LONG.getAcquire(slots, index << 3);
            if (word == EMPTY) {
                continue;
            }
            used++;
            if (word == TOMBSTONE) {
                continue;
            }
            keys++;
            long key = recordKey(word);
            long record = recordOffset(word);
            map.checkValue(data, dataCapacity, record);
            long length = Integer.toUnsignedLong((int) INT.get(data, record + RECORD_VALUE_LENGTH_OFFSET));
            long end = record + recordLength(length);
            if (end > dataEnd) {
                throw new CorruptMapException(map.pathText(), "slot " + index
                        + " points at a record ending at " + end + ", past data_end " + dataEnd
                        + " (a writer stores data_end before the slot)");
            }
            if (record >= suspectFrom) {
                try {
                    map.checkWhole(record, key);
                } catch (TornRecordException e) {
                    torn.add(index);
                }
            }
        }
        if (!tookOver && (keys != count || used != usedSlots)) {
            throw new CorruptMapException(map.pathText(), "the header says count "
                    + Long.toUnsignedString(count) + " and used_slots " + Long.toUnsignedString(usedSlots)
                    + ", the slots hold " + keys + " keys in " + used
                    + " used slots (a writer that detached left them equal)");
        }
        // A torn record's key is removed: its value is lost (written after the last flush of a
        // boot that crashed), and a lookup must not keep refusing it.
        for (long index : torn) {
            // SYNC POINT slot
            LONG.setRelease(slots, index << 3, TOMBSTONE);
            keys--;
        }
        tornRecordsDropped = torn.size();
        if (tookOver || !torn.isEmpty()) {
            count = keys;
            usedSlots = used;
            LONG.set(file, (long) USED_SLOTS_OFFSET, used);
            // SYNC POINT count
            LONG.setRelease(file, (long) COUNT_OFFSET, keys);
        }
        if (tookOver) {
            LONG.set(file, (long) RECOVERIES_OFFSET, (long) LONG.get(file, (long) RECOVERIES_OFFSET) + 1);
        }
        if (suspectFrom != Long.MAX_VALUE) {
            // Every record is now whole or removed, and what comes next is this boot's.
            LONG.set(file, (long) VERIFIED_END_OFFSET, dataEnd);
            LONG.set(file, (long) BOOT_OFFSET, Processes.currentBoot());
            map.verifyFrom = Long.MAX_VALUE;
        }
    }

    /**
     * How many records this writer's attach found torn by a crash of the system (written after
     * the last flush of a boot that did not end cleanly) and removed, their keys with them.
     */
    public long tornRecordsDropped() {
        return tornRecordsDropped;
    }

    /** The grows this writer made (docs/map-layout.md, "Growing"), and the longest. */
    public Grows grows() {
        return grows;
    }

    /**
     * Puts a copy of {@code value} under {@code key}; a map that grows grows first if it must.
     *
     * @throws ValueTooLongException over the map's max_value_length
     * @throws MapFullException when the slots or the data area are full and the map does not
     *     grow, or is at its largest (nothing written)
     * @throws NoSpaceException when the filesystem has no room for the grown file (nothing written)
     * @throws CorruptMapException for an impossible slot or record
     */
    public PutResult put(long key, byte[] value) {
        return putWith(key, value.length,
                (segment, offset, length) -> MemorySegment.copy(value, 0, segment, ValueLayout.JAVA_BYTE, offset, length));
    }

    /**
     * Puts a value of {@code length} bytes under {@code key}, encoded in place by {@code filler}
     * into the record (zero copy); nothing is published until it returns. A map that grows
     * grows first if it must.
     *
     * @throws ValueTooLongException over the map's max_value_length
     * @throws MapFullException when the slots or the data area are full and the map does not
     *     grow, or is at its largest (nothing written)
     * @throws NoSpaceException when the filesystem has no room for the grown file (nothing written)
     * @throws CorruptMapException for an impossible slot or record
     */
    public PutResult putWith(long key, int length, ValueFiller filler) {
        checkOpen();
        if (length < 0 || Integer.toUnsignedLong(length) > Integer.toUnsignedLong(map.maxValueLength)) {
            throw new ValueTooLongException(Integer.toUnsignedLong(length), map.maxValueLength);
        }
        long hash = hash(key);
        probe(key, hash);
        long needed = recordLength(length);
        if (map.growable) {
            if (!probeFound && probeIntoEmpty && usedSlots >= maxUsedSlots) {
                long started = System.nanoTime();
                growTable();
                grows = grows.plusTable().took(System.nanoTime() - started);
                probe(key, hash);
            }
            if (dataEnd + needed > dataCapacity) {
                long started = System.nanoTime();
                reserveData(dataEnd + needed);
                grows = grows.took(System.nanoTime() - started);
            }
        } else {
            if (dataEnd + needed > dataCapacity) {
                throw new MapFullException("data", dataEnd, dataCapacity);
            }
            if (!probeFound && probeIntoEmpty && usedSlots >= maxUsedSlots) {
                throw new MapFullException("slots", usedSlots, maxUsedSlots);
            }
        }
        long record = dataEnd;
        // The padding lies in the record's last 8 bytes: zero them first, the value overwrites
        // the rest (a writer that took over may find a dead writer's bytes here).
        LONG.set(data, record + needed - 8, 0L);
        filler.fill(data, record + RECORD_HEADER_LENGTH, length);
        // The header after the value: its checksum covers the value (0 in a version 1 map).
        int checksum = map.checksummed ? recordChecksum(key, data, record + RECORD_HEADER_LENGTH, length) : 0;
        LONG.set(data, record + RECORD_KEY_OFFSET, key);
        LONG.set(data, record + RECORD_VALUE_LENGTH_OFFSET,
                Integer.toUnsignedLong(length) | (Integer.toUnsignedLong(checksum) << 32));
        dataEnd += needed;
        // SYNC POINT data-end: the record lies below data_end before any slot points at it.
        LONG.setRelease(file, (long) DATA_END_OFFSET, dataEnd);
        // SYNC POINT slot: release pairs with the readers' acquire of the slot.
        LONG.setRelease(slots, probeIndex << 3, slotWord(hash, record));
        PutResult result;
        if (probeFound) {
            result = PutResult.REPLACED;
        } else {
            // used_slots before count: a reader that loads count first never sees more keys
            // than used slots.
            if (probeIntoEmpty) {
                usedSlots++;
                LONG.set(file, (long) USED_SLOTS_OFFSET, usedSlots);
            }
            count++;
            // SYNC POINT count
            LONG.setRelease(file, (long) COUNT_OFFSET, count);
            result = PutResult.INSERTED;
        }
        tick();
        return result;
    }

    /**
     * Removes {@code key}: its slot becomes a tombstone (its record's bytes stay until the map is
     * copied). Returns whether it was there.
     *
     * @throws CorruptMapException for an impossible slot or record
     */
    public boolean remove(long key) {
        checkOpen();
        probe(key, hash(key));
        boolean removed = probeFound;
        if (removed) {
            // SYNC POINT slot
            LONG.setRelease(slots, probeIndex << 3, TOMBSTONE);
            count--;
            // SYNC POINT count
            LONG.setRelease(file, (long) COUNT_OFFSET, count);
        }
        tick();
        return removed;
    }

    /**
     * Finds {@code key}'s slot, or where it would go: the first tombstone on its probe, else the
     * empty slot that ends it. Plain loads: this writer stored every slot it reads.
     */
    private void probe(long key, long hash) {
        long tag = tagOf(hash);
        long index = hash & mask;
        long tombstone = -1;
        for (long n = 0; n < slotCount; n++) {
            long word = (long) LONG.get(slots, index << 3);
            if (word == EMPTY) {
                probeFound = false;
                probeIntoEmpty = tombstone < 0;
                probeIndex = tombstone < 0 ? index : tombstone;
                return;
            }
            if (word == TOMBSTONE) {
                if (tombstone < 0) {
                    tombstone = index;
                }
            } else if ((word >>> OFFSET_BITS) == tag && recordKey(word) == key) {
                probeFound = true;
                probeIndex = index;
                return;
            }
            index = (index + 1) & mask;
        }
        if (tombstone < 0) {
            throw map.noEmptySlot(slotCount);
        }
        probeFound = false;
        probeIntoEmpty = false;
        probeIndex = tombstone;
    }

    /** The key of the record a live slot word points at, checked to lie in this writer's data area. */
    private long recordKey(long word) {
        long record = recordOffset(word);
        if (record < DATA_START || record + RECORD_HEADER_LENGTH > dataCapacity) {
            throw map.outsideDataArea(word, dataCapacity);
        }
        return (long) LONG.get(data, record + RECORD_KEY_OFFSET);
    }

    /**
     * Makes the data area at least {@code end} bytes: nothing when it is; else grows it to twice
     * its capacity, or to {@code end} if more, rounded up to a multiple of
     * {@link MapDescriptor#GROWTH_ALIGNMENT}, at most {@link MapDescriptor#MAX_DATA_CAPACITY}.
     *
     * @throws MapFullException when {@code end} is past the largest data area
     * @throws NoSpaceException when the filesystem has no room for the grown file
     */
    private void reserveData(long end) {
        if (end <= dataCapacity) {
            return;
        }
        long doubled = Math.max(2 * dataCapacity, end);
        long grown = Math.min((doubled + GROWTH_ALIGNMENT - 1) & -GROWTH_ALIGNMENT, MAX_DATA_CAPACITY);
        if (grown < end) {
            throw new MapFullException("data", dataEnd, dataCapacity);
        }
        growData(grown);
        grows = grows.plusDataArea();
    }

    /**
     * Grows the data area to {@code capacity} bytes (docs/map-layout.md, "Growing"): extends the
     * file, reserving its blocks with the free space checked first ({@link FileSpace#allocateHoles}:
     * without room the file goes back to its length and nothing changed), writes the new length
     * to the disk ({@code fdatasync}), maps the file again, and only then stores
     * {@code data_capacity} with release: a reader that loads it finds the file that long.
     *
     * @throws NoSpaceException when the filesystem has no room for the grown file
     * @throws MapIoException for any other error of the operating system
     */
    private void growData(long capacity) {
        String where = map.path.toString();
        long length = fileLength(map.firstSlots, capacity);
        try (FileChannel channel = FileChannel.open(map.path, StandardOpenOption.WRITE)) {
            // A writer that died growing the map may have made the file longer already (its
            // blocks perhaps not yet reserved): it is not cut, and its holes are allocated.
            long before = channel.size();
            try {
                if (before < length) {
                    channel.write(ByteBuffer.allocate(1), length - 1); // sized; the new bytes read as zeros
                }
                FileSpace.allocateHoles(map.path, length);
            } catch (IOException | RuntimeException e) {
                // Nothing maps past the old length: the file goes back as it was.
                channel.truncate(before);
                if (e instanceof NoSpaceError space) {
                    throw new NoSpaceException(where, space, length);
                }
                throw e;
            }
            // The new length reaches the disk before any header names it.
            channel.force(false);
        } catch (IOException e) {
            throw new MapIoException(where, "grow the map file to " + length + " bytes", e);
        }
        useData(map.mapGrown(capacity));
        // SYNC POINT: capacity (release: the file is this long, on the disk, before a reader
        // that loads it maps it).
        LONG.setRelease(file, (long) DATA_CAPACITY_OFFSET, capacity);
    }

    /** Keys a table's grow reads from their records at a time (their cache misses overlap). */
    private static final int REHASH_BATCH = 64;

    /**
     * Grows the slot table (docs/map-layout.md, "Growing"): a new table of the fewest slots, a
     * power of two at least the old table's, of at least {@code 2 x (count + 1)} slots (at most
     * half full after the put: twice the slots of a table that filled), in the data area at the first offset past {@code data_end} on a multiple of
     * {@link MapDescriptor#GROWTH_ALIGNMENT} in the file (the data area grown first if it must),
     * zeroed, every key of the old table inserted in the old table's slot order (tombstones left
     * behind), written to the disk, then {@code data_end} past it and the switch: one release
     * store of the {@code table} word. Readers probing the old table go on reading it: it is
     * never written again.
     *
     * @throws MapFullException past {@link MapDescriptor#MAX_SLOTS} slots, or past the largest data area
     * @throws NoSpaceException when the filesystem has no room for the grown file
     * @throws CorruptMapException for a slot the old table should not hold
     */
    private void growTable() {
        // At most half full after the grow: twice the slots of a table that filled.
        long wanted = 2 * (count + 1);
        long grown = slotCount;
        while (grown < wanted && grown < MAX_SLOTS) {
            grown *= 2;
        }
        if (grown < wanted) {
            throw new MapFullException("slots", usedSlots, maxUsedSlots);
        }
        long dataOffset = dataAreaOffset(map.firstSlots);
        long offset = ((dataOffset + dataEnd + GROWTH_ALIGNMENT - 1) & -GROWTH_ALIGNMENT) - dataOffset;
        long length = grown * SLOT_LENGTH;
        reserveData(offset + length);
        // Past data_end: no slot points here, but a writer that died may have left bytes.
        MemorySegment table = data.asSlice(offset, length);
        table.fill((byte) 0);
        long grownMask = grown - 1;
        // In batches, each step over the whole batch: the records' keys and the new table's
        // slots are cache misses, and a batch's are independent, so the processor overlaps them.
        long[] words = new long[REHASH_BATCH];
        long[] homes = new long[REHASH_BATCH];
        long index = 0;
        while (index < slotCount) {
            int live = 0;
            while (live < REHASH_BATCH && index < slotCount) {
                long word = (long) LONG.get(slots, index << 3);
                index++;
                if (word != EMPTY && word != TOMBSTONE) {
                    words[live++] = word;
                }
            }
            for (int i = 0; i < live; i++) {
                homes[i] = hash(recordKey(words[i])) & grownMask;
            }
            for (int i = 0; i < live; i++) {
                long to = homes[i];
                long probed = 0;
                while ((long) LONG.get(table, to << 3) != EMPTY) {
                    if (++probed == grown) {
                        throw map.noEmptySlot(grown);
                    }
                    to = (to + 1) & grownMask;
                }
                LONG.set(table, to << 3, words[i]);
            }
        }
        // On the disk before the header names it: an OS crash never leaves the table word
        // naming a table that was not written back.
        table.force();
        dataEnd = offset + length;
        // SYNC POINT: data-end (release: the table lies below data_end before the word names it).
        LONG.setRelease(file, (long) DATA_END_OFFSET, dataEnd);
        // SYNC POINT: table (release: the switch; pairs with the lookups' acquire of the word,
        // which then find the table filled).
        LONG.setRelease(file, (long) TABLE_OFFSET, tableWord(offset, grown));
        usedSlots = count;
        LONG.set(file, (long) USED_SLOTS_OFFSET, count);
        useTable(table, grown);
    }

    /** The map this writer writes. */
    public MapFile map() {
        return map;
    }

    /** Keys in the map. */
    public long size() {
        return count;
    }

    /** Bytes of the data area in use. */
    public long dataEnd() {
        return dataEnd;
    }

    /**
     * Writes every put and remove so far to the file's storage ({@code msync} through
     * {@link MemorySegment#force}): the data area's used bytes first (the grown slot tables
     * among them), then the header and first slot table, so that after an operating-system crash
     * the map holds at least everything before the last flush that returned. Without it a
     * process crash loses nothing (the pages are the kernel's), but an OS crash keeps only what
     * the kernel happened to write back. Nothing to do for in-memory maps.
     */
    public void flush() {
        checkOpen();
        if (map.path == null) {
            return;
        }
        data.asSlice(0, dataEnd).force();
        // Written back whole: a later boot need not check these records.
        LONG.set(file, (long) VERIFIED_END_OFFSET, dataEnd);
        file.asSlice(0, dataAreaOffset(map.firstSlots)).force();
    }

    /** Stores a heartbeat now (puts and removes store one every 4096 operations). */
    public void heartbeat() {
        countdown = HEARTBEAT_EVERY;
        // SYNC POINT heartbeat
        LONG.setRelease(file, (long) WRITER_HEARTBEAT_OFFSET, System.currentTimeMillis());
    }

    private void tick() {
        if (--countdown == 0) {
            heartbeat();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this MapWriter is closed (detached); attach a new one with MapFile.writer()");
        }
    }

    /**
     * Detaches, if the writer word is still this process's (a writer that judged it dead may
     * hold it): a heartbeat, the same time as {@code writer_detached_ms}, then the word back to 0.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if ((long) LONG.getAcquire(file, (long) WRITER_OFFSET) != stamp) {
            return;
        }
        long now = System.currentTimeMillis();
        // SYNC POINT heartbeat, detached
        LONG.setRelease(file, (long) WRITER_HEARTBEAT_OFFSET, now);
        LONG.setRelease(file, (long) WRITER_DETACHED_OFFSET, now);
        // SYNC POINT writer
        boolean unused = (boolean) LONG.compareAndSet(file, (long) WRITER_OFFSET, stamp, 0L);
    }
}
