package dev.sympathy.app;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The test-message pattern shared with the Rust side ({@code sympathy ring produce} and
 * {@code consume}): message {@code i} of {@code S} bytes (4 <= S) carries the low
 * {@code min(8, S)} bytes of {@code i} little-endian, then byte {@code k} (k >= 8) is {@code (i + k) mod 256}.
 *
 * <pre>{@code
 * byte[] m = new byte[12];
 * TestPattern.fill(m, 300, 12);   // 2c 01 00 00 00 00 00 00 34 35 36 37
 * }</pre>
 */
final class TestPattern {
    /** Smallest test message: room for the low 4 bytes of the index. */
    static final int MIN_SIZE = 4;

    private static final VarHandle ARRAY_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN).withInvokeExactBehavior();
    private static final VarHandle ARRAY_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN).withInvokeExactBehavior();

    private TestPattern() {}

    /** Writes message {@code index} of {@code size} bytes into {@code dst[0, size)}. */
    static void fill(byte[] dst, long index, int size) {
        // The index in one store, not byte by byte: a ring write then loads it as one word, and a
        // word load over several byte stores still in the store buffer cannot be forwarded from
        // them (it waits until they reach the cache, ~10-15 cycles per message).
        if (size >= 8) {
            ARRAY_LONG.set(dst, 0, index);
        } else {
            ARRAY_INT.set(dst, 0, (int) index); // size >= MIN_SIZE = 4
            for (int k = 4; k < size; k++) {
                dst[k] = (byte) (index >>> (8 * k));
            }
        }
        for (int k = 8; k < size; k++) {
            dst[k] = (byte) (index + k);
        }
    }

    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Writes message {@code index} of {@code size} bytes into {@code dst} at {@code offset}: the
     * same bytes as {@link #fill(byte[], long, int)}, in place (a claim, a batch's record).
     */
    static void fill(MemorySegment dst, long offset, long index, int size) {
        if (size >= 8) {
            dst.set(LONG_LE, offset, index);
        } else {
            dst.set(INT_LE, offset, (int) index); // size >= MIN_SIZE = 4
            for (int k = 4; k < size; k++) {
                dst.set(ValueLayout.JAVA_BYTE, offset + k, (byte) (index >>> (8 * k)));
            }
        }
        for (int k = 8; k < size; k++) {
            dst.set(ValueLayout.JAVA_BYTE, offset + k, (byte) (index + k));
        }
    }

    /** The first min(8, size) bytes of message {@code index} as a little-endian value. */
    static long head(long index, int size) {
        int bits = 8 * Math.min(8, size);
        return bits == 64 ? index : index & ((1L << bits) - 1);
    }

    /** Byte {@code k} (k >= 8) of message {@code index}. */
    static byte tailByte(long index, int k) {
        return (byte) (index + k);
    }
}
