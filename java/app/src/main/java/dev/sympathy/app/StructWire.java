package dev.sympathy.app;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * {@code struct}: the seed's struct, a flyweight over the fixed 64-byte layout (one level, the
 * venue NUL-padded; Rust's {@code messaging::layout::UpdateLayout}, docs/messaging.md), each field
 * set and read in place through the FFM API.
 */
final class StructWire implements MessageWire {
    static final int SEQUENCE = 0;
    static final int INSTRUMENT_ID = 8;
    static final int SYMBOL = 16;
    static final int PRICE = 24;
    static final int QUANTITY = 32;
    static final int SIDE = 36;
    static final int LEVEL_PRICE = 40;
    static final int LEVEL_QUANTITY = 48;
    static final int LEVEL_ORDERS = 52;
    static final int VENUE = 56;
    /** Bytes of one update. */
    static final int SIZE = 64;

    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE_LE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The 8 bytes of a symbol or venue as one word. */
    private static final ValueLayout.OfLong WORD = LONG_LE;

    @Override
    public String name() {
        return "struct";
    }

    @Override
    public int typeId() {
        return 3;
    }

    @Override
    public int fixedLength() {
        return SIZE;
    }

    @Override
    public void encode(long seq, MemorySegment b, long at, int length) {
        b.set(LONG_LE, at + SEQUENCE, seq);
        b.set(LONG_LE, at + INSTRUMENT_ID, MessageSample.instrumentId(seq));
        b.set(WORD, at + SYMBOL, MessageSample.symbolWord(seq));
        b.set(DOUBLE_LE, at + PRICE, MessageSample.price(seq));
        b.set(INT_LE, at + QUANTITY, MessageSample.quantity(seq));
        b.set(INT_LE, at + SIDE, MessageSample.side(seq)); // the side byte and its 3 zero bytes
        b.set(DOUBLE_LE, at + LEVEL_PRICE, MessageSample.levelPrice(seq));
        b.set(INT_LE, at + LEVEL_QUANTITY, MessageSample.levelQuantity(seq));
        b.set(INT_LE, at + LEVEL_ORDERS, MessageSample.levelOrders(seq));
        b.set(WORD, at + VENUE, MessageSample.venueWord(seq));
    }

    @Override
    public void verify(long seq, MemorySegment b, long at, int length) {
        boolean same = length == SIZE
                && b.get(LONG_LE, at + SEQUENCE) == seq
                && b.get(LONG_LE, at + INSTRUMENT_ID) == MessageSample.instrumentId(seq)
                && b.get(WORD, at + SYMBOL) == MessageSample.symbolWord(seq)
                && b.get(DOUBLE_LE, at + PRICE) == MessageSample.price(seq)
                && b.get(INT_LE, at + QUANTITY) == MessageSample.quantity(seq)
                && b.get(ValueLayout.JAVA_BYTE, at + SIDE) == MessageSample.side(seq)
                && b.get(DOUBLE_LE, at + LEVEL_PRICE) == MessageSample.levelPrice(seq)
                && b.get(INT_LE, at + LEVEL_QUANTITY) == MessageSample.levelQuantity(seq)
                && b.get(INT_LE, at + LEVEL_ORDERS) == MessageSample.levelOrders(seq)
                && b.get(WORD, at + VENUE) == MessageSample.venueWord(seq);
        if (!same) {
            throw new Mismatch("the struct is not message " + seq + " (" + length + " bytes)");
        }
    }
}
