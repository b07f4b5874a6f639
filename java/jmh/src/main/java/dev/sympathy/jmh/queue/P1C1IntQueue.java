package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * {@code p1c1}: the seed's single-producer single-consumer queue (003, after Martin Thompson's
 * P1C1 queue) on an {@code int[]}, with VarHandles in place of {@code lazySet}/Unsafe.
 *
 * <p>The four counters live in one {@code long[]}, 128 bytes apart (the adjacent-line prefetcher
 * pulls pairs of 64-byte lines), in the seed's order: {@code head}, {@code tailCache},
 * {@code tail}, {@code headCache}. Each side reads its own counter plainly, publishes it with a
 * release store and refreshes its cached copy of the other side's counter only when the cached
 * copy says full (producer) or empty (consumer).
 *
 * <pre>{@code
 * IntQueue q = new P1C1IntQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class P1C1IntQueue implements IntQueue {
    private static final VarHandle COUNTER = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int HEAD = 16;
    private static final int TAIL_CACHE = 32;
    private static final int TAIL = 48;
    private static final int HEAD_CACHE = 64;

    private final long[] counters = new long[HEAD_CACHE + 16];
    private final int[] buffer;
    private final int mask;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1IntQueue(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("p1c1: capacity must be a power of two >= 2, got " + capacity);
        }
        buffer = new int[capacity];
        mask = capacity - 1;
    }

    @Override
    public boolean offer(int value) {
        final long tail = counters[TAIL];
        final long wrapPoint = tail - buffer.length;
        // possibly full: refresh the cached head; really full: back pressure
        if (counters[HEAD_CACHE] <= wrapPoint) {
            // SYNC POINT: head published -- pairs with poll's setRelease(HEAD)
            counters[HEAD_CACHE] = (long) COUNTER.getAcquire(counters, HEAD);
            if (counters[HEAD_CACHE] <= wrapPoint) {
                return false;
            }
        }
        buffer[(int) tail & mask] = value;
        // SYNC POINT: tail published -- pairs with poll's getAcquire(TAIL)
        COUNTER.setRelease(counters, TAIL, tail + 1);
        return true;
    }

    @Override
    public int poll() {
        final long head = counters[HEAD];
        // possibly empty: refresh the cached tail; really empty: nothing to take
        if (head >= counters[TAIL_CACHE]) {
            // SYNC POINT: tail published -- pairs with offer's setRelease(TAIL)
            counters[TAIL_CACHE] = (long) COUNTER.getAcquire(counters, TAIL);
            if (head >= counters[TAIL_CACHE]) {
                return EMPTY;
            }
        }
        final int value = buffer[(int) head & mask];
        // SYNC POINT: head published -- pairs with offer's getAcquire(HEAD)
        COUNTER.setRelease(counters, HEAD, head + 1);
        return value;
    }
}
