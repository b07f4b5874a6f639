package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@code fastflow}: a single-producer single-consumer queue on an {@code int[]} in which neither
 * side ever reads the other side's counter (after FastFlow, as JCTools' {@code SpscArrayQueue}):
 * a slot says itself whether it is full. The consumer takes slot {@code head} when it does not
 * hold {@link #EMPTY} and writes {@link #EMPTY} back; the producer fills slot {@code tail}
 * while {@code tail} is below a limit, and moves the limit by probing the slot
 * {@code lookAhead} places ahead ({@code capacity / 4}, at most 4096, as JCTools'
 * {@code lookAheadStep}): the consumer empties slots in order, so when that slot is empty, all
 * before it are too.
 *
 * <p>Why it is faster than {@link P1C1IntQueue}: the two threads share only the slots' cache
 * lines, which must travel from producer to consumer anyway (16 ints a line); no line holding a
 * counter moves between the cores, and the producer's look-ahead reads one slot per
 * {@code lookAhead} messages instead of the consumer's counter. P1C1 moves the {@code tail} line
 * to the consumer whenever its cached copy says empty, and back to the producer at its next
 * release store: near empty, that is every message.
 *
 * <p>Values must be non-negative: {@link #EMPTY} (-1) marks a free slot.
 *
 * <pre>{@code
 * IntQueue q = new FastFlowIntQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class FastFlowIntQueue extends FastFlowColdFields implements IntQueue {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class).withInvokeExactBehavior();

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public FastFlowIntQueue(int capacity) {
        super(capacity);
    }

    @Override
    public boolean offer(int value) {
        final int[] buffer = this.buffer;
        final int mask = this.mask;
        final long tail = this.tail;
        if (tail >= limit && !lookAhead(buffer, mask, tail)) {
            return false; // slot `tail` still holds a message: full, back pressure
        }
        // SYNC POINT: fastflow slot filled -- pairs with poll's getAcquire
        SLOT.setRelease(buffer, P1C1Counters.PAD + ((int) tail & mask), value);
        this.tail = tail + 1;
        return true;
    }

    /** Producer, at the limit: probes {@code lookAhead} slots ahead, then the slot itself. */
    private boolean lookAhead(int[] buffer, int mask, long tail) {
        final long ahead = tail + lookAhead;
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY)
        if ((int) SLOT.getAcquire(buffer, P1C1Counters.PAD + ((int) ahead & mask)) == EMPTY) {
            limit = ahead; // the consumer has emptied every slot up to `ahead`
            return true;
        }
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY)
        return (int) SLOT.getAcquire(buffer, P1C1Counters.PAD + ((int) tail & mask)) == EMPTY;
    }

    @Override
    public int poll() {
        final int[] buffer = this.buffer;
        final long head = this.head;
        final int index = P1C1Counters.PAD + ((int) head & mask);
        // SYNC POINT: fastflow slot filled -- pairs with offer's setRelease
        final int value = (int) SLOT.getAcquire(buffer, index);
        if (value == EMPTY) {
            return EMPTY;
        }
        // SYNC POINT: fastflow slot emptied -- pairs with lookAhead's getAcquire
        SLOT.setRelease(buffer, index, EMPTY);
        this.head = head + 1;
        return value;
    }
}

/** 128 bytes between the object header and the producer's fields. */
abstract class FastFlowPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The producer's fields: the next slot to fill and the first slot not known to be empty. */
abstract class FastFlowProducerFields extends FastFlowPad0 {
    long tail;
    long limit;
}

abstract class FastFlowPad1 extends FastFlowProducerFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The consumer's field: the next slot to take. */
abstract class FastFlowConsumerFields extends FastFlowPad1 {
    long head;
}

abstract class FastFlowPad2 extends FastFlowConsumerFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The read-only fields, after the padding: the slots, the mask and the look-ahead. */
abstract class FastFlowColdFields extends FastFlowPad2 {
    final int[] buffer;
    final int mask;
    final int lookAhead;

    FastFlowColdFields(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("fastflow: capacity must be a power of two >= 2, got " + capacity);
        }
        buffer = new int[capacity + 2 * P1C1Counters.PAD];
        Arrays.fill(buffer, IntQueue.EMPTY);
        mask = capacity - 1;
        lookAhead = Math.max(1, Math.min(capacity / 4, 4096));
    }
}
