package dev.sympathy.app;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.ring.RingFile;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The pattern shared with Rust, byte for byte, and the checks that verify it. */
class TestPatternTest {
    @Test
    void shouldCarryTheIndexLittleEndianThenIndexPlusPosition() {
        byte[] m = new byte[12];
        TestPattern.fill(m, 300, 12);
        assertArrayEquals(new byte[] {0x2c, 0x01, 0, 0, 0, 0, 0, 0, 0x34, 0x35, 0x36, 0x37}, m);
        byte[] four = new byte[4];
        TestPattern.fill(four, 0x1_0203_0405L, 4);
        assertArrayEquals(new byte[] {5, 4, 3, 2}, four, "only the low 4 bytes of the index fit");
        assertEquals(0x0203_0405L, TestPattern.head(0x1_0203_0405L, 4));
    }

    @Test
    void shouldVerifyAGoodStreamAndNameTheFirstBadByte() {
        MessageCheck check = new MessageCheck(3);
        for (long i = 0; i < 5; i++) {
            byte[] m = new byte[20];
            TestPattern.fill(m, i, 20);
            FfmImpl.verify(check, 3, MemorySegment.ofArray(m), 0, 20);
        }
        assertEquals(5, check.received());
        assertEquals(100, check.bytes());
        byte[] bad = new byte[20];
        TestPattern.fill(bad, 5, 20);
        bad[13] ^= 1;
        var e = assertThrows(PatternMismatchException.class, () -> FfmImpl.verify(check, 3, MemorySegment.ofArray(bad), 0, 20));
        assertTrue(e.getMessage().contains("message 5 (type 3): byte 13 is "), e.getMessage());
        byte[] skipped = new byte[8];
        TestPattern.fill(skipped, 6, 8);
        var gap = assertThrows(PatternMismatchException.class,
                () -> FfmImpl.verify(check, 3, MemorySegment.ofArray(skipped), 0, 8));
        assertTrue(gap.getMessage().contains("message 5 (type 3): byte 0 is 0x06, expected 0x05"), gap.getMessage());
        assertThrows(PatternMismatchException.class, () -> FfmImpl.verify(new MessageCheck(3), 4,
                MemorySegment.ofArray(new byte[8]), 0, 8), "wrong type");
    }

    @Test
    void shouldFillInPlaceTheBytesOfTheArrayFill() {
        long index = 0x1122_3344_5566_7788L;
        for (int size = TestPattern.MIN_SIZE; size <= 40; size++) {
            byte[] expected = new byte[size + 6];
            TestPattern.fill(expected, index, size);
            System.arraycopy(expected, 0, expected, 3, size);
            java.util.Arrays.fill(expected, 0, 3, (byte) 0);
            java.util.Arrays.fill(expected, size + 3, size + 6, (byte) 0);
            byte[] segment = new byte[size + 6];
            TestPattern.fill(MemorySegment.ofArray(segment), 3, index, size);
            assertArrayEquals(expected, segment, size + " bytes filled at offset 3 of a segment");
            byte[] agrona = new byte[size + 6];
            AgronaImpl.fill(new org.agrona.concurrent.UnsafeBuffer(agrona), 3, index, size);
            assertArrayEquals(expected, agrona, size + " bytes filled at offset 3 of an Agrona buffer");
        }
    }

    @Test
    void shouldFillEverySizeAsTheBytewiseDefinition() {
        long index = 0x1122_3344_5566_7788L;
        for (int size = TestPattern.MIN_SIZE; size <= 24; size++) {
            byte[] m = new byte[size];
            TestPattern.fill(m, index, size);
            for (int k = 0; k < size; k++) {
                byte expected = k < 8 ? (byte) (index >>> (8 * k)) : TestPattern.tailByte(index, k);
                assertEquals(expected, m[k], "byte " + k + " of a " + size + "-byte message");
            }
        }
    }

    @Test
    void shouldVerifyTheSameWayThroughAgronasBuffer() {
        MessageCheck check = new MessageCheck(0);
        for (long i = 0; i < 3; i++) {
            byte[] m = new byte[5 + (int) i];
            TestPattern.fill(m, i, m.length);
            AgronaImpl.verify(check, 1, new org.agrona.concurrent.UnsafeBuffer(m), 0, m.length);
        }
        assertEquals(3, check.received());
    }

    @Test
    void shouldRejectSizesTheRingCannotTake() throws Exception {
        assertThrows(UsageException.class, () -> SizeSpec.parse("produce", "3", 1));
        assertThrows(UsageException.class, () -> SizeSpec.parse("produce", "9..5", 1));
        assertThrows(UsageException.class, () -> SizeSpec.parse("produce", "four", 1));
        SizeSpec sizes = SizeSpec.parse("produce", "4..9", 1);
        for (int i = 0; i < 1000; i++) {
            int s = sizes.next();
            assertTrue(s >= 4 && s <= 9, "size " + s);
        }
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("pattern");
        try (RingFile ring = RingFile.create(dir.resolve("r"), 1024)) {
            assertThrows(UsageException.class, () -> SizeSpec.parse("produce", "129", 1).checkFits("produce", ring.maxMessageLength()));
        }
    }
}
