package dev.sympathy.jmh.serialization;

/**
 * One way of writing orders out and reading them back: each codec owns room for
 * {@value #BATCH} encoded orders (the seed wrote one item into one buffer; a batch keeps every
 * round trip checkable while the buffers stay in L1/L2). {@link #writeBatch} encodes orders
 * {@code 0..n} into slots {@code 0..n}; {@link #readBatch} decodes those slots into new objects.
 *
 * <pre>{@code
 * try (OrderCodec codec = OrderCodecs.create("ffm")) {
 *     codec.writeBatch(orders, n);
 *     codec.readBatch(decoded, n);      // decoded[i].equals(orders[i])
 * }
 * }</pre>
 */
public interface OrderCodec extends AutoCloseable {
    /** Orders one batch holds. */
    int BATCH = 256;

    /** The results-schema variant name. */
    String variant();

    /**
     * Encodes {@code orders[0..n)}, order {@code i} into slot {@code i}.
     *
     * @throws IllegalArgumentException when n is outside 0..{@value #BATCH}
     */
    void writeBatch(Order[] orders, int n);

    /**
     * Decodes slots {@code 0..n)} (as the last {@link #writeBatch} wrote them) into {@code out[0..n)}.
     *
     * @throws IllegalArgumentException when n is outside 0..{@value #BATCH} or a slot holds an invalid encoding
     */
    void readBatch(Order[] out, int n);

    /**
     * Bytes the last order written took: by default {@value OrderLayout#SIZE}, the size of the
     * fixed {@link OrderLayout} that the binary codecs write as it is; a codec that writes
     * another size ({@code sbe}'s header, {@code java-serialization}'s stream) says its own.
     */
    default int encodedBytes() {
        return OrderLayout.SIZE;
    }

    /**
     * Frees what the codec holds (off-heap memory, a ring file); idempotent. By default nothing:
     * a codec of heap buffers, or of a direct buffer the collector frees, holds nothing to free.
     */
    @Override
    default void close() {
    }

    /** @throws IllegalArgumentException when {@code n} is outside 0..{@value #BATCH} */
    static void checkBatch(int n) {
        if (n < 0 || n > BATCH) {
            throw new IllegalArgumentException("a batch holds 0.." + BATCH + " orders, got " + n);
        }
    }
}
