package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record checksums (the Rust {@code crates/map/tests/checksum.rs}): in a map whose records past
 * {@code verified_end} were written in another boot of the system (simulated by changing the
 * header's {@code boot}), a record whose bytes changed after it was written (torn by a system
 * crash, simulated by changing the file) is refused by every lookup and by iteration, never
 * returned; the next writer's attach removes it. Within one boot, and below
 * {@code verified_end}, records are not checked. A version 1 map is read and written as it is.
 * The checksum is the one docs/map-layout.md gives (its examples, which the Rust doc test checks
 * too).
 */
class MapChecksumTest {
    @TempDir
    Path dir;

    private static final byte[] SEVEN = "seven, a value of some length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEVEN_CHANGED = "sevEn, a value of some length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EIGHT = "eight".getBytes(StandardCharsets.US_ASCII);

    private Path mapWithTwoKeys(boolean flush) {
        Path path = dir.resolve("m.map");
        try (MapFile map = MapFile.create(path, MapConfig.forEntries(16, 32)); MapWriter writer = map.writer()) {
            writer.put(7, SEVEN);
            writer.put(8, EIGHT);
            if (flush) {
                writer.flush();
            }
        }
        return path;
    }

    private static long headerWord(Path path, int offset) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
    }

    private static void setHeaderWord(Path path, int offset, long value) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, value);
        Files.write(path, bytes);
    }

    /** As the file is after the system restarted: its records past verified_end were written in another boot. */
    private static void asAfterARestart(Path path) throws IOException {
        setHeaderWord(path, MapDescriptor.BOOT_OFFSET, 1);
    }

    private static int indexOf(byte[] bytes, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("the value is not in the file");
    }

    /** Changes one byte of the file where {@code needle} first occurs (a value's bytes). */
    private static void changeByteOf(Path path, byte[] needle) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        bytes[indexOf(bytes, needle) + 3] ^= 0x20;
        Files.write(path, bytes);
    }

    private static void assertTorn(Runnable lookup, long key) {
        TornRecordException e = assertThrows(TornRecordException.class, lookup::run);
        assertEquals("corrupt-map", e.kind());
        assertTrue(e.getMessage().contains("(key " + key + ") does not match its checksum")
                && e.getMessage().contains("put the key again"), e.getMessage());
    }

    @Test
    void shouldComputeTheDocumentedChecksums() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment empty = arena.allocate(8, 8);
            assertEquals(0x4eeeb164, MapDescriptor.recordChecksum(0, empty, 0, 0));
            MemorySegment one = arena.allocate(8, 8);
            one.copyFrom(MemorySegment.ofArray("one".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(0x7d8e65e3, MapDescriptor.recordChecksum(1, one, 0, 3));
            one.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 2, (byte) 'f');
            assertNotEquals(0x7d8e65e3, MapDescriptor.recordChecksum(1, one, 0, 3));
        }
    }

    /** The bytes past the value in its last word (a record's padding) do not count, whatever they hold. */
    @Test
    void shouldIgnoreTheBytesPastTheValue() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment one = arena.allocate(16, 8);
            one.fill((byte) 0x5a);
            one.copyFrom(MemorySegment.ofArray("one".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(0x7d8e65e3, MapDescriptor.recordChecksum(1, one, 0, 3));
            MemorySegment nine = arena.allocate(16, 8);
            nine.fill((byte) 0x5a);
            byte[] value = "ninebytes".getBytes(StandardCharsets.US_ASCII);
            nine.copyFrom(MemorySegment.ofArray(value));
            MemorySegment clean = arena.allocate(16, 8);
            clean.copyFrom(MemorySegment.ofArray(value));
            assertEquals(MapDescriptor.recordChecksum(9, clean, 0, 9), MapDescriptor.recordChecksum(9, nine, 0, 9));
        }
    }

    @Test
    void shouldRefuseATornRecordAfterARestartUntilAWriterRemovesIt() throws IOException {
        Path path = mapWithTwoKeys(false);
        changeByteOf(path, "seven, a value".getBytes(StandardCharsets.US_ASCII));
        asAfterARestart(path);
        try (MapFile map = MapFile.open(path)) {
            assertTorn(() -> map.getBytes(7), 7);
            assertArrayEquals(EIGHT, map.getBytes(8));
            assertTorn(() -> map.forEach((key, data, offset, length) -> { }), 7);
            // The writer's attach removes the torn record (its value is lost), marks the rest
            // whole and the map this boot's.
            try (MapWriter writer = map.writer()) {
                assertEquals(1, writer.tornRecordsDropped());
                assertNull(map.getBytes(7));
                assertEquals(1, map.size());
                writer.put(7, "seven again".getBytes(StandardCharsets.US_ASCII));
            }
            assertArrayEquals("seven again".getBytes(StandardCharsets.US_ASCII), map.getBytes(7));
        }
        assertEquals(dev.sympathy.mapped.Processes.currentBoot(), headerWord(path, MapDescriptor.BOOT_OFFSET));
        try (MapFile map = MapFile.open(path); MapWriter writer = map.writer()) {
            map.forEach((key, data, offset, length) -> { });
            assertEquals(0, writer.tornRecordsDropped());
        }
    }

    @Test
    void shouldNotCheckRecordsWithinOneBoot() throws IOException {
        Path path = mapWithTwoKeys(false);
        changeByteOf(path, "seven, a value".getBytes(StandardCharsets.US_ASCII));
        try (MapFile map = MapFile.open(path)) {
            // The page cache is the file: nothing is torn without a crash of the system.
            assertArrayEquals(SEVEN_CHANGED, map.getBytes(7));
        }
    }

    @Test
    void shouldNotCheckRecordsAFlushWroteBack() throws IOException {
        Path path = mapWithTwoKeys(true);
        assertEquals(headerWord(path, MapDescriptor.DATA_END_OFFSET), headerWord(path, MapDescriptor.VERIFIED_END_OFFSET),
                "a flush stores verified_end at data_end");
        changeByteOf(path, "seven, a value".getBytes(StandardCharsets.US_ASCII));
        asAfterARestart(path);
        try (MapFile map = MapFile.open(path)) {
            assertArrayEquals(SEVEN_CHANGED, map.getBytes(7));
        }
    }

    @Test
    void shouldRefuseAChangedChecksumWordAfterARestart() throws IOException {
        Path path = mapWithTwoKeys(false);
        byte[] bytes = Files.readAllBytes(path);
        int at = indexOf(bytes, EIGHT);
        int stored = ByteBuffer.wrap(bytes, at - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(8, 8);
            value.copyFrom(MemorySegment.ofArray(EIGHT));
            assertEquals(MapDescriptor.recordChecksum(8, value, 0, EIGHT.length), stored,
                    "the writer stored the checksum");
        }
        bytes[at - 4] ^= 1;
        Files.write(path, bytes);
        asAfterARestart(path);
        try (MapFile map = MapFile.openReadOnly(path)) {
            assertTorn(() -> map.getBytes(8), 8);
        }
    }

    @Test
    void shouldReadAndWriteAVersion1MapWithoutChecksums() throws IOException {
        Path path = mapWithTwoKeys(false);
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(MapDescriptor.LAYOUT_VERSION_OFFSET, 1);
        Files.write(path, bytes);
        changeByteOf(path, "seven, a value".getBytes(StandardCharsets.US_ASCII));
        asAfterARestart(path);
        try (MapFile map = MapFile.open(path)) {
            // Not checked in a version 1 map: the changed byte is served as it is.
            assertArrayEquals(SEVEN_CHANGED, map.getBytes(7));
            try (MapWriter writer = map.writer()) {
                writer.put(9, "nine".getBytes(StandardCharsets.US_ASCII));
            }
        }
        bytes = Files.readAllBytes(path);
        int at = indexOf(bytes, "nine".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, ByteBuffer.wrap(bytes, at - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt(),
                "a put into a version 1 map writes checksum 0");
    }
}
