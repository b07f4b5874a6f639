package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per kind of bad input: each gives its own exception with a message that says what. */
class BadInputTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final int CAPACITY = 1024;

    @TempDir
    Path dir;

    private Path newRing() throws IOException {
        Path path = dir.resolve("ring");
        RingFile.create(path, CAPACITY).close();
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
    void shouldRejectAFileWithTheWrongMagic() throws IOException {
        Path path = newRing();
        patch(path, RingDescriptor.MAGIC_OFFSET, 0x1234_5678_9ABC_DEF0L, 8);
        var e = assertThrows(NotARingFileException.class, () -> RingFile.open(path, SHORT));
        assertTrue(e.getMessage().contains("magic"), e.getMessage());
    }

    @Test
    void shouldRejectAFileShorterThanTheHeaderPage() throws IOException {
        Path path = dir.resolve("short");
        Files.writeString(path, "hello");
        var e = assertThrows(TruncatedFileException.class, () -> RingFile.open(path, SHORT));
        assertTrue(e.getMessage().contains("5 bytes, shorter than the 4096-byte header page"), e.getMessage());
    }

    @Test
    void shouldRefuseAShortFileNobodyIsCreatingWithoutWaitingForIt() throws IOException {
        Path path = dir.resolve("stale-short");
        Files.writeString(path, "hello");
        Files.setLastModifiedTime(path, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        Duration timeout = Duration.ofSeconds(60);
        long start = System.nanoTime();
        var e = assertThrows(TruncatedFileException.class, () -> RingFile.open(path, timeout));
        assertTrue(e.getMessage().contains("5 bytes, shorter than the 4096-byte header page"), e.getMessage());
        // Unchanged for an hour: no creator is at work, so the open did not wait its minute.
        assertTrue(Duration.ofNanos(System.nanoTime() - start).compareTo(timeout) < 0);
    }

    @Test
    void shouldRejectAnUnknownLayoutVersion() throws IOException {
        Path path = newRing();
        patch(path, RingDescriptor.LAYOUT_VERSION_OFFSET, 3, 4);
        var e = assertThrows(UnsupportedVersionException.class, () -> RingFile.open(path, SHORT));
        assertEquals(3, e.version());
        assertTrue(e.getMessage().contains("versions 1 to 2"), e.getMessage());
    }

    @Test
    void shouldRejectATruncatedFile() throws IOException {
        Path path = newRing();
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(file.length() - 8);
        }
        var e = assertThrows(TruncatedFileException.class, () -> RingFile.open(path, SHORT));
        assertTrue(e.getMessage().contains(Long.toString(RingDescriptor.fileLength(CAPACITY))), e.getMessage());
    }

    @Test
    void shouldRejectACapacityThatIsNotAPowerOfTwo() throws IOException {
        var created = assertThrows(CapacityNotPowerOfTwoException.class, () -> RingFile.create(dir.resolve("x"), 1000));
        assertEquals(1000, created.capacity());
        assertTrue(created.getMessage().contains("1000"), created.getMessage());
        Path path = newRing();
        patch(path, RingDescriptor.CAPACITY_OFFSET, 1000, 8);
        assertThrows(CapacityNotPowerOfTwoException.class, () -> RingFile.open(path, SHORT));
    }

    @Test
    void shouldRejectAnImpossibleRecordLength() throws IOException {
        Path path = newRing();
        try (RingFile ring = RingFile.open(path, SHORT); RingProducer p = ring.producer(); RingConsumer c = ring.consumer()) {
            assertTrue(p.write(1, new byte[] {1, 2, 3, 4}, 0, 4));
            patch(path, RingDescriptor.HEADER_LENGTH + RingDescriptor.LENGTH_OFFSET, 1 << 20, 4);
            var e = assertThrows(CorruptRecordException.class, () -> c.read((t, b, o, l) -> { }, 10));
            assertEquals(0, e.position());
            patch(path, RingDescriptor.HEADER_LENGTH + RingDescriptor.LENGTH_OFFSET, 3, 4);
            assertThrows(CorruptRecordException.class, () -> c.read((t, b, o, l) -> { }, 10));
        }
    }

    @Test
    void shouldRejectARecordWithAnInvalidType() throws IOException {
        Path path = newRing();
        try (RingFile ring = RingFile.open(path, SHORT); RingProducer p = ring.producer(); RingConsumer c = ring.consumer()) {
            assertTrue(p.write(1, new byte[8], 0, 8));
            assertTrue(p.write(1, new byte[8], 0, 8));
            patch(path, RingDescriptor.HEADER_LENGTH + 16 + RingDescriptor.TYPE_OFFSET, 0, 4);
            int[] seen = {0};
            var e = assertThrows(CorruptRecordException.class, () -> c.read((t, b, o, l) -> seen[0]++, 10));
            assertEquals(16, e.position());
            assertEquals(1, seen[0], "the good record before the bad one is delivered");
            assertEquals(16, c.position(), "the head moves past the good record only");
        }
    }

    @Test
    void shouldRejectAnImpossibleHeadPosition() throws IOException {
        Path path = newRing();
        long head = RingDescriptor.HEADER_LENGTH + CAPACITY + RingDescriptor.HEAD_POSITION_OFFSET;
        patch(path, head, 1 << 20, 8);
        assertThrows(CorruptRecordException.class, () -> RingFile.open(path, SHORT));
        patch(path, head, 0, 8);
        try (RingFile ring = RingFile.open(path, SHORT)) {
            patch(path, head, 1 << 20, 8); // after the open's check: each attach checks again
            assertThrows(CorruptRecordException.class, ring::consumer);
            assertThrows(CorruptRecordException.class, ring::producer);
            assertEquals(0, ring.consumerPid(), "a failed attach gives the pid slot back");
            assertEquals(0, ring.producerPid(), "a failed attach gives the pid slot back");
        }
    }

    @Test
    void shouldRejectAMisalignedTailPosition() throws IOException {
        Path path = newRing();
        long tail = RingDescriptor.HEADER_LENGTH + CAPACITY + RingDescriptor.TAIL_POSITION_OFFSET;
        patch(path, tail, 3, 8);
        var open = assertThrows(CorruptRecordException.class, () -> RingFile.open(path, SHORT));
        assertTrue(open.getMessage().contains("tail 3"), open.getMessage());
        patch(path, tail, 0, 8);
        try (RingFile ring = RingFile.open(path, SHORT)) {
            patch(path, tail, 3, 8); // after the open's check: each attach checks again
            var e = assertThrows(CorruptRecordException.class, ring::producer);
            assertTrue(e.getMessage().contains("tail 3"), e.getMessage());
            assertThrows(CorruptRecordException.class, ring::consumer);
        }
    }

    @Test
    void shouldRejectAMessageLongerThanAnEighthOfTheCapacity() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT); RingProducer p = ring.producer()) {
            int max = ring.maxMessageLength();
            assertEquals(CAPACITY / 8, max);
            assertTrue(p.write(1, new byte[max], 0, max));
            var e = assertThrows(MessageTooLongException.class, () -> p.write(1, new byte[max + 1], 0, max + 1));
            assertTrue(e.getMessage().contains(Integer.toString(max)), e.getMessage());
            assertThrows(MessageTooLongException.class, () -> p.tryClaim(1, -1));
        }
    }

    @Test
    void shouldRejectTypeIdsBelowOne() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT); RingProducer p = ring.producer()) {
            assertThrows(InvalidTypeIdException.class, () -> p.write(0, new byte[4], 0, 4));
            assertThrows(InvalidTypeIdException.class, () -> p.write(RingDescriptor.PADDING_MSG_TYPE_ID, new byte[4], 0, 4));
            assertThrows(InvalidTypeIdException.class, () -> p.tryClaim(-7, 4));
        }
    }

    @Test
    void shouldRejectASourceRangeOutsideTheArrayBeforeClaimingAnything() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT); RingProducer p = ring.producer(); RingConsumer c = ring.consumer()) {
            long before = p.position();
            for (int length : new int[] {2, 4, 12, 40}) {
                assertThrows(IndexOutOfBoundsException.class, () -> p.write(1, new byte[length - 1], 0, length));
                assertThrows(IndexOutOfBoundsException.class, () -> p.write(1, new byte[length], 1, length));
                assertThrows(IndexOutOfBoundsException.class,
                        () -> p.write(1, java.lang.foreign.MemorySegment.ofArray(new byte[length - 1]), 0, length));
            }
            assertEquals(before, p.position(), "nothing was claimed");
            assertTrue(p.write(1, new byte[] {7, 0, 0, 0}, 0, 4));
            int[] seen = {0};
            assertEquals(1, c.read((t, b, o, l) -> seen[0] = b.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o), 10),
                    "the consumer is not stuck behind a half-written record");
            assertEquals(7, seen[0]);
        }
    }

    @Test
    void shouldReportPermissionDenied() throws IOException {
        Path path = newRing();
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("r--r--r--"));
        assumeFalse(Files.isWritable(path), "running as root: file permissions are not enforced");
        assertThrows(PermissionDeniedException.class, () -> RingFile.open(path, SHORT));
    }

    @Test
    void shouldRefuseASecondProducerAndNameTheHolder() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT)) {
            try (RingProducer first = ring.producer()) {
                var e = assertThrows(AlreadyAttachedException.class, ring::producer);
                assertEquals(ProcessHandle.current().pid(), e.pid());
                assertTrue(e.getMessage().contains(Long.toString(e.pid())), e.getMessage());
                assertEquals(first.position(), 0);
            }
            try (RingProducer again = ring.producer()) {
                assertEquals(ProcessHandle.current().pid(), ring.producerPid(), "the slot was free again");
                assertEquals(0, again.position());
            }
        }
    }

    @Test
    void shouldTakeOverTheSlotOfADeadProcess() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path path = newRing();
        patch(path, RingDescriptor.PRODUCER_PID_OFFSET, gone.pid(), 4);
        patch(path, RingDescriptor.PRODUCER_HEARTBEAT_OFFSET, System.currentTimeMillis(), 8);
        try (RingFile ring = RingFile.open(path, SHORT)) {
            assertEquals(PeerState.DEAD, ring.producerState(60_000));
            assertFalse(ring.producerAlive(60_000));
            try (RingProducer p = ring.producer()) {
                assertEquals(ProcessHandle.current().pid(), ring.producerPid());
                assertEquals(0, p.position());
                assertEquals(PeerState.ALIVE, ring.producerState(60_000));
            }
            assertEquals(PeerState.DETACHED, ring.producerState(60_000));
        }
    }

    @Test
    void shouldCallAStaleHeartbeatStaleNotDead() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT)) {
            assertEquals(PeerState.NEVER_ATTACHED, ring.consumerState(1_000));
            try (RingConsumer c = ring.consumer()) {
                patch(ring.path(), RingDescriptor.HEADER_LENGTH + CAPACITY + RingDescriptor.CONSUMER_HEARTBEAT_OFFSET,
                        System.currentTimeMillis() - 10_000, 8);
                assertEquals(PeerState.STALE, ring.consumerState(1_000), "a live pid with an old heartbeat is stalled");
                c.heartbeat();
                assertEquals(PeerState.ALIVE, ring.consumerState(1_000));
            }
        }
    }

    @Test
    void shouldTimeOutWaitingForAFileThatNeverBecomesReady() throws IOException {
        Path path = dir.resolve("unready");
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(RingDescriptor.fileLength(CAPACITY));
        }
        var e = assertThrows(RingTimeoutException.class, () -> RingFile.open(path, SHORT));
        assertTrue(e.getMessage().contains("ready"), e.getMessage());
        assertThrows(RingTimeoutException.class, () -> RingFile.open(dir.resolve("missing"), SHORT));
    }

    @Test
    void shouldNeverOverwriteAnExistingFile() throws IOException {
        Path path = newRing();
        assertThrows(FileAlreadyExistsException.class, () -> RingFile.create(path, CAPACITY));
    }

    @Test
    void shouldReportAFullRingAsBackPressureAndDropNothing() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT); RingProducer p = ring.producer(); RingConsumer c = ring.consumer()) {
            int written = 0;
            while (p.write(1, new byte[] {(byte) written, 0, 0, 0}, 0, 4)) {
                written++;
            }
            assertEquals(-2, p.tryClaim(1, 4), "a full ring refuses claims too");
            int[] next = {0};
            int read = c.read((t, b, o, l) -> assertEquals((byte) next[0]++, b.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o)),
                    Integer.MAX_VALUE);
            assertEquals(written, read, "every accepted message is read back");
            assertTrue(p.write(1, new byte[4], 0, 4), "room again after reading");
        }
    }

    @Test
    void shouldRefuseCommitTwiceAndAbortAfterCommit() throws IOException {
        try (RingFile ring = RingFile.open(newRing(), SHORT); RingProducer p = ring.producer()) {
            long index = p.tryClaim(1, 8);
            p.commit(index);
            assertThrows(IllegalStateException.class, () -> p.commit(index));
            assertThrows(IllegalStateException.class, () -> p.abort(index));
            assertThrows(IllegalArgumentException.class, () -> p.commit(3));
        }
    }

    @Test
    void shouldKeepEveryHostileLengthInsideTheMapping() throws IOException {
        // Fuzz the first record header with random values: the consumer either reads a valid
        // record or throws CorruptRecordException, never anything else.
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        Path path = newRing();
        for (int i = 0; i < 2_000; i++) {
            try (RingFile ring = RingFile.open(path, SHORT); RingConsumer c = ring.consumer()) {
                MemorySegment region = ring.ringRegion();
                long at = c.position() & (CAPACITY - 1);
                region.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, at, random.nextInt());
                region.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, at + 4, random.nextInt(-3, 5));
                try {
                    c.read((t, b, o, l) -> assertTrue(o >= 0 && o + l <= CAPACITY, "payload outside the area"), 10);
                } catch (CorruptRecordException expected) {
                    // fine: refused with a position
                }
            }
        }
    }
}
