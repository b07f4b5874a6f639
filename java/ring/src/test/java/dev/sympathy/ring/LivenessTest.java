package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a side tells about its peer, with real processes and a real Agrona peer (the rules of
 * docs/ring-layout.md, "Attaching, heartbeats and liveness", the same as the Rust ring's): a
 * stopped producer is stale, never dead; a zombie is dead and its role taken over; an
 * Agrona-only consumer or producer (no pid, only the ring region) is alive; a departure before
 * this side attached is not one it counts on.
 */
class LivenessTest {
    private static final int CAPACITY = 4096;
    /** The stale limit of these tests: short, so a stopped peer turns stale quickly. */
    private static final long STALE_MS = 100;

    @TempDir
    Path dir;

    private static Process javaChild(Class<?> main, String... args) throws IOException {
        var command = new java.util.ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(java.util.List.of(args));
        return new ProcessBuilder(command).inheritIO().start();
    }

    /** The state letter of {@code /proc/<pid>/stat}. */
    private static int procState(long pid) throws IOException {
        return dev.sympathy.mapped.Processes.stateLetter(Files.readAllBytes(Path.of("/proc/" + pid + "/stat")));
    }

    /** Sends a signal with kill(1) and waits until the process's state letter says it took effect. */
    private static void signal(long pid, String signal, java.util.function.IntPredicate until)
            throws IOException, InterruptedException {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor());
        while (!until.test(procState(pid))) {
            Thread.sleep(1);
        }
    }

    /** Returns once the clock has moved past {@code t}, so a time stored now differs from it. */
    private static void afterMs(long t) {
        while (System.currentTimeMillis() <= t) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static long index(java.lang.foreign.MemorySegment buffer, long offset) {
        return buffer.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), offset);
    }

    private static OneToOneRingBuffer agronaOver(RingFile ring) {
        return new OneToOneRingBuffer(new UnsafeBuffer(ring.segment().address() + RingDescriptor.HEADER_LENGTH,
                ring.capacity() + RingDescriptor.TRAILER_LENGTH));
    }

    @Test
    void shouldCallAStoppedProducerStaleNeverDeadAndCarryOnWhenItResumes() throws Exception {
        Path path = dir.resolve("stopped");
        try (RingFile ring = RingFile.create(path, CAPACITY); RingConsumer consumer = ring.consumer()) {
            Process child = javaChild(LivenessChild.class, path.toString(), "100");
            try {
                long[] next = {0};
                MessageHandler check = (type, buffer, offset, length) -> {
                    assertEquals(next[0]++, index(buffer, offset));
                };
                while (next[0] < 50) {
                    consumer.read(check, 64);
                }
                signal(child.pid(), "STOP", s -> s == 'T');
                PeerState state;
                while ((state = consumer.producerState(STALE_MS)) != PeerState.STALE) {
                    assertFalse(state.isGone(), "a stopped producer read as " + state);
                    Thread.sleep(5);
                }
                assertEquals(PeerState.STALE, ring.producerState(STALE_MS), "stale, not dead");
                assertFalse(consumer.producerWatch().hasLeft(state), "a stale producer has not left");
                signal(child.pid(), "CONT", s -> s != 'T');
                Files.createFile(Path.of(path + ".go"));
                while (next[0] < 100) {
                    consumer.read(check, 64);
                }
                assertEquals(0, child.waitFor());
                state = consumer.producerState(STALE_MS);
                assertEquals(PeerState.DETACHED, state);
                assertTrue(consumer.producerWatch().hasLeft(state), "it detached while this consumer read it");
            } finally {
                child.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldCallAZombieDeadAndLetANewProducerTakeItsPlace() throws Exception {
        // The background `sleep 0.2` becomes a zombie: it outlives the shell, which execs `sleep 60`,
        // a parent that never reaps it. (A child that exits at once, such as `true`, may be reaped
        // by the shell itself before the exec, and its /proc entry vanishes. A child of this JVM
        // would not do either: the JDK reaps its own children at once.)
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0.2 & echo $!; exec sleep 60").start();
        try {
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream(),
                    StandardCharsets.US_ASCII));
            long pid = Long.parseLong(out.readLine().strip());
            while (procState(pid) != 'Z') {
                Thread.sleep(1);
            }
            assertFalse(SharedMemory.processAlive(pid), "a zombie has exited");
            try (RingFile ring = RingFile.create(dir.resolve("zombie"), CAPACITY)) {
                SharedMemory.INT.set(ring.segment(), (long) RingDescriptor.PRODUCER_PID_OFFSET, (int) pid);
                SharedMemory.LONG.set(ring.segment(), (long) RingDescriptor.PRODUCER_HEARTBEAT_OFFSET,
                        System.currentTimeMillis());
                assertEquals(PeerState.DEAD, ring.producerState(60_000));
                try (RingProducer producer = ring.producer()) {
                    assertEquals(ProcessHandle.current().pid(), ring.producerPid(), "taken over from the zombie");
                    assertEquals(0, producer.position());
                }
            }
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void shouldSeeAnAgronaOnlyConsumerAliveWhileTheFfmProducerWaitsOnIt() throws Exception {
        final int messages = 20_000;
        try (RingFile ring = RingFile.create(dir.resolve("agrona-consumer"), CAPACITY)) {
            ring.consumer().close(); // a consumer of ours came and went cleanly
            afterMs(ring.consumerDetachedMs());
            OneToOneRingBuffer agrona = agronaOver(ring);
            agrona.consumerHeartbeatTime(System.currentTimeMillis());
            var stop = new java.util.concurrent.atomic.AtomicBoolean();
            CompletableFuture<Long> reader = CompletableFuture.supplyAsync(() -> {
                long[] next = {0};
                while (next[0] < messages && !stop.get()) {
                    int n = agrona.read((type, buffer, index, length) -> {
                        assertEquals(next[0]++, buffer.getLong(index, java.nio.ByteOrder.LITTLE_ENDIAN));
                    }, 16);
                    agrona.consumerHeartbeatTime(System.currentTimeMillis());
                    if (n == 0) {
                        LockSupport.parkNanos(50_000);
                    }
                }
                return next[0];
            });
            // The reader stops before the ring is unmapped, also when the test fails.
            try (RingProducer producer = ring.producer()) {
                byte[] message = new byte[8];
                for (long i = 0; i < messages; i++) {
                    for (int k = 0; k < 8; k++) {
                        message[k] = (byte) (i >>> (8 * k));
                    }
                    while (!producer.write(1, message, 0, 8)) {
                        PeerState consumer = producer.consumerState(5_000);
                        if (reader.isCompletedExceptionally()) {
                            reader.join(); // throws what went wrong
                        }
                        if (consumer.isGone()) {
                            fail("an Agrona consumer that heartbeats read as " + consumer + " at message " + i);
                        }
                        Thread.onSpinWait();
                    }
                }
                assertEquals(PeerState.ALIVE, producer.consumerState(5_000));
                assertEquals(0, producer.consumerWatch().pid(), "a foreign consumer has no pid");
                assertEquals(messages, reader.get(60, TimeUnit.SECONDS));
            } finally {
                stop.set(true);
                reader.handle((value, error) -> value).get(60, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void shouldSeeTheHeadMovingAsASignOfLifeOfAConsumerThatNeverHeartbeats() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("agrona-progress"), CAPACITY)) {
            ring.consumer().close();
            afterMs(ring.consumerDetachedMs());
            try (RingProducer producer = ring.producer()) {
                assertEquals(PeerState.DETACHED, producer.consumerState(5_000));
                assertTrue(producer.write(1, new byte[8], 0, 8));
                assertEquals(1, agronaOver(ring).read((type, buffer, index, length) -> {}, 8));
                assertEquals(PeerState.ALIVE, producer.consumerState(5_000), "the head moved after the detach");
            }
        }
    }

    @Test
    void shouldSeeAnAgronaOnlyProducerAliveOnAReusedRing() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("agrona-producer"), CAPACITY)) {
            ring.producer().close(); // a producer of ours came and went
            afterMs(ring.producerDetachedMs());
            try (RingConsumer consumer = ring.consumer()) {
                PeerState before = consumer.producerState(5_000);
                assertEquals(PeerState.DETACHED, before);
                assertFalse(consumer.producerWatch().hasLeft(before), "it left before this consumer attached");
                UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
                assertTrue(agronaOver(ring).write(1, message, 0, 8));
                assertEquals(PeerState.ALIVE, consumer.producerState(5_000), "the tail moved after the detach");
                assertEquals(1, consumer.read((type, buffer, offset, length) -> {}, 8));
            }
        }
    }

    @Test
    void shouldCountOnlyDeparturesThatAreNewsToTheConsumer() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("reused"), CAPACITY)) {
            // Detached before this consumer attached, nothing waiting: a reused ring.
            ring.producer().close();
            afterMs(ring.producerDetachedMs());
            try (RingConsumer consumer = ring.consumer()) {
                PeerState state = consumer.producerState(5_000);
                assertEquals(PeerState.DETACHED, state);
                assertFalse(consumer.producerWatch().hasLeft(state));
                // A new producer comes and goes while this consumer is attached: news.
                try (RingProducer producer = ring.producer()) {
                    assertEquals(PeerState.ALIVE, consumer.producerState(5_000));
                    assertTrue(producer.write(1, new byte[8], 0, 8));
                }
                state = consumer.producerState(5_000);
                assertEquals(PeerState.DETACHED, state);
                assertTrue(consumer.producerWatch().hasLeft(state));
            }
            // Died (a pid that cannot exist) with a record waiting for the next consumer: news.
            SharedMemory.INT.set(ring.segment(), (long) RingDescriptor.PRODUCER_PID_OFFSET, (1 << 30) - 7);
            try (RingConsumer consumer = ring.consumer()) {
                PeerState state = consumer.producerState(5_000);
                assertEquals(PeerState.DEAD, state);
                assertTrue(consumer.producerWatch().hasLeft(state), "records were waiting for this consumer");
                assertEquals(1, consumer.read((type, buffer, offset, length) -> {}, 8));
            }
            // The same dead producer, nothing waiting any more: not news to the next consumer.
            afterMs(ring.producerHeartbeatMs());
            try (RingConsumer consumer = ring.consumer()) {
                PeerState state = consumer.producerState(5_000);
                assertEquals(PeerState.DEAD, state);
                assertFalse(consumer.producerWatch().hasLeft(state), "it died before this consumer attached");
            }
        }
    }

    @Test
    void shouldClassifyAsTheRustRingDoes() {
        long now = 1_000_000;
        java.util.function.IntPredicate alive = pid -> pid != 666;
        // The table of the Rust ring's attach::tests: pid, heartbeat, detached, moved after/seen.
        assertEquals(PeerState.ALIVE, PeerState.classify(42, now - 10, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.STALE, PeerState.classify(42, now - 6_000, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.DEAD, PeerState.classify(666, now, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(42, 0, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(42, now - 9_000, now - 9_000, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(42, now - 9_000, 0, now - 100, now - 50, now, 5_000, alive));
        assertEquals(PeerState.NEVER_ATTACHED, PeerState.classify(0, 0, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.DETACHED, PeerState.classify(0, now - 10, now - 10, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.DETACHED, PeerState.classify(0, now - 9_000, now - 10, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(0, now - 5, now - 10, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.STALE, PeerState.classify(0, now - 7_000, 0, 0, 0, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(0, 0, 0, now - 9, now - 1, now, 5_000, alive));
        assertEquals(PeerState.ALIVE, PeerState.classify(0, now - 10, now - 10, now - 9, now - 1, now, 5_000, alive));
        assertEquals(PeerState.DETACHED, PeerState.classify(0, now - 10, now - 10, now - 10, now - 1, now, 5_000, alive));
        for (int pid : new int[] {0, 42}) {
            assertFalse(PeerState.classify(pid, now - 60_000, 0, 0, 0, now, 5_000, alive).isGone(), "stale is not gone");
        }
    }

    @Test
    void shouldReadTheStateLetterAfterTheLastParenthesis() {
        assertEquals('S', dev.sympathy.mapped.Processes.stateLetter("4242 (sleep) S 1 4242".getBytes(StandardCharsets.US_ASCII)));
        assertEquals('Z', dev.sympathy.mapped.Processes.stateLetter("4242 (a) S (b)) Z 1 4242".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, dev.sympathy.mapped.Processes.stateLetter("garbage".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, dev.sympathy.mapped.Processes.stateLetter("1 (x)".getBytes(StandardCharsets.US_ASCII)));
    }
}
