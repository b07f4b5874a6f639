package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingKind;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ring verbs on the many-to-one and broadcast kinds: {@code create --kind}, {@code produce}
 * and {@code consume} with their kind's options (and refusing the others), {@code inspect}'s kind
 * and broadcast trailer lines.
 */
class RingKindCommandsTest {
    @TempDir
    Path dir;

    private String stderr = "";
    private String stdout = "";

    /** Runs a sidecar command with stdout and stderr captured. */
    private int run(String... argv) {
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
    void createSaysTheKindAndItsFileLength() {
        String mpsc = dir.resolve("m").toString();
        assertEquals(0, run("ring", "create", mpsc, "--capacity", "64k", "--kind", "mpsc"));
        assertEquals("created " + mpsc + " (capacity 65536 bytes, max message 8192 bytes, file 70400 bytes, kind mpsc)\n",
                stdout);
        String broadcast = dir.resolve("b").toString();
        assertEquals(0, run("create", broadcast, "--capacity", "64k", "--kind", "broadcast"));
        assertEquals("created " + broadcast + " (capacity 65536 bytes, max message 8192 bytes, file 69760 bytes, kind"
                + " broadcast)\n", stdout);
        String spsc = dir.resolve("s").toString();
        assertEquals(0, run("create", spsc, "--capacity", "64k"));
        assertTrue(stdout.endsWith("kind spsc)\n"), stdout);
        assertEquals(2, run("create", dir.resolve("x").toString(), "--capacity", "64k", "--kind", "mpmc"));
        assertTrue(stderr.contains("use spsc, mpsc or broadcast"), stderr);
    }

    @Test
    void aStreamThatDoesNotStartAtFirstIsAMismatch() {
        String ring = dir.resolve("m").toString();
        assertEquals(0, run("create", ring, "--capacity", "64k", "--kind", "mpsc"));
        assertEquals(0, run("produce", ring, "--count", "100", "--size", "8..64", "--type", "1"));
        assertTrue(stdout.startsWith("produced 100 messages ("), stdout);
        assertTrue(stdout.contains(" bytes, sizes 8..64, type 1)"), stdout);
        assertEquals(0, run("produce", ring, "--count", "50", "--size", "4", "--type", "2", "--claim", "--first", "7"));
        assertEquals(0, run("produce", ring, "--count", "30", "--size", "12", "--type", "1", "--first", "100"));
        // Every stream starts at the consumer's --first (0): stream 2, sent from index 7, does not.
        assertEquals(1, run("consume", ring, "--count", "180", "--producers", "2"));
        assertTrue(stderr.contains("message 0 (type 2)"), stderr);
    }

    @Test
    void manyToOneConsumeSaysWhatEachProducerSent() {
        String ring = dir.resolve("m").toString();
        assertEquals(0, run("create", ring, "--capacity", "64k", "--kind", "mpsc"));
        assertEquals(0, run("produce", ring, "--count", "100", "--size", "8..64", "--type", "2", "--first", "5"));
        assertEquals(0, run("produce", ring, "--count", "40", "--size", "4..9", "--type", "1", "--claim", "--first", "5"));
        assertEquals(0, run("consume", ring, "--count", "140", "--producers", "2", "--first", "5"), stderr);
        assertTrue(stdout.startsWith("consumed and verified 140 messages ("), stdout);
        assertTrue(stdout.contains("\nper producer: type 1 = 40, type 2 = 100\n"), stdout);
        assertTrue(!stdout.contains("unblocked"), stdout);
        assertEquals(0, run("produce", ring, "--count", "3", "--size", "8", "--type", "3"));
        assertEquals(1, run("consume", ring, "--count", "3", "--producers", "2"));
        assertTrue(stderr.contains("expected a type in 1..2"), stderr);
    }

    @Test
    void eachKindRefusesTheOptionsOfTheOthers() {
        String mpsc = dir.resolve("m").toString();
        String broadcast = dir.resolve("b").toString();
        String spsc = dir.resolve("s").toString();
        assertEquals(0, run("create", mpsc, "--capacity", "4k", "--kind", "mpsc"));
        assertEquals(0, run("create", broadcast, "--capacity", "4k", "--kind", "broadcast"));
        assertEquals(0, run("create", spsc, "--capacity", "4k"));
        assertEquals(2, run("consume", mpsc, "--count", "1", "--no-laps"));
        assertTrue(stderr.contains("--no-laps does not apply to a mpsc ring"), stderr);
        assertEquals(2, run("consume", broadcast, "--count", "1", "--producers", "2"));
        assertEquals(2, run("consume", broadcast, "--count", "1", "--unblock-after-ms", "5"));
        assertEquals(2, run("consume", spsc, "--count", "1", "--producers", "2"));
        assertEquals(2, run("consume", spsc, "--count", "1", "--no-laps"));
        assertEquals(2, run("consume", mpsc, "--count", "1", "--producer-restarts"));
        assertTrue(stderr.contains("--producer-restarts does not apply to a mpsc ring"), stderr);
        assertEquals(2, run("consume", broadcast, "--count", "1", "--producer-restarts"));
        assertEquals(2, run("produce", mpsc, "--count", "1", "--size", "8", "--impl", "agrona"));
        assertEquals(2, run("produce", broadcast, "--count", "1", "--size", "8", "--claim"));
    }

    @Test
    void aBroadcastReceiverJoinsAtTheLatestRecord() {
        String ring = dir.resolve("b").toString();
        assertEquals(0, run("create", ring, "--capacity", "4k", "--kind", "broadcast"));
        assertEquals(0, run("produce", ring, "--count", "1000", "--size", "8..64", "--type", "4"));
        assertTrue(stdout.startsWith("produced 1000 messages ("), stdout);
        assertEquals(0, run("consume", ring, "--count", "1"), stderr);
        assertTrue(stdout.startsWith("receiving from " + ring + " at position "), stdout);
        assertTrue(stdout.contains("\nreceived and verified 1 messages ("), stdout); // the last, index 999
        assertTrue(stdout.endsWith(" bytes), lapped 0 times, 0 messages lost to laps\n"), stdout);
        assertEquals(0, run("inspect", ring));
        assertTrue(stdout.contains("\nlayout_version=2\nkind                broadcast\n"), stdout);
        assertTrue(stdout.matches("(?s).*\ntrailer             tail_intent \\d+ tail \\d+ latest \\d+\n.*"), stdout);
        assertTrue(!stdout.contains("INVALID"), stdout);
    }

    @Test
    void inspectSaysTheKind() {
        String mpsc = dir.resolve("m").toString();
        assertEquals(0, run("create", mpsc, "--capacity", "4k", "--kind", "mpsc"));
        assertEquals(0, run("inspect", mpsc));
        assertTrue(stdout.contains("\nlayout_version=2\nkind                mpsc\n"), stdout);
        assertTrue(stdout.contains("\nused_bytes=0\n"), stdout);
        String spsc = dir.resolve("s").toString();
        assertEquals(0, run("create", spsc, "--capacity", "4k"));
        assertEquals(0, run("inspect", spsc));
        assertTrue(stdout.contains("\nlayout_version=1\nkind                spsc\n"), stdout);
    }

    /**
     * The receive loop under a transmitter at full speed in another thread: it ends with the
     * stream's last message, every message it got verified, the others lost to laps.
     */
    @Test
    void theReceiveLoopAccountsForEveryMessageOfTheStream() throws Exception {
        RingFile ring = RingFile.inMemory(1024, RingKind.BROADCAST);
        long messages = 100_000;
        BroadcastReceiveLoop receive = new BroadcastReceiveLoop();
        receive.count = messages;
        KindProduceLoop transmit = new KindProduceLoop();
        transmit.count = messages;
        SizeSpec sizes = SizeSpec.parse("test", "4..40", 3);
        CompletableFuture<Long> sending = new CompletableFuture<>();
        java.io.PrintStream out = System.out;
        try {
            System.setOut(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            Thread transmitter = new Thread(() -> {
                try {
                    sending.complete(transmit.run(ring, sizes));
                } catch (Throwable t) {
                    sending.completeExceptionally(t);
                }
            });
            transmitter.start();
            receive.run(null, ring);
            sending.get(60, TimeUnit.SECONDS);
        } finally {
            System.setOut(out);
        }
        // It joined wherever the transmitter was (the latest record), then every message was received or lapped.
        assertTrue(receive.firstReceived() >= 0);
        assertEquals(messages, receive.firstReceived() + receive.received() + receive.lost(),
                "every message from the first received on was received or lost to a lap");
    }
}
