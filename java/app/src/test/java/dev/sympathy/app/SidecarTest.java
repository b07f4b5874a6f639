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

    /** What the last command wrote to stderr. */
    private String stderr = "";

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
        assertEquals(2, run(new String[] {"consume", ring, "--count", "1", "--impl", "jni"}));
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
