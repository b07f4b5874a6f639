package dev.sympathy.jmh.queue;

/**
 * The seed's P1C1 algorithm over the padded fields of {@link SpscFields}: each side reads its own
 * counter plainly, publishes it with a release store, and reads the other side's counter (an
 * acquire load: one cache-line transfer) only when its cached copy says the queue is full
 * (producer: {@code producerCache} is its copy of {@code head}) or empty (consumer:
 * {@code consumerCache} is its copy of {@code tail}). The subclasses ({@link P1C1IntQueue} on an
 * {@code int[]}, {@link P1C1BoxedQueue} on an {@code Object[]}) add the slots.
 *
 * <pre>{@code
 * // a producer's offer, in a subclass:
 * final long tail = this.tail;
 * if (!hasRoom(tail)) return false;   // full: back pressure
 * slots[slot(tail)] = value;
 * publishTail(tail + 1);
 * }</pre>
 */
abstract class P1C1Counters extends SpscFields {
    P1C1Counters(String name, int capacity) {
        super(name, capacity);
    }

    /**
     * Producer: whether slot {@code tail} is free. Reads the consumer's {@code head} only when the
     * cached copy says full.
     */
    final boolean hasRoom(long tail) {
        // SYNC POINT: p1c1 head published -- pairs with publishHead's setRelease
        return producerCache + capacity > tail || (producerCache = headAcquire()) + capacity > tail;
    }

    /** Producer: publishes the slots before {@code tail} to the consumer. */
    final void publishTail(long tail) {
        // SYNC POINT: p1c1 tail published -- pairs with hasMessage's getAcquire
        tailRelease(tail);
    }

    /**
     * Consumer: whether slot {@code head} holds a message. Reads the producer's {@code tail} only
     * when the cached copy says empty.
     */
    final boolean hasMessage(long head) {
        // SYNC POINT: p1c1 tail published -- pairs with publishTail's setRelease
        return consumerCache > head || (consumerCache = tailAcquire()) > head;
    }

    /** Consumer: hands the slots before {@code head} back to the producer. */
    final void publishHead(long head) {
        // SYNC POINT: p1c1 head published -- pairs with hasRoom's getAcquire
        headRelease(head);
    }
}
