package dev.sympathy.jmh.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The two files the benchmarks read about themselves: the cores they may use and their huge pages. */
class CoreListAndSmapsTest {
    @Test
    void shouldReadACpusAllowedListAsRustReadsTheAffinityMask() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, Pinning.parseCoreList(" 0-3,8,10-11\n"));
        assertArrayEquals(new int[] {1}, Pinning.parseCoreList("1"));
    }

    @Test
    void shouldFindTheHugePagesOfTheMappingThatHoldsAnAddress() {
        final List<String> smaps = List.of(
                "7f0000000000-7f0000400000 rw-p 00000000 00:00 0",
                "Size:               4096 kB",
                "AnonHugePages:      2048 kB",
                "7f0000400000-7f0000800000 rw-p 00000000 00:00 0 ",
                "AnonHugePages:         0 kB");
        assertEquals(OptionalLong.of(2048 * 1024), HugePages.anonHugePagesAt(smaps, 0x7f0000001000L));
        assertEquals(OptionalLong.of(0), HugePages.anonHugePagesAt(smaps, 0x7f0000400000L));
        assertEquals(OptionalLong.empty(), HugePages.anonHugePagesAt(smaps, 0x10L));
    }
}
