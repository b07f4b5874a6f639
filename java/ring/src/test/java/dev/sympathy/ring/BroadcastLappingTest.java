package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A receiver lapped by the transmitter counts the lap and goes on from the latest record; it
 * never hands out a record the transmitter overwrote (every payload is checked against its
 * pattern), single-threaded and with the transmitter at full speed in another thread.
 */
class BroadcastLappingTest {
    private static final int CAPACITY = 1024;
    private static final int STREAM = 2;

    private static int typeOf(long i) {
        return 1 + (int) (i % 3);
    }

    private static int sizeOf(long i, int max) {
        return 8 + (int) ((i * 37) % (max - 7));
    }

    private static void transmit(BroadcastTransmitter transmitter, byte[] message, long i) {
        int size = sizeOf(i, transmitter.maxMessageLength());
        Streams.fill(message, STREAM, i, size);
        transmitter.transmit(typeOf(i), message, 0, size);
    }

    /** Receives everything waiting; returns the indices handed out, each message checked whole. */
    private static List<Long> receiveAll(BroadcastReceiver receiver, int max) {
        List<Long> indices = new ArrayList<>();
        while (receiver.receive((type, buffer, offset, length) -> {
            long i = Streams.indexOf(buffer, offset);
            assertEquals(typeOf(i), type, "message " + i + ": type");
            assertEquals(sizeOf(i, max), length, "message " + i + ": length");
            Streams.check(STREAM, i, buffer, offset, length);
            indices.add(i);
        }, 1000) > 0) {
            // until nothing is waiting
        }
        return indices;
    }

    @Test
    void aLappedReceiverCountsTheLapAndResyncsToTheLatestRecord() {
        RingFile ring = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        try (BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
            int max = transmitter.maxMessageLength();
            byte[] message = new byte[max];
            BroadcastReceiver receiver = ring.broadcastReceiver();
            assertEquals(0, receiver.joinedAt());
            for (long i = 0; i < 3; i++) {
                transmit(transmitter, message, i);
            }
            assertEquals(List.of(0L, 1L, 2L), receiveAll(receiver, max));
            assertEquals(0, receiver.lappedCount());
            for (long i = 3; i < 40; i++) { // about 3 KiB: laps the receiver
                transmit(transmitter, message, i);
            }
            assertEquals(List.of(39L), receiveAll(receiver, max), "after a lap: the latest record only");
            assertEquals(1, receiver.lappedCount());
            for (long i = 40; i < 44; i++) {
                transmit(transmitter, message, i);
            }
            assertEquals(List.of(40L, 41L, 42L, 43L), receiveAll(receiver, max), "then every record again");
            assertEquals(1, receiver.lappedCount());
            // A receiver joining now starts at the latest record.
            BroadcastReceiver late = ring.broadcastReceiver();
            assertEquals(List.of(43L), receiveAll(late, max));
            assertEquals(0, late.lappedCount());
        }
    }

    /**
     * The transmitter at full speed in another thread; the receiver checks every record it
     * gets (whole, of its index's type and size, later than the last, consecutive unless a lap
     * was counted since the last), and now and then waits until the transmitter is two capacities ahead, so
     * that its next receive must find a lap.
     */
    @Test
    void aReceiverUnderAFullSpeedTransmitterHandsOutOnlyWholeRecords() throws Exception {
        long messages = 200_000;
        RingFile ring = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        BroadcastReceiver receiver = ring.broadcastReceiver();
        AtomicLong transmitted = new AtomicLong();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                try (BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
                    byte[] message = new byte[transmitter.maxMessageLength()];
                    for (long i = 0; i < messages; i++) {
                        transmit(transmitter, message, i);
                        transmitted.setRelease(transmitter.position());
                    }
                }
            }, pool);
            int max = ring.maxMessageLength();
            long[] last = {-1};
            long[] lapsAtLast = {0};
            long[] handedOut = {0};
            long forcedLaps = 0;
            while (last[0] < messages - 1) {
                int n = receiver.receive((type, buffer, offset, length) -> {
                    long i = Streams.indexOf(buffer, offset);
                    assertTrue(i > last[0] && i < messages, "record " + i + " after " + last[0]);
                    assertEquals(typeOf(i), type, "message " + i + ": type");
                    assertEquals(sizeOf(i, max), length, "message " + i + ": length");
                    Streams.check(STREAM, i, buffer, offset, length);
                    if (receiver.lappedCount() == lapsAtLast[0] && last[0] >= 0) {
                        assertEquals(last[0] + 1, i, "consecutive without a lap since the last record");
                    }
                    last[0] = i;
                    lapsAtLast[0] = receiver.lappedCount();
                    handedOut[0]++;
                });
                if (n == 0) {
                    if (sending.isDone()) {
                        sending.get(); // its failure, if any
                    }
                    Thread.onSpinWait();
                } else if (handedOut[0] % 5_000 == 0) {
                    // Fall two capacities behind (unless the transmitter ends first): the next receive laps.
                    long behind = receiver.position();
                    while (transmitted.getAcquire() < behind + 2L * CAPACITY && !sending.isDone()) {
                        Thread.onSpinWait();
                    }
                    if (transmitted.getAcquire() >= behind + 2L * CAPACITY) {
                        long laps = receiver.lappedCount();
                        receiver.receive((type, buffer, offset, length) -> {
                            long i = Streams.indexOf(buffer, offset);
                            assertTrue(i > last[0], "record " + i + " after " + last[0]);
                            Streams.check(STREAM, i, buffer, offset, length);
                            last[0] = i;
                            lapsAtLast[0] = receiver.lappedCount();
                            handedOut[0]++;
                        });
                        assertTrue(receiver.lappedCount() > laps, "two capacities behind: a lap");
                        forcedLaps++;
                    }
                }
            }
            sending.get(60, TimeUnit.SECONDS);
            assertEquals(messages - 1, last[0], "the last record is received");
            assertTrue(receiver.lappedCount() >= forcedLaps);
        } finally {
            pool.shutdownNow();
        }
    }
}
