package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * {@code fastflow}: a single-producer single-consumer queue on an {@code int[]} in which neither
 * side ever reads the other side's counter (after FastFlow, as JCTools' {@code SpscArrayQueue}):
 * a slot says itself whether it is full. The consumer takes slot {@code head} when it does not
 * hold {@link #EMPTY} and writes {@link #EMPTY} back; the producer fills slot {@code tail}
 * while {@code tail} is below a limit (in {@link SpscFields}' {@code producerCache}), and moves
 * the limit by probing the slot
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
public final class FastFlowIntQueue extends SpscFields implements IntQueue {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class).withInvokeExactBehavior();

    private final int[] buffer;
    private final int lookAhead;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public FastFlowIntQueue(int capacity) {
        super("fastflow", capacity);
        buffer = new int[capacity + 2 * PAD];
        Arrays.fill(buffer, EMPTY);
        lookAhead = Math.max(1, Math.min(capacity / 4, 4096));
    }

    @Override
    public boolean offer(int value) {
        final int[] buffer = this.buffer;
        final long tail = this.tail;
        if (tail >= producerCache && !lookAhead(buffer, tail)) {
            return false; // slot `tail` still holds a message: full, back pressure
        }
        // SYNC POINT: fastflow slot filled -- pairs with poll's getAcquire
        SLOT.setRelease(buffer, slot(tail), value);
        this.tail = tail + 1;
        return true;
    }

    /** Producer, at the limit: probes {@code lookAhead} slots ahead, then the slot itself. */
    private boolean lookAhead(int[] buffer, long tail) {
        final long ahead = tail + lookAhead;
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY)
        if ((int) SLOT.getAcquire(buffer, slot(ahead)) == EMPTY) {
            producerCache = ahead; // the limit: the consumer has emptied every slot before it
            return true;
        }
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY)
        return (int) SLOT.getAcquire(buffer, slot(tail)) == EMPTY;
    }

    @Override
    public int poll() {
        final int[] buffer = this.buffer;
        final long head = this.head;
        final int index = slot(head);
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
