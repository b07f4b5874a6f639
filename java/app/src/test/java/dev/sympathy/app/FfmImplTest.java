package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The echo's short copy out of the ring: every byte of 4..16-byte messages, at any alignment. */
class FfmImplTest {
    @Test
    void shouldCopyShortMessagesOutOfTheRingByteForByte() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(64);
            for (int k = 0; k < 64; k++) {
                ring.set(ValueLayout.JAVA_BYTE, k, (byte) (k * 7 + 1));
            }
            for (int length = 4; length <= 16; length++) {
                for (long offset = 0; offset < 8; offset++) {
                    byte[] dst = new byte[20];
                    Arrays.fill(dst, (byte) -1);
                    FfmImpl.copyShort(ring, offset, dst, length);
                    byte[] expected = new byte[20];
                    Arrays.fill(expected, (byte) -1);
                    MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, offset, expected, 0, length);
                    assertArrayEquals(expected, dst, length + " bytes at offset " + offset);
                }
            }
        }
    }
}
