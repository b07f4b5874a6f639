package dev.sympathy.jmh.serialization;

import static dev.sympathy.jmh.serialization.OrderLayout.ARRAY_LENGTH;
import static dev.sympathy.jmh.serialization.OrderLayout.ORDER_CODE_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRICES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRIORITY_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.QUANTITIES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SIZE;
import static dev.sympathy.jmh.serialization.OrderLayout.SOURCE_ID_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SPECIAL_OFFSET;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code byte-buffer}: the seed's second case, a heap {@link ByteBuffer} written field by field
 * (every access bounds-checked), here little-endian at the fixed offsets of {@link OrderLayout}.
 */
final class ByteBufferCodec implements OrderCodec {
    private final ByteBuffer buffer = ByteBuffer.allocate(BATCH * SIZE).order(ByteOrder.LITTLE_ENDIAN);

    @Override
    public String variant() {
        return "byte-buffer";
    }

    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        final ByteBuffer buffer = this.buffer;
        for (int i = 0; i < n; i++) {
            final Order order = orders[i];
            final int at = i * SIZE;
            buffer.putLong(at + SOURCE_ID_OFFSET, order.sourceId());
            buffer.putInt(at + ORDER_CODE_OFFSET, order.orderCode());
            buffer.putInt(at + PRIORITY_OFFSET, order.priority());
            buffer.putLong(at + SPECIAL_OFFSET, order.special() ? 1L : 0L); // the byte and its 7 pad bytes
            final double[] prices = order.prices();
            for (int j = 0; j < ARRAY_LENGTH; j++) {
                buffer.putDouble(at + PRICES_OFFSET + j * Double.BYTES, prices[j]);
            }
            final long[] quantities = order.quantities();
            for (int j = 0; j < ARRAY_LENGTH; j++) {
                buffer.putLong(at + QUANTITIES_OFFSET + j * Long.BYTES, quantities[j]);
            }
        }
    }

    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        final ByteBuffer buffer = this.buffer;
        for (int i = 0; i < n; i++) {
            final int at = i * SIZE;
            final double[] prices = new double[ARRAY_LENGTH];
            for (int j = 0; j < ARRAY_LENGTH; j++) {
                prices[j] = buffer.getDouble(at + PRICES_OFFSET + j * Double.BYTES);
            }
            final long[] quantities = new long[ARRAY_LENGTH];
            for (int j = 0; j < ARRAY_LENGTH; j++) {
                quantities[j] = buffer.getLong(at + QUANTITIES_OFFSET + j * Long.BYTES);
            }
            out[i] = new Order(buffer.getLong(at + SOURCE_ID_OFFSET), OrderLayout.special(buffer.get(at + SPECIAL_OFFSET)),
                    buffer.getInt(at + ORDER_CODE_OFFSET), buffer.getInt(at + PRIORITY_OFFSET), prices, quantities);
        }
    }

    /** A copy of slot {@code slot}'s bytes (tests compare the codecs byte for byte). */
    byte[] copyOfSlot(int slot) {
        final byte[] out = new byte[SIZE];
        buffer.get(slot * SIZE, out);
        return out;
    }
}
