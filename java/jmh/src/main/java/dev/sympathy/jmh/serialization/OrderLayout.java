package dev.sympathy.jmh.serialization;

/**
 * The fixed little-endian layout of one {@link Order}, shared by every binary codec
 * ({@code byte-buffer}, {@code unsafe}, {@code ffm}, {@code ring-claim}) and by the Rust side's
 * {@code hand-codec}, {@code zero-copy} and {@code ring-claim} (docs/serialization.md):
 *
 * <pre>
 *  0               8              12              16      17             24
 *  +---------------+--------------+---------------+-------+--------------+
 *  | sourceId i64  | orderCode i32| priority i32  |special| 7 pad bytes  |
 *  +---------------+--------------+---------------+-------+--------------+
 *  24                                                   104                     184
 *  +----------------------------------------------------+-----------------------+
 *  | prices f64[10]                                     | quantities i64[10]    |
 *  +----------------------------------------------------+-----------------------+
 * </pre>
 *
 * Every field sits at a multiple of its size, so a record at an 8-aligned address is fully
 * aligned. {@code special} is 0 or 1; a decoder rejects any other byte. Unlike the seed's
 * ByteBuffer format (185 bytes, with an int length before each array) the arrays have a fixed
 * length and no prefix.
 */
public final class OrderLayout {
    /** Elements in {@code prices} and in {@code quantities}. */
    public static final int ARRAY_LENGTH = 10;
    /** sourceId, i64. */
    public static final int SOURCE_ID_OFFSET = 0;
    /** orderCode, i32. */
    public static final int ORDER_CODE_OFFSET = 8;
    /** priority, i32. */
    public static final int PRIORITY_OFFSET = 12;
    /** special, u8: 0 or 1. */
    public static final int SPECIAL_OFFSET = 16;
    /** prices, f64[10]. */
    public static final int PRICES_OFFSET = 24;
    /** quantities, i64[10]. */
    public static final int QUANTITIES_OFFSET = PRICES_OFFSET + ARRAY_LENGTH * Double.BYTES;
    /** Bytes of one encoded order. */
    public static final int SIZE = QUANTITIES_OFFSET + ARRAY_LENGTH * Long.BYTES;

    static {
        if (QUANTITIES_OFFSET != 104 || SIZE != 184) {
            throw new AssertionError("order layout drifted: quantities @" + QUANTITIES_OFFSET + ", size " + SIZE);
        }
    }

    private OrderLayout() {
    }

    /** @throws IllegalArgumentException unless {@code length == ARRAY_LENGTH} */
    static void checkArrayLength(String name, int length) {
        if (length != ARRAY_LENGTH) {
            throw new IllegalArgumentException(name + " must hold " + ARRAY_LENGTH + " elements, got " + length);
        }
    }

    /** Decodes the special byte. @throws IllegalArgumentException unless it is 0 or 1 */
    static boolean special(byte value) {
        if (value == 0) {
            return false;
        }
        if (value == 1) {
            return true;
        }
        throw new IllegalArgumentException("special byte must be 0 or 1, got " + value);
    }
}
