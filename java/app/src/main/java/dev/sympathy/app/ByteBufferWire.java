package dev.sympathy.app;

import static dev.sympathy.app.StructWire.INSTRUMENT_ID;
import static dev.sympathy.app.StructWire.LEVEL_ORDERS;
import static dev.sympathy.app.StructWire.LEVEL_PRICE;
import static dev.sympathy.app.StructWire.LEVEL_QUANTITY;
import static dev.sympathy.app.StructWire.PRICE;
import static dev.sympathy.app.StructWire.QUANTITY;
import static dev.sympathy.app.StructWire.SEQUENCE;
import static dev.sympathy.app.StructWire.SIDE;
import static dev.sympathy.app.StructWire.SIZE;
import static dev.sympathy.app.StructWire.SYMBOL;
import static dev.sympathy.app.StructWire.VENUE;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code hand-codec} (Java's variant {@code byte-buffer}): the fixed 64-byte layout of
 * {@link StructWire} field by field through a {@link ByteBuffer} over the ring's memory (the seed's
 * hand codec: every access bounds-checked), Rust's {@code hand-codec} bytes.
 */
final class ByteBufferWire implements MessageWire {
    private ByteBuffer view;
    private MemorySegment viewed;

    @Override
    public String name() {
        return "hand-codec";
    }

    @Override
    public int typeId() {
        return 4;
    }

    @Override
    public int fixedLength() {
        return SIZE;
    }

    /** A little-endian buffer over {@code segment}'s memory (the ring's region: made once, reused). */
    private ByteBuffer over(MemorySegment segment) {
        if (segment != viewed) {
            view = segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            viewed = segment;
        }
        return view;
    }

    @Override
    public void encode(long seq, MemorySegment buffer, long offset, int length) {
        ByteBuffer b = over(buffer);
        int at = (int) offset;
        b.putLong(at + SEQUENCE, seq);
        b.putLong(at + INSTRUMENT_ID, MessageSample.instrumentId(seq));
        b.putLong(at + SYMBOL, MessageSample.symbolWord(seq));
        b.putDouble(at + PRICE, MessageSample.price(seq));
        b.putInt(at + QUANTITY, MessageSample.quantity(seq));
        b.putInt(at + SIDE, MessageSample.side(seq)); // the side byte and its 3 zero bytes
        b.putDouble(at + LEVEL_PRICE, MessageSample.levelPrice(seq));
        b.putInt(at + LEVEL_QUANTITY, MessageSample.levelQuantity(seq));
        b.putInt(at + LEVEL_ORDERS, MessageSample.levelOrders(seq));
        b.putLong(at + VENUE, MessageSample.venueWord(seq));
    }

    @Override
    public void verify(long seq, MemorySegment buffer, long offset, int length) {
        ByteBuffer b = over(buffer);
        int at = (int) offset;
        boolean same = length == SIZE
                && b.getLong(at + SEQUENCE) == seq
                && b.getLong(at + INSTRUMENT_ID) == MessageSample.instrumentId(seq)
                && b.getLong(at + SYMBOL) == MessageSample.symbolWord(seq)
                && b.getDouble(at + PRICE) == MessageSample.price(seq)
                && b.getInt(at + QUANTITY) == MessageSample.quantity(seq)
                && b.get(at + SIDE) == MessageSample.side(seq)
                && b.getDouble(at + LEVEL_PRICE) == MessageSample.levelPrice(seq)
                && b.getInt(at + LEVEL_QUANTITY) == MessageSample.levelQuantity(seq)
                && b.getInt(at + LEVEL_ORDERS) == MessageSample.levelOrders(seq)
                && b.getLong(at + VENUE) == MessageSample.venueWord(seq);
        if (!same) {
            throw new Mismatch("the layout is not message " + seq + " (" + length + " bytes)");
        }
    }
}
