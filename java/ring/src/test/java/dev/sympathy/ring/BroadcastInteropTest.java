package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.CopyBroadcastReceiver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agrona's broadcast buffer as the live peer of ours, in one JVM over the same mapped file
 * (Agrona wrapped at offset 4096, capacity + 128 bytes): our transmitter into Agrona's
 * {@code BroadcastReceiver} and {@code CopyBroadcastReceiver}, Agrona's {@code BroadcastTransmitter}
 * into our receiver; in lock step (every record, in order, through many wraps), lapped (both
 * receivers count the lap and take the same latest record), and Agrona's transmitter at full
 * speed in another thread (every record our receiver hands out is whole and later than the one
 * before). Not Agrona's receiver under a transmitter at full speed: it takes the next position
 * from a length it read before validating, so a torn length can send it past the tail for good.
 */
class BroadcastInteropTest {
    private static final int CAPACITY = 1024;
    private static final int MESSAGES = 30_000;
    private static final int STREAM = 1;

    @TempDir
    Path dir;

    private static int[] sizes(int max) {
        return Streams.sizes(11, MESSAGES, 8, max);
    }

    private static int typeOf(long i) {
        return 1 + (int) (i % 5);
    }

    /** Checks a received message: type, length and every byte of message {@code i}. */
    private static void checkMessage(long i, int type, int length, int[] sizes) {
        assertEquals(typeOf(i), type, "message " + i + ": type");
        assertEquals(sizes[(int) i], length, "message " + i + ": length");
    }

    @Test
    void ourTransmitterToAgronasReceiversInLockStep() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("ours-to-agrona"), CAPACITY, RingKind.BROADCAST);
                BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            int[] sizes = sizes(ring.maxMessageLength());
            var inPlace = new org.agrona.concurrent.broadcast.BroadcastReceiver(Streams.agronaRegion(ring));
            var copying = new CopyBroadcastReceiver(
                    new org.agrona.concurrent.broadcast.BroadcastReceiver(Streams.agronaRegion(ring)));
            byte[] message = new byte[ring.maxMessageLength()];
            long[] nextCopied = {0};
            int i = 0;
            while (i < MESSAGES) {
                int round = 1 + i % 6; // at most 6 records of up to 136 bytes: never a lap in 1024
                int start = i;
                for (; i < MESSAGES && i < start + round; i++) {
                    Streams.fill(message, STREAM, i, sizes[i]);
                    transmitter.transmit(typeOf(i), message, 0, sizes[i]);
                }
                for (long j = start; j < i; j++) {
                    assertTrue(inPlace.receiveNext(), "message " + j);
                    checkMessage(j, inPlace.typeId(), inPlace.length(), sizes);
                    Streams.check(STREAM, j, inPlace.buffer(), inPlace.offset(), inPlace.length());
                    assertTrue(inPlace.validate());
                }
                while (copying.receive((type, buffer, index, length) -> {
                    long j = nextCopied[0]++;
                    checkMessage(j, type, length, sizes);
                    Streams.check(STREAM, j, buffer, index, length);
                }) > 0) {
                    // until nothing is left
                }
                assertEquals(i, nextCopied[0]);
                assertEquals(false, inPlace.receiveNext());
            }
            assertEquals(0, inPlace.lappedCount());
        }
    }

    @Test
    void agronasTransmitterToOurReceiverInLockStep() throws Exception {
        Path path = dir.resolve("agrona-to-ours");
        RingFile.create(path, CAPACITY, RingKind.BROADCAST).close();
        try (RingFile ring = RingFile.open(path, Duration.ofSeconds(1), RingKind.BROADCAST)) {
            int[] sizes = sizes(ring.maxMessageLength());
            var agrona = new org.agrona.concurrent.broadcast.BroadcastTransmitter(Streams.agronaRegion(ring));
            BroadcastReceiver receiver = ring.broadcastReceiver();
            UnsafeBuffer message = new UnsafeBuffer(new byte[ring.maxMessageLength()]);
            long[] next = {0};
            int i = 0;
            while (i < MESSAGES) {
                int round = 1 + i % 6;
                int start = i;
                for (; i < MESSAGES && i < start + round; i++) {
                    Streams.fill(message, 0, STREAM, i, sizes[i]);
                    agrona.transmit(typeOf(i), message, 0, sizes[i]);
                }
                int received = receiver.receive((type, buffer, offset, length) -> {
                    long j = next[0]++;
                    checkMessage(j, type, length, sizes);
                    Streams.check(STREAM, j, buffer, offset, length);
                }, 100);
                assertEquals(i - start, received);
            }
            assertEquals(MESSAGES, next[0]);
            assertEquals(0, receiver.lappedCount());
            assertEquals(ring.tailPosition(), receiver.position());
        }
    }

    /** Both receivers, lapped the same way, count one lap and take the same latest record. */
    @Test
    void lappedReceiversOfBothSidesAgree() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("lapped"), CAPACITY, RingKind.BROADCAST);
                BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            int[] sizes = sizes(ring.maxMessageLength());
            var agrona = new org.agrona.concurrent.broadcast.BroadcastReceiver(Streams.agronaRegion(ring));
            BroadcastReceiver ours = ring.broadcastReceiver();
            byte[] message = new byte[ring.maxMessageLength()];
            int sent = 100; // far more than 1024 bytes: both receivers are lapped
            for (int i = 0; i < sent; i++) {
                Streams.fill(message, STREAM, i, sizes[i]);
                transmitter.transmit(typeOf(i), message, 0, sizes[i]);
            }
            assertTrue(agrona.receiveNext());
            assertEquals(1, agrona.lappedCount());
            long agronaIndex = Streams.indexOf(agrona.buffer(), agrona.offset());
            long[] ourIndex = {-1};
            assertEquals(1, ours.receive((type, buffer, offset, length) -> {
                ourIndex[0] = Streams.indexOf(buffer, offset);
                checkMessage(ourIndex[0], type, length, sizes);
                Streams.check(STREAM, ourIndex[0], buffer, offset, length);
            }));
            assertEquals(1, ours.lappedCount());
            assertEquals(sent - 1, agronaIndex, "Agrona resyncs to the latest record");
            assertEquals(sent - 1, ourIndex[0], "ours resyncs to the latest record");
        }
    }

    /**
     * Agrona's transmitter at full speed in another thread; our receiver checks every record it
     * hands out (whole, later than the last, consecutive unless a lap was counted since the
     * last one). The transmitter is stopped and joined before the file is unmapped.
     */
    @Test
    void ourReceiverKeepsUpWithAgronasTransmitterAtFullSpeed() throws Exception {
        try (RingFile ring = RingFile.create(dir.resolve("fast-agrona"), CAPACITY, RingKind.BROADCAST)) {
            int[] sizes = sizes(ring.maxMessageLength());
            BroadcastReceiver receiver = ring.broadcastReceiver();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread sending = new Thread(() -> {
                try {
                    var agrona = new org.agrona.concurrent.broadcast.BroadcastTransmitter(Streams.agronaRegion(ring));
                    UnsafeBuffer message = new UnsafeBuffer(new byte[ring.maxMessageLength()]);
                    for (int i = 0; i < MESSAGES && !stop.get(); i++) {
                        Streams.fill(message, 0, STREAM, i, sizes[i]);
                        agrona.transmit(typeOf(i), message, 0, sizes[i]);
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            sending.start();
            try {
                long[] last = {-1};
                long[] lapsAtLast = {0};
                long[] handedOut = {0};
                while (last[0] < MESSAGES - 1) {
                    int n = receiver.receive((type, buffer, offset, length) -> {
                        long i = Streams.indexOf(buffer, offset);
                        assertTrue(i > last[0] && i < MESSAGES, "record " + i + " after " + last[0]);
                        checkMessage(i, type, length, sizes);
                        Streams.check(STREAM, i, buffer, offset, length);
                        if (receiver.lappedCount() == lapsAtLast[0] && last[0] >= 0) {
                            assertEquals(last[0] + 1, i, "consecutive without a lap");
                        }
                        last[0] = i;
                        lapsAtLast[0] = receiver.lappedCount();
                        handedOut[0]++;
                    });
                    if (n == 0) {
                        if (failed.get() != null) {
                            throw new AssertionError("the transmitter failed", failed.get());
                        }
                        Thread.onSpinWait();
                    }
                }
                assertTrue(handedOut[0] > 0);
            } finally {
                stop.set(true);
                sending.join(); // before the mapping goes: Agrona writes through raw addresses
            }
            assertEquals(null, failed.get());
        }
    }
}
