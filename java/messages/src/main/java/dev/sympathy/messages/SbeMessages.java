package dev.sympathy.messages;

import dev.sympathy.messages.sbe.BooleanType;
import dev.sympathy.messages.sbe.MessageHeaderDecoder;
import dev.sympathy.messages.sbe.MessageHeaderEncoder;
import dev.sympathy.messages.sbe.OrderDecoder;
import dev.sympathy.messages.sbe.OrderEncoder;
import dev.sympathy.messages.sbe.PriceUpdateDecoder;
import dev.sympathy.messages.sbe.PriceUpdateEncoder;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Checked encode and decode of the schema's messages over the generated SBE flyweights
 * ({@code dev.sympathy.messages.sbe}), in place in any Agrona buffer (an {@code UnsafeBuffer}
 * over a ring's memory: zero copy). The Java twin of the Rust crate {@code sympathy-messages}: the
 * same bytes for the same values, and for malformed bytes the same checks in the same order
 * ({@link #checkPriceUpdate}, {@link #checkOrder}), each failing with a
 * {@link MessageFormatException} whose {@code kind()} Rust's {@code MessageError::kind} matches.
 *
 * <p>An instance holds one set of the generated flyweights and reuses them: allocation-free
 * (but the value API, {@link #decodePriceUpdate}, allocates its result), not thread-safe: one
 * per thread.
 *
 * <pre>{@code
 * SbeMessages sbe = new SbeMessages();
 * UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
 * int length = sbe.encodePriceUpdate(update, buffer, 0, buffer.capacity());
 * PriceUpdateDecoder decoder = sbe.wrapPriceUpdate(buffer, 0, length);   // checked, then read in place
 * long sequence = decoder.sequence();
 * }</pre>
 */
public final class SbeMessages {
    /** The schema's id. */
    public static final int SCHEMA_ID = MessageHeaderDecoder.SCHEMA_ID;
    /** Bytes of the message header. */
    public static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    /** Bytes of an encoded order: the header and its 184-byte block. */
    public static final int ORDER_LENGTH = HEADER_LENGTH + OrderEncoder.BLOCK_LENGTH;
    /** Bytes of a price update's levels group header. */
    public static final int GROUP_HEADER_LENGTH = 4;
    /** Bytes of one level. */
    public static final int LEVEL_LENGTH = 16;
    /** Bytes of the venue's length prefix. */
    public static final int VENUE_HEADER_LENGTH = 2;
    /** The most venue bytes (the schema's maxValue of the venue's length). */
    public static final int MAX_VENUE = 256;
    /** The most levels (numInGroup is a uint16). */
    public static final int MAX_LEVELS = 0xFFFF;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /** Offset of the order's {@code special} in its block. */
    private static final int SPECIAL_OFFSET = 16;
    /** Offset of the instrument's symbol in the price update's block. */
    private static final int SYMBOL_OFFSET = 16;
    /** Offset of {@code side} in the price update's block. */
    private static final int SIDE_OFFSET = 36;

    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final OrderEncoder orderEncoder = new OrderEncoder();
    private final OrderDecoder orderDecoder = new OrderDecoder();
    private final PriceUpdateEncoder priceUpdateEncoder = new PriceUpdateEncoder();
    private final PriceUpdateDecoder priceUpdateDecoder = new PriceUpdateDecoder();

    /** Bytes of an encoded price update with {@code levels} levels and a {@code venueBytes}-byte venue. */
    public static int priceUpdateLength(int levels, int venueBytes) {
        return HEADER_LENGTH + PriceUpdateEncoder.BLOCK_LENGTH + GROUP_HEADER_LENGTH + levels * LEVEL_LENGTH
                + VENUE_HEADER_LENGTH + venueBytes;
    }

    /**
     * Encodes {@code order} at {@code offset}, within {@code length} bytes; returns the bytes written,
     * {@link #ORDER_LENGTH}.
     *
     * @throws MessageFormatException ({@code buffer-too-small}) when {@code length} is short of it
     */
    public int encodeOrder(Order order, MutableDirectBuffer buffer, int offset, int length) {
        if (length < ORDER_LENGTH) {
            throw MessageFormatException.bufferTooSmall(ORDER_LENGTH, length);
        }
        OrderEncoder encoder = orderEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder);
        encoder.sourceId(order.sourceId()).orderCode(order.orderCode()).priority(order.priority())
                .special(order.special() ? BooleanType.T : BooleanType.F);
        putPrices(encoder, order.prices());
        putQuantities(encoder, order.quantities());
        // The generator writes nothing where no field is: zeroed, as Rust writes them.
        buffer.setMemory(offset + HEADER_LENGTH + SPECIAL_OFFSET + 1, 7, (byte) 0);
        return ORDER_LENGTH;
    }

    /**
     * Checks that {@code length} bytes at {@code offset} start with an order, in the order Rust's
     * {@code decode_order} checks: header ({@code truncated}, {@code wrong-schema},
     * {@code wrong-template}, {@code bad-block-length}, {@code truncated}), then {@code special}
     * ({@code bad-enum}); returns its block length.
     */
    public static int checkOrder(DirectBuffer buffer, int offset, int length) {
        int block = checkHeader(buffer, offset, length, OrderDecoder.TEMPLATE_ID, "order", OrderDecoder.BLOCK_LENGTH);
        int special = buffer.getByte(offset + HEADER_LENGTH + SPECIAL_OFFSET) & 0xFF;
        if (special > 1) {
            throw MessageFormatException.badEnum("special", special);
        }
        return block;
    }

    /** The generated decoder positioned on the order at {@code offset}, after {@link #checkOrder}. */
    public OrderDecoder wrapOrder(DirectBuffer buffer, int offset, int length) {
        checkOrder(buffer, offset, length);
        return orderDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
    }

    /** Decodes the order at {@code offset} into a value, after {@link #checkOrder}. */
    public Order decodeOrder(DirectBuffer buffer, int offset, int length) {
        OrderDecoder decoder = wrapOrder(buffer, offset, length);
        return new Order(decoder.sourceId(), decoder.special() == BooleanType.T, decoder.orderCode(),
                decoder.priority(), prices(decoder), quantities(decoder));
    }

    // The order's arrays element by element, each through the generated accessor at a constant
    // index. A loop over the ten indexes is what SBE's own examples write, and C2 compiles it as a
    // loop of ten trips: pre-, main and post-loops around the accessor's index check and Agrona's
    // bounds check, which made an encode about twice as long (the serialization experiment's
    // sbe write). At a constant index the index check folds away and the ten stores follow each
    // other, as the Rust generator's one-call array setter does.

    /**
     * Writes the ten {@code prices} into the order {@code encoder} is positioned on.
     *
     * @throws IndexOutOfBoundsException when {@code prices} holds fewer than ten
     */
    public static void putPrices(OrderEncoder encoder, double[] prices) {
        encoder.prices(0, prices[0]).prices(1, prices[1]).prices(2, prices[2]).prices(3, prices[3])
                .prices(4, prices[4]).prices(5, prices[5]).prices(6, prices[6]).prices(7, prices[7])
                .prices(8, prices[8]).prices(9, prices[9]);
    }

    /**
     * Writes the ten {@code quantities} into the order {@code encoder} is positioned on.
     *
     * @throws IndexOutOfBoundsException when {@code quantities} holds fewer than ten
     */
    public static void putQuantities(OrderEncoder encoder, long[] quantities) {
        encoder.quantities(0, quantities[0]).quantities(1, quantities[1]).quantities(2, quantities[2])
                .quantities(3, quantities[3]).quantities(4, quantities[4]).quantities(5, quantities[5])
                .quantities(6, quantities[6]).quantities(7, quantities[7]).quantities(8, quantities[8])
                .quantities(9, quantities[9]);
    }

    /** The ten prices of the order {@code decoder} is positioned on, in a new array. */
    public static double[] prices(OrderDecoder decoder) {
        return new double[] {decoder.prices(0), decoder.prices(1), decoder.prices(2), decoder.prices(3),
            decoder.prices(4), decoder.prices(5), decoder.prices(6), decoder.prices(7), decoder.prices(8),
            decoder.prices(9)};
    }

    /** The ten quantities of the order {@code decoder} is positioned on, in a new array. */
    public static long[] quantities(OrderDecoder decoder) {
        return new long[] {decoder.quantities(0), decoder.quantities(1), decoder.quantities(2),
            decoder.quantities(3), decoder.quantities(4), decoder.quantities(5), decoder.quantities(6),
            decoder.quantities(7), decoder.quantities(8), decoder.quantities(9)};
    }

    /**
     * Encodes {@code update} at {@code offset}, within {@code length} bytes (in place: a ring claim);
     * returns the bytes written.
     *
     * @throws MessageFormatException {@code too-long} (over {@value #MAX_LEVELS} levels, a venue over
     *     {@value #MAX_VENUE} bytes) or {@code buffer-too-small}; nothing is written then
     */
    public int encodePriceUpdate(PriceUpdate update, MutableDirectBuffer buffer, int offset, int length) {
        List<Level> levels = update.levels();
        byte[] venue = update.venue().getBytes(StandardCharsets.UTF_8);
        if (levels.size() > MAX_LEVELS) {
            throw MessageFormatException.tooLong("levels", levels.size(), MAX_LEVELS);
        }
        if (venue.length > MAX_VENUE) {
            throw MessageFormatException.tooLong("venue", venue.length, MAX_VENUE);
        }
        int needed = priceUpdateLength(levels.size(), venue.length);
        if (length < needed) {
            throw MessageFormatException.bufferTooSmall(needed, length);
        }
        PriceUpdateEncoder encoder = priceUpdateEncoder.wrapAndApplyHeader(buffer, offset, headerEncoder);
        encoder.sequence(update.sequence());
        encoder.instrument().instrumentId(update.instrument().id()).symbol(update.instrument().symbol());
        encoder.price(update.price()).quantity(update.quantity())
                .side(update.side() == Side.BID ? dev.sympathy.messages.sbe.Side.Bid : dev.sympathy.messages.sbe.Side.Ask);
        buffer.setMemory(offset + HEADER_LENGTH + SIDE_OFFSET + 1, 3, (byte) 0);
        PriceUpdateEncoder.LevelsEncoder group = encoder.levelsCount(levels.size());
        for (Level level : levels) {
            group.next().price(level.price()).quantity(level.quantity()).orders(level.orders());
        }
        encoder.putVenue(venue, 0, venue.length);
        return encoder.limit() - offset;
    }

    /**
     * Checks that {@code length} bytes at {@code offset} start with a price update, in the order
     * Rust's {@code PriceUpdateView::new} checks: the header ({@code truncated}, {@code wrong-schema},
     * {@code wrong-template}, {@code bad-block-length}, {@code truncated}), the symbol
     * ({@code bad-symbol}) and side ({@code bad-enum}), the levels group ({@code truncated},
     * {@code bad-block-length}, {@code truncated}), the venue ({@code truncated}, {@code too-long},
     * {@code truncated}, {@code bad-utf8}). Returns the message's length in bytes.
     */
    public static int checkPriceUpdate(DirectBuffer buffer, int offset, int length) {
        int block = checkHeader(buffer, offset, length, PriceUpdateDecoder.TEMPLATE_ID, "price update",
                PriceUpdateDecoder.BLOCK_LENGTH);
        int root = offset + HEADER_LENGTH;
        checkSymbol(buffer, root + SYMBOL_OFFSET);
        Side.fromCode(buffer.getByte(root + SIDE_OFFSET) & 0xFF);
        long group = HEADER_LENGTH + (long) block;
        if (length < group + GROUP_HEADER_LENGTH) {
            throw MessageFormatException.truncated("levels group header", group + GROUP_HEADER_LENGTH, length);
        }
        int levelLength = buffer.getShort(offset + (int) group, LE) & 0xFFFF;
        if (levelLength < LEVEL_LENGTH) {
            throw MessageFormatException.badBlockLength("levels", levelLength, LEVEL_LENGTH);
        }
        int levels = buffer.getShort(offset + (int) group + 2, LE) & 0xFFFF;
        long venueAt = group + GROUP_HEADER_LENGTH + (long) levels * levelLength;
        if (length < venueAt) {
            throw MessageFormatException.truncated("levels", venueAt, length);
        }
        if (length < venueAt + VENUE_HEADER_LENGTH) {
            throw MessageFormatException.truncated("venue length", venueAt + VENUE_HEADER_LENGTH, length);
        }
        int venueLength = buffer.getShort(offset + (int) venueAt, LE) & 0xFFFF;
        if (venueLength > MAX_VENUE) {
            throw MessageFormatException.tooLong("venue", venueLength, MAX_VENUE);
        }
        long end = venueAt + VENUE_HEADER_LENGTH + venueLength;
        if (length < end) {
            throw MessageFormatException.truncated("venue", end, length);
        }
        if (!Utf8.isValid(buffer, offset + (int) venueAt + VENUE_HEADER_LENGTH, venueLength)) {
            throw MessageFormatException.badUtf8();
        }
        return (int) end;
    }

    /**
     * The generated decoder positioned on the price update at {@code offset} (its fields, then its
     * levels, then its venue, read in place), after {@link #checkPriceUpdate}.
     */
    public PriceUpdateDecoder wrapPriceUpdate(DirectBuffer buffer, int offset, int length) {
        checkPriceUpdate(buffer, offset, length);
        return priceUpdateDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
    }

    /** Decodes the price update at {@code offset} into a value (allocating), after {@link #checkPriceUpdate}. */
    public PriceUpdate decodePriceUpdate(DirectBuffer buffer, int offset, int length) {
        PriceUpdateDecoder decoder = wrapPriceUpdate(buffer, offset, length);
        long sequence = decoder.sequence();
        Instrument instrument = new Instrument(decoder.instrument().instrumentId(), decoder.instrument().symbol());
        double price = decoder.price();
        int quantity = decoder.quantity();
        Side side = Side.fromCode(decoder.sideRaw());
        PriceUpdateDecoder.LevelsDecoder group = decoder.levels();
        List<Level> levels = new ArrayList<>(group.count());
        while (group.hasNext()) {
            group.next();
            levels.add(new Level(group.price(), group.quantity(), group.orders()));
        }
        byte[] venue = new byte[decoder.venueLength()];
        decoder.getVenue(venue, 0, venue.length);
        return new PriceUpdate(sequence, instrument, price, quantity, side, levels,
                new String(venue, StandardCharsets.UTF_8));
    }

    /**
     * The header's checks (Rust's {@code check_header}): {@code truncated}, {@code wrong-schema},
     * {@code wrong-template}, {@code bad-block-length}, then {@code truncated} when the root block
     * does not fit. Returns the announced block length.
     */
    private static int checkHeader(DirectBuffer buffer, int offset, int length, int template, String name,
            int minBlock) {
        if (length < HEADER_LENGTH) {
            throw MessageFormatException.truncated("message header", HEADER_LENGTH, length);
        }
        int schema = buffer.getShort(offset + 4, LE) & 0xFFFF;
        if (schema != SCHEMA_ID) {
            throw MessageFormatException.wrongSchema(schema);
        }
        int found = buffer.getShort(offset + 2, LE) & 0xFFFF;
        if (found != template) {
            throw MessageFormatException.wrongTemplate(found, template, name);
        }
        int block = buffer.getShort(offset, LE) & 0xFFFF;
        if (block < minBlock) {
            throw MessageFormatException.badBlockLength("message", block, minBlock);
        }
        if (length < HEADER_LENGTH + block) {
            throw MessageFormatException.truncated("root block", HEADER_LENGTH + block, length);
        }
        return block;
    }

    /** Printable ASCII (0x20..0x7E), then only NULs: Rust's {@code Symbol::from_bytes}. */
    private static void checkSymbol(DirectBuffer buffer, int at) {
        boolean padding = false;
        for (int i = 0; i < Instrument.SYMBOL_LENGTH; i++) {
            int b = buffer.getByte(at + i) & 0xFF;
            if (b == 0) {
                padding = true;
            } else if (padding || b < 0x20 || b > 0x7E) {
                throw MessageFormatException.badSymbol(i, b);
            }
        }
    }
}
