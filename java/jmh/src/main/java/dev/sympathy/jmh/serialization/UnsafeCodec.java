package dev.sympathy.jmh.serialization;

import static dev.sympathy.jmh.serialization.OrderLayout.ARRAY_LENGTH;
import static dev.sympathy.jmh.serialization.OrderLayout.ORDER_CODE_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRICES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.PRIORITY_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.QUANTITIES_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SIZE;
import static dev.sympathy.jmh.serialization.OrderLayout.SOURCE_ID_OFFSET;
import static dev.sympathy.jmh.serialization.OrderLayout.SPECIAL_OFFSET;
import static dev.sympathy.jmh.support.UnsafeHandles.rethrow;

import dev.sympathy.jmh.support.UnsafeHandles;
import java.lang.invoke.MethodHandle;
import java.nio.ByteOrder;

/**
 * {@code unsafe}: the seed's {@code UnsafeMemory} case: a heap {@code byte[]} written and read
 * with {@code sun.misc.Unsafe} at array-base-relative offsets, arrays moved with
 * {@code copyMemory} (no bounds checks: {@link OrderCodec#checkBatch} keeps every slot inside the
 * array). Unsafe writes native order, so this codec refuses a big-endian machine (the layout is
 * little-endian).
 *
 * <p>As in {@code table/UnsafeTradeTable}, Unsafe is reached through {@code static final} method
 * handles (javac's "internal proprietary API" warning cannot be suppressed under {@code -Werror});
 * C2 inlines them to the same intrinsics. JDK 24+ needs {@code --sun-misc-unsafe-memory-access=allow}
 * (JEP 471) to run it without a warning; the runner passes it to the serialization forks.
 */
final class UnsafeCodec implements OrderCodec {
    private static final MethodHandle GET_LONG = UnsafeHandles.bound("getLong", long.class, Object.class, long.class);
    private static final MethodHandle PUT_LONG =
            UnsafeHandles.bound("putLong", void.class, Object.class, long.class, long.class);
    private static final MethodHandle GET_INT = UnsafeHandles.bound("getInt", int.class, Object.class, long.class);
    private static final MethodHandle PUT_INT =
            UnsafeHandles.bound("putInt", void.class, Object.class, long.class, int.class);
    private static final MethodHandle GET_BYTE = UnsafeHandles.bound("getByte", byte.class, Object.class, long.class);
    private static final MethodHandle COPY_MEMORY = UnsafeHandles.bound("copyMemory", void.class,
            Object.class, long.class, Object.class, long.class, long.class);
    private static final long BYTE_ARRAY_OFFSET = arrayBaseOffset(byte[].class);
    private static final long LONG_ARRAY_OFFSET = arrayBaseOffset(long[].class);
    private static final long DOUBLE_ARRAY_OFFSET = arrayBaseOffset(double[].class);

    private static long arrayBaseOffset(Class<?> arrayClass) {
        try {
            return (int) UnsafeHandles.bound("arrayBaseOffset", int.class, Class.class).invokeExact(arrayClass);
        } catch (Throwable e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final long ARRAY_BYTES = (long) ARRAY_LENGTH * Long.BYTES;

    private final byte[] buffer = new byte[BATCH * SIZE];

    /** @throws UnsupportedOperationException on a big-endian machine */
    UnsafeCodec() {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new UnsupportedOperationException("unsafe: Unsafe writes native order and this machine is big-endian;"
                    + " the order layout is little-endian");
        }
    }

    @Override
    public String variant() {
        return "unsafe";
    }

    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        final byte[] buffer = this.buffer;
        try {
            for (int i = 0; i < n; i++) {
                final Order order = orders[i];
                // SAFETY: i < BATCH, so [at, at + SIZE) lies inside buffer.
                final long at = BYTE_ARRAY_OFFSET + (long) i * SIZE;
                PUT_LONG.invokeExact((Object) buffer, at + SOURCE_ID_OFFSET, order.sourceId());
                PUT_INT.invokeExact((Object) buffer, at + ORDER_CODE_OFFSET, order.orderCode());
                PUT_INT.invokeExact((Object) buffer, at + PRIORITY_OFFSET, order.priority());
                PUT_LONG.invokeExact((Object) buffer, at + SPECIAL_OFFSET, order.special() ? 1L : 0L); // byte + 7 pad
                COPY_MEMORY.invokeExact((Object) order.prices(), DOUBLE_ARRAY_OFFSET, (Object) buffer, at + PRICES_OFFSET, ARRAY_BYTES);
                COPY_MEMORY.invokeExact((Object) order.quantities(), LONG_ARRAY_OFFSET, (Object) buffer, at + QUANTITIES_OFFSET,
                        ARRAY_BYTES);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        final byte[] buffer = this.buffer;
        try {
            for (int i = 0; i < n; i++) {
                // SAFETY: i < BATCH, so [at, at + SIZE) lies inside buffer; the new arrays hold ARRAY_BYTES each.
                final long at = BYTE_ARRAY_OFFSET + (long) i * SIZE;
                final double[] prices = new double[ARRAY_LENGTH];
                COPY_MEMORY.invokeExact((Object) buffer, at + PRICES_OFFSET, (Object) prices, DOUBLE_ARRAY_OFFSET, ARRAY_BYTES);
                final long[] quantities = new long[ARRAY_LENGTH];
                COPY_MEMORY.invokeExact((Object) buffer, at + QUANTITIES_OFFSET, (Object) quantities, LONG_ARRAY_OFFSET, ARRAY_BYTES);
                final long sourceId = (long) GET_LONG.invokeExact((Object) buffer, at + SOURCE_ID_OFFSET);
                final byte special = (byte) GET_BYTE.invokeExact((Object) buffer, at + SPECIAL_OFFSET);
                final int orderCode = (int) GET_INT.invokeExact((Object) buffer, at + ORDER_CODE_OFFSET);
                final int priority = (int) GET_INT.invokeExact((Object) buffer, at + PRIORITY_OFFSET);
                out[i] = new Order(sourceId, OrderLayout.special(special), orderCode, priority, prices, quantities);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A copy of slot {@code slot}'s bytes (tests compare the codecs byte for byte). */
    byte[] copyOfSlot(int slot) {
        return java.util.Arrays.copyOfRange(buffer, slot * SIZE, (slot + 1) * SIZE);
    }
}
