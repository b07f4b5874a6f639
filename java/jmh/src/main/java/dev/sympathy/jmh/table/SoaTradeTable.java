package dev.sympathy.jmh.table;

/**
 * {@code soa}: a structure of arrays, one heap array per field (a column store), as Rust's
 * {@code SoaTable}: 42 bytes per record with no object header or reference, and a query that
 * reads only the side, price and quantity columns.
 *
 * <pre>{@code
 * try (TradeTable table = new SoaTradeTable(1000)) {
 *     table.init();
 *     long[] costs = table.query(); // {buyCost, sellCost}
 * }
 * }</pre>
 */
public final class SoaTradeTable implements TradeTable {
    private final int records;
    private long[] tradeId;
    private long[] clientId;
    private int[] venueCode;
    private int[] instrumentCode;
    private long[] price;
    private long[] quantity;
    private char[] side;

    public SoaTradeTable(int records) {
        TradeLayout.checkRecords(records);
        this.records = records;
    }

    @Override
    public void init() {
        tradeId = new long[records];
        clientId = new long[records];
        venueCode = new int[records];
        instrumentCode = new int[records];
        price = new long[records];
        quantity = new long[records];
        side = new char[records];
        final int venue = TradeLayout.VENUE_CODE;
        final int instrument = TradeLayout.INSTRUMENT_CODE;
        // one loop writing every column, as the seed's init writes every field of a trade
        for (int i = 0; i < records; i++) {
            tradeId[i] = i;
            clientId[i] = 1;
            venueCode[i] = venue;
            instrumentCode[i] = instrument;
            price[i] = i;
            quantity[i] = i;
            side[i] = (i & 1) == 0 ? 'B' : 'S';
        }
    }

    @Override
    public long[] query() {
        long buyCost = 0;
        long sellCost = 0;
        final char[] sides = side;
        final long[] prices = price;
        final long[] quantities = quantity;
        for (int i = 0; i < records; i++) {
            if (sides[i] == 'B') {
                buyCost += prices[i] * quantities[i];
            } else {
                sellCost += prices[i] * quantities[i];
            }
        }
        return new long[] {buyCost, sellCost};
    }

    @Override
    public void close() {
        tradeId = null;
        clientId = null;
        venueCode = null;
        instrumentCode = null;
        price = null;
        quantity = null;
        side = null;
    }
}
