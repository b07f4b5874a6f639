package dev.sympathy.app;

import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs this JVM's messaging loops ({@link PublishLoop} and {@link ReceiveLoop} with one wire) on a
 * scratch ring file before a measured run, in rounds until the JIT is quiet (at most 5 s), as
 * {@link Warmup} does for the ipc loops: the sender on the calling thread, the receiver on a
 * second one, so that both see a full and an empty ring as in the run, and the run is timed with
 * the loops compiled by C2. A Rust peer is compiled ahead of time.
 */
final class MessagingWarmup {
    private MessagingWarmup() {}

    /** Messages per round: fewer for java-serialization, whose decode runs ~100k a second. */
    static long round(MessageWire wire) {
        return wire.fixedLength() == MessageWire.VARIABLE ? 20_000 : 250_000;
    }

    private static final long MAX_NANOS = 5_000_000_000L;
    private static final long CAPACITY = 1 << 20;

    /**
     * At least {@code rounds} rounds of {@link #round} messages through both loops on {@code impl}
     * (the sender's ring: {@code ffm} or {@code jni}), more while the JIT compiles.
     */
    static void run(String wireName, String impl, int rounds) {
        if (rounds <= 0) {
            return;
        }
        Path file = BenchCommands.scratchDir().resolve("sympathy-messaging-warmup-" + ProcessHandle.current().pid()
                + "-" + System.nanoTime() + ".ring");
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long deadline = System.nanoTime() + MAX_NANOS;
        try {
            long compiling = compileMs(jit);
            for (int done = 0; ; done++) {
                oneRound(file, wireName, impl);
                long now = compileMs(jit);
                boolean settled = now == compiling;
                compiling = now;
                if ((done + 1 >= rounds && settled) || System.nanoTime() - deadline >= 0) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("messaging warm-up interrupted", e);
        } catch (IOException e) {
            throw new UncheckedIOException("messaging warm-up on a scratch ring in " + file.getParent() + ": "
                    + e.getMessage(), e);
        }
    }

    private static long compileMs(CompilationMXBean jit) {
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** One round on a fresh scratch ring (each round's sender and receiver attach anew). */
    private static void oneRound(Path file, String wireName, String impl) throws IOException, InterruptedException {
        try (RingFile ring = RingFile.create(file, CAPACITY)) {
            MessageWire sent = MessageWire.create("warm-up", wireName);
            long count = round(sent);
            RuntimeException[] failed = new RuntimeException[1];
            ReceiveLoop receive = new ReceiveLoop();
            receive.count = count;
            Thread reader = new Thread(() -> {
                try {
                    receive.run(ring, MessageWire.create("warm-up", wireName));
                } catch (RuntimeException e) {
                    failed[0] = e;
                }
            }, "messaging warm-up receiver");
            reader.setDaemon(true);
            reader.start();
            PublishLoop publish = new PublishLoop();
            publish.count = count;
            publish.run(ring, sent, impl);
            reader.join();
            if (failed[0] != null) {
                throw new IllegalStateException("messaging warm-up: the receiver failed: " + failed[0].getMessage(),
                        failed[0]);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
