package dev.sympathy.jmh.backpressure;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue in front of the workers: one producer (the generator), any number of consumers (the
 * workers), request ids in a ring of int slots. A request counts against {@link #limit()} from
 * {@link #offer} until a worker calls {@link #done} for it, so the limit bounds the requests in
 * the system, waiting or in service, as the seed's gallery holds at most 30 viewers; like a
 * record of the project's ring, whose slot is released only after its handler returns.
 *
 * <ul>
 *   <li>{@link #bounded(int)}: {@code offer} returns {@code false} (busy) when {@code limit}
 *       requests are in the system: back pressure.</li>
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
     * A queue refusing requests while {@code limit} are in the system.
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
        // SYNC POINT finished: acquire pairs with done()'s release.
        if (t - finished.getAcquire() >= limit) {
            return false;
        }
        // SYNC POINT head: acquire pairs with poll()'s CAS; the slot is free once a worker took it.
        if (t - head.getAcquire() > mask) {
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

    /** Marks one taken request finished: its place in the system is free (worker threads). */
    public void done() {
        // SYNC POINT finished: release (getAndIncrement is volatile) pairs with offer()'s acquire.
        finished.getAndIncrement();
    }

    /** Requests accepted and not yet finished. */
    public long inSystem() {
        return tail.get() - finished.get();
    }
}
