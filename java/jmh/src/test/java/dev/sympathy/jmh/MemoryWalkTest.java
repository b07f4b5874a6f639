package dev.sympathy.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sympathy.jmh.walk.MemoryWalk;
import org.junit.jupiter.api.Test;

/** The memory walks' checksums and chase cycles, on small arrays, outside JMH. */
class MemoryWalkTest {
    private static MemoryWalk walk(String variant, String memory, long sizeBytes) {
        final MemoryWalk walk = new MemoryWalk();
        walk.variant = memory.equals("on-heap") ? variant + MemoryWalk.ON_HEAP : variant;
        walk.sizeBytes = sizeBytes;
        walk.fill();
        return walk;
    }

    @Test
    void shouldSum777ForEveryElementOnAndOffHeap() {
        for (String memory : new String[] {"on-heap", "off-heap"}) {
            for (String variant : new String[] {"linear", "random-page", "random-heap"}) {
                final MemoryWalk walk = walk(variant, memory, 4L << 20);
                try {
                    assertEquals(777L * (4 << 20) / 8, walk.walk(), variant + " " + memory);
                } finally {
                    walk.free();
                }
            }
        }
    }

    @Test
    void shouldEndEveryChaseWhereItStarted() {
        for (String memory : new String[] {"on-heap", "off-heap"}) {
            for (String variant : new String[] {"chase-page", "chase-heap"}) {
                final MemoryWalk walk = walk(variant, memory, 4L << 20);
                try {
                    // walk() throws unless each cycle closes; it returns the last cycle's start word
                    final long lastStart = variant.equals("chase-heap") ? 0 : (4 << 20) / 8 - (2 << 20) / 8;
                    assertEquals(lastStart, walk.walk(), variant + " " + memory);
                } finally {
                    walk.free();
                }
            }
        }
    }

    @Test
    void shouldMatchTheSeedsChecksumFor2GiB() {
        assertEquals(208574349312L, 777L * ((2048L << 20) / 8));
    }

    @Test
    void shouldRejectASizeThatIsNotAPowerOfTwo() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> walk("linear", "on-heap", 3L << 20));
        assertTrue(e.getMessage().contains("got 3145728"), e.getMessage());
    }
}
