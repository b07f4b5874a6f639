package dev.sympathy.jmh.table;

/**
 * {@code boxed}: the seed's {@code TestJavaMemoryLayout}, an array of references to one
 * {@link Trade} object per record.
 */
public final class BoxedTradeTable implements TradeTable {
    private final int records;
    private Trade[] trades;

    public BoxedTradeTable(int records) {
        TradeLayout.checkRecords(records);
        this.records = records;
    }

    @Override
    public void init() {
        trades = new Trade[records];
        final int venueCode = TradeLayout.VENUE_CODE;
        final int instrumentCode = TradeLayout.INSTRUMENT_CODE;
        for (int i = 0; i < records; i++) {
            final Trade trade = new Trade();
            trades[i] = trade;
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
            final Trade trade = trades[i];
            if (trade.getSide() == 'B') {
                buyCost += trade.getPrice() * trade.getQuantity();
            } else {
                sellCost += trade.getPrice() * trade.getQuantity();
            }
        }
        return new long[] {buyCost, sellCost};
    }

    @Override
    public void close() {
        trades = null;
    }

    /** The seed's {@code JavaMemoryTrade}. */
    static final class Trade {
        private long tradeId;
        private long clientId;
        private int venueCode;
        private int instrumentCode;
        private long price;
        private long quantity;
        private char side;

        long getTradeId() {
            return tradeId;
        }

        void setTradeId(long tradeId) {
            this.tradeId = tradeId;
        }

        long getClientId() {
            return clientId;
        }

        void setClientId(long clientId) {
            this.clientId = clientId;
        }

        int getVenueCode() {
            return venueCode;
        }

        void setVenueCode(int venueCode) {
            this.venueCode = venueCode;
        }

        int getInstrumentCode() {
            return instrumentCode;
        }

        void setInstrumentCode(int instrumentCode) {
            this.instrumentCode = instrumentCode;
        }

        long getPrice() {
            return price;
        }

        void setPrice(long price) {
            this.price = price;
        }

        long getQuantity() {
            return quantity;
        }

        void setQuantity(long quantity) {
            this.quantity = quantity;
        }

        char getSide() {
            return side;
        }

        void setSide(char side) {
            this.side = side;
        }
    }
}
