package dev.sympathy.ring;

import static dev.sympathy.ring.SharedMemory.INT;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * One side's wake-up block in the header page: the opt-in idle wait, the same protocol as the
 * Rust ring's {@code wake} module (docs/ring-layout.md, "Idle wait"). The sleeping side (the
 * consumer on an empty ring, the producer on a full one) sleeps in a futex wait on
 * {@code wake_seq}; its peer wakes it after every publish, paying a full fence only while the
 * sleeper is armed.
 *
 * <pre>
 * waiter                                         waker, after each publish (release)
 * a = armed (acquire); a == 0? armed = 1         armed != 0 (opaque load)?
 * S = wake_seq (acquire)                             fullFence                [wake-dekker]
 * waiting = 1                                        CAS armed 1 -> 2 (release: acknowledged)
 * fullFence                    [wake-dekker]         waiting != 0? wake_seq += 1 (release), futex_wake
 * re-check the ring: progress? done
 * futex_wait(wake_seq, S, a == 2 ? slice : bounded sleep); waiting = 0
 * </pre>
 *
 * Until the peer acknowledged the request (armed == 2) the waker's plain look at {@code armed}
 * may miss it, so sleeps are bounded: 1 ms, doubling up to the slice.
 */
final class WakeBlock {
    static final int DISARMED = 0;
    static final int REQUESTED = 1;
    static final int ACKNOWLEDGED = 2;
    private static final long FIRST_UNACKNOWLEDGED_NANOS = 1_000_000;

    private final MemorySegment header;
    private final long armed;
    private final long waiting;
    private final long seq;
    private final MemorySegment seqWord;
    private long unacknowledgedNanos = FIRST_UNACKNOWLEDGED_NANOS;
    /** The sleeping thread's timeout argument (one side sleeps in one thread). */
    private MemorySegment timespec;

    private WakeBlock(MemorySegment header, long armed, long waiting, long seq) {
        this.header = header;
        this.armed = armed;
        this.waiting = waiting;
        this.seq = seq;
        this.seqWord = header.asSlice(seq, 4);
    }

    /** The consumer's block (it sleeps on an empty ring; the producer wakes it). */
    static WakeBlock consumer(MemorySegment header) {
        return new WakeBlock(header, RingDescriptor.CONSUMER_WAKE_ARMED_OFFSET, RingDescriptor.CONSUMER_WAITING_OFFSET,
                RingDescriptor.CONSUMER_WAKE_SEQ_OFFSET);
    }

    /** The producer's block (it sleeps on a full ring; the consumer wakes it). */
    static WakeBlock producer(MemorySegment header) {
        return new WakeBlock(header, RingDescriptor.PRODUCER_WAKE_ARMED_OFFSET, RingDescriptor.PRODUCER_WAITING_OFFSET,
                RingDescriptor.PRODUCER_WAKE_SEQ_OFFSET);
    }

    /** The waker's half, after each publish: an opaque load and a branch unless armed. */
    void wake() {
        // SYNC POINT wake-armed: opaque (a request it misses is not yet relied on).
        if ((int) INT.getOpaque(header, armed) != DISARMED) {
            wakeArmed();
        }
    }

    private void wakeArmed() {
        // SYNC POINT wake-dekker: StoreLoad between the publish before it and the load of
        // `waiting` after it; pairs with the fence in sleep.
        VarHandle.fullFence();
        // SYNC POINT wake-armed: release pairs with sleep's acquire of the acknowledgement.
        int unused = (int) INT.compareAndExchangeRelease(header, armed, REQUESTED, ACKNOWLEDGED);
        if ((int) INT.getOpaque(header, waiting) != 0) {
            // SYNC POINT wake-seq: release pairs with sleep's acquire.
            unused = (int) INT.getAndAddRelease(header, seq, 1);
            Futex.wake(seqWord);
        }
    }

    /** Clears the block (a side attaching after a predecessor that died armed, or detaching). */
    void disarm() {
        if ((int) INT.getOpaque(header, armed) != DISARMED || (int) INT.getOpaque(header, waiting) != 0) {
            INT.setOpaque(header, armed, DISARMED); // SYNC POINT wake-armed
            INT.setOpaque(header, waiting, 0);
        }
    }

    /**
     * One sleep of at most {@code sliceNanos}: arms the block if needed, announces the sleep,
     * re-checks with {@code progress} and sleeps only if there is none.
     *
     * @return true if the re-check found progress (no sleep)
     */
    boolean sleep(BooleanSupplier progress, long sliceNanos) {
        // SYNC POINT wake-armed: acquire pairs with the waker's release of the acknowledgement.
        int state = (int) INT.getAcquire(header, armed);
        if (state == DISARMED) {
            INT.setOpaque(header, armed, REQUESTED); // SYNC POINT wake-armed
        }
        // SYNC POINT wake-seq: acquire pairs with the waker's release increment.
        int expected = (int) INT.getAcquire(header, seq);
        INT.setOpaque(header, waiting, 1);
        try {
            // SYNC POINT wake-dekker: StoreLoad between `waiting = 1` and the re-check's loads;
            // pairs with the fence in wakeArmed.
            VarHandle.fullFence();
            if (progress.getAsBoolean()) {
                return true;
            }
            long nanos = sliceNanos;
            if (state != ACKNOWLEDGED) {
                nanos = Math.min(unacknowledgedNanos, sliceNanos);
                unacknowledgedNanos = Math.min(unacknowledgedNanos * 2, Long.MAX_VALUE / 4);
            }
            if (timespec == null) {
                timespec = Futex.timespec();
            }
            Futex.await(seqWord, expected, Math.max(nanos, 1), timespec);
            return false;
        } finally {
            INT.setOpaque(header, waiting, 0);
        }
    }

    /** {@code (armed, waiting, wake_seq)} now, for tests and tools. */
    int[] state() {
        return new int[] {(int) INT.getOpaque(header, armed), (int) INT.getOpaque(header, waiting),
                (int) INT.getOpaque(header, seq)};
    }
}
