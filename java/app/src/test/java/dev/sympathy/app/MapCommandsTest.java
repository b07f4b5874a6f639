package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.map.MapFile;
import dev.sympathy.map.Stress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code map stress-write}, the writer of the cross-language stress and crash tests. */
class MapCommandsTest {
    @TempDir
    Path dir;

    /**
     * Without {@code --seconds} the writer goes as fast as it can, to the end of its operations,
     * and acknowledges each one that returned in the {@code --ack} word. (It used to pace itself
     * over a default of 10^9 seconds, sleeping for days after its first 4096 operations: the
     * guard below is for that hang, not a speed target.)
     */
    @Test
    void shouldWriteEveryOperationAndAcknowledgeThemWithoutPacing() throws Exception {
        Path map = dir.resolve("stress.map");
        Path ack = dir.resolve("ack");
        long ops = 10_000;
        long keys = 64;
        int status = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> quietly(new String[] {
            "map", "stress-write", map.toString(), "--ops", Long.toString(ops), "--keys", Long.toString(keys),
            "--ack", ack.toString()}));
        assertEquals(0, status);
        long acknowledged = ByteBuffer.wrap(Files.readAllBytes(ack)).order(ByteOrder.nativeOrder()).getLong(0);
        assertEquals(ops, acknowledged);
        Set<Long> present = new HashSet<>();
        for (long j = 0; j < ops; j++) {
            long key = Stress.key(keys, j);
            if (Stress.isRemove(j)) {
                present.remove(key);
            } else {
                present.add(key);
            }
        }
        try (MapFile file = MapFile.openReadOnly(map)) {
            assertEquals(present.size(), file.size());
        }
    }

    /** {@code map create} sizes as the Rust command does; {@code map copy} keeps every live entry. */
    @Test
    void shouldCreateSizedMapsAndCopyTheLiveEntries() {
        Path sized = dir.resolve("sized.map");
        assertEquals(0, quietly(new String[] {"map", "create", sized.toString(), "--slots", "64", "--data-capacity", "64k"}));
        try (MapFile file = MapFile.openReadOnly(sized)) {
            assertEquals(64, file.stats().slots());
            assertEquals(65536, file.stats().dataCapacity());
            assertEquals(65536 - 8 - 16, file.stats().maxValueLength(), "the data area less one record header");
        }
        assertEquals(2, quietly(new String[] {"map", "create", dir.resolve("x.map").toString()}), "no sizes");
        Path users = dir.resolve("users.map");
        assertEquals(0, quietly(new String[] {"map", "create", users.toString(), "--entries", "100", "--value-format",
            "user-flyweight"}));
        assertEquals(0, quietly(new String[] {"map", "load-users", users.toString(), "--users", "100"}));
        Path copy = dir.resolve("copy.map");
        assertEquals(0, quietly(new String[] {"map", "copy", users.toString(), copy.toString()}));
        assertEquals(0, quietly(new String[] {"map", "verify-users", copy.toString(), "--users", "100"}));
        try (MapFile source = MapFile.openReadOnly(users); MapFile file = MapFile.openReadOnly(copy)) {
            assertEquals(2 * source.stats().slots(), file.stats().slots(), "twice the source's slots");
        }
    }

    /**
     * A key that is not an unsigned 64-bit number is a usage error (status 2) that names it, as
     * the Rust command's is; it was a NumberFormatException and its stack trace.
     */
    @Test
    void shouldRefuseAKeyThatIsNotANumberAsAUsageError() {
        Path map = dir.resolve("keys.map");
        assertEquals(0, quietly(new String[] {"map", "create", map.toString(), "--entries", "8"}));
        for (String key : new String[] {"abc", "-1", "", "18446744073709551616"}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream saved = System.err;
            int status;
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                status = quietly(new String[] {"map", "get", map.toString(), key});
            } finally {
                System.setErr(saved);
            }
            String said = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, status, key + ": " + said);
            assertTrue(said.contains("KEY expects a whole number") && said.contains("'" + key + "'"), said);
            assertFalse(said.contains("Exception"), said);
        }
    }

    /**
     * A copy too small for the source's live keys is refused before anything is written, with
     * the sizes it needs, and leaves nothing at the destination (it left a valid-looking partial
     * map); a copy that fits is linked into place whole. The Rust crates/cli/tests/map.rs case.
     */
    @Test
    void shouldRefuseACopyTooSmallAndLeaveNothing() throws Exception {
        Path source = dir.resolve("source.map");
        Path destination = dir.resolve("destination.map");
        assertEquals(0, quietly(new String[] {"map", "load-users", source.toString(), "--users", "3000"}));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = quietly(new String[] {"map", "copy", source.toString(), destination.toString(), "--slots", "1024",
                "--data-capacity", "65536"});
        } finally {
            System.setErr(saved);
        }
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, said);
        assertTrue(said.contains("too small for the 3000 keys") && said.contains("4096 slots"), said);
        try (var left = Files.list(dir)) {
            assertEquals(List.of("source.map"), left.map(p -> p.getFileName().toString()).toList());
        }
        assertEquals(0, quietly(new String[] {"map", "copy", source.toString(), destination.toString()}));
        assertEquals(0, quietly(new String[] {"map", "verify-users", destination.toString(), "--users", "3000"}));
    }

    private static int quietly(String[] argv) {
        PrintStream out = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            return Sidecar.run(argv);
        } finally {
            System.setOut(out);
        }
    }
}
