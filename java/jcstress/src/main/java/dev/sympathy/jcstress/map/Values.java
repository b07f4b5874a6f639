package dev.sympathy.jcstress.map;

import dev.sympathy.map.MapConfig;
import dev.sympathy.map.MapFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What the map's jcstress tests share: the smallest map (8 slots, 256 bytes of records), and
 * values whose length and every byte say which version they are, so a read grades itself: the
 * version of a whole value, 0 for absent, -1 for a torn one.
 */
final class Values {
    private Values() {}

    static final long KEY = 42;

    static MapFile map() {
        return MapFile.inMemory(new MapConfig(8, 256, 64, 0));
    }

    /** Version {@code v} (1..): {@code 8 * v} bytes, each {@code v}. */
    static byte[] value(int v) {
        byte[] bytes = new byte[8 * v];
        java.util.Arrays.fill(bytes, (byte) v);
        return bytes;
    }

    /** The version the value of {@link #KEY} read now is: 0 absent, -1 torn. */
    static int read(MapFile map) {
        MemorySegment value = map.get(KEY);
        if (value == null) {
            return 0;
        }
        long length = value.byteSize();
        if (length == 0 || length % 8 != 0) {
            return -1;
        }
        int v = (int) (length / 8);
        for (long i = 0; i < length; i++) {
            if (value.get(ValueLayout.JAVA_BYTE, i) != v) {
                return -1;
            }
        }
        return v;
    }
}
