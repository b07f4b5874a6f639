package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input for the many-to-one and broadcast rings: a file of the wrong kind (both ways), a
 * version-2 file whose kind word names no kind, broadcast positions that cannot be, a record a
 * receiver cannot trust, a truncated broadcast file, and arguments the peers refuse.
 */
class KindBadInputTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final int CAPACITY = 1024;

    @TempDir
    Path dir;

    private Path newRing(String name, RingKind kind) throws IOException {
        Path path = dir.resolve(name);
        RingFile.create(path, CAPACITY, kind).close();
        return path;
    }

    /** Overwrites bytes of the file at {@code offset} (little-endian). */
    private static void patch(Path path, long offset, long value, int bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
            if (bytes == 8) {
                buffer.putLong(value);
            } else {
                buffer.putInt((int) value);
            }
            channel.write(buffer.flip(), offset);
        }
    }

    @Test
    void aManyToOneRingOpenedAsOneToOneIsTheWrongKind() throws IOException {
        Path path = newRing("mpsc", RingKind.MANY_TO_ONE);
        var e = assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT));
        assertEquals("wrong-kind", e.kind());
        assertEquals(path + " is a many-to-one (mpsc) ring, not a one-to-one (spsc) ring; open it as many-to-one"
                + " (mpsc) (its kind is fixed when it is created)", e.getMessage());
        assertEquals(RingKind.MANY_TO_ONE, e.found());
        assertEquals(RingKind.ONE_TO_ONE, e.wanted());
        try (RingFile ring = RingFile.openAnyKind(path, SHORT)) {
            assertEquals("wrong-kind", assertThrows(WrongKindException.class, ring::producer).kind());
            assertEquals("wrong-kind", assertThrows(WrongKindException.class, ring::consumer).kind());
            assertThrows(WrongKindException.class, ring::broadcastTransmitter);
            assertThrows(WrongKindException.class, ring::broadcastReceiver);
            assertThrows(WrongKindException.class, ring::broadcastLatest);
        }
        assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT, RingKind.BROADCAST));
    }

    @Test
    void aOneToOneRingOpenedAsAnotherKindIsTheWrongKind() throws IOException {
        Path path = newRing("spsc", RingKind.ONE_TO_ONE);
        var e = assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT, RingKind.MANY_TO_ONE));
        assertEquals(path + " is a one-to-one (spsc) ring, not a many-to-one (mpsc) ring; open it as one-to-one"
                + " (spsc) (its kind is fixed when it is created)", e.getMessage());
        assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT, RingKind.BROADCAST));
        try (RingFile ring = RingFile.open(path, SHORT)) {
            assertThrows(WrongKindException.class, ring::manyToOneProducer);
            assertThrows(WrongKindException.class, ring::manyToOneConsumer);
            var b = assertThrows(WrongKindException.class, ring::broadcastReceiver);
            assertTrue(b.getMessage().contains("not a broadcast ring"), b.getMessage());
        }
    }

    @Test
    void aBroadcastRingIsNotARing() throws IOException {
        Path path = newRing("broadcast", RingKind.BROADCAST);
        var e = assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT));
        assertEquals(path + " is a broadcast ring, not a one-to-one (spsc) ring; open it as broadcast (its kind is"
                + " fixed when it is created)", e.getMessage());
        assertThrows(WrongKindException.class, () -> RingFile.open(path, SHORT, RingKind.MANY_TO_ONE));
        RingFile ring = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        assertThrows(WrongKindException.class, ring::manyToOneProducer);
        assertThrows(WrongKindException.class, ring::consumer);
    }

    @Test
    void aVersionTwoFileWhoseKindNamesNoKindIsACorruptHeader() throws IOException {
        for (int kind : new int[] {7, 0, -1}) {
            Path path = newRing("kind-" + kind, RingKind.MANY_TO_ONE);
            patch(path, RingDescriptor.KIND_OFFSET, kind, 4);
            for (RingException e : new RingException[] {
                    assertThrows(CorruptHeaderException.class, () -> RingFile.open(path, SHORT)),
                    assertThrows(CorruptHeaderException.class, () -> RingFile.openAnyKind(path, SHORT)),
                    assertThrows(CorruptHeaderException.class, () -> RingFile.openReadOnly(path, SHORT))}) {
                assertEquals("corrupt-header", e.kind());
                assertTrue(e.getMessage().contains("kind is " + Integer.toUnsignedString(kind)
                        + ", expected 1 (spsc), 2 (mpsc) or 3 (broadcast)"), e.getMessage());
            }
        }
    }

    @Test
    void aTruncatedBroadcastFileNamesItsLength() throws IOException {
        Path path = newRing("short-broadcast", RingKind.BROADCAST);
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(file.length() + 8);
        }
        var e = assertThrows(TruncatedFileException.class, () -> RingFile.openAnyKind(path, SHORT));
        assertTrue(e.getMessage().contains("capacity " + CAPACITY + " must be exactly " + (4096 + CAPACITY + 128)),
                e.getMessage());
        // A many-to-one ring's length (the one-to-one trailer) is not a broadcast ring's.
        Path wrong = newRing("broadcast-as-long-as-a-ring", RingKind.BROADCAST);
        try (RandomAccessFile file = new RandomAccessFile(wrong.toFile(), "rw")) {
            file.setLength(RingDescriptor.fileLength(CAPACITY));
        }
        assertThrows(TruncatedFileException.class, () -> RingFile.open(wrong, SHORT, RingKind.BROADCAST));
    }

    @Test
    void impossibleBroadcastPositionsAreACorruptRecord() throws IOException {
        long trailer = RingDescriptor.HEADER_LENGTH + CAPACITY;
        long[][] cases = { // tail_intent, tail, latest
            {16, 8, 16}, // latest past the tail
            {8, 16, 0}, // the tail past its intent
            {4096, 2048, 0}, // the tail more than a capacity past the latest
            {3000 * 8, 8, 0}, // the intent more than a capacity past the tail
            {12, 12, 4}, // misaligned
            {-8, -8, -8}, // negative
            {(1L << 62) + 8, (1L << 62) + 8, 1L << 62}, // past 2^62
        };
        for (long[] c : cases) {
            Path path = newRing("positions-" + c[0] + "-" + c[1] + "-" + c[2], RingKind.BROADCAST);
            patch(path, trailer + RingDescriptor.BROADCAST_TAIL_INTENT_OFFSET, c[0], 8);
            patch(path, trailer + RingDescriptor.BROADCAST_TAIL_OFFSET, c[1], 8);
            patch(path, trailer + RingDescriptor.BROADCAST_LATEST_OFFSET, c[2], 8);
            var e = assertThrows(CorruptRecordException.class, () -> RingFile.open(path, SHORT, RingKind.BROADCAST),
                    java.util.Arrays.toString(c));
            assertEquals("corrupt-record", e.kind());
            assertTrue(e.getMessage().contains("latest " + c[2] + " / tail " + c[1] + " / tail_intent " + c[0]),
                    e.getMessage());
            // The read-only open shows them; attaching either side refuses them.
            try (RingFile ring = RingFile.openReadOnly(path, SHORT)) {
                assertThrows(CorruptRecordException.class, ring::checkPositions);
                assertThrows(CorruptRecordException.class, ring::broadcastReceiver);
            }
        }
        // Attaching re-checks: positions broken after the open.
        Path path = newRing("broken-later", RingKind.BROADCAST);
        try (RingFile ring = RingFile.open(path, SHORT, RingKind.BROADCAST)) {
            patch(path, trailer + RingDescriptor.BROADCAST_LATEST_OFFSET, 64, 8);
            assertThrows(CorruptRecordException.class, ring::broadcastTransmitter);
            assertEquals(0, ring.producerPid(), "a refused transmitter does not stay attached");
            assertThrows(CorruptRecordException.class, ring::broadcastReceiver);
        }
    }

    /** A record the receiver copied whole (no lap) but whose header cannot be is refused, never handed out. */
    @Test
    void anImpossibleBroadcastRecordIsACorruptRecord() throws IOException {
        Path path = newRing("bad-record", RingKind.BROADCAST);
        long area = RingDescriptor.HEADER_LENGTH;
        int[][] headers = {{3, 1}, {CAPACITY, 1}, {RingDescriptor.RECORD_HEADER_LENGTH + CAPACITY / 8 + 8, 1}, {16, 0},
            {16, -5}, {24, RingDescriptor.PADDING_MSG_TYPE_ID}};
        for (int[] h : headers) {
            try (RingFile ring = RingFile.open(path, SHORT, RingKind.BROADCAST);
                    BroadcastTransmitter transmitter = ring.broadcastTransmitter()) {
                long at = transmitter.position();
                transmitter.transmit(1, new byte[8], 0, 8);
                patch(path, area + (at & (CAPACITY - 1)), h[0], 4);
                patch(path, area + (at & (CAPACITY - 1)) + 4, h[1], 4);
                BroadcastReceiver receiver = ring.broadcastReceiver(); // joins at the latest: that record
                int[] handedOut = {0};
                var e = assertThrows(CorruptRecordException.class,
                        () -> receiver.receive((t, b, o, l) -> handedOut[0]++), java.util.Arrays.toString(h));
                assertEquals(at, e.position());
                assertEquals(0, handedOut[0]);
                patch(path, area + (at & (CAPACITY - 1)), 16, 4); // whole again for the next round
                patch(path, area + (at & (CAPACITY - 1)) + 4, 1, 4);
            }
        }
    }

    @Test
    void theNewPeersRefuseBadArguments() {
        RingFile mpsc = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        ManyToOneProducer producer = mpsc.manyToOneProducer();
        int max = CAPACITY / 8;
        assertEquals("message-too-long",
                assertThrows(MessageTooLongException.class, () -> producer.write(1, new byte[max + 1], 0, max + 1)).kind());
        assertThrows(MessageTooLongException.class, () -> producer.tryClaim(1, max + 1));
        assertThrows(MessageTooLongException.class, () -> producer.tryClaim(1, -1));
        assertEquals("invalid-type-id",
                assertThrows(InvalidTypeIdException.class, () -> producer.write(0, new byte[4], 0, 4)).kind());
        assertThrows(InvalidTypeIdException.class, () -> producer.tryClaim(-1, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> producer.write(1, new byte[4], 2, 4));
        assertEquals(0, mpsc.tailPosition(), "nothing was claimed by a refused write");
        assertThrows(IllegalArgumentException.class, () -> producer.commit(3));
        long index = producer.tryClaim(1, 4);
        producer.commit(index);
        var twice = assertThrows(IllegalStateException.class, () -> producer.commit(index));
        assertTrue(twice.getMessage().contains("already committed"), twice.getMessage());

        RingFile broadcast = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        try (BroadcastTransmitter transmitter = broadcast.broadcastTransmitter()) {
            assertThrows(MessageTooLongException.class, () -> transmitter.transmit(1, new byte[max + 1], 0, max + 1));
            assertThrows(InvalidTypeIdException.class, () -> transmitter.transmit(0, new byte[4], 0, 4));
            assertThrows(InvalidTypeIdException.class,
                    () -> transmitter.transmit(-1, java.lang.foreign.MemorySegment.ofArray(new byte[4]), 0, 4));
            assertEquals(0, transmitter.position(), "nothing was transmitted");
        }
    }
}
