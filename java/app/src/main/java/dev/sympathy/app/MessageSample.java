package dev.sympathy.app;

import dev.sympathy.messages.Instrument;
import dev.sympathy.messages.Level;
import dev.sympathy.messages.PriceUpdate;
import dev.sympathy.messages.Side;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The messaging experiment's messages: price update {@code seq} is a function of {@code seq}
 * alone, the same as Rust's {@code sympathy_lab::messaging::sample}, so a receiver in either
 * language knows what every message must decode to. Every value is exact in binary floating
 * point. The fields come one by one (no allocation) for the in-place encodings, and as a
 * {@link PriceUpdate} value for java.io serialization.
 *
 * <pre>{@code
 * MessageSample.price(5)       // 101.25
 * MessageSample.update(5)      // PriceUpdate[sequence=5, instrument=Instrument[id=1005, symbol=META], ...]
 * }</pre>
 */
final class MessageSample {
    private MessageSample() {}

    /** The instruments' tickers, by {@code seq % 8}. */
    static final String[] SYMBOLS = {"AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "META", "TSLA", "NFLX"};
    /** The venues, by {@code seq % 4}. */
    static final String[] VENUES = {"XNAS", "XNYS", "BATS", "IEXG"};
    /** The tickers' bytes, NUL-padded to 8. */
    private static final byte[][] SYMBOL_BYTES = new byte[SYMBOLS.length][];
    /** The venues' UTF-8 bytes. */
    private static final byte[][] VENUE_BYTES = new byte[VENUES.length][];
    /** The venues' bytes NUL-padded to 8 (the fixed layout's). */
    private static final byte[][] VENUE_PADDED = new byte[VENUES.length][];
    /** The padded tickers and venues as little-endian words (the fixed layout reads them so). */
    private static final long[] SYMBOL_WORDS = new long[SYMBOLS.length];
    private static final long[] VENUE_WORDS = new long[VENUES.length];

    static {
        for (int i = 0; i < SYMBOLS.length; i++) {
            SYMBOL_BYTES[i] = java.util.Arrays.copyOf(SYMBOLS[i].getBytes(StandardCharsets.US_ASCII), 8);
            SYMBOL_WORDS[i] = java.nio.ByteBuffer.wrap(SYMBOL_BYTES[i]).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0);
        }
        for (int i = 0; i < VENUES.length; i++) {
            VENUE_BYTES[i] = VENUES[i].getBytes(StandardCharsets.UTF_8);
            VENUE_PADDED[i] = java.util.Arrays.copyOf(VENUE_BYTES[i], 8);
            VENUE_WORDS[i] = java.nio.ByteBuffer.wrap(VENUE_PADDED[i]).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0);
        }
    }

    static long instrumentId(long seq) {
        return 1000 + seq % 8;
    }

    /** The ticker's 8 bytes, NUL-padded (not to be changed). */
    static byte[] symbolBytes(long seq) {
        return SYMBOL_BYTES[(int) (seq % 8)];
    }

    /** The ticker's 8 padded bytes as a little-endian word. */
    static long symbolWord(long seq) {
        return SYMBOL_WORDS[(int) (seq % 8)];
    }

    /** The venue's 8 padded bytes as a little-endian word. */
    static long venueWord(long seq) {
        return VENUE_WORDS[(int) (seq % 4)];
    }

    static double price(long seq) {
        return 100.0 + (seq % 1000) * 0.25;
    }

    static int quantity(long seq) {
        return (int) (seq % 500) + 1;
    }

    /** 0 (bid) for even {@code seq}, 1 (ask) for odd. */
    static int side(long seq) {
        return (int) (seq & 1);
    }

    static double levelPrice(long seq) {
        return price(seq) - 0.25;
    }

    static int levelQuantity(long seq) {
        return quantity(seq) * 2;
    }

    static int levelOrders(long seq) {
        return (int) (seq % 7) + 1;
    }

    /** The venue's UTF-8 bytes (not to be changed). */
    static byte[] venueBytes(long seq) {
        return VENUE_BYTES[(int) (seq % 4)];
    }

    /** The venue's bytes NUL-padded to 8 (not to be changed). */
    static byte[] venuePadded(long seq) {
        return VENUE_PADDED[(int) (seq % 4)];
    }

    /** Price update {@code seq} as a value. */
    static PriceUpdate update(long seq) {
        return new PriceUpdate(seq, new Instrument(instrumentId(seq), SYMBOLS[(int) (seq % 8)]), price(seq),
                quantity(seq), side(seq) == 0 ? Side.BID : Side.ASK,
                List.of(new Level(levelPrice(seq), levelQuantity(seq), levelOrders(seq))), VENUES[(int) (seq % 4)]);
    }
}
