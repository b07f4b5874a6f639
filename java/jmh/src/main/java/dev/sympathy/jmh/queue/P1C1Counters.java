package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The four counters of the seed's P1C1 queue ({@code head}, {@code tailCache}, {@code tail},
 * {@code headCache}, in the seed's order), each a plain {@code long} field 128 bytes away from the
 * next and from everything else in the object: padding by class hierarchy, as JCTools and Agrona
 * pad (the JVM lays a superclass's fields out before its subclass's, so a class of 16 longs between
 * two fields keeps them 128 bytes apart; the adjacent-line prefetcher pulls 64-byte lines in pairs).
 *
 * <p>The algorithm is the seed's: each side reads its own counter plainly, publishes it with a
 * release store, and reads the other side's counter (an acquire load: one cache-line transfer)
 * only when its cached copy says the queue is full (producer) or empty (consumer). The subclasses
 * ({@link P1C1IntQueue} on an {@code int[]}, {@link P1C1BoxedQueue} on an {@code Object[]})
 * add the slots; {@link P1C1OffHeapQueue} keeps the published counters and the slots off the
 * heap and uses these fields as each side's private copies only.
 *
 * <pre>{@code
 * // a producer's offer, in a subclass:
 * final long tail = this.tail;
 * if (!hasRoom(tail)) return false;   // full: back pressure
 * slots[PAD + ((int) tail & mask)] = value;
 * publishTail(tail + 1);
 * }</pre>
 */
abstract class P1C1Counters extends P1C1Pad4 {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(P1C1Head.class, "head", long.class).withInvokeExactBehavior();
            TAIL = lookup.findVarHandle(P1C1Tail.class, "tail", long.class).withInvokeExactBehavior();
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Unused elements at each end of a slots array (128 bytes of ints or of compressed
     * references), so that the array's header, which every bounds check reads, and whatever
     * the heap holds next to the array share no cache line with a slot that the threads write.
     */
    static final int PAD = 32;

    /** Slots in the queue (a power of two). */
    final long capacity;
    /** {@code capacity - 1}: a sequence number's slot is {@code sequence & mask}. */
    final int mask;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    P1C1Counters(String name, int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(name + ": capacity must be a power of two >= 2, got " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
    }

    /**
     * Producer: whether slot {@code tail} is free. Reads the consumer's {@code head} only when the
     * cached copy says full.
     */
    final boolean hasRoom(long tail) {
        final long wrapPoint = tail - capacity;
        if (headCache <= wrapPoint) {
            // SYNC POINT: p1c1 head published -- pairs with publishHead's setRelease
            headCache = (long) HEAD.getAcquire((P1C1Head) this);
            return headCache > wrapPoint;
        }
        return true;
    }

    /** Producer: publishes the slots before {@code tail} to the consumer. */
    final void publishTail(long tail) {
        // SYNC POINT: p1c1 tail published -- pairs with hasMessage's getAcquire
        TAIL.setRelease((P1C1Tail) this, tail);
    }

    /**
     * Consumer: whether slot {@code head} holds a message. Reads the producer's {@code tail} only
     * when the cached copy says empty.
     */
    final boolean hasMessage(long head) {
        if (head >= tailCache) {
            // SYNC POINT: p1c1 tail published -- pairs with publishTail's setRelease
            tailCache = (long) TAIL.getAcquire((P1C1Tail) this);
            return head < tailCache;
        }
        return true;
    }

    /** Consumer: hands the slots before {@code head} back to the producer. */
    final void publishHead(long head) {
        // SYNC POINT: p1c1 head published -- pairs with hasRoom's getAcquire
        HEAD.setRelease((P1C1Head) this, head);
    }
}

/** 128 bytes between the object header (and whatever precedes the object) and {@code head}. */
abstract class P1C1Pad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The consumer's counter: the next sequence number to take. Written by the consumer only. */
abstract class P1C1Head extends P1C1Pad0 {
    long head;
}

abstract class P1C1Pad1 extends P1C1Head {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The consumer's copy of {@code tail}. Consumer only. */
abstract class P1C1TailCache extends P1C1Pad1 {
    long tailCache;
}

abstract class P1C1Pad2 extends P1C1TailCache {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The producer's counter: the next sequence number to fill. Written by the producer only. */
abstract class P1C1Tail extends P1C1Pad2 {
    long tail;
}

abstract class P1C1Pad3 extends P1C1Tail {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The producer's copy of {@code head}. Producer only. */
abstract class P1C1HeadCache extends P1C1Pad3 {
    long headCache;
}

/** 128 bytes between {@code headCache} and the read-only fields after it. */
abstract class P1C1Pad4 extends P1C1HeadCache {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}
