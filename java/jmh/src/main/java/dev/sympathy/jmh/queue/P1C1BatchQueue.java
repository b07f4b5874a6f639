package dev.sympathy.jmh.queue;

/**
 * {@code p1c1-batch}: the P1C1 queue of {@link P1C1IntQueue} (an {@code int[]} on the heap, the
 * counters of {@link P1C1Counters}) filled and drained in runs of up to {@value #BATCH} slots, one
 * publish per run, as Rust's {@code p1c1-batch} ({@code Producer::offer_batch} and
 * {@code Consumer::poll_batch} of {@code sympathy_queue}):
 *
 * <ul>
 *   <li>the producer ({@link #offerSequence}) takes as many free slots as its cached copy of
 *       {@code head} grants, reloads {@code head} (acquire) only when that copy grants fewer than
 *       it asks, writes the values in at most two runs (up to the array's end, then from its
 *       start) and publishes them with one release store of {@code tail};</li>
 *   <li>the consumer ({@link #drain}) takes as many values as its cached copy of {@code tail}
 *       says are there, reloads {@code tail} only when that copy says fewer than it asks, hands
 *       each to the sink in order and frees their slots with one release store of
 *       {@code head}.</li>
 * </ul>
 *
 * <p>{@link #offer} and {@link #poll} move one value each, as {@link P1C1IntQueue}'s.
 *
 * <pre>{@code
 * P1C1BatchQueue q = new P1C1BatchQueue(1024);
 * q.offerSequence(0, 256);                 // 256: values 0..255, one publish
 * q.drain(v -> check(v), 256);             // 256, one publish
 * }</pre>
 */
public final class P1C1BatchQueue extends P1C1Counters implements IntQueue {
    /** Most values one publish moves, each way (Rust's {@code queue::BATCH}). */
    public static final int BATCH = 256;
    /** The value of sequence number {@code s} is {@code (int) (s & VALUES)} (the benchmark's values). */
    private static final int VALUES = Queues.POOL - 1;

    private final int[] buffer;

    /** The value of sequence number {@code s}: {@code (int) (s & VALUES)}. */
    public static int valueOf(long s) {
        return (int) (s & VALUES);
    }

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two of at least 2
     */
    public P1C1BatchQueue(int capacity) {
        super("p1c1-batch", capacity);
        buffer = new int[capacity + 2 * PAD];
    }

    @Override
    public boolean offer(int value) {
        final long tail = this.tail;
        if (!hasRoom(tail)) {
            return false;
        }
        buffer[slot(tail)] = value;
        publishTail(tail + 1);
        return true;
    }

    @Override
    public int poll() {
        final long head = this.head;
        if (!hasMessage(head)) {
            return EMPTY;
        }
        final int value = buffer[slot(head)];
        publishHead(head + 1);
        return value;
    }

    /**
     * Writes the values of up to {@code limit} sequence numbers from {@code first} into the free
     * slots and publishes them with one store of {@code tail}; returns how many (0: full).
     */
    @Override
    public int offerSequence(long first, int limit) {
        final long tail = this.tail;
        long free = capacity - (tail - producerCache);
        if (free < limit) {
            // SYNC POINT: p1c1 head published -- pairs with drain's publishHead (release)
            producerCache = headAcquire();
            free = capacity - (tail - producerCache);
        }
        final int n = (int) Math.min(free, limit);
        if (n <= 0) {
            return 0;
        }
        final int[] buffer = this.buffer;
        final int index = (int) tail & mask;
        final int run = Math.min(n, (int) capacity - index);
        for (int i = 0; i < run; i++) {
            buffer[PAD + index + i] = valueOf(first + i);
        }
        for (int i = run; i < n; i++) {
            buffer[PAD + i - run] = valueOf(first + i);
        }
        publishTail(tail + n);
        return n;
    }

    /**
     * Hands up to {@code limit} values to {@code sink}, in order, then frees their slots with one
     * store of {@code head}; returns how many (0: empty).
     */
    @Override
    public int drain(Sink sink, int limit) {
        final long head = this.head;
        long available = consumerCache - head;
        if (available < limit) {
            // SYNC POINT: p1c1 tail published -- pairs with offerSequence's publishTail (release)
            consumerCache = tailAcquire();
            available = consumerCache - head;
        }
        final int n = (int) Math.min(Math.min(available, limit), capacity);
        if (n <= 0) {
            return 0;
        }
        final int[] buffer = this.buffer;
        final int index = (int) head & mask;
        final int run = Math.min(n, (int) capacity - index);
        for (int i = 0; i < run; i++) {
            sink.accept(buffer[PAD + index + i]);
        }
        for (int i = 0; i < n - run; i++) {
            sink.accept(buffer[PAD + i]);
        }
        publishHead(head + n);
        return n;
    }
}
