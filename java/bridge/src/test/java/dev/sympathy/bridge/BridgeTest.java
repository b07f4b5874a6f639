package dev.sympathy.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both ends in one JVM over UDP on loopback, each with its embedded driver (INVOKER: the test's
 * thread turns both): messages of every size up to the ring's largest (over the MTU: Aeron
 * fragments them, the receiver reassembles) cross with their types and bytes unchanged and in
 * order; a receiver stopped and started again mid-stream misses nothing and writes nothing twice;
 * a far ring that is full holds the sender back without losing anything.
 */
class BridgeTest {
    @TempDir
    Path dir;

    private BridgeSettings settings(Path ring, int port) {
        BridgeSettings s = new BridgeSettings();
        s.ring = ring;
        s.channel = "aeron:udp?endpoint=127.0.0.1:" + port;
        s.confirmChannel = "aeron:udp?endpoint=127.0.0.1:" + (port + 1);
        s.aeronDir = dir.resolve("aeron-" + ring.getFileName());
        s.termLength = 1 << 20;
        s.linkTimeoutMs = 500;
        return s;
    }

    private static int port() {
        return 41_000 + new SplittableRandom().nextInt(2000) * 2;
    }

    /** Message {@code i}: type 1 + i % 5, a size drawn from {@code sizes}, bytes from i. */
    private static byte[] message(int i, int size) {
        byte[] b = new byte[size];
        for (int k = 0; k < size; k++) {
            b[k] = (byte) (i * 31 + k);
        }
        return b;
    }

    /** Turns every end until {@code done}, at most 20 s. */
    private static void turn(BooleanSupplier done, BridgeEnd... ends) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean()) {
            for (BridgeEnd end : ends) {
                end.doWork();
            }
            if (System.nanoTime() > deadline) {
                StringBuilder stats = new StringBuilder();
                for (BridgeEnd end : ends) {
                    stats.append('\n').append(end.stats());
                }
                throw new AssertionError("not done within 20 s:" + stats);
            }
        }
    }

    private record Received(int type, byte[] bytes) {}

    private static int drain(RingConsumer consumer, List<Received> into) {
        return consumer.read((type, buffer, offset, length) -> into.add(
                new Received(type, buffer.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE))), 1024);
    }

    @Test
    void shouldCarryEveryTypeAndSizeInOrderAcrossARestartedReceiver() throws IOException {
        Path a = dir.resolve("a.ring");
        Path b = dir.resolve("b.ring");
        int port = port();
        List<Integer> sizes = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(5);
        int count = 3000;
        try (RingFile ringA = RingFile.create(a, 64 << 10); RingFile ringB = RingFile.create(b, 64 << 10)) {
            int largest = ringA.maxMessageLength(); // 8 KiB: over the 1408-byte MTU
            for (int i = 0; i < count; i++) {
                sizes.add(i % 100 == 7 ? largest : random.nextInt(0, 300));
            }
            List<Received> got = new ArrayList<>();
            try (RingProducer producer = ringA.producer(); RingConsumer consumer = ringB.consumer();
                    BridgeSender sender = BridgeSender.open(settings(a, port))) {
                BridgeReceiver receiver = BridgeReceiver.open(settings(b, port));
                int[] written = {0};
                BooleanSupplier step = () -> {
                    while (written[0] < count) {
                        byte[] m = message(written[0], sizes.get(written[0]));
                        if (!producer.write(1 + written[0] % 5, m, 0, m.length)) {
                            break;
                        }
                        written[0]++;
                    }
                    drain(consumer, got);
                    return got.size() >= count / 2;
                };
                turn(step, sender, receiver);
                // A receiver stopped and started again mid-stream: what was in flight is resent.
                receiver.close();
                receiver = BridgeReceiver.open(settings(b, port));
                BooleanSupplier rest = () -> {
                    step.getAsBoolean();
                    return got.size() >= count && ringA.headPosition() == ringA.tailPosition();
                };
                turn(rest, sender, receiver);
                receiver.close();
            }
            assertEquals(count, got.size(), "every message once");
            for (int i = 0; i < count; i++) {
                assertEquals(1 + i % 5, got.get(i).type(), "type of message " + i);
                assertArrayEquals(message(i, sizes.get(i)), got.get(i).bytes(), "bytes of message " + i);
            }
        }
    }

    @Test
    void shouldHoldTheSenderBackWhileTheFarRingIsFull() throws IOException {
        Path a = dir.resolve("a.ring");
        Path b = dir.resolve("b.ring");
        int port = port();
        try (RingFile ringA = RingFile.create(a, 64 << 10); RingFile ringB = RingFile.create(b, 4096);
                RingProducer producer = ringA.producer();
                BridgeSender sender = BridgeSender.open(settings(a, port));
                BridgeReceiver receiver = BridgeReceiver.open(settings(b, port))) {
            byte[] m = new byte[100];
            int[] written = {0};
            // Nobody reads ring B: it fills, the receiver stops, Aeron holds the sender back, and
            // ring A fills with unconfirmed records: the producer finds no room.
            turn(() -> {
                if (producer.write(1, m, 0, m.length)) {
                    written[0]++;
                    return false;
                }
                return written[0] > 0 && !producer.write(1, m, 0, m.length) && ringB.tailPosition() > 3000;
            }, sender, receiver);
            long confirmed = ringA.headPosition();
            for (int k = 0; k < 2000; k++) {
                sender.doWork();
                receiver.doWork();
            }
            assertEquals(confirmed, ringA.headPosition(), "nothing more is confirmed while ring B is full");
            assertTrue(ringA.tailPosition() - ringA.headPosition() > 60_000, "ring A holds the unconfirmed records");
            try (RingConsumer consumer = ringB.consumer()) {
                List<Received> got = new ArrayList<>();
                turn(() -> {
                    drain(consumer, got);
                    producer.write(1, m, 0, m.length);
                    return got.size() >= written[0];
                }, sender, receiver);
            }
        }
    }

    @Test
    void shouldCarryMessagesOverIpcThroughOneDriver() throws IOException {
        Path a = dir.resolve("a.ring");
        Path b = dir.resolve("b.ring");
        BridgeSettings send = settings(a, 0);
        send.channel = "aeron:ipc";
        send.confirmChannel = "aeron:ipc";
        send.threading = BridgeSettings.Threading.SHARED; // the driver's own thread: the receiver connects to it
        BridgeSettings receive = settings(b, 0);
        receive.channel = "aeron:ipc";
        receive.confirmChannel = "aeron:ipc";
        receive.aeronDir = send.aeronDir;
        receive.externalDriver = true;
        int count = 20_000;
        try (RingFile ringA = RingFile.create(a, 64 << 10); RingFile ringB = RingFile.create(b, 64 << 10);
                RingProducer producer = ringA.producer(); RingConsumer consumer = ringB.consumer();
                BridgeSender sender = BridgeSender.open(send);
                BridgeReceiver receiver = BridgeReceiver.open(receive)) {
            List<Received> got = new ArrayList<>();
            int[] written = {0};
            turn(() -> {
                while (written[0] < count) {
                    byte[] m = message(written[0], 24);
                    if (!producer.write(1, m, 0, m.length)) {
                        break;
                    }
                    written[0]++;
                }
                drain(consumer, got);
                return got.size() >= count;
            }, sender, receiver);
            for (int i = 0; i < count; i++) {
                assertArrayEquals(message(i, 24), got.get(i).bytes(), "bytes of message " + i);
            }
        }
    }

    @Test
    void shouldRefuseARingWhoseLargestMessageDoesNotFitThePublication() throws IOException {
        Path a = dir.resolve("big.ring");
        try (RingFile ring = RingFile.create(a, 16 << 20)) { // largest message 2 MiB
            BridgeSettings s = settings(a, port());
            s.termLength = 1 << 20; // largest Aeron message 128 KiB
            BridgeException e = assertThrows(BridgeException.class, () -> BridgeSender.open(s));
            assertEquals("message-too-long", e.kind());
            assertTrue(e.getMessage().contains("raise --term-length to at least"), e.getMessage());
            assertEquals(0, ring.consumerPid(), "the sender let go of the ring");
        }
    }
}
