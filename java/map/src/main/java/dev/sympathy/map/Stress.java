package dev.sympathy.map;

import dev.sympathy.map.user.Users;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;

/**
 * The self-checking operations of the stress and crash tests, the same as the Rust
 * {@code sympathy_map::stress}, so that a writer in one language and a reader in the other
 * check each other: operation {@code j} of a schedule is a put of version {@code j} of a key, or
 * a remove, and every value says which key and version it is.
 *
 * <pre>{@code
 * long key = Stress.key(keys, j);
 * if (Stress.isRemove(j)) writer.remove(key); else writer.put(key, Stress.valueOf(key, j));
 * }</pre>
 */
public final class Stress {
    private Stress() {}

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static long draw(long j) {
        return Users.mix(j ^ 0x5bd1_e995L);
    }

    /** The key of operation {@code j} over {@code keys} keys. */
    public static long key(long keys, long j) {
        return Long.remainderUnsigned(draw(j), Math.max(1, keys));
    }

    /** Whether operation {@code j} removes its key (1 in 8); otherwise it puts version {@code j}. */
    public static boolean isRemove(long j) {
        return ((draw(j) >>> 32) & 7) == 7;
    }

    /** The value of {@code key} at {@code version}: 16 to 71 bytes, key, version, pattern. */
    public static byte[] valueOf(long key, long version) {
        int length = 16 + (int) Long.remainderUnsigned(Users.mix(key ^ Long.rotateLeft(version, 17)), 56);
        byte[] bytes = new byte[length];
        MemorySegment s = MemorySegment.ofArray(bytes);
        s.set(LONG, 0, key);
        s.set(LONG, 8, version);
        long x = key * 31 + version;
        for (int i = 16; i < length; i++) {
            x = Users.mix(x);
            bytes[i] = (byte) x;
        }
        return bytes;
    }

    /**
     * The version of a value {@link #valueOf} made for {@code key}.
     *
     * @throws IllegalStateException saying what is wrong: too short, another key's, or torn
     */
    public static long checkValue(long key, MemorySegment value) {
        if (value.byteSize() < 16) {
            throw new IllegalStateException("key " + Long.toUnsignedString(key) + ": a value of " + value.byteSize()
                    + " bytes (at least 16)");
        }
        long foundKey = value.get(LONG, 0);
        long version = value.get(LONG, 8);
        byte[] expected = valueOf(key, version);
        if (foundKey != key || value.byteSize() != expected.length
                || value.mismatch(MemorySegment.ofArray(expected)) >= 0) {
            throw new IllegalStateException("key " + Long.toUnsignedString(key) + ": a torn or foreign value ("
                    + value.byteSize() + " bytes, saying key " + Long.toUnsignedString(foundKey) + " version "
                    + Long.toUnsignedString(version) + ")");
        }
        return version;
    }

    /**
     * What a reader checks of every read while a writer applies a schedule: each value whole and
     * no key's version going back (the Rust {@code Verifier}).
     */
    public static final class Verifier {
        private final Map<Long, Long> last = new HashMap<>();
        private long reads;
        private long hits;

        /**
         * Checks one read of {@code key} ({@code value} null when absent).
         *
         * @throws IllegalStateException for a torn or foreign value, or a version going back
         */
        public void check(long key, MemorySegment value) {
            reads++;
            if (value == null) {
                return;
            }
            hits++;
            long version = checkValue(key, value);
            Long before = last.put(key, version);
            if (before != null && Long.compareUnsigned(version, before) < 0) {
                throw new IllegalStateException("key " + key + ": read version " + version + " after version " + before
                        + ": a value went back");
            }
        }

        /** Reads checked. */
        public long reads() {
            return reads;
        }

        /** Of which found a value. */
        public long hits() {
            return hits;
        }
    }
}
