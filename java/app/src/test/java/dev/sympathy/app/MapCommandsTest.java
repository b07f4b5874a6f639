package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.map.MapConfig;
import dev.sympathy.map.MapFile;
import dev.sympathy.map.MapStats;
import dev.sympathy.map.MapWriter;
import dev.sympathy.map.Stress;
import dev.sympathy.map.user.FlyweightCodec;
import dev.sympathy.map.user.User;
import dev.sympathy.map.user.Users;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code map} commands: {@code stress-write} (the writer of the cross-language stress and
 * crash tests), {@code create}, {@code copy}, {@code load-users} into a map that grows, and
 * {@code watch-users}, the reader beside it.
 */
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

    /**
     * {@code map load-users --initial-users M} creates the map sized for M users and loads all N
     * into it: it grows (its table and its data area), and holds every user, each as the
     * generator makes it for a population of N.
     */
    @Test
    void shouldLoadMoreUsersThanTheMapWasCreatedFor() throws Exception {
        Path map = dir.resolve("grown.map");
        assertEquals(0, quietly(new String[] {"map", "load-users", map.toString(), "--users", "3000",
            "--initial-users", "100"}));
        MapConfig created = Users.mapConfig(100);
        try (MapFile file = MapFile.openReadOnly(map)) {
            MapStats stats = file.stats();
            assertEquals(3000, stats.count());
            assertEquals(created.slots(), stats.firstSlots(), "created for 100 users");
            assertTrue(stats.slots() > created.slots(), "the table grew: " + stats);
            assertTrue(stats.dataCapacity() > created.dataCapacity(), "the data area grew: " + stats);
            assertEquals(stats.fileLength(), Files.size(map));
        }
        assertEquals(0, quietly(new String[] {"map", "verify-users", map.toString(), "--users", "3000"}));
    }

    /** The last line of a watcher's output, once its first says what it watches. */
    private static String lastLineAfterWatching(String out) {
        String[] lines = out.strip().split("\n");
        assertTrue(lines[0].startsWith("watching "), out);
        return lines[lines.length - 1];
    }

    /** {@code map watch-users} on a complete map: one pass, every user present and equal, exit 0. */
    @Test
    void shouldWatchACompleteMapAndSayWhatItSaw() {
        Path map = dir.resolve("watched.map");
        assertEquals(0, quietly(new String[] {"map", "load-users", map.toString(), "--users", "2000",
            "--initial-users", "10"}));
        Output watched = run(new String[] {"map", "watch-users", map.toString(), "--users", "2000",
            "--timeout-seconds", "60"});
        assertEquals(0, watched.status(), watched.err());
        Matcher line = WATCHED.matcher(lastLineAfterWatching(watched.out()));
        assertTrue(line.matches(), watched.out());
        assertEquals("2000", line.group(1));
        assertEquals("1", line.group(2), "one pass: every user was counted at the start");
        assertEquals("2000", line.group(3));
        assertEquals(line.group(4), line.group(5), "the table did not grow while it watched");
        assertEquals("1", line.group(6));
    }

    /** {@code map watch-users} beside a load that grows the map: every user it counted was there. */
    @Test
    void shouldWatchAMapGrowWhileUsersAreLoaded() throws Exception {
        Path map = dir.resolve("loading.map");
        long users = 20_000;
        Thread load;
        try (MapFile file = MapFile.create(map, Users.mapConfig(10))) {
            load = new Thread(() -> {
                try (MapWriter writer = file.writer()) {
                    for (long id = 0; id < users; id++) {
                        writer.put(id, encoded(Users.generate(id, users)));
                    }
                }
            });
            load.start();
            Output watched = run(new String[] {"map", "watch-users", map.toString(), "--users", Long.toString(users),
                "--timeout-seconds", "120"});
            load.join();
            assertEquals(0, watched.status(), watched.err());
            Matcher line = WATCHED.matcher(lastLineAfterWatching(watched.out()));
            assertTrue(line.matches(), watched.out());
            assertTrue(Long.parseLong(line.group(4)) <= Long.parseLong(line.group(5)), watched.out());
            assertEquals(file.tableSlots(), Long.parseLong(line.group(5)), watched.out());
        }
    }

    /** {@code map watch-users} on a map where one user's bytes changed: exit 1, naming the user. */
    @Test
    void shouldRefuseAMapWithAUserChanged() {
        Path map = dir.resolve("changed.map");
        assertEquals(0, quietly(new String[] {"map", "load-users", map.toString(), "--users", "500",
            "--initial-users", "10"}));
        try (MapFile file = MapFile.open(map)) {
            long record = file.find(7);
            long lastLogin = MapFile.valueOffset(record) + 16;
            byte changed = (byte) (file.data().get(ValueLayout.JAVA_BYTE, lastLogin) ^ 1);
            file.data().set(ValueLayout.JAVA_BYTE, lastLogin, changed);
        }
        Output watched = run(new String[] {"map", "watch-users", map.toString(), "--users", "500",
            "--timeout-seconds", "60"});
        assertEquals(1, watched.status(), watched.out());
        assertTrue(watched.err().contains("user 7 differs"), watched.err());
    }

    /** The line {@code map watch-users} ends with: users, passes, lookups, table slots at open and at the end, mappings. */
    private static final Pattern WATCHED = Pattern.compile("watched (\\d+) users in (\\d+) passes over \\d+\\.\\d\\d s: "
            + "(\\d+) lookups, every key present and equal; longest lookup \\d+\\.\\d us; the table grew from (\\d+) to "
            + "(\\d+) slots, the reader mapped the file (\\d+) times");

    /** A user in the flyweight layout. */
    private static byte[] encoded(User user) {
        byte[] bytes = new byte[FlyweightCodec.INSTANCE.encodedLength(user)];
        FlyweightCodec.INSTANCE.encode(user, MemorySegment.ofArray(bytes), 0);
        return bytes;
    }

    /** A command's exit status and what it printed. */
    private record Output(int status, String out, String err) {}

    /** Runs a command, capturing what it prints. */
    private static Output run(String[] argv) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ByteArrayOutputStream complained = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(complained, true, StandardCharsets.UTF_8));
            int status = Sidecar.run(argv);
            return new Output(status, printed.toString(StandardCharsets.UTF_8), complained.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
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
