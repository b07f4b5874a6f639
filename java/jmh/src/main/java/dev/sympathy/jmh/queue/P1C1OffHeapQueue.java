package dev.sympathy.jmh.queue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * {@code p1c1-offheap}: the seed's off-heap P1C1 queue (003) on an FFM {@link MemorySegment}
 * instead of Unsafe and a mapped buffer. Same algorithm as {@link P1C1IntQueue}.
 *
 * <pre>
 * offset   0  head        (consumer writes, release)
 * offset 128  tailCache   (consumer's copy of tail)
 * offset 256  tail        (producer writes, release)
 * offset 384  headCache   (producer's copy of head)
 * offset 512  int[capacity] elements
 * </pre>
 * Each counter has a 128-byte region of its own; the segment is 128-byte aligned.
 *
 * <p>What keeps every access cheap (each an FFM access checks the segment's liveness, bounds and
 * alignment): the memory comes from an automatic arena ({@link Arena#ofAuto()}: freed by the
 * garbage collector once the queue is unreachable, so there is nothing to close and no shared
 * arena to close under a thread's feet); the counters' release and acquire accesses go through
 * {@code static final} VarHandles with exact coordinates {@code (MemorySegment, long)}; the
 * segment is read once per call into a local; plain accesses use the constant layouts.
 *
 * <pre>{@code
 * IntQueue q = new P1C1OffHeapQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class P1C1OffHeapQueue implements IntQueue {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle().withInvokeExactBehavior();
    private static final ValueLayout.OfLong COUNTER = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt SLOT = ValueLayout.JAVA_INT;
    static final long HEAD = 0;
    static final long TAIL_CACHE = 128;
    static final long TAIL = 256;
    static final long HEAD_CACHE = 384;
    static final long BUFFER = 512;

    private final MemorySegment memory;
    private final long capacity;
    private final long mask;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1OffHeapQueue(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("p1c1-offheap: capacity must be a power of two >= 2, got " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.memory = Arena.ofAuto().allocate(BUFFER + (long) capacity * Integer.BYTES, 128);
    }

    @Override
    public boolean offer(int value) {
        final MemorySegment memory = this.memory;
        final long tail = memory.get(COUNTER, TAIL);
        final long wrapPoint = tail - capacity;
        if (memory.get(COUNTER, HEAD_CACHE) <= wrapPoint) {
            // SYNC POINT: off-heap head published -- pairs with poll's setRelease(HEAD)
            final long head = (long) LONG.getAcquire(memory, HEAD);
            memory.set(COUNTER, HEAD_CACHE, head);
            if (head <= wrapPoint) {
                return false;
            }
        }
        memory.set(SLOT, BUFFER + ((tail & mask) << 2), value);
        // SYNC POINT: off-heap tail published -- pairs with poll's getAcquire(TAIL)
        LONG.setRelease(memory, TAIL, tail + 1);
        return true;
    }

    @Override
    public int poll() {
        final MemorySegment memory = this.memory;
        final long head = memory.get(COUNTER, HEAD);
        if (head >= memory.get(COUNTER, TAIL_CACHE)) {
            // SYNC POINT: off-heap tail published -- pairs with offer's setRelease(TAIL)
            final long tail = (long) LONG.getAcquire(memory, TAIL);
            memory.set(COUNTER, TAIL_CACHE, tail);
            if (head >= tail) {
                return EMPTY;
            }
        }
        final int value = memory.get(SLOT, BUFFER + ((head & mask) << 2));
        // SYNC POINT: off-heap head published -- pairs with offer's getAcquire(HEAD)
        LONG.setRelease(memory, HEAD, head + 1);
        return value;
    }
}
