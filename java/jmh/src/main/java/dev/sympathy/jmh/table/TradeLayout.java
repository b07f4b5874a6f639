package dev.sympathy.jmh.table;

import java.math.BigInteger;

/**
 * The packed trade record of the seed's off-heap table (000, "Compact Off-Heap Structures"):
 * 42 bytes, no padding, records back to back.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       tradeId (8 bytes)                       |  0
 * |                      clientId (8 bytes)                       |  8
 * |     venueCode (4 bytes)       |    instrumentCode (4 bytes)   | 16
 * |                        price (8 bytes)                        | 24
 * |                      quantity (8 bytes)                       | 32
 * |  side (2 bytes) |                                                40
 * +-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <pre>{@code
 * long at = base + index * TradeLayout.RECORD_SIZE + TradeLayout.PRICE_OFFSET;
 * }</pre>
 */
public final class TradeLayout {
    /** {@code long tradeId}. */
    public static final int TRADE_ID_OFFSET = 0;
    /** {@code long clientId}. */
    public static final int CLIENT_ID_OFFSET = 8;
    /** {@code int venueCode}. */
    public static final int VENUE_CODE_OFFSET = 16;
    /** {@code int instrumentCode}. */
    public static final int INSTRUMENT_CODE_OFFSET = 20;
    /** {@code long price}. */
    public static final int PRICE_OFFSET = 24;
    /** {@code long quantity}. */
    public static final int QUANTITY_OFFSET = 32;
    /** {@code char side}: 'B' or 'S'. */
    public static final int SIDE_OFFSET = 40;
    /** Bytes per record. */
    public static final int RECORD_SIZE = 42;

    /** The seed's venue, "XLON", packed big-end first. */
    public static final int VENUE_CODE = pack(new byte[] {'X', 'L', 'O', 'N'});
    /** The seed's instrument, "BHP". */
    public static final int INSTRUMENT_CODE = pack(new byte[] {'B', 'H', 'P'});

    private TradeLayout() {
    }

    /**
     * The seed's {@code pack}: up to four ASCII bytes into an int, first byte highest.
     *
     * @throws IllegalArgumentException when {@code value} has no or more than four bytes
     */
    public static int pack(byte[] value) {
        if (value.length < 1 || value.length > 4) {
            throw new IllegalArgumentException("pack takes 1 to 4 bytes, got " + value.length);
        }
        int result = 0;
        for (int i = 0; i < value.length; i++) {
            result |= (value[i] & 0xff) << (24 - 8 * i);
        }
        return result;
    }

    /** Checks a record count: positive and small enough for 42-byte records in one allocation. */
    public static void checkRecords(int records) {
        if (records <= 0) {
            throw new IllegalArgumentException("struct-table: records must be positive, got " + records);
        }
    }

    /**
     * The seed's buyCost: the sum of {@code i * i} over even {@code i < records} (price = quantity = i,
     * side 'B' for even i), wrapped to 64 bits as the seed's {@code long} arithmetic wraps.
     */
    public static long expectedBuyCost(long records) {
        final long evens = (records + 1) / 2; // i = 2k for k in [0, evens)
        return BigInteger.valueOf(4).multiply(sumOfSquares(evens - 1)).longValue();
    }

    /** The seed's sellCost: the sum of {@code i * i} over odd {@code i < records}, wrapped. */
    public static long expectedSellCost(long records) {
        return sumOfSquares(records - 1).longValue() - expectedBuyCost(records);
    }

    /** {@code 0^2 + 1^2 + ... + n^2} exactly. */
    private static BigInteger sumOfSquares(long n) {
        if (n < 0) {
            return BigInteger.ZERO;
        }
        final BigInteger big = BigInteger.valueOf(n);
        return big.multiply(big.add(BigInteger.ONE)).multiply(big.shiftLeft(1).add(BigInteger.ONE))
                .divide(BigInteger.valueOf(6));
    }
}
