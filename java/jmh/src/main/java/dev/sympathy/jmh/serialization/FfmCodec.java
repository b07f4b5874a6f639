package dev.sympathy.jmh.serialization;

import static dev.sympathy.jmh.serialization.OrderLayout.ARRAY_LENGTH;
import static dev.sympathy.jmh.serialization.OrderLayout.ORDER_CODE_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRICES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRIORITY_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.QUANTITIES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SIZE;
import static dev.sympathy.jmh.serialization.OrderLayout.SOURCE_ID_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SPECIAL_OFFSET;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * {@code ffm}: the seed's Unsafe case rebuilt on the FFM API: orders in one off-heap
 * {@link MemorySegment}, fields through little-endian {@link ValueLayout}s (bounds- and
 * alignment-checked, the checks hoisted by C2), arrays by {@code MemorySegment.copy}.
 * {@link #encode}/{@link #decode} also serve {@code ring-claim}, in place in a ring record.
 */
final class FfmCodec implements OrderCodec {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Arena arena = Arena.ofShared();
    private final MemorySegment segment = arena.allocate((long) BATCH * SIZE, Long.BYTES);

    @Override
    public String variant() {
        return "ffm";
    }

    /**
     * Writes {@code order} at {@code offset} of {@code segment}.
     *
     * @throws IndexOutOfBoundsException when the record does not fit
     * @throws IllegalArgumentException when {@code segment.address() + offset} is not 8-aligned
     */
    static void encode(MemorySegment segment, long offset, Order order) {
        segment.set(LONG, offset + SOURCE_ID_OFFSET, order.sourceId());
        segment.set(INT, offset + ORDER_CODE_OFFSET, order.orderCode());
        segment.set(INT, offset + PRIORITY_OFFSET, order.priority());
        segment.set(LONG, offset + SPECIAL_OFFSET, order.special() ? 1L : 0L); // the byte and its 7 pad bytes
        MemorySegment.copy(order.prices(), 0, segment, DOUBLE, offset + PRICES_OFFSET, ARRAY_LENGTH);
        MemorySegment.copy(order.quantities(), 0, segment, LONG, offset + QUANTITIES_OFFSET, ARRAY_LENGTH);
    }

    /**
     * Reads the order at {@code offset} of {@code segment} into a new object.
     *
     * @throws IndexOutOfBoundsException when the record does not fit
     * @throws IllegalArgumentException when the special byte is neither 0 nor 1, or the record is misaligned
     */
    static Order decode(MemorySegment segment, long offset) {
        final double[] prices = new double[ARRAY_LENGTH];
        MemorySegment.copy(segment, DOUBLE, offset + PRICES_OFFSET, prices, 0, ARRAY_LENGTH);
        final long[] quantities = new long[ARRAY_LENGTH];
        MemorySegment.copy(segment, LONG, offset + QUANTITIES_OFFSET, quantities, 0, ARRAY_LENGTH);
        return new Order(segment.get(LONG, offset + SOURCE_ID_OFFSET),
                OrderLayout.special(segment.get(ValueLayout.JAVA_BYTE, offset + SPECIAL_OFFSET)),
                segment.get(INT, offset + ORDER_CODE_OFFSET), segment.get(INT, offset + PRIORITY_OFFSET),
                prices, quantities);
    }

    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        final MemorySegment segment = this.segment;
        for (int i = 0; i < n; i++) {
            encode(segment, (long) i * SIZE, orders[i]);
        }
    }

    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        final MemorySegment segment = this.segment;
        for (int i = 0; i < n; i++) {
            out[i] = decode(segment, (long) i * SIZE);
        }
    }

    /** A copy of slot {@code slot}'s bytes (tests compare the codecs byte for byte). */
    byte[] copyOfSlot(int slot) {
        return segment.asSlice((long) slot * SIZE, SIZE).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public void close() {
        if (segment.scope().isAlive()) {
            arena.close();
        }
    }
}
