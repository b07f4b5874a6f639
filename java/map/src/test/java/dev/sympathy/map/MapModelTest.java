package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The map against a {@link HashMap} model (the Rust model test's operations, seeded): puts
 * (new keys, overwrites), removes, gets, reopens and writers that never detach, on small maps:
 * of layout version 3 for even seeds, which grow (the table and the data area, by writers that
 * take over too), and of version 2 for odd seeds, which fill up, so full is met often. A put
 * refused as full changes nothing.
 */
class MapModelTest {
    @TempDir
    Path dir;

    private static byte[] value(long key, int serial, int length) {
        byte[] v = new byte[length];
        for (int i = 0; i < length; i++) {
            v[i] = (byte) (key * 7 + serial * 13L + i);
        }
        return v;
    }

    @Test
    void shouldAgreeWithAHashMapOverSeededRandomOperations() throws IOException {
        for (long seed = 1; seed <= 64; seed++) {
            run(seed);
        }
    }

    private void run(long seed) throws IOException {
        Random random = new Random(seed);
        Path path = dir.resolve("model-" + seed);
        MapConfig config = new MapConfig(16, 1024, 40, 0);
        MapFile map = MapFile.create(path, config);
        if (seed % 2 == 1) {
            map.close();
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2),
                        MapDescriptor.LAYOUT_VERSION_OFFSET);
            }
            map = MapFile.open(path);
        }
        MapWriter writer = map.writer();
        Map<Long, byte[]> model = new HashMap<>();
        int ops = 1 + random.nextInt(300);
        for (int serial = 0; serial < ops; serial++) {
            long key = random.nextInt(24);
            int op = random.nextInt(13);
            if (op < 6) {
                int length = random.nextInt(41);
                byte[] bytes = value(key, serial, length);
                if (writer == null) {
                    writer = map.writer();
                }
                try {
                    PutResult result = writer.put(key, bytes);
                    byte[] before = model.put(key, bytes);
                    assertEquals(before != null, result == PutResult.REPLACED);
                } catch (MapFullException e) {
                    assertEquals(1, seed % 2, "seed " + seed + ": a version 3 map grows instead: " + e.getMessage());
                    if (e.of().equals("data")) {
                        assertTrue(e.used() + MapDescriptor.recordLength(length) > e.limit());
                    } else {
                        assertFalse(model.containsKey(key), "an overwrite needs no slot");
                    }
                }
            } else if (op < 8) {
                if (writer == null) {
                    writer = map.writer();
                }
                assertEquals(model.remove(key) != null, writer.remove(key));
            } else if (op < 11) {
                assertArrayEquals(model.get(key), map.getBytes(key), "seed " + seed + " key " + key);
            } else if (op == 11) {
                if (writer != null) {
                    writer.close();
                    writer = null;
                }
                map.close();
                map = MapFile.open(path);
            } else if (writer != null) {
                // A writer that never detaches: refused while it runs, taken over once dead.
                writer = null;
                assertThrows(AlreadyAttachedException.class, map::writer);
                forgeDeadWriter(path);
                long recoveries = map.stats().recoveries();
                writer = map.writer();
                assertEquals(recoveries + 1, map.stats().recoveries());
            }
            assertEquals(model.size(), map.size(), "seed " + seed);
        }
        if (seed % 2 == 0) {
            assertEquals(MapDescriptor.fileLength(16, map.stats().dataCapacity()), java.nio.file.Files.size(path),
                    "seed " + seed + ": the file is as long as the map it grew to");
        }
        if (writer != null) {
            writer.close();
        }
        map.close();
        try (MapFile reopened = MapFile.openReadOnly(path)) {
            TreeMap<Long, byte[]> found = new TreeMap<>();
            reopened.forEach((key, data, offset, length) ->
                    found.put(key, data.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE)));
            assertEquals(new TreeMap<>(model).keySet(), found.keySet());
            for (var e : model.entrySet()) {
                assertArrayEquals(e.getValue(), found.get(e.getKey()));
            }
        }
    }

    /** A writer word naming a process that does not run, as a killed writer leaves. */
    static void forgeDeadWriter(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(Integer.MAX_VALUE | (7L << 32)).flip();
            channel.write(word, MapDescriptor.WRITER_OFFSET);
        }
    }

    @Test
    void shouldKeepAValueValidWhileItIsReplacedAndRemoved() {
        MapFile map = MapFile.inMemory(MapConfig.forEntries(16, 8));
        try (MapWriter writer = map.writer()) {
            writer.put(1, "first".getBytes());
            var held = map.get(1);
            writer.put(1, "second".getBytes());
            writer.remove(1);
            assertArrayEquals("first".getBytes(), held.toArray(ValueLayout.JAVA_BYTE), "a record is never written again");
            assertNull(map.get(1));
        }
    }

    @Test
    void shouldRefuseASecondWriterAndAnyOnAReadOnlyMap() {
        Path path = dir.resolve("writers");
        try (MapFile map = MapFile.create(path, MapConfig.forEntries(16, 8))) {
            MapWriter writer = map.writer();
            AlreadyAttachedException e = assertThrows(AlreadyAttachedException.class, () -> MapFile.open(path).writer());
            assertEquals(ProcessHandle.current().pid(), e.pid());
            assertEquals("already-attached", e.kind());
            try (MapFile readOnly = MapFile.openReadOnly(path)) {
                assertEquals("read-only", assertThrows(ReadOnlyException.class, readOnly::writer).kind());
                assertEquals(WriterState.ALIVE, readOnly.writerState());
            }
            writer.close();
            assertEquals(WriterState.DETACHED, map.writerState());
            map.writer().close();
        }
    }

    @Test
    void shouldReportFullWithNothingWritten() {
        MapFile map = MapFile.inMemory(new MapConfig(8, 128, 40, 0));
        try (MapWriter writer = map.writer()) {
            for (int key = 0; key < 6; key++) {
                writer.put(key, new byte[0]);
            }
            MapFullException slots = assertThrows(MapFullException.class, () -> writer.put(6, new byte[0]));
            assertEquals("slots", slots.of());
            assertEquals(6, slots.used());
            MapFullException data = assertThrows(MapFullException.class, () -> writer.put(0, new byte[9]));
            assertEquals("data", data.of());
            assertEquals(104, data.used());
            assertEquals(6, map.size());
            assertEquals("value-too-long", assertThrows(ValueTooLongException.class, () -> writer.put(0, new byte[41])).kind());
            assertTrue(writer.remove(3));
            assertThrows(MapFullException.class, () -> writer.put(3, new byte[9]));
            writer.put(3, new byte[0]);
            assertEquals(6, map.size());
        }
    }

    @Test
    void shouldNameBadSizes() {
        MapConfig good = MapConfig.forEntries(100, 10);
        good.check();
        assertEquals("bad-config", assertThrows(BadConfigException.class,
                () -> new MapConfig(12, good.dataCapacity(), good.maxValueLength(), 0).check()).kind());
        assertTrue(assertThrows(BadConfigException.class, () -> new MapConfig(8, 100, 8, 0).check()).getMessage()
                .startsWith("data capacity"));
        new MapConfig(8, 64, 40, 0).check();
        assertThrows(BadConfigException.class, () -> new MapConfig(8, 64, 41, 0).check());
        assertEquals(1L << 25, MapConfig.forEntries(15_000_000, 100).slots());
        MapConfig.forEntries(1L << 31, 100).check();
        MapConfig.forEntries(1000, 64 * 1024).check();
    }

    /** The Rust for_entries_refuses_what_no_map_holds_instead_of_a_smaller_map, case for case. */
    @Test
    void shouldRefuseWhatNoMapHoldsInsteadOfASmallerMap() {
        Object[][] cases = {
            {(1L << 31) + 1, 100L, "entries do not fit one map"},
            {-1L, 100L, "entries do not fit one map"}, // 2^64 - 1, unsigned
            {10L, 64 * 1024 + 1L, "mean value length"},
            {10L, -1L, "mean value length"},
            {1L << 31, 4096L, "over the largest, 2^42 bytes"},
        };
        for (Object[] c : cases) {
            BadConfigException e = assertThrows(BadConfigException.class,
                    () -> MapConfig.forEntries((long) c[0], (long) c[1]), () -> c[0] + " x " + c[1]);
            assertEquals("bad-config", e.kind());
            assertTrue(e.getMessage().contains((String) c[2]), e.getMessage());
        }
        assertEquals("bad-config", assertThrows(BadConfigException.class,
                () -> dev.sympathy.map.user.Users.mapConfig(10_000_000_000L)).kind());
    }
}
