package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-file conformance suite shared with the Rust ring ({@code crates/ring/tests/conformance}:
 * {@code manifest.json} and the committed files its Rust generator made). Each case runs the
 * manifest's steps (open, attach the consumer, read once, attach the producer, write once) on a
 * copy of its file, or on a special path made here (a link to /dev/zero, a FIFO, a directory, a
 * file without read or write permission), and must stop at the expected step with the expected
 * {@link RingException#kind()}, or pass every step: the answers the Rust test checks too. Anything
 * thrown that is not a {@link RingException} fails the case.
 */
class ConformanceTest {
    private static final Path SUITE = Path.of(System.getProperty("sympathy.conformance.dir",
            "../../crates/ring/tests/conformance"));
    private static final List<String> STEPS =
            List.of("open", "attach-consumer", "first-read", "attach-producer", "first-write");

    @TempDir
    Path dir;

    private static JsonNode manifest() throws IOException {
        return new ObjectMapper().readTree(SUITE.resolve("manifest.json").toFile());
    }

    /** The step that failed with its kind ({@code null} when all passed), and the messages read. */
    record Outcome(String step, String kind, int delivered) {
        static Outcome expected(JsonNode expect) {
            String kind = expect.get("kind").asText();
            String step = expect.hasNonNull("step") ? expect.get("step").asText() : null;
            assertEquals(kind.equals("ok"), step == null, "expect a step with a kind, or kind ok alone: " + expect);
            return new Outcome(step, kind, expect.path("delivered").asInt(0));
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCaseGivesTheExpectedStepAndKind() throws IOException {
        JsonNode manifest = manifest();
        List<String> steps = new ArrayList<>();
        manifest.get("steps").forEach(step -> steps.add(step.asText()));
        assertEquals(STEPS, steps, "the steps this runner takes, in order");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : manifest.get("cases")) {
            String name = c.get("name").asText();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Outcome want = Outcome.expected(c.get("expect"));
                assertTrue(want.step() == null || STEPS.contains(want.step()), "unknown step " + want.step());
                Path path = prepare(c);
                RingKind kind = c.has("ring") ? RingKind.ofCliName(c.get("ring").asText()) : RingKind.ONE_TO_ONE;
                assertEquals(want, runSteps(manifest, path, kind), c.get("about").asText());
            }));
        }
        return tests.stream();
    }

    /**
     * The read-only open (the sidecar's inspect) opens every file {@link RingFile#open} opens, and
     * those it refuses only for their positions; it refuses the others with the same kind.
     */
    @TestFactory
    Stream<DynamicTest> theReadOnlyOpenAgreesWithOpen() throws IOException {
        JsonNode manifest = manifest();
        Duration timeout = Duration.ofMillis(manifest.get("open_timeout_ms").asLong());
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : manifest.get("cases")) {
            if (c.path("special").path("kind").asText().equals("copy-with-mode")) {
                continue; // inspectingNeedsOnlyReadPermission
            }
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                Outcome want = Outcome.expected(c.get("expect"));
                boolean refusedAtOpen = "open".equals(want.step()) && !want.kind().equals("corrupt-record")
                        && !want.kind().equals("wrong-kind");
                Path path = prepare(c);
                RingKind fileKind = c.path("make").has("kind")
                        ? RingKind.ofCliName(c.get("make").get("kind").asText()) : RingKind.ONE_TO_ONE;
                if ("open".equals(want.step()) && want.kind().equals("wrong-kind")) {
                    // The read-only open takes every kind: it opens the file and says what it is.
                    try (RingFile ring = RingFile.openReadOnly(path, timeout)) {
                        assertEquals(fileKind, ring.kind());
                    }
                    return;
                }
                if (refusedAtOpen) {
                    var e = assertThrows(RingException.class, () -> RingFile.openReadOnly(path, timeout));
                    assertEquals(want.kind(), e.kind(), e.getMessage());
                    return;
                }
                try (RingFile ring = RingFile.openReadOnly(path, timeout)) {
                    assertTrue(ring.segment().isReadOnly());
                    ring.producerState(5_000);
                    ring.consumerState(5_000);
                    boolean positionsBad;
                    try {
                        ring.checkPositions();
                        positionsBad = false;
                    } catch (CorruptRecordException e) {
                        positionsBad = true;
                    }
                    assertEquals("open".equals(want.step()), positionsBad);
                    // Read-only: no side attaches (a ring of another kind is refused for its kind first).
                    Class<? extends RuntimeException> refusal = fileKind == RingKind.ONE_TO_ONE
                            ? IllegalStateException.class : WrongKindException.class;
                    assertThrows(refusal, ring::consumer);
                    assertThrows(refusal, ring::producer);
                }
            }));
        }
        return tests.stream();
    }

    /**
     * A ring opened read-only is mapped without write permission ({@code r--s} in
     * /proc/self/maps, where {@link RingFile#open} maps {@code rw-s}), and, as a user who may only
     * read it (mode 0444; not as root, which modes do not stop), opens read-only but not for
     * attaching.
     */
    @Test
    void inspectingNeedsOnlyReadPermission() throws IOException {
        Path path = dir.resolve("readable");
        try (RingFile ring = RingFile.create(path, 64); RingProducer producer = ring.producer()) {
            assertTrue(producer.write(1, new byte[] {1, 2, 3, 4}, 0, 4));
        }
        try (RingFile ring = RingFile.openReadOnly(path, Duration.ofSeconds(1))) {
            assertEquals(16, ring.tailPosition());
            assertEquals(java.util.Set.of("r--s"), mappingPermissions(path));
        }
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(1))) {
            assertEquals(16, ring.tailPosition());
            assertTrue(mappingPermissions(path).contains("rw-s"), mappingPermissions(path).toString());
        }
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("r--r--r--"));
        assumeFalse(runningAsRoot(), "running as root, which ignores file modes: the mapping check above stands in");
        assertEquals("permission-denied",
                assertThrows(RingException.class, () -> RingFile.open(path, Duration.ofSeconds(1))).kind());
        try (RingFile ring = RingFile.openReadOnly(path, Duration.ofSeconds(1))) {
            assertEquals(16, ring.tailPosition());
        }
    }

    /** The permissions of this process's mappings of {@code path} ("r--s", "rw-s", ...). */
    private static java.util.Set<String> mappingPermissions(Path path) throws IOException {
        String real = path.toRealPath().toString();
        java.util.Set<String> permissions = new java.util.TreeSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            if (line.endsWith(" " + real)) {
                permissions.add(line.split(" +")[1]);
            }
        }
        assertTrue(!permissions.isEmpty(), real + " is not mapped");
        return permissions;
    }

    private static boolean runningAsRoot() throws IOException {
        return (int) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }

    private static Path committedFile(String name) {
        return SUITE.resolve("files").resolve(name + ".ring");
    }

    /** Makes the case's path: a fresh copy of its committed file, or the special path. */
    private Path prepare(JsonNode c) throws IOException, InterruptedException {
        String name = c.get("name").asText();
        Path path = dir.resolve(name);
        if (c.has("make")) {
            Files.copy(committedFile(name), path);
            return path;
        }
        JsonNode special = c.get("special");
        switch (special.get("kind").asText()) {
            case "symlink" -> Files.createSymbolicLink(path, Path.of(special.get("target").asText()));
            case "symlink-to-case" -> {
                Path target = dir.resolve(special.get("case").asText() + ".target");
                Files.copy(committedFile(special.get("case").asText()), target);
                Files.createSymbolicLink(path, target);
            }
            case "fifo" -> {
                Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
                assertEquals(0, mkfifo.waitFor(), "mkfifo");
            }
            case "directory" -> Files.createDirectory(path);
            case "existing-path" -> {
                return Path.of(special.get("path").asText());
            }
            case "copy-with-mode" -> {
                assumeFalse(runningAsRoot(), "running as root, which ignores file modes");
                Files.copy(committedFile(special.get("case").asText()), path);
                int mode = Integer.parseInt(special.get("mode").asText(), 8);
                StringBuilder rwx = new StringBuilder();
                for (int bit = 8; bit >= 0; bit--) {
                    rwx.append((mode & (1 << bit)) != 0 ? "rwx".charAt((8 - bit) % 3) : '-');
                }
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(rwx.toString()));
            }
            default -> throw new AssertionError(name + ": unknown special kind " + special);
        }
        return path;
    }

    /**
     * Runs the steps on {@code path} with the ring of {@code kind}, stopping at the first
     * {@link RingException}: a many-to-one ring's consumer and a producer, a broadcast ring's
     * receiver (attach-consumer, then receives up to the read limit) and transmitter.
     */
    private static Outcome runSteps(JsonNode manifest, Path path, RingKind kind) throws IOException {
        return switch (kind) {
            case ONE_TO_ONE -> runOneToOneSteps(manifest, path);
            case MANY_TO_ONE -> runManyToOneSteps(manifest, path);
            case BROADCAST -> runBroadcastSteps(manifest, path);
        };
    }

    private static Outcome runManyToOneSteps(JsonNode manifest, Path path) throws IOException {
        Duration timeout = Duration.ofMillis(manifest.get("open_timeout_ms").asLong());
        int limit = manifest.get("first_read_limit").asInt();
        int type = manifest.get("first_write").get("type").asInt();
        byte[] payload = HexFormat.of().parseHex(manifest.get("first_write").get("payload").asText());
        int[] delivered = {0};
        String step = "open";
        RingFile ring = null;
        ManyToOneConsumer consumer = null;
        ManyToOneProducer producer = null;
        try {
            ring = RingFile.open(path, timeout, RingKind.MANY_TO_ONE);
            step = "attach-consumer";
            consumer = ring.manyToOneConsumer();
            step = "first-read";
            consumer.read((t, buffer, offset, length) -> delivered[0]++, limit);
            step = "attach-producer";
            producer = ring.manyToOneProducer();
            step = "first-write";
            if (!producer.write(type, payload, 0, payload.length)) {
                return new Outcome(step, "full", delivered[0]);
            }
            return new Outcome(null, "ok", delivered[0]);
        } catch (RingException e) {
            return new Outcome(step, e.kind(), delivered[0]);
        } finally {
            if (producer != null) {
                producer.close();
            }
            if (consumer != null) {
                consumer.close();
            }
            if (ring != null) {
                ring.close();
            }
        }
    }

    private static Outcome runBroadcastSteps(JsonNode manifest, Path path) throws IOException {
        Duration timeout = Duration.ofMillis(manifest.get("open_timeout_ms").asLong());
        int limit = manifest.get("first_read_limit").asInt();
        int type = manifest.get("first_write").get("type").asInt();
        byte[] payload = HexFormat.of().parseHex(manifest.get("first_write").get("payload").asText());
        int[] delivered = {0};
        String step = "open";
        RingFile ring = null;
        BroadcastTransmitter transmitter = null;
        try {
            ring = RingFile.open(path, timeout, RingKind.BROADCAST);
            step = "attach-consumer";
            BroadcastReceiver receiver = ring.broadcastReceiver();
            step = "first-read";
            while (delivered[0] < limit && receiver.receive((t, buffer, offset, length) -> delivered[0]++) > 0) {
                // one record per call, until none is new
            }
            step = "attach-producer";
            transmitter = ring.broadcastTransmitter();
            step = "first-write";
            transmitter.transmit(type, payload, 0, payload.length);
            return new Outcome(null, "ok", delivered[0]);
        } catch (RingException e) {
            return new Outcome(step, e.kind(), delivered[0]);
        } finally {
            if (transmitter != null) {
                transmitter.close();
            }
            if (ring != null) {
                ring.close();
            }
        }
    }

    /** Runs the one-to-one steps on {@code path}, stopping at the first {@link RingException}. */
    private static Outcome runOneToOneSteps(JsonNode manifest, Path path) throws IOException {
        Duration timeout = Duration.ofMillis(manifest.get("open_timeout_ms").asLong());
        int limit = manifest.get("first_read_limit").asInt();
        int type = manifest.get("first_write").get("type").asInt();
        byte[] payload = HexFormat.of().parseHex(manifest.get("first_write").get("payload").asText());
        int[] delivered = {0};
        String step = "open";
        RingFile ring = null;
        RingConsumer consumer = null;
        RingProducer producer = null;
        try {
            ring = RingFile.open(path, timeout);
            step = "attach-consumer";
            consumer = ring.consumer();
            step = "first-read";
            consumer.read((t, buffer, offset, length) -> delivered[0]++, limit);
            step = "attach-producer";
            producer = ring.producer();
            step = "first-write";
            if (!producer.write(type, payload, 0, payload.length)) {
                return new Outcome(step, "full", delivered[0]);
            }
            return new Outcome(null, "ok", delivered[0]);
        } catch (RingException e) {
            return new Outcome(step, e.kind(), delivered[0]);
        } finally {
            if (producer != null) {
                producer.close();
            }
            if (consumer != null) {
                consumer.close();
            }
            if (ring != null) {
                ring.close();
            }
        }
    }
}
