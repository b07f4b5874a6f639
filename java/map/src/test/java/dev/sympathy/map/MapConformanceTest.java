package dev.sympathy.map;

import static dev.sympathy.map.MapDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sympathy.map.user.Users;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-file conformance suite shared with the Rust map
 * ({@code crates/map/tests/conformance/manifest.json}): every case gets the same answer, the step
 * that fails and the error's kind, as in the Rust {@code conformance.rs}.
 */
class MapConformanceTest {
    @TempDir
    Path dir;

    private static final Map<String, int[]> HEADER = Map.ofEntries(
            Map.entry("magic", new int[] {MAGIC_OFFSET, 8}), Map.entry("version", new int[] {LAYOUT_VERSION_OFFSET, 4}),
            Map.entry("ready", new int[] {READY_OFFSET, 4}), Map.entry("slots", new int[] {SLOTS_OFFSET, 8}),
            Map.entry("data_capacity", new int[] {DATA_CAPACITY_OFFSET, 8}),
            Map.entry("max_value_length", new int[] {MAX_VALUE_LENGTH_OFFSET, 4}),
            Map.entry("header_length", new int[] {HEADER_LENGTH_OFFSET, 4}),
            Map.entry("creation_time_ms", new int[] {CREATION_TIME_OFFSET, 8}),
            Map.entry("value_format", new int[] {VALUE_FORMAT_OFFSET, 4}),
            Map.entry("data_end", new int[] {DATA_END_OFFSET, 8}), Map.entry("count", new int[] {COUNT_OFFSET, 8}),
            Map.entry("used_slots", new int[] {USED_SLOTS_OFFSET, 8}), Map.entry("writer", new int[] {WRITER_OFFSET, 8}),
            Map.entry("verified_end", new int[] {VERIFIED_END_OFFSET, 8}), Map.entry("boot", new int[] {BOOT_OFFSET, 8}),
            Map.entry("table", new int[] {TABLE_OFFSET, 8}),
            Map.entry("writer_heartbeat_ms", new int[] {WRITER_HEARTBEAT_OFFSET, 8}),
            Map.entry("writer_detached_ms", new int[] {WRITER_DETACHED_OFFSET, 8}),
            Map.entry("recoveries", new int[] {RECOVERIES_OFFSET, 8}));

    private static void putWord(byte[] bytes, int at, int size, long value) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (size == 8) {
            b.putLong(at, value);
        } else {
            b.putInt(at, (int) value);
        }
    }

    private static long word(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
    }

    /** The file offset of the slot holding {@code key} in the base's bytes. */
    private static int slotOf(byte[] bytes, long slots, long key) {
        int data = (int) dataAreaOffset(slots);
        for (int i = 0; i < slots; i++) {
            long w = word(bytes, HEADER_LENGTH + 8 * i);
            if (w != EMPTY && w != TOMBSTONE && word(bytes, data + (int) recordOffset(w)) == key) {
                return HEADER_LENGTH + 8 * i;
            }
        }
        throw new IllegalStateException("key " + key + " is not in the base");
    }

    private static void make(JsonNode c, byte[] base, long slots, Path path) throws IOException, InterruptedException {
        if (c.has("special")) {
            switch (c.get("special").asText()) {
                case "directory" -> Files.createDirectory(path);
                case "fifo" -> assertEquals(0, new ProcessBuilder("mkfifo", path.toString()).start().waitFor());
                case "dev-zero-link" -> Files.createSymbolicLink(path, Path.of("/dev/zero"));
                default -> throw new IllegalArgumentException(c.toString());
            }
            return;
        }
        byte[] bytes = switch (c.has("base") ? c.get("base").asText() : "map") {
            case "map" -> base.clone();
            case "zeros" -> new byte[base.length];
            case "random" -> {
                long seed = c.get("seed").asLong();
                byte[] r = new byte[base.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = (byte) Users.mix(seed + i);
                }
                yield r;
            }
            default -> throw new IllegalArgumentException(c.toString());
        };
        if (c.has("header")) {
            for (var e : c.get("header").properties()) {
                int[] f = Objects.requireNonNull(HEADER.get(e.getKey()), e.getKey());
                putWord(bytes, f[0], f[1], Long.parseUnsignedLong(e.getValue().asText()));
            }
        }
        if (c.has("slot")) {
            JsonNode s = c.get("slot");
            int at = slotOf(bytes, slots, s.get("of_key").asLong());
            long w = (word(bytes, at) & ~OFFSET_MASK) | (s.get("offset").asLong() / RECORD_ALIGNMENT);
            putWord(bytes, at, 8, w);
        }
        if (c.has("record")) {
            JsonNode r = c.get("record");
            int at = slotOf(bytes, slots, r.get("of_key").asLong());
            int start = (int) (dataAreaOffset(slots) + recordOffset(word(bytes, at)));
            if (r.has("key")) {
                putWord(bytes, start + RECORD_KEY_OFFSET, 8, r.get("key").asLong());
            }
            if (r.has("value_length")) {
                putWord(bytes, start + RECORD_VALUE_LENGTH_OFFSET, 4, r.get("value_length").asLong());
            }
            if (r.has("checksum")) {
                putWord(bytes, start + RECORD_CHECKSUM_OFFSET, 4, r.get("checksum").asLong());
            }
            if (r.has("value_xor")) {
                bytes[start + RECORD_HEADER_LENGTH] ^= (byte) r.get("value_xor").asInt();
            }
        }
        if (c.has("slots_all")) {
            long all = Long.parseUnsignedLong(c.get("slots_all").asText());
            for (int i = 0; i < slots; i++) {
                putWord(bytes, HEADER_LENGTH + 8 * i, 8, all);
            }
        }
        int length = c.has("length") ? c.get("length").asInt()
                : bytes.length + (c.has("length_delta") ? c.get("length_delta").asInt() : 0);
        Files.write(path, Arrays.copyOf(bytes, length));
    }

    /** The first failing step and kind, or null (lookups of the case's own get_keys, else the manifest's). */
    private static String run(JsonNode m, JsonNode c, Path path) {
        String step = "open";
        try {
            try (MapFile map = MapFile.open(path, Duration.ofMillis(m.get("open_timeout_ms").asLong()))) {
                step = "get";
                for (JsonNode key : c.has("get_keys") ? c.get("get_keys") : m.get("get_keys")) {
                    map.find(key.asLong());
                }
                step = "attach-writer";
                try (MapWriter writer = map.writer()) {
                    step = "put";
                    writer.put(m.get("put").get(0).asLong(), HexFormat.of().parseHex(m.get("put").get(1).asText()));
                }
            }
            return null;
        } catch (MapException e) {
            return step + " " + e.kind();
        }
    }

    @Test
    void shouldGiveEveryHostileFileTheRustAnswer() throws Exception {
        Path suite = Path.of(System.getProperty("sympathy.map.conformance.dir"));
        JsonNode m = new ObjectMapper().readTree(suite.resolve("manifest.json").toFile());
        assertEquals("[\"open\",\"get\",\"attach-writer\",\"put\"]", m.get("steps").toString());
        JsonNode b = m.get("base");
        long slots = b.get("slots").asLong();
        Path basePath = dir.resolve("base");
        try (MapFile map = MapFile.create(basePath, new MapConfig(slots, b.get("data_capacity").asLong(),
                b.get("max_value_length").asInt(), b.get("value_format").asInt()));
                MapWriter writer = map.writer()) {
            for (JsonNode put : b.get("puts")) {
                writer.put(put.get(0).asLong(), HexFormat.of().parseHex(put.get(1).asText()));
            }
        }
        byte[] base = Files.readAllBytes(basePath);
        List<String> failures = new ArrayList<>();
        for (JsonNode c : m.get("cases")) {
            String name = c.get("name").asText();
            Path path = dir.resolve(name);
            make(c, base, slots, path);
            String got = run(m, c, path);
            JsonNode expect = c.get("expect");
            String want = expect.get("kind").asText().equals("ok") ? null
                    : expect.get("step").asText() + " " + expect.get("kind").asText();
            if (!Objects.equals(want, got)) {
                failures.add(name + ": expected " + want + ", got " + got);
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " cases differ:\n" + String.join("\n", failures));
    }
}
