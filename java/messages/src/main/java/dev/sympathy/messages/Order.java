package dev.sympathy.messages;

import java.util.Arrays;
import java.util.Objects;

/**
 * The serialization experiment's order (the schema's {@code Order}, template 1): the seed's
 * {@code ObjectToBeSerialised} with exactly ten prices and ten quantities.
 *
 * <pre>{@code
 * Order order = Order.seed();      // 1010, true, 777, 99, {0.1 .. 1.0}, {1 .. 10}
 * }</pre>
 *
 * @param prices ten prices (not copied: do not change the array)
 * @param quantities ten quantities (not copied)
 */
public record Order(long sourceId, boolean special, int orderCode, int priority, double[] prices, long[] quantities) {
    /** Elements of each array. */
    public static final int ARRAY_LENGTH = 10;

    /** @throws IllegalArgumentException when an array does not hold ten elements */
    public Order {
        if (Objects.requireNonNull(prices, "prices").length != ARRAY_LENGTH
                || Objects.requireNonNull(quantities, "quantities").length != ARRAY_LENGTH) {
            throw new IllegalArgumentException("an order holds " + ARRAY_LENGTH + " prices and " + ARRAY_LENGTH
                    + " quantities, got " + prices.length + " and " + quantities.length);
        }
    }

    /** The seed's {@code ITEM}: {@code (1010, true, 777, 99, {0.1, ..., 1.0}, {1, ..., 10})}. */
    public static Order seed() {
        return new Order(1010, true, 777, 99, new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0},
                new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    }

    /** Every field equal (prices as {@link Arrays#equals(double[], double[])} compares them). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Order that && sourceId == that.sourceId && special == that.special
                && orderCode == that.orderCode && priority == that.priority && Arrays.equals(prices, that.prices)
                && Arrays.equals(quantities, that.quantities);
    }

    @Override
    public int hashCode() {
        return hash(sourceId, special, orderCode, priority, prices, quantities);
    }

    @Override
    public String toString() {
        return text(sourceId, special, orderCode, priority, prices, quantities);
    }

    /**
     * The hash of an order of these fields (the record's {@link #hashCode}), of any arrays, null
     * or of any length included: an order held elsewhere without this record's checks (one read
     * from a corrupt stream) hashes here as the same order would.
     */
    public static int hash(long sourceId, boolean special, int orderCode, int priority, double[] prices,
            long[] quantities) {
        return Objects.hash(sourceId, special, orderCode, priority, Arrays.hashCode(prices), Arrays.hashCode(quantities));
    }

    /**
     * The text of an order of these fields (the record's {@link #toString}):
     * {@code Order[sourceId=1010, special=true, ..., quantities=[1, 2, ...]]}. It never throws,
     * whatever the arrays (null or of any length), so that the text of a corrupt order can say
     * what is wrong with it.
     */
    public static String text(long sourceId, boolean special, int orderCode, int priority, double[] prices,
            long[] quantities) {
        return "Order[sourceId=" + sourceId + ", special=" + special + ", orderCode=" + orderCode + ", priority="
                + priority + ", prices=" + Arrays.toString(prices) + ", quantities=" + Arrays.toString(quantities) + "]";
    }
}
