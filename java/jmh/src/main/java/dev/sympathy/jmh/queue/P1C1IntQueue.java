package dev.sympathy.jmh.queue;

/**
 * {@code p1c1}: the seed's single-producer single-consumer queue (003, after Martin Thompson's
 * P1C1 queue) on an {@code int[]}, with VarHandles in place of {@code lazySet}/Unsafe.
 *
 * <p>The four counters are fields padded 128 bytes apart by class hierarchy ({@link SpscFields});
 * each side reads the other side's counter only when its cached copy says full (producer) or
 * empty (consumer) ({@link P1C1Counters}).
 *
 * <pre>{@code
 * IntQueue q = new P1C1IntQueue(1024);
 * q.offer(7);
 * int v = q.poll(); // 7
 * }</pre>
 */
public final class P1C1IntQueue extends P1C1Counters implements IntQueue {
    private final int[] buffer;

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1IntQueue(int capacity) {
        super("p1c1", capacity);
        buffer = new int[capacity + 2 * PAD];
    }

    @Override
    public boolean offer(int value) {
        final long tail = this.tail;
        if (!hasRoom(tail)) {
            return false; // really full: back pressure
        }
        buffer[slot(tail)] = value;
        publishTail(tail + 1);
        return true;
    }

    @Override
    public int poll() {
        final long head = this.head;
        if (!hasMessage(head)) {
            return EMPTY; // really empty
        }
        final int value = buffer[slot(head)];
        publishHead(head + 1);
        return value;
    }
}
