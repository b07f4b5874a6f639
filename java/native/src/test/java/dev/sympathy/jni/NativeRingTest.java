package dev.sympathy.jni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.AlreadyAttachedException;
import dev.sympathy.ring.CapacityNotPowerOfTwoException;
import dev.sympathy.ring.CorruptHeaderException;
import dev.sympathy.ring.CorruptRecordException;
import dev.sympathy.ring.InvalidTypeIdException;
import dev.sympathy.ring.MessageTooLongException;
import dev.sympathy.ring.NoSpaceException;
import dev.sympathy.ring.NotARegularFileException;
import dev.sympathy.ring.NotARingFileException;
import dev.sympathy.ring.PeerDeadException;
import dev.sympathy.ring.PermissionDeniedException;
import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingTimeoutException;
import dev.sympathy.ring.TruncatedFileException;
import dev.sympathy.ring.UnsupportedVersionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Rust ring through JNI: every native method, and each Rust error kind arriving as the
 * exception the FFM ring throws for it. Needs libsympathy_jni on java.library.path (the module's
 * build makes it and points the test JVM at it).
 */
class NativeRingTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final int CAPACITY = 1024;

    @TempDir
    Path dir;

    /** A message as the consumer's buffer holds it. */
    private record Message(int typeId, byte[] payload) {}

    private Path ringPath() {
        return dir.resolve("ring");
    }

    /** Reads every message available (several reads: a read stops at the end of the area). */
    private static List<Message> drain(NativeRing.Consumer consumer) {
        List<Message> got = new ArrayList<>();
        for (int pass = 0; pass < 3; pass++) {
            int n = consumer.read(1000);
            ByteBuffer buffer = consumer.buffer();
            int at = 0;
            for (int k = 0; k < n; k++) {
                int typeId = buffer.getInt(at);
                int length = buffer.getInt(at + 4);
                byte[] payload = new byte[length];
                buffer.get(at + 8, payload);
                got.add(new Message(typeId, payload));
                at += 8 + ((length + 7) & ~7);
            }
        }
        return got;
    }

    private static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    private static boolean write(NativeRing.Producer producer, int typeId, byte[] payload) {
        producer.buffer().put(0, payload);
        return producer.write(typeId, 0, payload.length);
    }

    @Test
    void shouldCreateOpenWriteAndReadInOrder() {
        try (NativeRing created = NativeRing.create(ringPath(), CAPACITY);
                NativeRing opened = NativeRing.open(ringPath(), SHORT);
                NativeRing.Producer producer = created.producer(256);
                NativeRing.Consumer consumer = opened.consumer(4096)) {
            assertEquals(CAPACITY / 8, created.maxMessageLength());
            assertEquals(CAPACITY / 8, opened.maxMessageLength());
            List<byte[]> sent = new ArrayList<>();
            // Enough messages of odd sizes to wrap the 1 KiB ring several times.
            for (int i = 0; i < 200; i++) {
                byte[] payload = bytes(1 + i % 37, i);
                while (!write(producer, 1 + i % 3, payload)) {
                    assertTrue(!drainInto(consumer, sent, i).isEmpty(), "a full ring drains");
                }
                sent.add(payload);
            }
            drainInto(consumer, sent, 200);
            assertEquals(0, sent.size(), "every message read");
        }
    }

    private int received;

    /** Drains and checks each message against the oldest one sent and not yet received. */
    private List<Message> drainInto(NativeRing.Consumer consumer, List<byte[]> sent, int upTo) {
        List<Message> got = drain(consumer);
        for (Message m : got) {
            assertArrayEquals(sent.removeFirst(), m.payload(), "message " + received);
            assertEquals(1 + received % 3, m.typeId());
            received++;
        }
        assertTrue(received <= upTo);
        return got;
    }

    @Test
    void shouldReportAFullRingAsBackPressure() {
        try (NativeRing ring = NativeRing.create(ringPath(), 64);
                NativeRing.Producer producer = ring.producer(64)) {
            int written = 0;
            while (write(producer, 1, bytes(8, written))) {
                written++;
            }
            assertEquals(3, written, "64 bytes hold three 16-byte records plus the next header");
            assertEquals(NativeRing.Producer.INSUFFICIENT_CAPACITY, producer.tryClaim(1, 8));
            assertEquals(0, producer.writeBatch(1, 2, 8));
        }
    }

    @Test
    void shouldPublishACommittedClaimAndSkipAnAbortedOne() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Producer producer = ring.producer(64);
                NativeRing.Consumer consumer = ring.consumer(4096)) {
            long index = producer.tryClaim(7, 12);
            assertTrue(index >= 8, "payload index " + index);
            producer.recordArea().asSlice(index, 12).copyFrom(java.lang.foreign.MemorySegment.ofArray(bytes(12, 40)));
            assertEquals(List.of(), drain(consumer), "a claim is invisible until committed");
            producer.commit(index);

            long dropped = producer.tryClaim(8, 5);
            producer.recordArea().set(ValueLayout.JAVA_BYTE, dropped, (byte) 99);
            producer.abort(dropped);

            long last = producer.tryClaim(9, 8);
            producer.recordArea().set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), last, 42L);
            producer.commit(last);

            List<Message> got = drain(consumer);
            assertEquals(2, got.size(), "the aborted claim is padding");
            assertEquals(7, got.get(0).typeId());
            assertArrayEquals(bytes(12, 40), got.get(0).payload());
            assertEquals(9, got.get(1).typeId());
            assertEquals(42L, ByteBuffer.wrap(got.get(1).payload()).order(ByteOrder.LITTLE_ENDIAN).getLong());
        }
    }

    @Test
    void shouldRefuseMisusedClaims() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Producer producer = ring.producer(64)) {
            assertThrows(IllegalStateException.class, () -> producer.commit(8), "nothing is open");
            long index = producer.tryClaim(1, 4);
            var second = assertThrows(IllegalStateException.class, () -> producer.tryClaim(1, 4));
            assertTrue(second.getMessage().contains("already open"), second.getMessage());
            var wrong = assertThrows(IllegalArgumentException.class, () -> producer.commit(index + 8));
            assertTrue(wrong.getMessage().contains("invalid claim index"), wrong.getMessage());
            producer.commit(index);
            assertThrows(IllegalStateException.class, () -> producer.commit(index), "committed twice");
            assertThrows(IllegalStateException.class, () -> producer.abort(index), "aborted after commit");
            assertThrows(MessageTooLongException.class, () -> producer.tryClaim(1, -1));
            assertThrows(MessageTooLongException.class, () -> producer.tryClaim(1, CAPACITY / 8 + 1));
            assertThrows(InvalidTypeIdException.class, () -> producer.tryClaim(0, 4));
        }
    }

    @Test
    void shouldAbortAnOpenClaimWhenTheProducerCloses() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Consumer consumer = ring.consumer(4096)) {
            NativeRing.Producer producer = ring.producer(64);
            long index = producer.tryClaim(1, 16);
            producer.close();
            assertThrows(IllegalStateException.class, () -> producer.recordArea().get(ValueLayout.JAVA_BYTE, index),
                    "the record area is gone with the producer");
            assertThrows(IllegalStateException.class, () -> producer.tryClaim(1, 4), "closed producer");
            try (NativeRing.Producer next = ring.producer(64)) {
                assertTrue(write(next, 2, bytes(3, 1)));
            }
            List<Message> got = drain(consumer);
            assertEquals(1, got.size(), "the aborted claim is skipped, the next message delivered");
            assertEquals(2, got.get(0).typeId());
        }
    }

    @Test
    void shouldPublishABatchAtOnceAndReadItInOneCall() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Producer producer = ring.producer(1024);
                NativeRing.Consumer consumer = ring.consumer(4096)) {
            for (int k = 0; k < 10; k++) {
                producer.buffer().putLong(k * 8, k);
            }
            assertEquals(10, producer.writeBatch(3, 10, 8));
            assertEquals(10, consumer.read(100), "one read returns the whole batch");
            for (int k = 0; k < 10; k++) {
                assertEquals(3, consumer.buffer().getInt(k * 16));
                assertEquals(8, consumer.buffer().getInt(k * 16 + 4));
                assertEquals(k, consumer.buffer().getLong(k * 16 + 8));
            }
            assertEquals(0, consumer.read(100));
        }
    }

    @Test
    void shouldRefuseCallsOnClosedHandles() {
        NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
        NativeRing.Consumer consumer = ring.consumer(4096);
        consumer.close();
        consumer.close(); // twice is harmless
        ring.close();
        assertThrows(IllegalStateException.class, () -> consumer.read(1));
        assertThrows(IllegalStateException.class, () -> ring.producer(64));
    }

    // ---- each Rust error kind as the FFM ring's exception ------------------------------------

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

    private Path closedRing() {
        NativeRing.create(ringPath(), CAPACITY).close();
        return ringPath();
    }

    @Test
    void shouldThrowNotARingFileForTheWrongMagic() throws IOException {
        Path path = closedRing();
        patch(path, RingDescriptor.MAGIC_OFFSET, 0x1234_5678L, 8);
        var e = assertThrows(NotARingFileException.class, () -> NativeRing.open(path, SHORT));
        assertTrue(e.getMessage().contains("not a sympathy ring file"), e.getMessage());
    }

    @Test
    void shouldThrowUnsupportedVersion() throws IOException {
        Path path = closedRing();
        patch(path, RingDescriptor.LAYOUT_VERSION_OFFSET, 7, 4);
        var e = assertThrows(UnsupportedVersionException.class, () -> NativeRing.open(path, SHORT));
        assertEquals(7, e.version());
    }

    @Test
    void shouldThrowTruncatedFileForAResizedFile() throws IOException {
        Path path = closedRing();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(RingDescriptor.fileLength(CAPACITY) - 8);
        }
        assertThrows(TruncatedFileException.class, () -> NativeRing.open(path, SHORT));
    }

    @Test
    void shouldThrowCapacityNotPowerOfTwo() {
        var e = assertThrows(CapacityNotPowerOfTwoException.class, () -> NativeRing.create(ringPath(), 1000));
        assertEquals(1000, e.capacity());
        assertThrows(CapacityNotPowerOfTwoException.class, () -> NativeRing.create(ringPath(), -1));
    }

    @Test
    void shouldThrowCorruptRecordForAnImpossibleHeader() throws IOException {
        Path path = closedRing();
        // A record of length 5000 at index 0: longer than the 1 KiB area.
        patch(path, RingDescriptor.HEADER_LENGTH, 5000, 4);
        patch(path, RingDescriptor.HEADER_LENGTH + 4, 1, 4);
        try (NativeRing ring = NativeRing.open(path, SHORT);
                NativeRing.Consumer consumer = ring.consumer(4096)) {
            var e = assertThrows(CorruptRecordException.class, () -> consumer.read(10));
            assertEquals(0, e.position());
        }
    }

    @Test
    void shouldThrowMessageTooLongAndInvalidTypeIdOnWrite() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Producer producer = ring.producer(1024)) {
            assertThrows(MessageTooLongException.class, () -> producer.write(1, 0, CAPACITY / 8 + 1));
            assertThrows(InvalidTypeIdException.class, () -> producer.write(0, 0, 4));
            assertThrows(IllegalStateException.class, () -> producer.write(1, 1020, 8), "outside the buffer");
        }
    }

    @Test
    void shouldThrowPermissionDeniedWhereFilesCannotBeCreated() {
        // sysfs refuses to create files even for root (EACCES).
        assertThrows(PermissionDeniedException.class, () -> NativeRing.create(Path.of("/sys/sympathy-ring"), CAPACITY));
    }

    @Test
    void shouldThrowUncheckedIoForOtherFileErrors() {
        var e = assertThrows(UncheckedIOException.class,
                () -> NativeRing.create(dir.resolve("no-such-dir").resolve("ring"), CAPACITY));
        assertTrue(e.getMessage().contains("no-such-dir"), e.getMessage());
        closedRing();
        assertThrows(UncheckedIOException.class, () -> NativeRing.create(ringPath(), CAPACITY), "never overwritten");
    }

    @Test
    void shouldThrowAlreadyAttachedForASecondProducer() {
        try (NativeRing ring = NativeRing.create(ringPath(), CAPACITY);
                NativeRing.Producer producer = ring.producer(64)) {
            var e = assertThrows(AlreadyAttachedException.class, () -> ring.producer(64));
            assertEquals(ProcessHandle.current().pid(), e.pid());
            producer.heartbeat(); // the first one still works
        }
    }

    @Test
    void shouldThrowTimeoutForARingWhoseCreatorNeverFinished() throws IOException {
        Path path = ringPath();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), RingDescriptor.fileLength(CAPACITY) - 1); // all zero: not ready
        }
        assertThrows(RingTimeoutException.class, () -> NativeRing.open(path, SHORT));
        Files.delete(path);
    }

    /**
     * Kinds no export can raise today (a full ring is back pressure; nothing through JNI waits
     * for a peer), checked at the mapping itself: each code of bindings/jni/src/error.rs.
     */
    @Test
    void shouldMapEveryErrorKindOfTheLibrary() {
        assertInstanceOf(NotARingFileException.class, NativeErrors.exception(1, "m", "p", "", 0, 0, 0));
        assertInstanceOf(UnsupportedVersionException.class, NativeErrors.exception(2, "m", "p", "", 2, 0, 0));
        assertInstanceOf(TruncatedFileException.class, NativeErrors.exception(3, "m", "p", "", 1, 2, 0));
        assertInstanceOf(CorruptHeaderException.class, NativeErrors.exception(4, "m", "p", "", 0, 0, 0));
        assertInstanceOf(CapacityNotPowerOfTwoException.class, NativeErrors.exception(5, "m", "", "", 3, 0, 0));
        assertInstanceOf(CorruptRecordException.class, NativeErrors.exception(6, "m", "", "", 8, 0, 0));
        assertInstanceOf(MessageTooLongException.class, NativeErrors.exception(7, "m", "", "", 9, 8, 0));
        assertInstanceOf(InvalidTypeIdException.class, NativeErrors.exception(8, "m", "", "", 0, 0, 0));
        assertInstanceOf(PermissionDeniedException.class, NativeErrors.exception(9, "m", "p", "", 0, 0, 0));
        assertInstanceOf(UncheckedIOException.class, NativeErrors.exception(10, "m", "p", "", 0, 0, 0));
        assertInstanceOf(AlreadyAttachedException.class, NativeErrors.exception(11, "m", "p", "producer", 1, 0, 0));
        assertInstanceOf(IllegalStateException.class, NativeErrors.exception(12, "full", "", "", 0, 0, 0));
        assertInstanceOf(RingTimeoutException.class, NativeErrors.exception(13, "m", "", "room", 5, 0, 0));
        PeerDeadException dead = assertInstanceOf(PeerDeadException.class,
                NativeErrors.exception(14, "m", "", "consumer", 42, 0, 0));
        assertEquals(42, dead.pid());
        assertInstanceOf(IllegalArgumentException.class, NativeErrors.exception(15, "m", "", "", 0, 0, 0));
        NotARegularFileException notRegular = assertInstanceOf(NotARegularFileException.class,
                NativeErrors.exception(16, "m", "p", "a directory", 0, 0, 0));
        assertTrue(notRegular.getMessage().startsWith("p: not a regular file (a directory)"), notRegular.getMessage());
        RingTimeoutException notReady = assertInstanceOf(RingTimeoutException.class,
                NativeErrors.exception(18, "m", "", "", 50, 0, 0));
        assertTrue(notReady.getMessage().contains("creator to set the ready word"), notReady.getMessage());
        assertEquals("timeout", notReady.kind());
        NoSpaceException noSpace = assertInstanceOf(NoSpaceException.class,
                NativeErrors.exception(17, "m", "p", "/mnt (tmpfs)", 5 << 20, 1 << 20, 4 << 20));
        assertTrue(noSpace.getMessage().startsWith("p: not enough space for the ring file: it needs 1048576 bytes"
                + " and /mnt (tmpfs) has 5242880 bytes free, of which 4194304 stay free for other programs;"),
                noSpace.getMessage());
        assertInstanceOf(IllegalStateException.class, NativeErrors.exception(0, "usage", "", "", 0, 0, 0));
    }
}
