package dev.sympathy.jmh.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * {@code fastflow}: a single-producer single-consumer queue on an {@code int[]} in which neither
 * side ever reads the other side's counter (after FastFlow, as JCTools' {@code SpscArrayQueue}):
 * a slot says itself whether it is full. A slot is 8 bytes, a flag and the value, as in Rust's
 * {@code fastflow} (so both move the same lines per message): the consumer takes slot
 * {@code head} when its flag is set and clears the flag; the producer fills slot {@code tail}
 * while {@code tail} is below a limit (in {@link SpscFields}' {@code producerCache}), and moves
 * the limit by probing the slot
 * {@code lookAhead} places ahead ({@code capacity / 4}, at most 4096, as JCTools'
 * {@code lookAheadStep}): the consumer empties slots in order, so when that slot is empty, all
 * before it are too.
 *
 * <p>Why it is faster than {@link P1C1IntQueue}: the two threads share only the slots' cache
 * lines, which must travel from producer to consumer anyway (8 slots a line); no line holding a
 * counter moves between the cores, and the producer's look-ahead reads one slot per
 * {@code lookAhead} messages instead of the consumer's counter. P1C1 moves the {@code tail} line
 * to the consumer whenever its cached copy says empty, and back to the producer at its next
 * release store: near empty, that is every message.
 *
 * <p>Values must be non-negative: {@link #EMPTY} (-1) is what {@link #poll} returns when empty.
 *
 * <pre>{@code
 * IntQueue q = new FastFlowIntQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class FastFlowIntQueue extends SpscFields implements IntQueue {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class).withInvokeExactBehavior();

    /** Bytes of one slot: the flag and the value (the {@code slot_bytes} parity fact). */
    static final int SLOT_BYTES = 2 * Integer.BYTES;
    private static final int EMPTY_FLAG = 0;
    private static final int FULL_FLAG = 1;

    /** Slot i's flag at {@code [2 * slot(i)]}, its value at {@code [2 * slot(i) + 1]}. */
    private final int[] buffer;
    private final int lookAhead;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public FastFlowIntQueue(int capacity) {
        super("fastflow", capacity);
        buffer = new int[2 * (capacity + 2 * PAD)];
        lookAhead = Math.max(1, Math.min(capacity / 4, 4096));
    }

    @Override
    public boolean offer(int value) {
        final int[] buffer = this.buffer;
        final long tail = this.tail;
        if (tail >= producerCache && !lookAhead(buffer, tail)) {
            return false; // slot `tail` still holds a message: full, back pressure
        }
        final int flag = 2 * slot(tail);
        buffer[flag + 1] = value;
        // SYNC POINT: fastflow slot filled -- pairs with poll's getAcquire
        SLOT.setRelease(buffer, flag, FULL_FLAG);
        this.tail = tail + 1;
        return true;
    }

    /** Producer, at the limit: probes {@code lookAhead} slots ahead, then the slot itself. */
    private boolean lookAhead(int[] buffer, long tail) {
        final long ahead = tail + lookAhead;
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY_FLAG)
        if ((int) SLOT.getAcquire(buffer, 2 * slot(ahead)) == EMPTY_FLAG) {
            producerCache = ahead; // the limit: the consumer has emptied every slot before it
            return true;
        }
        // SYNC POINT: fastflow slot emptied -- pairs with poll's setRelease(EMPTY_FLAG)
        return (int) SLOT.getAcquire(buffer, 2 * slot(tail)) == EMPTY_FLAG;
    }

    @Override
    public int poll() {
        final int[] buffer = this.buffer;
        final long head = this.head;
        final int flag = 2 * slot(head);
        // SYNC POINT: fastflow slot filled -- pairs with offer's setRelease
        if ((int) SLOT.getAcquire(buffer, flag) == EMPTY_FLAG) {
            return EMPTY;
        }
        final int value = buffer[flag + 1];
        // SYNC POINT: fastflow slot emptied -- pairs with lookAhead's getAcquire
        SLOT.setRelease(buffer, flag, EMPTY_FLAG);
        this.head = head + 1;
        return value;
    }
}
