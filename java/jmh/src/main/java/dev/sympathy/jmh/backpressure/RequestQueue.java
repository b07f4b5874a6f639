package dev.sympathy.jmh.backpressure;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue in front of the workers: one producer (the generator), any number of consumers (the
 * workers), request ids in a ring of int slots. A request counts against {@link #limit()} from
 * {@link #offer} until a worker takes it ({@link #poll}), so the limit bounds the requests
 * waiting, as Rust's bounded queue (a {@code crossbeam} {@code ArrayQueue} of {@code queue_len}
 * slots) does: the same admission in both languages, sized by Little's law so that a request
 * waits at most {@code max_latency}. {@link #done} counts finished requests for
 * {@link #inSystem()}.
 *
 * <ul>
 *   <li>{@link #bounded(int)}: {@code offer} returns {@code false} (busy) when {@code limit}
 *       requests wait: back pressure.</li>
 *   <li>{@link #unbounded(int)}: room for every request of a run; {@code offer} never refuses.</li>
 * </ul>
 *
 * <pre>{@code
 * RequestQueue queue = RequestQueue.bounded(100);
 * if (!queue.offer(id)) { rejected++; }        // generator
 * int id = queue.poll();                       // worker: -1 when empty
 * ... serve id ...; queue.done();
 * }</pre>
 */
public final class RequestQueue {
    private final int[] slots;
    private final int mask;
    private final long limit;
    /** Requests ever offered and accepted; written by the producer only. */
    private final AtomicLong tail = new AtomicLong();
    /** Requests ever taken by a worker. */
    private final AtomicLong head = new AtomicLong();
    /** Requests ever finished ({@link #done}). */
    private final AtomicLong finished = new AtomicLong();

    private RequestQueue(int capacity, long limit) {
        this.slots = new int[capacity];
        this.mask = capacity - 1;
        this.limit = limit;
    }

    /**
     * A queue refusing requests while {@code limit} wait for a worker.
     *
     * @throws IllegalArgumentException unless {@code 1 <= limit <= 2^30}
     */
    public static RequestQueue bounded(int limit) {
        if (limit < 1 || limit > 1 << 30) {
            throw new IllegalArgumentException("queue limit must be 1..2^30, got " + limit);
        }
        return new RequestQueue(ceilPowerOfTwo(limit), limit);
    }

    /**
     * A queue holding up to {@code requests} (every request of a run) without refusing any.
     *
     * @throws IllegalArgumentException unless {@code 1 <= requests <= 2^30}
     */
    public static RequestQueue unbounded(int requests) {
        if (requests < 1 || requests > 1 << 30) {
            throw new IllegalArgumentException("unbounded queue room must be 1..2^30 requests, got " + requests);
        }
        return new RequestQueue(ceilPowerOfTwo(requests), Long.MAX_VALUE);
    }

    private static int ceilPowerOfTwo(int n) {
        return n == 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /** The most requests in the system at once ({@code Long.MAX_VALUE} when unbounded). */
    public long limit() {
        return limit;
    }

    /**
     * Adds a request (producer thread only).
     *
     * @return {@code false} when the queue is bounded and full: the request is refused (busy)
     * @throws IllegalStateException when an unbounded queue runs out of the room it was made with
     */
    public boolean offer(int id) {
        final long t = tail.get();
        // SYNC POINT head: acquire pairs with poll()'s CAS; the slot is free once a worker took it.
        final long waiting = t - head.getAcquire();
        if (waiting >= limit) {
            return false;
        }
        if (waiting > mask) {
            throw new IllegalStateException("unbounded request queue is out of room (" + slots.length + " slots)");
        }
        slots[(int) t & mask] = id;
        // SYNC POINT tail: release pairs with poll()'s acquire; publishes the slot written above.
        tail.setRelease(t + 1);
        return true;
    }

    /** Takes the oldest request (any worker thread), or returns -1 when none waits. */
    public int poll() {
        while (true) {
            final long h = head.get();
            // SYNC POINT tail: acquire pairs with offer()'s release.
            if (h >= tail.getAcquire()) {
                return -1;
            }
            final int id = slots[(int) h & mask];
            // SYNC POINT head: the CAS (volatile) pairs with offer()'s acquire of head.
            if (head.compareAndSet(h, h + 1)) {
                return id;
            }
        }
    }

    /** Marks one taken request finished (worker threads): counted by {@link #inSystem()}. */
    public void done() {
        finished.getAndIncrement();
    }

    /** Requests accepted and not yet finished. */
    public long inSystem() {
        return tail.get() - finished.get();
    }
}
