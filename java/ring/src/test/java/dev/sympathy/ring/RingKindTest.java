package dev.sympathy.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kind of a ring file ({@link RingKind}): how each kind is created (version, {@code kind}
 * word, length), opened, and kept apart from the others.
 */
class RingKindTest {
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final int CAPACITY = 1024;

    @TempDir
    Path dir;

    private static ByteBuffer header(Path path) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void eachKindIsCreatedWithItsVersionKindWordAndLength() throws IOException {
        for (RingKind kind : RingKind.values()) {
            Path path = dir.resolve(kind.cliName());
            try (RingFile ring = RingFile.create(path, CAPACITY, kind)) {
                assertEquals(kind, ring.kind());
                assertEquals(CAPACITY / 8, ring.maxMessageLength());
            }
            ByteBuffer file = header(path);
            assertEquals(kind.fileLength(CAPACITY), file.capacity(), kind + ": file length");
            int version = file.getInt(RingDescriptor.LAYOUT_VERSION_OFFSET);
            int word = file.getInt(RingDescriptor.KIND_OFFSET);
            if (kind == RingKind.ONE_TO_ONE) {
                assertEquals(1, version, "one-to-one rings keep layout version 1 (older builds read them)");
                assertEquals(0, word, "and no kind word");
            } else {
                assertEquals(2, version);
                assertEquals(kind.code(), word);
            }
            try (RingFile ring = RingFile.openAnyKind(path, SHORT)) {
                assertEquals(kind, ring.kind());
            }
            try (RingFile ring = RingFile.open(path, SHORT, kind)) {
                assertEquals(kind, ring.kind());
            }
            try (RingFile ring = RingFile.openReadOnly(path, SHORT)) {
                assertEquals(kind, ring.kind());
                ring.checkPositions();
            }
        }
        assertEquals(4096 + CAPACITY + 128, RingKind.BROADCAST.fileLength(CAPACITY));
        assertEquals(RingDescriptor.fileLength(CAPACITY), RingKind.MANY_TO_ONE.fileLength(CAPACITY));
    }

    @Test
    void theTwoArgumentCreateAndOpenAreOneToOne() throws IOException {
        Path path = dir.resolve("plain");
        try (RingFile ring = RingFile.create(path, CAPACITY)) {
            assertEquals(RingKind.ONE_TO_ONE, ring.kind());
        }
        try (RingFile ring = RingFile.open(path, SHORT)) {
            assertEquals(RingKind.ONE_TO_ONE, ring.kind());
        }
        assertEquals(RingKind.ONE_TO_ONE, RingFile.inMemory(CAPACITY).kind());
    }

    /** A version-2 file whose kind word says one-to-one is a one-to-one ring (a later build may write one). */
    @Test
    void aVersionTwoFileOfKindOneIsOneToOne() throws IOException {
        Path path = dir.resolve("v2-spsc");
        RingFile.create(path, CAPACITY, RingKind.ONE_TO_ONE).close();
        try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.WRITE)) {
            ByteBuffer two = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(2).flip();
            channel.write(two, RingDescriptor.LAYOUT_VERSION_OFFSET);
            ByteBuffer one = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(1).flip();
            channel.write(one, RingDescriptor.KIND_OFFSET);
        }
        try (RingFile ring = RingFile.open(path, SHORT); RingProducer p = ring.producer(); RingConsumer c = ring.consumer()) {
            assertTrue(p.write(1, new byte[4], 0, 4));
            assertEquals(1, c.read((t, b, o, l) -> { }, 10));
        }
    }

    @Test
    void inMemoryRingsOfEachKindCarryMessages() {
        RingFile mpsc = RingFile.inMemory(CAPACITY, RingKind.MANY_TO_ONE);
        try (ManyToOneConsumer consumer = mpsc.manyToOneConsumer()) {
            assertTrue(mpsc.manyToOneProducer().write(3, new byte[] {1, 2, 3, 4}, 0, 4));
            assertTrue(mpsc.manyToOneProducer().write(4, new byte[] {5}, 0, 1));
            int[] types = new int[2];
            int[] n = {0};
            assertEquals(2, consumer.read((type, buffer, offset, length) -> types[n[0]++] = type, 10));
            assertEquals(3, types[0]);
            assertEquals(4, types[1]);
            assertThrows(AlreadyAttachedException.class, mpsc::manyToOneConsumer, "one consumer");
        }
        RingFile broadcast = RingFile.inMemory(CAPACITY, RingKind.BROADCAST);
        assertEquals(CAPACITY + RingDescriptor.BROADCAST_TRAILER_LENGTH, broadcast.ringRegion().byteSize());
        try (BroadcastTransmitter transmitter = broadcast.broadcastTransmitter()) {
            assertThrows(AlreadyAttachedException.class, broadcast::broadcastTransmitter, "one transmitter");
            BroadcastReceiver first = broadcast.broadcastReceiver();
            BroadcastReceiver second = broadcast.broadcastReceiver();
            transmitter.transmit(7, new byte[] {9, 8, 7}, 0, 3);
            for (BroadcastReceiver receiver : new BroadcastReceiver[] {first, second}) {
                byte[] got = new byte[1];
                assertEquals(1, receiver.receive((type, buffer, offset, length) -> {
                    assertEquals(7, type);
                    assertEquals(3, length);
                    got[0] = buffer.get(ValueLayout.JAVA_BYTE, offset + 2);
                }));
                assertEquals(7, got[0]);
                assertEquals(0, receiver.receive((type, buffer, offset, length) -> { }));
            }
            assertEquals(16, broadcast.tailPosition());
            assertEquals(0, broadcast.broadcastLatest());
            assertEquals(16, broadcast.broadcastTailIntent());
            assertTrue(broadcast.producerPid() != 0, "the transmitter registers as the producer");
        }
        assertEquals(0, broadcast.producerPid(), "and detaches");
    }

    /** A receiver only reads: it works on a ring opened read-only, as a tool's. */
    @Test
    void aBroadcastReceiverWorksOnARingOpenedReadOnly() throws IOException {
        Path path = dir.resolve("read-only");
        try (RingFile ring = RingFile.create(path, CAPACITY, RingKind.BROADCAST);
                BroadcastTransmitter transmitter = ring.broadcastTransmitter();
                RingFile looking = RingFile.openReadOnly(path, SHORT)) {
            BroadcastReceiver receiver = looking.broadcastReceiver();
            transmitter.transmit(2, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 8);
            assertEquals(1, receiver.receive((type, buffer, offset, length) -> assertEquals(8, length)));
            assertThrows(IllegalStateException.class, looking::broadcastTransmitter);
        }
    }

    @Test
    void kindNamesParseAndRefuseOthers() {
        assertEquals(RingKind.MANY_TO_ONE, RingKind.ofCliName("mpsc"));
        assertEquals(RingKind.BROADCAST, RingKind.ofCode(3));
        assertEquals(null, RingKind.ofCode(7));
        var e = assertThrows(IllegalArgumentException.class, () -> RingKind.ofCliName("mpmc"));
        assertTrue(e.getMessage().contains("spsc, mpsc or broadcast"), e.getMessage());
    }
}
