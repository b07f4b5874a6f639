package dev.sympathy.app;

import dev.sympathy.messages.MessageFormatException;
import dev.sympathy.messages.SbeMessages;
import dev.sympathy.messages.sbe.MessageHeaderDecoder;
import dev.sympathy.messages.sbe.MessageHeaderEncoder;
import dev.sympathy.messages.sbe.PriceUpdateDecoder;
import dev.sympathy.messages.sbe.PriceUpdateEncoder;
import dev.sympathy.messages.sbe.Side;
import java.lang.foreign.MemorySegment;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code sbe}: the price update through the SBE flyweights generated from
 * schema/sympathy-messages.xml (java/messages), over an Agrona {@link UnsafeBuffer} wrapped once
 * around the ring's own memory: encoded in place into the record, checked
 * ({@link SbeMessages#checkPriceUpdate}, as Rust's {@code PriceUpdateView::new}) and decoded in
 * place from the consumer's record, no copy. 74 bytes; the bytes Rust's encoder writes.
 */
final class SbeWire implements MessageWire {
    /** Bytes of a message (one level, a 4-byte venue). */
    static final int LENGTH = SbeMessages.priceUpdateLength(1, 4);
    /** Bytes of the header and root block: where the levels group starts. */
    private static final int SIDE_PAD = SbeMessages.HEADER_LENGTH + 37;

    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private MemorySegment viewed;
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final PriceUpdateEncoder encoder = new PriceUpdateEncoder();
    private final PriceUpdateDecoder decoder = new PriceUpdateDecoder();
    private final byte[] venue = new byte[SbeMessages.MAX_VENUE];
    private final byte[] symbol = new byte[8];

    @Override
    public String name() {
        return "sbe";
    }

    @Override
    public int typeId() {
        return 2;
    }

    @Override
    public int fixedLength() {
        return LENGTH;
    }

    /** The buffer over {@code segment}'s memory (the ring's region: wrapped once, reused). */
    private UnsafeBuffer over(MemorySegment segment) {
        if (segment != viewed) {
            view.wrap(segment.address(), Math.toIntExact(segment.byteSize()));
            viewed = segment;
        }
        return view;
    }

    @Override
    public void encode(long seq, MemorySegment buffer, long offset, int length) {
        UnsafeBuffer b = over(buffer);
        int at = (int) offset;
        PriceUpdateEncoder e = encoder.wrapAndApplyHeader(b, at, headerEncoder).sequence(seq);
        e.instrument().instrumentId(MessageSample.instrumentId(seq)).putSymbol(MessageSample.symbolBytes(seq), 0);
        e.price(MessageSample.price(seq)).quantity(MessageSample.quantity(seq))
                .side(MessageSample.side(seq) == 0 ? Side.Bid : Side.Ask);
        b.setMemory(at + SIDE_PAD, 3, (byte) 0);
        e.levelsCount(1).next().price(MessageSample.levelPrice(seq)).quantity(MessageSample.levelQuantity(seq))
                .orders(MessageSample.levelOrders(seq));
        byte[] v = MessageSample.venueBytes(seq);
        e.putVenue(v, 0, v.length);
    }

    @Override
    public void verify(long seq, MemorySegment buffer, long offset, int length) {
        UnsafeBuffer b = over(buffer);
        int at = (int) offset;
        int encoded;
        try {
            encoded = SbeMessages.checkPriceUpdate(b, at, length);
        } catch (MessageFormatException e) {
            throw new Mismatch("not a price update (" + e.kind() + "): " + e.getMessage(), e);
        }
        PriceUpdateDecoder d = decoder.wrapAndApplyHeader(b, at, headerDecoder);
        boolean same = encoded == length
                && d.sequence() == seq
                && d.instrument().instrumentId() == MessageSample.instrumentId(seq)
                && d.instrument().getSymbol(symbol, 0) == 8
                && java.util.Arrays.equals(symbol, MessageSample.symbolBytes(seq))
                && d.price() == MessageSample.price(seq)
                && d.quantity() == MessageSample.quantity(seq)
                && d.sideRaw() == MessageSample.side(seq);
        if (same) {
            PriceUpdateDecoder.LevelsDecoder levels = d.levels();
            same = levels.count() == 1;
            if (same) {
                levels.next();
                same = levels.price() == MessageSample.levelPrice(seq)
                        && levels.quantity() == MessageSample.levelQuantity(seq)
                        && levels.orders() == MessageSample.levelOrders(seq);
            }
        }
        if (same) {
            byte[] want = MessageSample.venueBytes(seq);
            int n = d.getVenue(venue, 0, venue.length);
            same = java.util.Arrays.equals(venue, 0, n, want, 0, want.length);
        }
        if (!same) {
            throw new Mismatch("decoded " + new SbeMessages().decodePriceUpdate(b, at, length) + ", expected "
                    + MessageSample.update(seq));
        }
    }
}
