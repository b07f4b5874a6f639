package dev.sympathy.jmh.walk;

import dev.sympathy.jmh.support.Extras;
import dev.sympathy.jmh.support.HugePages;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * memory-walk: the seed's {@code TestMemoryAccessPatterns} (000). A {@code long} array of
 * {@code sizeBytes} bytes filled with 777 is summed in page-sized chunks (2 MiB pages); one invocation
 * is one seed {@code perfTest}, timed as a single shot; the runner divides by the elements visited.
 *
 * <p>Variants (the Rust names):
 * <ul>
 *   <li>{@code linear}: {@code pos + 1}</li>
 *   <li>{@code random-page}: {@code pageOffset + ((pos + 514229) & PAGE_MASK)}, within the page</li>
 *   <li>{@code random-heap}: {@code (pos + 514229) & ARRAY_MASK}, across the whole array</li>
 *   <li>{@code chase-page}: a dependent pointer chase, one 64-byte node per cache line, along a
 *       random cycle within each 2 MiB page (beyond the seed: its walks overlap many loads)</li>
 *   <li>{@code chase-heap}: the same along one random cycle over the whole array</li>
 * </ul>
 * Each walks an FFM {@link MemorySegment} off the heap (the work of Rust's native array, with which
 * it pairs); the same name with {@code -on-heap} ({@code linear-on-heap}, ...) walks a {@code long[]}
 * on the heap, as the seed (Java only): the result param {@code memory} says which ({@link #memoryOf}). The walks throw unless the sum is {@code 777 x elements}
 * (208574349312 for 2 GiB); the chases throw unless every cycle ends where it started.
 *
 * <pre>
 * java -Xmx3g -jar benchmarks.jar MemoryWalk -p variant=random-heap -p sizeBytes=2147483648
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MemoryWalk {
    static final int LONG_SIZE = 8;
    static final int PAGE_SIZE = 2 * 1024 * 1024;
    static final int WORDS_PER_PAGE = PAGE_SIZE / LONG_SIZE;
    static final int PAGE_MASK = WORDS_PER_PAGE - 1;
    static final int PRIME_INC = 514229;
    /** A chase node is one cache line: 8 longs, the first holding the next node's word index. */
    static final int WORDS_PER_NODE = 64 / LONG_SIZE;
    static final long FILL = 777;
    /** The largest array: 2^30 longs, the most a {@code long[]} of a power-of-two length holds. */
    static final long MAX_BYTES = 8L << 30;

    /** The suffix of the variants that walk a {@code long[]} on the heap. */
    public static final String ON_HEAP = "-on-heap";

    @Param({"linear", "random-page", "random-heap", "chase-page", "chase-heap", "linear-on-heap",
            "random-page-on-heap", "random-heap-on-heap", "chase-page-on-heap", "chase-heap-on-heap"})
    public String variant;

    /** The walk of {@link #variant}, without {@link #ON_HEAP}. */
    private String pattern;

    /**
     * Array size in bytes (the catalog's {@code size_bytes}): a power of two, at least 2 MiB (one
     * page), at most 8 GiB. The seed: 2 GiB.
     */
    @Param({"268435456"})
    public long sizeBytes;

    private int arraySize;
    private int arrayMask;
    private long[] heap;
    private Arena arena;
    private MemorySegment offHeap;

    @Setup(Level.Trial)
    public void fill() {
        if (sizeBytes < PAGE_SIZE || Long.bitCount(sizeBytes) != 1 || sizeBytes > MAX_BYTES) {
            throw new IllegalArgumentException("memory-walk: sizeBytes must be a power of two in " + PAGE_SIZE + ".."
                    + MAX_BYTES + " (2 MiB..8 GiB), got " + sizeBytes);
        }
        arraySize = (int) (sizeBytes / LONG_SIZE);
        arrayMask = arraySize - 1;
        pattern = variant.endsWith(ON_HEAP) ? variant.substring(0, variant.length() - ON_HEAP.length()) : variant;
        if (variant.endsWith(ON_HEAP)) {
            heap = new long[arraySize];
        } else {
            arena = Arena.ofShared();
            offHeap = arena.allocate((long) arraySize * LONG_SIZE, PAGE_SIZE);
            HugePages.adviseNone(offHeap); // 4 KiB pages, as Rust's array without --huge-pages
            // read once now and dropped: the reader's code (smaps is thousands of lines) is then
            // compiled here, not inside the last measured iteration, whose trial teardown reads
            // the fact for real
            HugePages.backedBytes(offHeap);
        }
        switch (pattern) {
            case "linear", "random-page", "random-heap" -> {
                for (int i = 0; i < arraySize; i++) {
                    set(i, FILL);
                }
            }
            case "chase-page" -> {
                final SplittableRandom random = new SplittableRandom(42);
                for (int page = 0; page < arraySize; page += WORDS_PER_PAGE) {
                    link(page, WORDS_PER_PAGE / WORDS_PER_NODE, random);
                }
            }
            case "chase-heap" -> link(0, arraySize / WORDS_PER_NODE, new SplittableRandom(42));
            default -> throw new IllegalArgumentException("memory-walk: unknown variant '" + variant
                    + "' (expected linear, random-page, random-heap, chase-page, chase-heap, each also with "
                    + ON_HEAP + ")");
        }
    }

    /**
     * The result param {@code memory} of a variant: {@code memoryOf("linear-on-heap")} is
     * {@code on-heap}, {@code memoryOf("linear")} is {@code off-heap}.
     */
    public static String memoryOf(String variant) {
        return variant.endsWith(ON_HEAP) ? "on-heap" : "off-heap";
    }

    @TearDown(Level.Trial)
    public void free() {
        if (offHeap != null) {
            // measured after the walks, from the mapping itself, as Rust's run measures its own
            Extras.fact("memory-walk", variant, "huge_pages", HugePages.backedBytes(offHeap).orElse(0) > 0);
        }
        heap = null;
        if (arena != null) {
            arena.close();
        }
    }

    /** Links {@code nodes} nodes from word {@code base} into one random cycle (Sattolo's shuffle). */
    private void link(int base, int nodes, SplittableRandom random) {
        final int[] order = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            order[i] = i;
        }
        for (int i = nodes - 1; i > 0; i--) {
            final int j = random.nextInt(i);
            final int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < nodes; i++) {
            set(base + order[i] * WORDS_PER_NODE, base + (long) order[(i + 1) % nodes] * WORDS_PER_NODE);
        }
    }

    private void set(int index, long value) {
        if (heap != null) {
            heap[index] = value;
        } else {
            offHeap.setAtIndex(ValueLayout.JAVA_LONG, index, value);
        }
    }

    /** One seed run over the whole array. Returns the checksum (walks) or the end node (chases). */
    @Benchmark
    public long walk() {
        final boolean onHeap = heap != null;
        return switch (pattern) {
            case "linear" -> verifySum(onHeap ? linearHeap() : linearOff());
            case "random-page" -> verifySum(onHeap ? randomPageHeap() : randomPageOff());
            case "random-heap" -> verifySum(onHeap ? randomHeapHeap() : randomHeapOff());
            case "chase-page" -> chasePages(onHeap);
            default -> chase(onHeap, 0, arraySize / WORDS_PER_NODE);
        };
    }

    private long verifySum(long result) {
        final long expected = FILL * arraySize;
        if (result != expected) {
            throw new IllegalStateException("memory-walk " + variant + ": sum " + result + " != 777 x " + arraySize);
        }
        return result;
    }

    private long linearHeap() {
        final long[] memory = heap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = (pos + 1) & arrayMask;
                result += memory[pos];
            }
        }
        return result;
    }

    private long randomPageHeap() {
        final long[] memory = heap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = pageOffset + ((pos + PRIME_INC) & PAGE_MASK);
                result += memory[pos];
            }
        }
        return result;
    }

    private long randomHeapHeap() {
        final long[] memory = heap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = (pos + PRIME_INC) & arrayMask;
                result += memory[pos];
            }
        }
        return result;
    }

    private long linearOff() {
        final MemorySegment memory = offHeap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = (pos + 1) & arrayMask;
                result += memory.getAtIndex(ValueLayout.JAVA_LONG, pos);
            }
        }
        return result;
    }

    private long randomPageOff() {
        final MemorySegment memory = offHeap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = pageOffset + ((pos + PRIME_INC) & PAGE_MASK);
                result += memory.getAtIndex(ValueLayout.JAVA_LONG, pos);
            }
        }
        return result;
    }

    private long randomHeapOff() {
        final MemorySegment memory = offHeap;
        int pos = -1;
        long result = 0;
        for (int pageOffset = 0; pageOffset < arraySize; pageOffset += WORDS_PER_PAGE) {
            for (int wordOffset = pageOffset, limit = pageOffset + WORDS_PER_PAGE; wordOffset < limit; wordOffset++) {
                pos = (pos + PRIME_INC) & arrayMask;
                result += memory.getAtIndex(ValueLayout.JAVA_LONG, pos);
            }
        }
        return result;
    }

    private long chasePages(boolean onHeap) {
        long last = 0;
        for (int page = 0; page < arraySize; page += WORDS_PER_PAGE) {
            last = chase(onHeap, page, WORDS_PER_PAGE / WORDS_PER_NODE);
        }
        return last;
    }

    /** Follows {@code steps} links from word {@code start}; throws unless it ends at {@code start}. */
    private long chase(boolean onHeap, int start, int steps) {
        long at = start;
        if (onHeap) {
            final long[] memory = heap;
            for (int i = 0; i < steps; i++) {
                at = memory[(int) at];
            }
        } else {
            final MemorySegment memory = offHeap;
            for (int i = 0; i < steps; i++) {
                at = memory.getAtIndex(ValueLayout.JAVA_LONG, at);
            }
        }
        if (at != start) {
            throw new IllegalStateException("memory-walk " + variant + ": chase from " + start + " ended at " + at);
        }
        return at;
    }
}
