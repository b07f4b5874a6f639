package dev.sympathy.jmh.queue;

/**
 * {@code p1c1-boxed}: the seed's P1C1 queue (003's {@code P1C1QueueOriginal3}) on an
 * {@code Object[]} of {@link Integer}s, the same algorithm and counters as {@link P1C1IntQueue}.
 * The boxes come from a preallocated pool ({@code boxes[value]}), so no message allocates; what
 * travels is a reference, and the consumer follows it to the box to read the value (the seed's
 * "pointer chasing"). As the seed's queue, the consumer clears the slot it took.
 *
 * <pre>{@code
 * Integer[] boxes = {0, 1, 2, 3};
 * IntQueue q = new P1C1BoxedQueue(2, boxes);
 * q.offer(3);        // enqueues boxes[3]
 * int v = q.poll();  // 3, read through the reference
 * }</pre>
 */
public final class P1C1BoxedQueue extends P1C1Counters implements IntQueue {
    private final Object[] buffer;
    private final Integer[] boxes;

    /**
     * @param boxes the pool: {@code offer(v)} enqueues {@code boxes[v]}, which must hold {@code v}
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1BoxedQueue(int capacity, Integer[] boxes) {
        super("p1c1-boxed", capacity);
        this.buffer = new Object[capacity + 2 * PAD];
        this.boxes = boxes;
    }

    @Override
    public boolean offer(int value) {
        final long tail = this.tail;
        if (!hasRoom(tail)) {
            return false; // really full: back pressure
        }
        buffer[slot(tail)] = boxes[value]; // a reference to the box travels
        publishTail(tail + 1);
        return true;
    }

    @Override
    public int poll() {
        final long head = this.head;
        if (!hasMessage(head)) {
            return EMPTY; // really empty
        }
        final Object[] buffer = this.buffer;
        final int index = slot(head);
        final Integer box = (Integer) buffer[index];
        buffer[index] = null;
        publishHead(head + 1);
        return box; // unboxing: a load through the reference
    }
}
