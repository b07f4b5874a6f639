package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The padded fields of a single-producer single-consumer queue on the heap: the consumer's
 * {@code head} and a private {@code consumerCache}, the producer's {@code tail} and a private
 * {@code producerCache}, each a plain {@code long} 128 bytes away from the next and from
 * everything else in the object (the seed's order: {@code head}, {@code tailCache},
 * {@code tail}, {@code headCache}), then the read-only capacity and mask. Padding by class
 * hierarchy, as JCTools and Agrona pad: the JVM lays a superclass's fields out before its
 * subclass's, so a class of 16 longs between two fields keeps them 128 bytes apart (the
 * adjacent-line prefetcher pulls 64-byte lines in pairs).
 *
 * <p>{@link P1C1Counters} gives the fields the P1C1 algorithm; {@link FastFlowIntQueue} uses
 * {@code tail}, {@code head} and, as its look-ahead limit, {@code producerCache}.
 *
 * <pre>{@code
 * buffer[slot(tail)] = value;   // slot(seq) = PAD + (seq & mask)
 * }</pre>
 */
abstract class SpscFields extends SpscPad4 {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(SpscHead.class, "head", long.class).withInvokeExactBehavior();
            TAIL = lookup.findVarHandle(SpscTail.class, "tail", long.class).withInvokeExactBehavior();
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
    /** {@code capacity - 1}: a sequence number's slot is {@code PAD + (sequence & mask)}. */
    final int mask;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    SpscFields(String name, int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(name + ": capacity must be a power of two >= 2, got " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
    }

    /** {@code head}, loaded with acquire (the producer's look at the consumer's progress). */
    final long headAcquire() {
        return (long) HEAD.getAcquire((SpscHead) this);
    }

    /** Stores {@code head} with release (the consumer's publication of its progress). */
    final void headRelease(long head) {
        HEAD.setRelease((SpscHead) this, head);
    }

    /** {@code tail}, loaded with acquire (the consumer's look at the producer's progress). */
    final long tailAcquire() {
        return (long) TAIL.getAcquire((SpscTail) this);
    }

    /** Stores {@code tail} with release (the producer's publication of its progress). */
    final void tailRelease(long tail) {
        TAIL.setRelease((SpscTail) this, tail);
    }

    /** The index in a padded slots array of sequence number {@code sequence}. */
    final int slot(long sequence) {
        return PAD + ((int) sequence & mask);
    }
}

/** 128 bytes between the object header (and whatever precedes the object) and {@code head}. */
abstract class SpscPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The consumer's counter: the next sequence number to take. Written by the consumer only. */
abstract class SpscHead extends SpscPad0 {
    long head;
}

abstract class SpscPad1 extends SpscHead {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The consumer's private field (P1C1: its copy of {@code tail}). Consumer only. */
abstract class SpscConsumerCache extends SpscPad1 {
    long consumerCache;
}

abstract class SpscPad2 extends SpscConsumerCache {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The producer's counter: the next sequence number to fill. Written by the producer only. */
abstract class SpscTail extends SpscPad2 {
    long tail;
}

abstract class SpscPad3 extends SpscTail {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The producer's private field (P1C1: its copy of {@code head}; fastflow: its limit). */
abstract class SpscProducerCache extends SpscPad3 {
    long producerCache;
}

/** 128 bytes between {@code producerCache} and the read-only fields after it. */
abstract class SpscPad4 extends SpscProducerCache {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}
