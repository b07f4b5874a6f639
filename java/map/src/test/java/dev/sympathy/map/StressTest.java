package dev.sympathy.map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The stress schedule and values, pinned to the Rust stress module's. */
class StressTest {
    @Test
    void shouldMatchTheRustScheduleAndValues() {
        long[] keys = {418, 159, 561, 867};
        for (int j = 0; j < 4; j++) {
            assertFalse(Stress.isRemove(j));
            assertEquals(keys[j], Stress.key(1000, j));
        }
        int removes = 0;
        for (long j = 0; j < 8000; j++) {
            removes += Stress.isRemove(j) ? 1 : 0;
        }
        assertEquals(true, removes >= 900 && removes < 1100, "about 1 in 8: " + removes);
        byte[] v = Stress.valueOf(3, 5);
        assertEquals(66, v.length);
        assertEquals(21, v[16] & 0xff);
        assertEquals(225, v[17] & 0xff);
        assertEquals(41, v[18] & 0xff);
        assertEquals(186, v[19] & 0xff);
        assertEquals(5, Stress.checkValue(3, MemorySegment.ofArray(v)));
        v[v.length - 1] ^= 1;
        assertThrows(IllegalStateException.class, () -> Stress.checkValue(3, MemorySegment.ofArray(v)));
    }
}
