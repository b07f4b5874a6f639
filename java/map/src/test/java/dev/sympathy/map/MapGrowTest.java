package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A map that grows (layout version 3, docs/map-layout.md, "Growing"; the Rust
 * {@code crates/map/tests/grow.rs}): created with the smallest table and data area, it takes
 * every put, growing the file and the slot table; readers on their own handles (each maps the
 * file on its own, as another process does) and on the writer's never miss a key that was
 * counted before their lookup, nor see a wrong value, while it grows. Maps that cannot grow
 * (version 2, in memory) still answer {@link MapFullException}.
 */
class MapGrowTest {
    @TempDir
    Path dir;

    private static final long KEYS = 100_000;

    /** The smallest map a create accepts, with values up to 40 bytes. */
    private static MapConfig smallest() {
        return new MapConfig(MapDescriptor.MIN_SLOTS, MapDescriptor.MIN_DATA_CAPACITY, 40,
                MapDescriptor.VALUE_FORMAT_BYTES);
    }

    /** Key {@code k}'s value: 8 to 27 bytes, each key's its own (the Rust test's {@code value_of}). */
    static byte[] valueOf(long k) {
        byte[] text = ("value-" + k + "-").getBytes(StandardCharsets.US_ASCII);
        byte[] value = new byte[8 + (int) (k % 20)];
        Arrays.fill(value, (byte) 'x');
        System.arraycopy(text, 0, value, 0, Math.min(text.length, value.length));
        return value;
    }

    private static long headerWord(Path path, int offset) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
    }

    @Test
    void shouldGrowTheSmallestMapToAHundredThousandKeysAndReopen() throws IOException {
        Path path = dir.resolve("grow.map");
        try (MapFile map = MapFile.create(path, smallest())) {
            try (MapWriter writer = map.writer()) {
                for (long k = 0; k < KEYS; k++) {
                    writer.put(k, valueOf(k));
                }
                // Churn: removes leave tombstones, which a grow leaves behind.
                for (long k = 0; k < KEYS; k += 3) {
                    assertTrue(writer.remove(k));
                }
                for (long k = 0; k < KEYS; k += 3) {
                    writer.put(k, valueOf(k));
                }
            }
            MapStats stats = map.stats();
            assertEquals(KEYS, stats.count());
            assertEquals(MapDescriptor.MIN_SLOTS, stats.firstSlots());
            assertTrue(stats.slots() >= 131_072, stats.toString());
            assertEquals(stats.slots(), map.tableSlots());
            assertTrue(stats.dataCapacity() > 1 << 20, stats.toString());
            assertEquals(stats.dataCapacity(), map.mappedDataCapacity(), "the writer maps what it grew to");
            assertEquals(0, stats.dataCapacity() % MapDescriptor.GROWTH_ALIGNMENT);
            assertTrue(map.mappings() > 1, "the writer's map mapped the grown file again");
            assertEquals(MapDescriptor.fileLength(MapDescriptor.MIN_SLOTS, stats.dataCapacity()), Files.size(path));
            assertEquals(stats.fileLength(), Files.size(path));
            for (long k = 0; k < KEYS; k++) {
                assertArrayEquals(valueOf(k), map.getBytes(k), "key " + k);
            }
        }
        long table = headerWord(path, MapDescriptor.TABLE_OFFSET);
        assertNotEquals(0, table, "a grown table is in use");
        assertEquals(0, (table & ~MapDescriptor.TABLE_BITS_MASK) % MapDescriptor.TABLE_ALIGNMENT);
        long tableSlots = 1L << (table & MapDescriptor.TABLE_BITS_MASK);
        long tableFilePosition = MapDescriptor.dataAreaOffset(MapDescriptor.MIN_SLOTS)
                + (table & ~MapDescriptor.TABLE_BITS_MASK);
        assertEquals(0, tableFilePosition % MapDescriptor.GROWTH_ALIGNMENT, "a grown table starts on a page");

        try (MapFile reopened = MapFile.openReadOnly(path)) {
            assertEquals(1, reopened.mappings(), "a fresh open maps the grown file once");
            assertEquals(tableSlots, reopened.tableSlots());
            for (long k = 0; k < KEYS; k++) {
                assertArrayEquals(valueOf(k), reopened.getBytes(k), "key " + k);
            }
            assertNull(reopened.getBytes(KEYS));
            long[] entries = {0};
            reopened.forEach((key, data, offset, length) -> entries[0]++);
            assertEquals(KEYS, entries[0]);
            // A writer attaches after a clean detach: the counters match the grown table, and a
            // reader that mapped the file before the writer grows it again (past 3/4 of the
            // table's slots) sees the new keys.
            long more = MapDescriptor.maxUsedSlots(tableSlots) + 1;
            try (MapFile map = MapFile.open(path); MapWriter writer = map.writer()) {
                assertEquals(KEYS, writer.size());
                for (long k = KEYS; k < more; k++) {
                    writer.put(k, valueOf(k));
                }
            }
            for (long k = 0; k < more; k++) {
                assertArrayEquals(valueOf(k), reopened.getBytes(k), "key " + k);
            }
            assertTrue(reopened.tableSlots() > tableSlots, "the reader switched to the newer table");
            assertTrue(reopened.mappings() > 1, "the reader mapped the file again");
        }
    }

    /**
     * Two readers check, pass after pass while the writer puts keys 0..N in order, that every
     * key below the count they loaded is there with its value: one on a handle of its own (its
     * own mappings, as a reader in another process has), one on the writer's.
     */
    @Test
    void shouldLetReadersSeeEveryCountedKeyWhileTheMapGrows() throws Exception {
        Path path = dir.resolve("grow-read.map");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (MapFile map = MapFile.create(path, smallest())) {
            AtomicBoolean done = new AtomicBoolean();
            List<Future<MapStats>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                boolean ownHandle = r == 0;
                readers.add(pool.submit(() -> {
                    MapFile reader = ownHandle ? MapFile.openReadOnly(path) : map;
                    try {
                        long passes = 0;
                        while (true) {
                            boolean finished = done.get();
                            long counted = reader.size();
                            for (long k = 0; k < counted; k++) {
                                byte[] found = reader.getBytes(k);
                                if (!Arrays.equals(valueOf(k), found)) {
                                    throw new AssertionError("reader " + (ownHandle ? "(own handle)" : "(the writer's)")
                                            + ", pass " + passes + ": key " + k + " of " + counted + " counted reads "
                                            + (found == null ? "absent" : new String(found, StandardCharsets.US_ASCII)));
                                }
                            }
                            passes++;
                            if (finished) {
                                return reader.stats();
                            }
                        }
                    } finally {
                        if (ownHandle) {
                            reader.close();
                        }
                    }
                }));
            }
            try (MapWriter writer = map.writer()) {
                for (long k = 0; k < KEYS; k++) {
                    writer.put(k, valueOf(k));
                }
            } finally {
                done.set(true);
            }
            for (Future<MapStats> reader : readers) {
                MapStats stats;
                try {
                    stats = reader.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof AssertionError failed) {
                        throw failed;
                    }
                    throw e;
                }
                assertEquals(KEYS, stats.count());
                assertTrue(stats.slots() > MapDescriptor.MIN_SLOTS, stats.toString());
                assertTrue(stats.mappings() > 1, "the reader mapped the grown file again: " + stats);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A version 2 map (set on a fresh map before any put) is full as before, and its file stays as it was. */
    @Test
    void shouldNotGrowAVersion2Map() throws IOException {
        Path path = dir.resolve("version-2.map");
        MapFile.create(path, smallest()).close();
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(MapDescriptor.LAYOUT_VERSION_OFFSET, 2);
        Files.write(path, bytes);
        long length = Files.size(path);
        try (MapFile map = MapFile.open(path); MapWriter writer = map.writer()) {
            MapFullException full = null;
            for (long k = 0; k < 100 && full == null; k++) {
                try {
                    writer.put(k, valueOf(k));
                } catch (MapFullException e) {
                    full = e;
                }
            }
            assertTrue(full != null, "a version 2 map fills");
            assertEquals("data", full.of());
            assertEquals("full", full.kind());
            assertEquals(1, map.mappings());
            assertEquals(MapDescriptor.MIN_SLOTS, map.tableSlots());
        }
        assertEquals(MapDescriptor.MIN_DATA_CAPACITY, headerWord(path, MapDescriptor.DATA_CAPACITY_OFFSET));
        assertEquals(0, headerWord(path, MapDescriptor.TABLE_OFFSET));
        assertEquals(length, Files.size(path));
    }

    /** An in-memory map never grows: the slots fill first in a data area of 4096 bytes. */
    @Test
    void shouldNotGrowAnInMemoryMap() {
        MapFile map = MapFile.inMemory(new MapConfig(MapDescriptor.MIN_SLOTS, 4096, 40, 0));
        try (MapWriter writer = map.writer()) {
            MapFullException full = null;
            long k = 0;
            for (; k < 100 && full == null; k++) {
                try {
                    writer.put(k, valueOf(k));
                } catch (MapFullException e) {
                    full = e;
                }
            }
            assertTrue(full != null, "an in-memory map fills");
            assertEquals("slots", full.of());
            assertEquals(MapDescriptor.maxUsedSlots(MapDescriptor.MIN_SLOTS), map.size());
            assertEquals(MapDescriptor.MIN_SLOTS, map.tableSlots());
            assertEquals(4096, map.mappedDataCapacity());
        }
    }

    /**
     * A table that fills grows to the fewest slots that leave it at most half full after the
     * put: {@code 2 x (count + 1)}. Here a map of 8 slots whose six keys fill it: 2 x 7 = 14
     * slots or more, so 16.
     */
    @Test
    void shouldGrowAFullTableToTwiceItsSlots() throws IOException {
        Path path = dir.resolve("table.map");
        try (MapFile map = MapFile.create(path, new MapConfig(MapDescriptor.MIN_SLOTS, 4096, 40, 0));
                MapWriter writer = map.writer()) {
            for (long k = 0; k < MapDescriptor.maxUsedSlots(MapDescriptor.MIN_SLOTS); k++) {
                writer.put(k, valueOf(k));
            }
            assertEquals(MapDescriptor.MIN_SLOTS, map.tableSlots());
            long dataEnd = writer.dataEnd();
            writer.put(100, valueOf(100));
            assertEquals(16, map.tableSlots());
            assertEquals(7, map.stats().usedSlots(), "the used slots of the new table: its keys, no tombstones");
            long table = headerWord(path, MapDescriptor.TABLE_OFFSET);
            long offset = table & ~MapDescriptor.TABLE_BITS_MASK;
            assertEquals(MapDescriptor.tableWord(offset, 16), table);
            long dataArea = MapDescriptor.dataAreaOffset(MapDescriptor.MIN_SLOTS);
            assertEquals((dataArea + dataEnd + 4095) / 4096 * 4096 - dataArea, offset,
                    "the first page-aligned position in the file at or past data_end");
            assertEquals(4096 * 2, map.stats().dataCapacity(), "the data area grew to hold the table");
            for (long k = 0; k < MapDescriptor.maxUsedSlots(MapDescriptor.MIN_SLOTS); k++) {
                assertArrayEquals(valueOf(k), map.getBytes(k));
            }
            assertArrayEquals(valueOf(100), map.getBytes(100));
        }
    }
}
