package dev.sympathy.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Aeron reference ends in one JVM, each end turned by a thread of its own (INVOKER: each
 * thread turns its own driver): a publisher's frames reach a subscriber whole and in order over
 * {@code aeron:ipc} (one driver, the subscriber's; the publisher on it) and over UDP on loopback
 * (a driver each), and a pinger's frames come back from a pong, every round trip timed.
 */
class AeronReferenceTest {
    @TempDir
    Path dir;

    private static int port() {
        return 43_000 + new SplittableRandom().nextInt(2000) * 2;
    }

    private BridgeSettings settings(String channel, String driver) {
        BridgeSettings s = new BridgeSettings();
        s.channel = channel;
        s.aeronDir = dir.resolve(driver);
        s.linkTimeoutMs = 500;
        return s;
    }

    private static IdleStrategy idle() {
        return AeronReference.idleStrategy(BridgeSettings.Idle.BACKOFF);
    }

    /** Runs {@code body} on a thread; join() rethrows what it threw. */
    private static final class Side {
        private final Thread thread;
        private final AtomicReference<Throwable> failed = new AtomicReference<>();

        Side(String name, Runnable body) {
            thread = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, name);
            thread.start();
        }

        void join() throws InterruptedException {
            thread.join(30_000);
            assertTrue(!thread.isAlive(), thread.getName() + " still running after 30 s");
            if (failed.get() != null) {
                throw new AssertionError(thread.getName() + " failed", failed.get());
            }
        }
    }

    private void throughput(String channel, boolean oneDriver) throws InterruptedException {
        int count = 50_000;
        int size = 32;
        BridgeSettings subSettings = settings(channel, "sub");
        BridgeSettings pubSettings = settings(channel, oneDriver ? "sub" : "pub");
        pubSettings.externalDriver = oneDriver;
        long[] nanos = new long[1];
        long[] received = new long[1];
        try (AeronReference.Subscriber sub = AeronReference.Subscriber.open(subSettings, size)) {
            // The subscriber's thread turns its driver, which the publisher's client needs from its start.
            Side subscriber = new Side("sub", () -> {
                nanos[0] = sub.receive(count, 20_000, idle());
                received[0] = sub.received();
            });
            Side publisher = new Side("pub", () -> {
                try (AeronReference.Publisher pub = AeronReference.Publisher.open(pubSettings, size)) {
                    pub.send(count, 20_000, idle());
                    pub.linger(200, idle());
                    assertEquals(count, pub.sent());
                }
            });
            publisher.join();
            subscriber.join();
        }
        assertEquals(count, received[0]);
        assertTrue(nanos[0] > 0, "timed first frame to last: " + nanos[0]);
    }

    @Test
    void shouldCarryEveryFrameInOrderOverIpcOnTheSubscribersDriver() throws InterruptedException {
        throughput("aeron:ipc", true);
    }

    @Test
    void shouldCarryEveryFrameInOrderOverUdpOnLoopback() throws InterruptedException {
        throughput("aeron:udp?endpoint=127.0.0.1:" + port(), false);
    }

    @Test
    void shouldTimeEveryRoundTripOfAPingPong() throws InterruptedException {
        int port = port();
        int size = 16;
        long warmup = 500;
        long[] rtt = new long[300];
        BridgeSettings pongSettings = settings("aeron:udp?endpoint=127.0.0.1:" + port, "pong");
        pongSettings.confirmChannel = "aeron:udp?endpoint=127.0.0.1:" + (port + 1);
        BridgeSettings pingSettings = settings(pongSettings.channel, "ping");
        pingSettings.confirmChannel = pongSettings.confirmChannel;
        long[] echoed = new long[1];
        Side pong = new Side("pong", () -> {
            try (AeronReference.Pong p = AeronReference.Pong.open(pongSettings, size)) {
                p.echo(warmup + rtt.length, 20_000, idle());
                p.linger(200, idle());
                echoed[0] = p.echoed();
            }
        });
        Side ping = new Side("ping", () -> {
            try (AeronReference.Pinger p = AeronReference.Pinger.open(pingSettings, size)) {
                p.run(warmup, rtt, 20_000, idle());
                assertEquals(warmup + rtt.length, p.returned());
            }
        });
        ping.join();
        pong.join();
        assertEquals(warmup + rtt.length, echoed[0]);
        assertTrue(Arrays.stream(rtt).allMatch(t -> t > 0), "every slot a round trip: " + Arrays.toString(rtt));
    }

    @Test
    void shouldWriteTheBridgesHeaderAndThePatternAndRefuseAnotherFrame() {
        int size = 12;
        UnsafeBuffer frame = new UnsafeBuffer(new byte[AeronReference.frameLength(size)]);
        AeronReference.putFrame(frame, 0, 3, size, 99);
        long record = 24; // 12 bytes and the ring's 8-byte header, aligned to 8
        assertEquals(3 * record, frame.getLong(BridgeFrames.DATA_FROM_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(4 * record, frame.getLong(BridgeFrames.DATA_TO_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(99, frame.getLong(BridgeFrames.DATA_SOURCE_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1, frame.getInt(BridgeFrames.DATA_TYPE_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(3, frame.getLong(AeronReference.SEQUENCE_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals((byte) (3 + 11), frame.getByte(AeronReference.SEQUENCE_OFFSET + 11));
        AeronReference.checkFrame("test", frame, 0, frame.capacity(), AeronReference.frameLength(size), 3);
        BridgeException late = assertThrows(BridgeException.class,
                () -> AeronReference.checkFrame("test", frame, 0, frame.capacity(), AeronReference.frameLength(size), 4));
        assertTrue(late.getMessage().contains("frame 4 carries sequence 3"), late.getMessage());
        BridgeException shorter = assertThrows(BridgeException.class,
                () -> AeronReference.checkFrame("test", frame, 0, 40, AeronReference.frameLength(size), 3));
        assertEquals("bad-frame", shorter.kind());
        assertThrows(IllegalArgumentException.class,
                () -> AeronReference.Subscriber.open(settings("aeron:ipc", "x"), 4));
    }

    @Test
    void shouldGiveUpWhenNothingComes() {
        BridgeSettings s = settings("aeron:udp?endpoint=127.0.0.1:" + port(), "lonely");
        try (AeronReference.Subscriber sub = AeronReference.Subscriber.open(s, 8)) {
            BridgeException e = assertThrows(BridgeException.class, () -> sub.receive(10, 300, idle()));
            assertEquals("timeout", e.kind());
            assertTrue(e.getMessage().contains("no publication connected"), e.getMessage());
        }
    }
}
