package dev.sympathy.jmh.queue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code p1c1-offheap}: the seed's off-heap P1C1 queue (003) on an FFM {@link MemorySegment}
 * instead of Unsafe and a mapped buffer. Same algorithm as {@link P1C1IntQueue}: what the two
 * threads share, the published counters and the slots, lives off the heap.
 *
 * <pre>
 * offset   0  head   (consumer writes, release; producer reads, acquire)
 * offset 128  tail   (producer writes, release; consumer reads, acquire)
 * offset 256  int[capacity] slots
 * </pre>
 * Each counter has a 128-byte region of its own; the segment is 128-byte aligned.
 *
 * <p>Every FFM access checks the segment's bounds, its alignment, that it is writable and that its
 * arena is alive (inlined, but not hoisted out of a single offer or poll), so the hot path makes
 * as few as the algorithm allows: one slot access and one release store per message. Each side's
 * exact copy of its own counter and its cached copy of the other side's are plain heap fields
 * (only their owner touches them), padded apart by {@link P1C1Counters} as {@code p1c1}'s are; the
 * seed kept them in the off-heap block too, where Unsafe cost nothing to check. The memory comes
 * from an automatic arena ({@link Arena#ofAuto()}: freed by the garbage collector once the queue
 * is unreachable, nothing to close); the release and acquire accesses go through a
 * {@code static final} VarHandle with exact coordinates {@code (MemorySegment, long)}.
 *
 * <pre>{@code
 * IntQueue q = new P1C1OffHeapQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class P1C1OffHeapQueue extends P1C1Counters implements IntQueue {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle().withInvokeExactBehavior();
    private static final ValueLayout.OfInt SLOT = ValueLayout.JAVA_INT;
    static final long HEAD = 0;
    static final long TAIL = 128;
    static final long BUFFER = 256;

    private final MemorySegment memory;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1OffHeapQueue(int capacity) {
        super("p1c1-offheap", capacity);
        this.memory = Arena.ofAuto().allocate(BUFFER + (long) capacity * Integer.BYTES, 128);
    }

    @Override
    public boolean offer(int value) {
        final MemorySegment memory = this.memory;
        final long tail = this.tail;
        final long wrapPoint = tail - capacity;
        if (producerCache <= wrapPoint) {
            // SYNC POINT: off-heap head published -- pairs with poll's setRelease(HEAD)
            producerCache = (long) LONG.getAcquire(memory, HEAD);
            if (producerCache <= wrapPoint) {
                return false;
            }
        }
        memory.set(SLOT, BUFFER + ((tail & mask) << 2), value);
        // SYNC POINT: off-heap tail published -- pairs with poll's getAcquire(TAIL)
        LONG.setRelease(memory, TAIL, tail + 1);
        this.tail = tail + 1;
        return true;
    }

    @Override
    public int poll() {
        final MemorySegment memory = this.memory;
        final long head = this.head;
        if (head >= consumerCache) {
            // SYNC POINT: off-heap tail published -- pairs with offer's setRelease(TAIL)
            consumerCache = (long) LONG.getAcquire(memory, TAIL);
            if (head >= consumerCache) {
                return EMPTY;
            }
        }
        final int value = memory.get(SLOT, BUFFER + ((head & mask) << 2));
        // SYNC POINT: off-heap head published -- pairs with offer's getAcquire(HEAD)
        LONG.setRelease(memory, HEAD, head + 1);
        this.head = head + 1;
        return value;
    }
}
