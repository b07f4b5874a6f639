package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit statuses: 0 ok, 1 failure, 2 bad command line (each with a message on stderr). */
class SidecarTest {
    @TempDir
    Path dir;

    /** What the last command wrote to stderr and stdout. */
    private String stderr = "";
    private String stdout = "";

    /** Runs a sidecar command with stdout and stderr captured (keeps the build output quiet). */
    private int run(String[] argv) {
        java.io.PrintStream out = System.out;
        java.io.PrintStream err = System.err;
        var captured = new java.io.ByteArrayOutputStream();
        var errors = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
            System.setErr(new java.io.PrintStream(errors, true, java.nio.charset.StandardCharsets.UTF_8));
            return Sidecar.run(argv);
        } finally {
            System.setOut(out);
            System.setErr(err);
            stderr = errors.toString(java.nio.charset.StandardCharsets.UTF_8);
            stdout = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldExitWithTwoOnBadCommandLines() {
        String ring = dir.resolve("r").toString();
        assertEquals(2, run(new String[] {}));
        assertEquals(2, run(new String[] {"nonsense"}));
        assertEquals(2, run(new String[] {"create", ring}), "missing --capacity");
        assertEquals(2, run(new String[] {"create", ring, "--capacity", "lots"}));
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--bogus", "1"}));
        assertTrue(stderr.contains("unknown option --bogus"), stderr);
        assertEquals(2, run(new String[] {"consume", ring, "--count"}), "option without a value");
        assertEquals(2, run(new String[] {"produce", ring, "--count", "1"}), "missing --size");
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--impl", "cobol"}));
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--impl", "rust"}));
        String[] bench = {"bench", "--size", "4", "--count", "10"};
        assertEquals(2, run(concat(bench, "--impl", "ffm,ffm")));
        assertTrue(stderr.contains("names ffm twice"), stderr);
        assertEquals(2, run(concat(bench, "--impl", "ffm,agrona", "--producer", "jni")));
        assertEquals(2, run(concat(bench, "--impl", "ffm,cobol")));
        assertEquals(2, run(concat(bench, "--cores", "1,1")));
        assertEquals(2, run(concat(bench, "--cores", "0,1,2")));
        assertEquals(2, run(new String[] {"latency", "--size", "4", "--count", "10", "--cores", "x,1"}));
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void shouldWriteThroughClaimsContinueFromFirstAndReportJson() {
        String ring = dir.resolve("claims").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "64k"}));
        assertEquals(0, run(new String[] {"produce", ring, "--count", "200", "--size", "4..100", "--claim"}));
        assertTrue(stdout.contains("(claims)"), stdout);
        // A second producer continues the sequence where the first stopped.
        assertEquals(0, run(new String[] {"produce", ring, "--count", "100", "--size", "8", "--first", "200",
                "--claim", "--impl", "agrona"}));
        assertEquals(0, run(new String[] {"consume", ring, "--count", "300", "--json", "--producer", "test"}));
        String[] lines = stdout.strip().split("\n");
        assertEquals(3, lines.length, stdout);
        assertTrue(lines[0].startsWith("{\"kind\":\"env\""), lines[0]);
        for (String metric : new String[] {"msgs_per_sec", "bytes_per_sec"}) {
            assertTrue(stdout.contains("\"metric\":\"" + metric + "\""), stdout);
        }
        assertTrue(lines[1].contains("\"producer\":\"test\",\"consumer\":\"java-ffm\""), lines[1]);
        assertTrue(lines[1].contains("\"count\":300"), lines[1]);
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--json"}), "one message cannot be timed");
    }

    @Test
    void shouldProduceForATimeAndConsumeUntilTheProducerDetaches() {
        String ring = dir.resolve("timed").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "1m"}));
        // One second of messages into a 1 MiB ring with nobody reading: it fills, then waits.
        assertEquals(1, run(new String[] {"produce", ring, "--seconds", "1", "--size", "4..64", "--timeout-ms", "300"}),
                "a full ring and no consumer: a timeout");
        assertTrue(stderr.contains("room in the ring"), stderr);
        String fresh = dir.resolve("timed2").toString();
        assertEquals(0, run(new String[] {"create", fresh, "--capacity", "1m"}));
        assertEquals(0, run(new String[] {"produce", fresh, "--seconds", "1", "--count", "5000", "--size", "4..64"}));
        String produced = stdout.substring(stdout.indexOf("produced ") + 9, stdout.indexOf(" bytes"));
        assertEquals(0, run(new String[] {"consume", fresh, "--until-detached"}));
        String consumed = stdout.substring(stdout.indexOf("consumed ") + 9, stdout.indexOf(" bytes"));
        assertEquals(produced, consumed);
        assertTrue(produced.startsWith("5000 messages"), produced);
    }

    @Test
    void shouldWaitForTheNextProducerOnlyWithProducerRestarts() throws Exception {
        String ring = dir.resolve("restarts").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "64k"}));
        var consumer = java.util.concurrent.CompletableFuture.supplyAsync(() -> Sidecar.run(new String[] {"consume",
                ring, "--count", "2000", "--producer-restarts", "--timeout-ms", "10000"}));
        awaitConsumer(ring);
        // The first producer writes half the stream and detaches; the next one writes the rest.
        assertEquals(0, run(new String[] {"produce", ring, "--count", "1000", "--size", "8"}));
        assertEquals(0, run(new String[] {"produce", ring, "--count", "1000", "--first", "1000", "--size", "8"}));
        assertEquals(0, consumer.get(60, java.util.concurrent.TimeUnit.SECONDS));

        // Without the flag, the producer this consumer counted on ends the read when it leaves.
        String once = dir.resolve("once").toString();
        assertEquals(0, run(new String[] {"create", once, "--capacity", "64k"}));
        consumer = java.util.concurrent.CompletableFuture.supplyAsync(() -> Sidecar.run(new String[] {"consume",
                once, "--count", "2000", "--timeout-ms", "10000"}));
        awaitConsumer(once);
        assertEquals(0, run(new String[] {"produce", once, "--count", "1000", "--size", "8"}));
        assertEquals(1, consumer.get(60, java.util.concurrent.TimeUnit.SECONDS));
    }

    /** Waits until a consumer has attached to the ring at {@code path}. */
    private static void awaitConsumer(String path) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        try (var ring = dev.sympathy.ring.RingFile.openReadOnly(Path.of(path), java.time.Duration.ofSeconds(5))) {
            while (ring.consumerPid() == 0) {
                assertTrue(System.currentTimeMillis() < deadline, "no consumer attached to " + path);
                Thread.sleep(10);
            }
        }
    }

    @Test
    void shouldSleepInTheFutexWaitOnBothSidesAndRejectABadWait() throws InterruptedException {
        String ring = dir.resolve("futex").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "4k"}));
        int[] produced = {-1};
        Thread producer = new Thread(() -> produced[0] = Sidecar.run(new String[] {"produce", ring, "--count", "20000",
                "--size", "4..64", "--wait", "futex"}));
        producer.start();
        assertEquals(0, run(new String[] {"consume", ring, "--count", "20000", "--wait", "futex"}), stderr);
        producer.join();
        assertEquals(0, produced[0]);
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--wait", "nap"}));
        assertTrue(stderr.contains("--wait is spin or futex"), stderr);
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--wait", "futex", "--impl", "agrona"}));
        assertTrue(stderr.contains("needs --impl ffm"), stderr);
    }

    @Test
    void shouldPrintUsageForEveryCommandsHelp() {
        for (String command : Sidecar.COMMANDS.keySet()) {
            for (String flag : new String[] {"--help", "-h"}) {
                java.io.PrintStream out = System.out;
                var captured = new java.io.ByteArrayOutputStream();
                int status;
                try {
                    System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
                    status = Sidecar.run(new String[] {command, "x", flag});
                } finally {
                    System.setOut(out);
                }
                String text = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
                assertEquals(0, status, command + " " + flag);
                assertTrue(text.startsWith("usage: sidecar " + command), text);
                assertTrue(text.contains("\n  " + command + " "), text);
            }
        }
        assertTrue(Sidecar.COMMANDS.keySet().containsAll(java.util.List.of("create", "produce", "consume", "inspect",
                "bench", "latency", "jni-cost")));
    }

    @Test
    void shouldTakeTheRingVerbsUnderRingAsTheRustCommandDoes() {
        String ring = dir.resolve("verbs").toString();
        assertEquals(0, run(new String[] {"ring", "create", ring, "--capacity", "64k"}));
        assertEquals(0, run(new String[] {"ring", "produce", ring, "--count", "10", "--size", "8"}));
        assertEquals(0, run(new String[] {"ring", "consume", ring, "--count", "10"}));
        assertEquals(0, run(new String[] {"ring", "layout"}));
        assertEquals(0, run(new String[] {"ring", "--help"}));
        assertEquals(2, run(new String[] {"ring"}));
        assertEquals(2, run(new String[] {"ring", "wake"}));
        assertTrue(stderr.contains("unknown verb 'wake'"), stderr);
        assertEquals(2, run(new String[] {"compare"}));
        assertTrue(stderr.contains("cargo run --release -- compare"), stderr);
    }

    @Test
    void shouldProduceAndConsumeInOneProcessAndFailWhenNothingComes() {
        String ring = dir.resolve("r").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "64k"}));
        assertEquals(1, run(new String[] {"create", ring, "--capacity", "64k"}), "never overwritten");
        assertEquals(1, run(new String[] {"create", dir.resolve("q").toString(), "--capacity", "1000"}));
        assertEquals(0, run(new String[] {"produce", ring, "--count", "500", "--size", "4..100", "--impl", "agrona"}));
        assertEquals(0, run(new String[] {"consume", ring, "--count", "500"}));
        assertEquals(0, run(new String[] {"inspect", ring}));
        assertEquals(1, run(new String[] {"consume", ring, "--count", "1", "--timeout-ms", "300"}),
                "the producer detached before: a new one may come, but none does");
        assertTrue(stderr.contains("the last producer detached before this consumer attached and no new producer came "
                + "within 300 ms"), stderr);
        assertEquals(1, run(new String[] {"inspect", dir.resolve("missing").toString(), "--timeout-ms", "50"}));
    }

    /** inspect opens read-only: impossible positions are shown, not refused, and nothing is written. */
    @Test
    void shouldInspectARingWithImpossiblePositionsWithoutWritingIt() throws java.io.IOException {
        Path ring = dir.resolve("r");
        assertEquals(0, run(new String[] {"create", ring.toString(), "--capacity", "64"}));
        long head = dev.sympathy.ring.RingDescriptor.HEADER_LENGTH + 64 + dev.sympathy.ring.RingDescriptor.HEAD_POSITION_OFFSET;
        long tail = dev.sympathy.ring.RingDescriptor.HEADER_LENGTH + 64 + dev.sympathy.ring.RingDescriptor.TAIL_POSITION_OFFSET;
        try (var channel = java.nio.channels.FileChannel.open(ring, java.nio.file.StandardOpenOption.WRITE)) {
            var minus64 = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(0, -64);
            channel.write(minus64.duplicate(), head);
            channel.write(minus64.duplicate(), tail);
        }
        byte[] before = java.nio.file.Files.readAllBytes(ring);
        assertEquals(0, run(new String[] {"inspect", ring.toString()}), stderr);
        assertTrue(stdout.contains("positions=INVALID: corrupt ring at position -64"), stdout);
        assertTrue(!stdout.contains("used_bytes"), stdout);
        assertTrue(java.util.Arrays.equals(before, java.nio.file.Files.readAllBytes(ring)), "inspect wrote to the file");
        assertEquals(1, run(new String[] {"consume", ring.toString(), "--count", "1", "--timeout-ms", "100"}));
        assertTrue(stderr.contains("corrupt ring at position -64"), stderr);
    }

    @Test
    void shouldConsumeExactlyTheCountAndResumeFromFirst() {
        String ring = dir.resolve("resume").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "64k"}));
        assertEquals(0, run(new String[] {"produce", ring, "--count", "100", "--size", "8"}));
        assertEquals(0, run(new String[] {"consume", ring, "--count", "10"}));
        // A restarted consumer resumes where the first stopped: by index, or from the message itself.
        assertEquals(0, run(new String[] {"consume", ring, "--first", "10", "--count", "40"}));
        assertTrue(stdout.contains("consumed 40 messages"), stdout);
        assertEquals(0, run(new String[] {"consume", ring, "--first", "auto", "--count", "50"}));
        assertEquals(2, run(new String[] {"consume", ring, "--first", "soon", "--count", "1"}));
        assertTrue(stderr.contains("--first expects a message index (0 or more) or 'auto'"), stderr);
    }

    /**
     * A corrupted message mid-stream stays at the ring's head: consume takes exactly the messages
     * it verified, and says so in the words of the Rust CLI's {@code ring consume}.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"ffm", "agrona"})
    void shouldLeaveAMismatchingMessageAtTheHead(String impl) throws Exception {
        Path ring = dir.resolve("mismatch-" + impl);
        assertEquals(0, run(new String[] {"create", ring.toString(), "--capacity", "4096"}));
        assertEquals(0, run(new String[] {"produce", ring.toString(), "--count", "20", "--size", "8"}));
        // Message 5's record is at index 80, its payload (the index, little-endian) from 88.
        long payload = dev.sympathy.ring.RingDescriptor.HEADER_LENGTH + 80 + 8;
        writeByte(ring, payload, 0x55);
        assertEquals(1, run(new String[] {"consume", ring.toString(), "--count", "20", "--impl", impl}));
        assertTrue(stderr.contains("verification failed at message 5 (type 1): byte 0 is 0x55, expected 0x05"), stderr);
        assertTrue(stderr.contains("5 messages before it were verified and consumed"), stderr);
        assertTrue(stderr.contains("left unconsumed at the ring's head (position 80"), stderr);
        assertEquals(5 * 16, head(ring), "the head stops at the bad message");
        // A wrong --first is a mismatch too, and consumes nothing.
        assertEquals(1, run(new String[] {"consume", ring.toString(), "--first", "7", "--count", "1", "--impl", impl}));
        assertTrue(stderr.contains("message 7 (type 1)"), stderr);
        assertTrue(stderr.contains("0 messages before it were verified"), stderr);
        assertEquals(5 * 16, head(ring));
        // Repaired, the rest of the stream verifies from where it stopped.
        writeByte(ring, payload, 5);
        assertEquals(0, run(new String[] {"consume", ring.toString(), "--first", "auto", "--count", "15", "--impl", impl}),
                stderr);
        assertEquals(20 * 16, head(ring));
    }

    /**
     * A sparse ring file on a full filesystem (a create that only set the length): produce and
     * consume reserve its blocks after opening and refuse it with the no-space error before
     * writing anything, instead of a SIGBUS at the first write to a hole. Mounts a 64 KiB tmpfs,
     * which needs root (the development VM and ci run as root); elsewhere the test is skipped.
     */
    @Test
    void shouldRefuseASparseRingOnAFullFilesystemBeforeWriting() throws Exception {
        Path fs = java.nio.file.Files.createDirectory(dir.resolve("small"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", fs.toString())
                .redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0,
                "cannot mount a 64k tmpfs (needs root): " + output.strip());
        try {
            Path model = dir.resolve("model");
            assertEquals(0, run(new String[] {"create", model.toString(), "--capacity", "4096"}));
            Path ring = fs.resolve("ring");
            try (var file = new java.io.RandomAccessFile(ring.toFile(), "rw")) {
                file.write(java.nio.file.Files.readAllBytes(model), 0, dev.sympathy.ring.RingDescriptor.HEADER_LENGTH);
                fill(fs.resolve("filler"));
                file.setLength(dev.sympathy.ring.RingDescriptor.fileLength(4096));
            }
            byte[] before = java.nio.file.Files.readAllBytes(ring);
            assertEquals(1, run(new String[] {"produce", ring.toString(), "--count", "10", "--size", "8"}), stderr);
            assertTrue(stderr.contains("sidecar produce: " + ring + ": not enough space for the ring file"), stderr);
            assertTrue(stderr.contains(fs + " (tmpfs)"), stderr);
            assertEquals(1, run(new String[] {"consume", ring.toString(), "--count", "1", "--timeout-ms", "100"}));
            assertTrue(stderr.contains("not enough space for the ring file"), stderr);
            assertTrue(java.util.Arrays.equals(before, java.nio.file.Files.readAllBytes(ring)), "wrote to the file");
            // Room made, the same file is reserved and used.
            java.nio.file.Files.delete(fs.resolve("filler"));
            assertEquals(0, run(new String[] {"produce", ring.toString(), "--count", "10", "--size", "8"}), stderr);
            assertEquals(0, run(new String[] {"consume", ring.toString(), "--count", "10"}), stderr);
        } finally {
            new ProcessBuilder("umount", "-l", fs.toString()).inheritIO().start().waitFor();
        }
    }

    /** Writes {@code path} until its filesystem is full. */
    private static void fill(Path path) throws java.io.IOException {
        try (var out = java.nio.file.Files.newOutputStream(path)) {
            byte[] page = new byte[4096];
            for (int i = 0; i < 1 << 20; i++) {
                out.write(page);
                out.flush();
            }
            throw new AssertionError("the filesystem never filled up");
        } catch (java.io.IOException e) {
            if (e.getMessage() == null || !e.getMessage().contains("space")) {
                throw e;
            }
        }
    }

    private static void writeByte(Path path, long at, int value) throws java.io.IOException {
        try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {(byte) value}), at);
        }
    }

    /** The ring's head position (bytes consumed so far), read without attaching. */
    private static long head(Path path) throws java.io.IOException {
        try (var ring = dev.sympathy.ring.RingFile.openReadOnly(path, java.time.Duration.ofSeconds(5))) {
            return ring.headPosition();
        }
    }

    @Test
    void shouldSayHowManyArrivedWhenAProducerThatNeverRegisteredGoesQuiet() throws Exception {
        java.nio.file.Path path = dir.resolve("foreign");
        assertEquals(0, run(new String[] {"create", path.toString(), "--capacity", "64k"}));
        // Three messages from a peer that writes Agrona's records but never takes producer_pid.
        try (dev.sympathy.ring.RingFile file = dev.sympathy.ring.RingFile.open(path, java.time.Duration.ofSeconds(5))) {
            var region = file.ringRegion();
            var rb = new org.agrona.concurrent.ringbuffer.OneToOneRingBuffer(
                    new org.agrona.concurrent.UnsafeBuffer(region.address(), (int) region.byteSize()));
            byte[] message = new byte[8];
            for (int i = 0; i < 3; i++) {
                TestPattern.fill(message, i, 8);
                assertTrue(rb.write(1, new org.agrona.concurrent.UnsafeBuffer(message), 0, 8));
            }
        }
        assertEquals(1, run(new String[] {"consume", path.toString(), "--count", "5", "--timeout-ms", "300"}));
        assertTrue(stderr.contains("received and verified 3 of 5"), stderr);
        assertFalse(stderr.contains("no messages yet"), stderr);
    }

    @Test
    void shouldSayTheRingWasTruncatedWhenItsMappingFaults() throws Exception {
        java.nio.file.Path path = dir.resolve("truncated");
        assertEquals(0, run(new String[] {"create", path.toString(), "--capacity", "4096"}));
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Sidecar.class.getName(),
                "produce", path.toString(), "--count", "1000000", "--size", "8", "--timeout-ms", "60000"));
        Process producer = new ProcessBuilder(command).redirectErrorStream(true).start();
        // No consumer: the producer fills the ring and then waits on it, reading the head.
        long tailAt = dev.sympathy.ring.RingDescriptor.HEADER_LENGTH + 4096
                + dev.sympathy.ring.RingDescriptor.TAIL_POSITION_OFFSET;
        for (int i = 0; i < 60_000 && producer.isAlive() && tail(path, tailAt) == 0; i++) {
            Thread.sleep(1);
        }
        try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        String output = new String(producer.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(Sidecar.MAPPED_FAULT_EXIT, producer.waitFor(), output);
        assertTrue(output.contains("SIGBUS") && output.contains("truncated"), output);
        assertTrue(output.contains(path.toString()), output);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
    }

    private static long tail(java.nio.file.Path path, long at) throws java.io.IOException {
        try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ)) {
            var word = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            return channel.read(word, at) == 8 ? word.getLong(0) : 0;
        }
    }
}
