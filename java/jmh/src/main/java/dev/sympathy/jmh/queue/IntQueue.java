package dev.sympathy.jmh.queue;

/**
 * What the queue benchmark needs of a single-producer single-consumer queue of non-negative ints.
 * A full queue is back pressure: {@link #offer} returns {@code false} and nothing is dropped.
 */
public interface IntQueue {
    /** Returned by {@link #poll} when the queue is empty. */
    int EMPTY = -1;

    /** Adds {@code value} (non-negative); {@code false} when the queue is full. Producer thread only. */
    boolean offer(int value);

    /** Takes the oldest value, or {@link #EMPTY}. Consumer thread only. */
    int poll();

    /**
     * Adds the values of up to {@code limit} consecutive sequence numbers from {@code first} (the
     * value of sequence number {@code s} is {@code (int) (s & (Queues.POOL - 1))}, as the
     * benchmark's producer sends them) and returns how many (0 when full). A queue that fills in
     * batches ({@link P1C1BatchQueue}) publishes them with one store; the default offers one.
     * Producer thread only.
     */
    default int offerSequence(long first, int limit) {
        return offer((int) (first & (Queues.POOL - 1))) ? 1 : 0;
    }

    /** Where {@link #drain} hands each value it takes, in order. */
    @FunctionalInterface
    interface Sink {
        /** Processes one value; it is released from the queue only after this returns. */
        void accept(int value);
    }

    /**
     * Takes up to {@code limit} of the oldest values, handing each to {@code sink}; returns how
     * many. A queue that reads in batches releases their slots once, after the sink processed
     * them (as Rust's record ring consumer does); the default takes one value per call.
     * Consumer thread only.
     */
    default int drain(Sink sink, int limit) {
        final int value = poll();
        if (value == EMPTY) {
            return 0;
        }
        sink.accept(value);
        return 1;
    }
}
