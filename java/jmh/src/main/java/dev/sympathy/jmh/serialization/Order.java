package dev.sympathy.jmh.serialization;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The seed's {@code ObjectToBeSerialised} (000, "Native C/C++ Like Performance For Java Object
 * Serialisation"): an order of sourceId, special, orderCode, priority, ten prices and ten
 * quantities. {@code Serializable} for the {@code java-serialization} variant; the binary codecs
 * write it in the fixed 184-byte layout of {@link OrderLayout}, so both arrays hold exactly
 * {@value OrderLayout#ARRAY_LENGTH} elements.
 *
 * <pre>{@code
 * Order item = Order.seedItem();            // 1010, true, 777, 99, {0.1 .. 1.0}, {1 .. 10}
 * Order other = Order.random(new SplittableRandom(9));
 * }</pre>
 */
public final class Order implements Serializable {
    @Serial
    private static final long serialVersionUID = 10275539472837495L; // the seed's

    private final long sourceId;
    private final boolean special;
    private final int orderCode;
    private final int priority;
    private final double[] prices;
    private final long[] quantities;

    /**
     * @throws IllegalArgumentException when an array is not {@value OrderLayout#ARRAY_LENGTH} long
     * @throws NullPointerException when an array is null
     */
    public Order(long sourceId, boolean special, int orderCode, int priority, double[] prices, long[] quantities) {
        OrderLayout.checkArrayLength("prices", Objects.requireNonNull(prices, "prices").length);
        OrderLayout.checkArrayLength("quantities", Objects.requireNonNull(quantities, "quantities").length);
        this.sourceId = sourceId;
        this.special = special;
        this.orderCode = orderCode;
        this.priority = priority;
        this.prices = prices;
        this.quantities = quantities;
    }

    /** The seed's {@code ITEM}: {@code (1010L, true, 777, 99, {0.1, ..., 1.0}, {1, ..., 10})}. */
    public static Order seedItem() {
        return new Order(1010L, true, 777, 99,
                new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0},
                new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    }

    /** An order with every field drawn from {@code random}, prices as arbitrary bit patterns. */
    public static Order random(SplittableRandom random) {
        final double[] prices = new double[OrderLayout.ARRAY_LENGTH];
        final long[] quantities = new long[OrderLayout.ARRAY_LENGTH];
        for (int i = 0; i < OrderLayout.ARRAY_LENGTH; i++) {
            prices[i] = random.nextInt(4) == 0 ? Double.longBitsToDouble(random.nextLong()) : random.nextDouble() * 1e6;
            quantities[i] = random.nextLong();
        }
        return new Order(random.nextLong(), random.nextBoolean(), random.nextInt(), random.nextInt(), prices, quantities);
    }

    public long sourceId() {
        return sourceId;
    }

    public boolean special() {
        return special;
    }

    public int orderCode() {
        return orderCode;
    }

    public int priority() {
        return priority;
    }

    /** The prices array itself (codecs copy it; callers must not change it). */
    double[] prices() {
        return prices;
    }

    /** The quantities array itself (codecs copy it; callers must not change it). */
    long[] quantities() {
        return quantities;
    }

    /** Price {@code i}. */
    public double price(int i) {
        return prices[i];
    }

    /** Quantity {@code i}. */
    public long quantity(int i) {
        return quantities[i];
    }

    /** Every field equal; prices compared as {@link Arrays#equals(double[], double[])} does (bit patterns, NaNs equal). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Order that)) {
            return false;
        }
        return sourceId == that.sourceId && special == that.special && orderCode == that.orderCode
                && priority == that.priority && Arrays.equals(prices, that.prices)
                && Arrays.equals(quantities, that.quantities);
    }

    /** The schema's order's hash of these fields ({@link dev.sympathy.messages.Order#hash}). */
    @Override
    public int hashCode() {
        return dev.sympathy.messages.Order.hash(sourceId, special, orderCode, priority, prices, quantities);
    }

    /**
     * The schema's order's text of these fields ({@link dev.sympathy.messages.Order#text}), which
     * never throws: a deserialized order may hold arrays of any length.
     */
    @Override
    public String toString() {
        return dev.sympathy.messages.Order.text(sourceId, special, orderCode, priority, prices, quantities);
    }
}
