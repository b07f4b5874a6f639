package dev.sympathy.map;

import static dev.sympathy.map.MapDescriptor.*;
import static dev.sympathy.map.MapMemory.INT;
import static dev.sympathy.map.MapMemory.LONG;

import dev.sympathy.mapped.ProcessStamp;
import dev.sympathy.mapped.Processes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
    private final MemorySegment file;
    private final MemorySegment slots;
    private final MemorySegment data;
    private final long stamp;
    private final long maxUsedSlots;
    private long dataEnd;
    private long count;
    private long usedSlots;
    private int countdown = HEARTBEAT_EVERY;
    private boolean closed;
    /** Records the attach found torn and removed ({@link #tornRecordsDropped}). */
    private long tornRecordsDropped;

    /** Where the last probe found the key, or where it would go. */
    private long probeIndex;
    private boolean probeFound;
    private boolean probeIntoEmpty;

    private MapWriter(MapFile map, long stamp) {
        this.map = map;
        this.file = map.file;
        this.slots = map.slots;
        this.data = map.data;
        this.stamp = stamp;
        this.maxUsedSlots = maxUsedSlots(map.slotCount);
        this.dataEnd = map.dataEnd();
        this.count = (long) LONG.get(file, (long) COUNT_OFFSET);
        this.usedSlots = (long) LONG.get(file, (long) USED_SLOTS_OFFSET);
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
            writer.recount(expected != 0);
        } catch (RuntimeException e) {
            writer.close();
            throw e;
        }
        return writer;
    }

    /**
     * Counts the keys and used slots from the slot table and checks every record lies below
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
        for (long index = 0; index < map.slotCount; index++) {
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
            long key = map.recordKey(word);
            long record = recordOffset(word);
            map.checkValue(record);
            long end = record + recordLength(Integer.toUnsignedLong(map.valueLength(record)));
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
            // SYNC POINT count
            LONG.setRelease(file, (long) COUNT_OFFSET, keys);
            LONG.set(file, (long) USED_SLOTS_OFFSET, used);
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

    /**
     * Puts a copy of {@code value} under {@code key}.
     *
     * @throws ValueTooLongException over the map's max_value_length
     * @throws MapFullException when the slots or the data area are full (nothing written)
     * @throws CorruptMapException for an impossible slot or record
     */
    public PutResult put(long key, byte[] value) {
        return putWith(key, value.length,
                (segment, offset, length) -> MemorySegment.copy(value, 0, segment, ValueLayout.JAVA_BYTE, offset, length));
    }

    /**
     * Puts a value of {@code length} bytes under {@code key}, encoded in place by {@code filler}
     * into the record (zero copy); nothing is published until it returns.
     *
     * @throws ValueTooLongException over the map's max_value_length
     * @throws MapFullException when the slots or the data area are full (nothing written)
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
        if (dataEnd + needed > map.dataCapacity) {
            throw new MapFullException("data", dataEnd, map.dataCapacity);
        }
        if (!probeFound && probeIntoEmpty && usedSlots >= maxUsedSlots) {
            throw new MapFullException("slots", usedSlots, maxUsedSlots);
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
            count++;
            // SYNC POINT count
            LONG.setRelease(file, (long) COUNT_OFFSET, count);
            if (probeIntoEmpty) {
                usedSlots++;
                LONG.set(file, (long) USED_SLOTS_OFFSET, usedSlots);
            }
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
        long index = hash & map.mask;
        long tombstone = -1;
        for (long n = 0; n < map.slotCount; n++) {
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
            } else if ((word >>> OFFSET_BITS) == tag && map.recordKey(word) == key) {
                probeFound = true;
                probeIndex = index;
                return;
            }
            index = (index + 1) & map.mask;
        }
        if (tombstone < 0) {
            throw map.noEmptySlot();
        }
        probeFound = false;
        probeIntoEmpty = false;
        probeIndex = tombstone;
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
     * {@link MemorySegment#force}): the data area's used bytes first, then the header and slot
     * table, so that after an operating-system crash the map holds at least everything before
     * the last flush that returned. Without it a process crash loses nothing (the pages are the
     * kernel's), but an OS crash keeps only what the kernel happened to write back. Nothing to
     * do for in-memory maps.
     */
    public void flush() {
        checkOpen();
        if (map.path == null) {
            return;
        }
        data.asSlice(0, dataEnd).force();
        // Written back whole: a later boot need not check these records.
        LONG.set(file, (long) VERIFIED_END_OFFSET, dataEnd);
        file.asSlice(0, dataAreaOffset(map.slotCount)).force();
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
