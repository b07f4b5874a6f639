package dev.sympathy.app;

import dev.sympathy.ring.BroadcastReceiver;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.PeerState;
import dev.sympathy.ring.PeerWatch;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * {@code consume} on a broadcast ring: a receiver that joins at the latest record (it says
 * where, at once) and verifies test messages ({@link TestPattern}): strictly increasing pattern
 * indices, consecutive except across a lap, where the index is read from the message itself and
 * must be greater than the last one. It ends once the stream's last message, index
 * {@code first + count - 1}, is verified (a receiver that joined late or was lapped receives
 * fewer). With {@link #noLaps} a lap is an error.
 */
final class BroadcastReceiveLoop {
    /** Messages in the stream, indices {@link #first} to {@code first + count - 1}. */
    long count;
    /** The pattern index of the stream's first message. */
    long first;
    long timeoutMs = 10_000;
    long staleMs = 5_000;
    /** Fail on the first lap instead of counting it. */
    boolean noLaps;

    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private long received;
    private long bytes;
    /** The index of the last message verified; -1 before the first. */
    private long last = -1;
    /** Messages skipped by laps. */
    private long lost;
    /** Laps counted by the receiver. */
    private long laps;
    /** The index of the first message received; -1 before it. */
    private long firstReceived = -1;

    long received() {
        return received;
    }

    long bytes() {
        return bytes;
    }

    long laps() {
        return laps;
    }

    long lost() {
        return lost;
    }

    /** The index of the first message received (the latest when the receiver joined); -1 before it. */
    long firstReceived() {
        return firstReceived;
    }

    void run(Path path, RingFile ring) {
        BroadcastReceiver receiver = ring.broadcastReceiver();
        System.out.println("receiving from " + path + " at position " + receiver.joinedAt());
        System.out.flush();
        PeerWatch transmitter = ring.watchProducer();
        MessageHandler verify = (type, buffer, offset, length) -> verify(receiver, type, buffer, offset, length);
        long lastProgressMs = System.currentTimeMillis();
        long idle = 0;
        long end = first + count - 1;
        while (last < end) {
            int n = receiver.receive(verify, (int) Math.min(end - Math.max(last, first - 1), 1 << 16));
            checkLaps(receiver);
            if (n > 0) {
                lastProgressMs = System.currentTimeMillis();
                continue;
            }
            Thread.onSpinWait();
            if ((++idle & 0xFFF) != 0) {
                continue;
            }
            long now = System.currentTimeMillis();
            PeerState state = transmitter.look(staleMs);
            if (transmitter.hasLeft(state) && receiver.receive(verify, 1 << 16) == 0) {
                checkLaps(receiver);
                throw new ConsumeLoop.Incomplete("transmitter " + (state == PeerState.DEAD ? "died" : "detached")
                        + ": " + progress());
            }
            if (now - lastProgressMs > timeoutMs) {
                throw new ConsumeLoop.Incomplete("no message for " + timeoutMs + " ms (transmitter "
                        + state.name().toLowerCase(java.util.Locale.ROOT) + "): " + progress());
            }
        }
    }

    private String progress() {
        return "received and verified " + received + " of " + count + " messages (" + bytes + " bytes), " + lost
                + " lost to " + laps + " laps";
    }

    private void checkLaps(BroadcastReceiver receiver) {
        if (noLaps && receiver.lappedCount() > 0) {
            throw new ConsumeLoop.Incomplete("lapped by the transmitter after " + received
                    + " messages; use a larger capacity or a faster receiver");
        }
    }

    /** Checks one message: the index it must carry (the next, or after a lap any later one), then every byte. */
    private void verify(BroadcastReceiver receiver, int type, MemorySegment buffer, long offset, int length) {
        boolean lapped = receiver.lappedCount() != laps;
        laps = receiver.lappedCount();
        checkLaps(receiver);
        if (length < TestPattern.MIN_SIZE) {
            throw mismatch("message " + (last + 1) + " (type " + type + "): " + length
                    + " bytes, test messages have at least " + TestPattern.MIN_SIZE);
        }
        long index;
        if (last < 0 || lapped) {
            index = indexOf(buffer, offset, length);
            if (index <= last) {
                throw mismatch("message of type " + type + " after a lap carries index " + index + ", not after the last "
                        + last);
            }
            lost += last < 0 ? 0 : index - last - 1;
        } else {
            index = last + 1;
        }
        long head = headOf(buffer, offset, length);
        if (head != TestPattern.head(index, length)) {
            throw mismatch("message " + index + " (type " + type + "): its first bytes carry "
                    + Long.toUnsignedString(head) + ", expected " + TestPattern.head(index, length));
        }
        for (int k = 8; k < length; k++) {
            byte actual = buffer.get(ValueLayout.JAVA_BYTE, offset + k);
            if (actual != TestPattern.tailByte(index, k)) {
                throw mismatch(String.format("message %d (type %d): byte %d is 0x%02x, expected 0x%02x", index, type, k,
                        actual & 0xff, TestPattern.tailByte(index, k) & 0xff));
            }
        }
        if (firstReceived < 0) {
            firstReceived = index;
        }
        last = index;
        received++;
        bytes += length;
    }

    /**
     * The index a message carries: its first 8 bytes; a shorter one carries only the low bytes,
     * read as the smallest index after the last one that ends in them.
     */
    private long indexOf(MemorySegment buffer, long offset, int length) {
        long head = headOf(buffer, offset, length);
        if (length >= 8) {
            return head;
        }
        long span = 1L << (8 * length);
        long next = last + 1;
        long index = (next & -span) | head;
        return index < next ? index + span : index;
    }

    private static long headOf(MemorySegment buffer, long offset, int length) {
        if (length >= 8) {
            return buffer.get(LONG_LE, offset);
        }
        long head = 0;
        for (int k = 0; k < length; k++) {
            head |= (buffer.get(ValueLayout.JAVA_BYTE, offset + k) & 0xFFL) << (8 * k);
        }
        return head;
    }

    private PatternMismatchException mismatch(String what) {
        return new PatternMismatchException("verification failed at " + what + "; " + received
                + " messages before it were verified");
    }
}
