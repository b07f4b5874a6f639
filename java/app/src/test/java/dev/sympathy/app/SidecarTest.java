package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void shouldProduceAndConsumeInOneProcessAndFailWhenNothingComes() {
        String ring = dir.resolve("r").toString();
        assertEquals(0, run(new String[] {"create", ring, "--capacity", "64k"}));
        assertEquals(1, run(new String[] {"create", ring, "--capacity", "64k"}), "never overwritten");
        assertEquals(1, run(new String[] {"create", dir.resolve("q").toString(), "--capacity", "1000"}));
        assertEquals(0, run(new String[] {"produce", ring, "--count", "500", "--size", "4..100", "--impl", "agrona"}));
        assertEquals(0, run(new String[] {"consume", ring, "--count", "500"}));
        assertEquals(0, run(new String[] {"inspect", ring}));
        assertEquals(1, run(new String[] {"consume", ring, "--count", "1", "--timeout-ms", "300"}),
                "the producer detached: nothing more will come");
        assertTrue(stderr.contains("producer detached early: received and verified 0 of 1"), stderr);
        assertEquals(1, run(new String[] {"inspect", dir.resolve("missing").toString(), "--timeout-ms", "50"}));
    }
}
