package dev.sympathy.jmh.table;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code ffm-flyweight}: the seed's off-heap table rebuilt on FFM: 42-byte packed records in one
 * {@link MemorySegment}, read through a flyweight holding only a byte offset. Records are packed,
 * so fields are unaligned: the unaligned layouts are used, as the seed's Unsafe access was.
 */
public final class FfmTradeTable implements TradeTable {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfChar CHAR = ValueLayout.JAVA_CHAR_UNALIGNED;

    private final int records;
    private final Flyweight flyweight = new Flyweight();
    private Arena arena;

    public FfmTradeTable(int records) {
        TradeLayout.checkRecords(records);
        this.records = records;
    }

    private Flyweight get(int index) {
        flyweight.offset = (long) index * TradeLayout.RECORD_SIZE;
        return flyweight;
    }

    @Override
    public void init() {
        close();
        arena = Arena.ofConfined();
        flyweight.segment = arena.allocate(nativeBytes(), 64);
        final int venueCode = TradeLayout.VENUE_CODE;
        final int instrumentCode = TradeLayout.INSTRUMENT_CODE;
        for (int i = 0; i < records; i++) {
            final Flyweight trade = get(i);
            trade.setTradeId(i);
            trade.setClientId(1);
            trade.setVenueCode(venueCode);
            trade.setInstrumentCode(instrumentCode);
            trade.setPrice(i);
            trade.setQuantity(i);
            trade.setSide((i & 1) == 0 ? 'B' : 'S');
        }
    }

    @Override
    public long[] query() {
        long buyCost = 0;
        long sellCost = 0;
        for (int i = 0; i < records; i++) {
            final Flyweight trade = get(i);
            if (trade.getSide() == 'B') {
                buyCost += trade.getPrice() * trade.getQuantity();
            } else {
                sellCost += trade.getPrice() * trade.getQuantity();
            }
        }
        return new long[] {buyCost, sellCost};
    }

    @Override
    public long nativeBytes() {
        return (long) records * TradeLayout.RECORD_SIZE;
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            flyweight.segment = null;
        }
    }

    /** A segment and a byte offset: the record at that offset. */
    private static final class Flyweight {
        MemorySegment segment;
        long offset;

        void setTradeId(long tradeId) {
            segment.set(LONG, offset + TradeLayout.TRADE_ID_OFFSET, tradeId);
        }

        void setClientId(long clientId) {
            segment.set(LONG, offset + TradeLayout.CLIENT_ID_OFFSET, clientId);
        }

        void setVenueCode(int venueCode) {
            segment.set(INT, offset + TradeLayout.VENUE_CODE_OFFSET, venueCode);
        }

        void setInstrumentCode(int instrumentCode) {
            segment.set(INT, offset + TradeLayout.INSTRUMENT_CODE_OFFSET, instrumentCode);
        }

        long getPrice() {
            return segment.get(LONG, offset + TradeLayout.PRICE_OFFSET);
        }

        void setPrice(long price) {
            segment.set(LONG, offset + TradeLayout.PRICE_OFFSET, price);
        }

        long getQuantity() {
            return segment.get(LONG, offset + TradeLayout.QUANTITY_OFFSET);
        }

        void setQuantity(long quantity) {
            segment.set(LONG, offset + TradeLayout.QUANTITY_OFFSET, quantity);
        }

        char getSide() {
            return segment.get(CHAR, offset + TradeLayout.SIDE_OFFSET);
        }

        void setSide(char side) {
            segment.set(CHAR, offset + TradeLayout.SIDE_OFFSET, side);
        }
    }
}
