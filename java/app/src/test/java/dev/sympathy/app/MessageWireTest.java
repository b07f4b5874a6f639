package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sympathy.messages.PriceUpdate;
import dev.sympathy.messages.SbeMessages;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The messaging experiment's wires: each decodes what it encodes, and catches a message that differs. */
class MessageWireTest {
    /** Encodes message {@code seq} with {@code wire} at offset 16 of {@code segment}; returns its length. */
    private static int encode(MessageWire wire, long seq, MemorySegment segment) {
        if (wire.fixedLength() != MessageWire.VARIABLE) {
            wire.encode(seq, segment, 16, wire.fixedLength());
            return wire.fixedLength();
        }
        MessageWire.Encoded encoded = wire.encode(seq);
        MemorySegment.copy(encoded.bytes, 0, segment, ValueLayout.JAVA_BYTE, 16, encoded.length);
        return encoded.length;
    }

    @ParameterizedTest
    @ValueSource(strings = {"raw", "sbe", "struct", "hand-codec", "java-serialization"})
    void everyWireDecodesWhatItEncodesAndCatchesAnother(String name) {
        MessageWire wire = MessageWire.create("test", name);
        assertEquals(name, wire.name());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(2048, 8);
            for (long seq : new long[] {0, 1, 2, 7, 999, 1000, 123_456_789}) {
                int length = encode(wire, seq, segment);
                wire.verify(seq, segment, 16, length);
                assertThrows(MessageWire.Mismatch.class, () -> wire.verify(seq + 1, segment, 16, length), name);
            }
        }
    }

    @Test
    void theStructAndTheByteBufferWriteTheSameDocumentedBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(128, 8);
            MemorySegment b = arena.allocate(128, 8);
            new StructWire().encode(5, a, 16, StructWire.SIZE);
            new ByteBufferWire().encode(5, b, 16, StructWire.SIZE);
            byte[] bytes = a.asSlice(16, StructWire.SIZE).toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(bytes, b.asSlice(16, StructWire.SIZE).toArray(ValueLayout.JAVA_BYTE));
            // Rust's messaging::tests check the same bytes of message 5 (sympathy_lab::messaging::layout).
            assertEquals(5, a.get(ValueLayout.JAVA_LONG_UNALIGNED, 16));
            assertEquals("META", new String(bytes, StructWire.SYMBOL, 4, java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(1, bytes[StructWire.SIDE]);
            assertEquals("XNYS", new String(bytes, StructWire.VENUE, 4, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @Test
    void theSbeWireWritesWhatTheCheckedEncoderWritesForTheSameUpdate() {
        SbeMessages sbe = new SbeMessages();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(256, 8);
            for (long seq = 0; seq < 100; seq++) {
                new SbeWire().encode(seq, segment, 16, SbeWire.LENGTH);
                byte[] wire = segment.asSlice(16, SbeWire.LENGTH).toArray(ValueLayout.JAVA_BYTE);
                PriceUpdate update = MessageSample.update(seq);
                UnsafeBuffer expected = new UnsafeBuffer(new byte[SbeWire.LENGTH]);
                assertEquals(SbeWire.LENGTH, sbe.encodePriceUpdate(update, expected, 0, SbeWire.LENGTH));
                assertArrayEquals(expected.byteArray(), wire, "message " + seq);
                assertEquals(update, sbe.decodePriceUpdate(new UnsafeBuffer(wire), 0, wire.length));
            }
        }
    }

    @Test
    void theSampleIsRustsSample() {
        // sympathy_lab::messaging::sample(5), as its doc example states it.
        PriceUpdate five = MessageSample.update(5);
        assertEquals("META", five.instrument().symbol());
        assertEquals(1005, five.instrument().id());
        assertEquals(101.25, five.price());
        assertEquals(6, five.quantity());
        assertEquals("XNYS", five.venue());
        assertEquals(101.0, five.levels().getFirst().price());
        assertEquals(6, five.levels().getFirst().orders());
    }

    @Test
    void anUnknownEncodingIsNamedWithTheChoices() {
        UsageException e = assertThrows(UsageException.class, () -> MessageWire.create("publish", "protobuf"));
        assertEquals("publish: unknown encoding 'protobuf' (choose from raw, sbe, struct, hand-codec, java-serialization)",
                e.getMessage());
    }
}
