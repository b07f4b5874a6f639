package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sidecar's produce and consume loops against peers that pause, die or left a reused ring
 * (separate JVMs as peers): a stalled peer is waited for, never taken for dead; a producer on a
 * full ring outlives its killed consumer until a new one drains; a consumer on a reused ring
 * waits for the new producer.
 */
class LoopLivenessTest {
    private static final long STALE_MS = 100;
    private static final long PATIENCE_MS = 60_000;
    /** Messages enough that a peer process is still at work when the test stops or kills it. */
    private static final long MANY = 1_000_000;

    @TempDir
    Path dir;

    private Path ring(String name) throws IOException {
        Path path = dir.resolve(name);
        RingFile.create(path, 4096).close();
        return path;
    }

    /** The state letter of {@code /proc/<pid>/stat}. */
    private static char procState(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 1).strip().charAt(0);
    }

    /** Sends a signal with kill(1) and waits until the state letter says it took effect. */
    private static void signal(Process child, String signal, boolean stopped) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(child.pid())).start().waitFor());
        while ((procState(child.pid()) == 'T') != stopped) {
            Thread.sleep(1);
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(2);
        }
    }

    private static ProduceLoop produceLoop(long count) {
        ProduceLoop loop = new ProduceLoop();
        loop.count = count;
        loop.staleMs = STALE_MS;
        loop.timeoutMs = PATIENCE_MS;
        return loop;
    }

    private static ConsumeLoop consumeLoop(long count) {
        ConsumeLoop loop = new ConsumeLoop();
        loop.count = count;
        loop.staleMs = STALE_MS;
        loop.timeoutMs = PATIENCE_MS;
        return loop;
    }

    @Test
    void shouldWaitForAStoppedProducerAndFinishWhenItResumes() throws Exception {
        Path path = ring("stopped-producer");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {
            CompletableFuture<MessageCheck> consumer = CompletableFuture.supplyAsync(
                    () -> consumeLoop(MANY).run(ring, Impls.byName("consume", "ffm")));
            Process producer = ChildJvm.start(List.of("produce", path.toString(), "--count", Long.toString(MANY), "--size", "16",
                    "--timeout-ms", Long.toString(PATIENCE_MS)));
            try {
                waitUntil(() -> ring.headPosition() > 0);
                signal(producer, "STOP", true);
                waitUntil(() -> ring.producerState(STALE_MS) != PeerState.ALIVE);
                Thread.sleep(30 * ConsumeLoop.LOOK_EVERY_MS); // the loop looks at the stopped producer many times // the loop looks at the stale producer many times
                assertFalse(consumer.isDone(), () -> "the consumer gave up on a stopped producer: " + consumer.join());
                assertEquals(PeerState.STALE, ring.producerState(STALE_MS), "stopped: stale, not dead");
                signal(producer, "CONT", false);
                assertEquals(MANY, consumer.get(PATIENCE_MS, TimeUnit.MILLISECONDS).received());
                assertEquals(0, producer.waitFor());
            } finally {
                producer.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldWaitForAStoppedConsumerAndFinishWhenItResumes() throws Exception {
        Path path = ring("stopped-consumer");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {
            CompletableFuture<Long> producer = CompletableFuture.supplyAsync(
                    () -> produceLoop(MANY).run(ring, Impls.byName("produce", "ffm"), SizeSpec.parse("produce", "16", 1)));
            Process consumer = ChildJvm.start(List.of("consume", path.toString(), "--count", Long.toString(MANY), "--timeout-ms",
                    Long.toString(PATIENCE_MS)));
            try {
                waitUntil(() -> ring.headPosition() > 0);
                signal(consumer, "STOP", true);
                waitUntil(() -> ring.consumerState(STALE_MS) != PeerState.ALIVE);
                Thread.sleep(30 * ConsumeLoop.LOOK_EVERY_MS); // the loop looks at the stopped consumer many times
                assertFalse(producer.isDone(), () -> "the producer gave up on a stopped consumer: " + producer.join());
                assertEquals(PeerState.STALE, ring.consumerState(STALE_MS), "stopped: stale, not dead");
                signal(consumer, "CONT", false);
                assertEquals(MANY * 16, producer.get(PATIENCE_MS, TimeUnit.MILLISECONDS));
                assertEquals(0, consumer.waitFor());
            } finally {
                consumer.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldWaitForANewProducerOnAReusedRing() throws Exception {
        Path path = ring("reused");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {
            ring.producer().close(); // an earlier producer came and went
            long detached = ring.producerDetachedMs();
            while (System.currentTimeMillis() <= detached) {
                Thread.sleep(1);
            }
            CompletableFuture<MessageCheck> consumer = CompletableFuture.supplyAsync(
                    () -> consumeLoop(500).run(ring, Impls.byName("consume", "ffm")));
            Thread.sleep(30 * ConsumeLoop.LOOK_EVERY_MS); // the loop looks at the departed producer many times
            assertFalse(consumer.isDone(), () -> "the consumer gave up on a reused ring: " + consumer.join());
            produceLoop(500).run(ring, Impls.byName("produce", "ffm"), SizeSpec.parse("produce", "4..100", 3));
            assertEquals(500, consumer.get(PATIENCE_MS, TimeUnit.MILLISECONDS).received());
        }
    }

    @Test
    void shouldOutliveAKilledConsumerUntilANewOneDrainsInOrder() throws Exception {
        final long count = MANY;
        Path path = ring("killed-consumer");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {
            CompletableFuture<Long> producer = CompletableFuture.supplyAsync(
                    () -> produceLoop(count).run(ring, Impls.byName("produce", "ffm"), SizeSpec.parse("produce", "16", 1)));
            Process consumer = ChildJvm.start(List.of("consume", path.toString(), "--count", Long.toString(count),
                    "--timeout-ms", Long.toString(PATIENCE_MS)));
            consumer.getOutputStream().close();
            waitUntil(() -> ring.headPosition() > 0);
            consumer.destroyForcibly().waitFor(); // SIGKILL, reaped
            waitUntil(() -> ring.consumerState(STALE_MS) == PeerState.DEAD);
            Thread.sleep(30 * ConsumeLoop.LOOK_EVERY_MS); // the producer looks at the dead consumer many times
            assertFalse(producer.isDone(), () -> "the producer gave up when its consumer died: " + producer.join());
            // A new consumer resumes at the ring's head: every message from there on, in order.
            long next = -1;
            try (RingConsumer fresh = ring.consumer()) {
                long[] seen = {-1};
                while (seen[0] < count - 1) {
                    fresh.read((type, buffer, offset, length) -> {
                        long index = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), offset);
                        assertTrue(seen[0] == -1 || index == seen[0] + 1, "message " + index + " after " + seen[0]);
                        seen[0] = index;
                    }, 64);
                }
                next = seen[0] + 1;
            }
            assertEquals(count, next);
            assertEquals(count * 16, producer.get(PATIENCE_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void shouldSayWhatTheConsumerDidWhenTheProducerTimesOut() throws Exception {
        Path path = ring("timeout");
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(5))) {
            ring.consumer().close(); // it came and went before the producer attached: not news to it
            long detached = ring.consumerDetachedMs();
            while (System.currentTimeMillis() <= detached) {
                Thread.sleep(1);
            }
            ProduceLoop loop = produceLoop(10_000);
            loop.timeoutMs = 200;
            var e = org.junit.jupiter.api.Assertions.assertThrows(dev.sympathy.ring.RingTimeoutException.class,
                    () -> loop.run(ring, Impls.byName("produce", "ffm"), SizeSpec.parse("produce", "16", 1)));
            assertTrue(e.getMessage().contains("no consumer came"), e.getMessage());
            assertEquals(0, ring.producerPid(), "the loop detached");
        }
    }
}
