package dev.sympathy.app;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * {@code raw}: no encoding, the ring's test pattern ({@link TestPattern}) of the SBE message's size,
 * 74 bytes: the ring's own rate, against which the encodings are measured. Its bytes are copied
 * in place from a template, as Rust's {@code Pattern} fills them; the check compares every byte.
 */
final class RawWire implements MessageWire {
    /** Bytes of a message: the experiment's SBE price update's. */
    static final int LENGTH = dev.sympathy.messages.SbeMessages.priceUpdateLength(1, 4);
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** {@code template[j] = j mod 256}: message i's bytes from 8 on are {@code template[i % 256 + 8 ..]}. */
    private static final MemorySegment TEMPLATE;

    static {
        byte[] template = new byte[LENGTH + 256];
        for (int j = 0; j < template.length; j++) {
            template[j] = (byte) j;
        }
        TEMPLATE = MemorySegment.ofArray(template);
    }

    @Override
    public String name() {
        return "raw";
    }

    @Override
    public int typeId() {
        return 1;
    }

    @Override
    public int fixedLength() {
        return LENGTH;
    }

    @Override
    public void encode(long seq, MemorySegment buffer, long offset, int length) {
        buffer.set(LONG_LE, offset, seq);
        MemorySegment.copy(TEMPLATE, (seq & 0xFF) + 8, buffer, offset + 8, LENGTH - 8);
    }

    @Override
    public void verify(long seq, MemorySegment buffer, long offset, int length) {
        long start = (seq & 0xFF) + 8;
        if (length != LENGTH || buffer.get(LONG_LE, offset) != seq
                || MemorySegment.mismatch(buffer, offset + 8, offset + length, TEMPLATE, start, start + LENGTH - 8) != -1) {
            throw new Mismatch("not the pattern of message " + seq + " (" + length + " bytes)");
        }
    }
}
