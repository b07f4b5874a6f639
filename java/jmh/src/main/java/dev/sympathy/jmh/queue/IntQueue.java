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
}
