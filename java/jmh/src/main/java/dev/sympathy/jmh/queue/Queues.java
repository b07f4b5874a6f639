package dev.sympathy.jmh.queue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.jctools.queues.SpscArrayQueue;

/**
 * Makes the queue benchmark's {@link IntQueue} for a variant name (the Rust names).
 *
 * <p>Object queues carry {@link Integer}s from a preallocated pool ({@link #POOL} values), so no
 * message allocates and the consumer can still check the order ({@code value == seq & (POOL-1)}).
 */
public final class Queues {
    /** Every variant {@link #create} knows, in report order. */
    public static final String[] VARIANTS = {
        "p1c1", "p1c1-boxed", "p1c1-batch", "p1c1-offheap", "p1c1-ipc", "fastflow", "ring", "jctools-spsc", "agrona-one-to-one",
        "array-blocking-queue", "concurrent-linked-queue",
    };
    /**
     * Values cycle through {@code [0, POOL)}: a power of two larger than any capacity used, and the
     * size of Rust's pool of boxes ({@code BOX_POOL}) for {@code p1c1-boxed}.
     */
    public static final int POOL = 1 << 20;

    /**
     * The pool of boxes, built on first use (a holder class: the forks of the unboxed variants do not
     * spend the time to build it).
     */
    private static final class Boxes {
        static final Integer[] BOXES = new Integer[POOL];

        static {
            for (int i = 0; i < POOL; i++) {
                BOXES[i] = i;
            }
        }
    }

    private Queues() {
    }

    /**
     * Refuses a variant {@link #create} does not know.
     *
     * @throws IllegalArgumentException for an unknown variant
     */
    private static void requireKnown(String variant) {
        if (!Arrays.asList(VARIANTS).contains(variant)) {
            throw new IllegalArgumentException("queue: unknown variant '" + variant
                    + "' (expected one of " + String.join(", ", VARIANTS) + ")");
        }
    }

    /**
     * Most values the consumer takes per read before it releases their slots (the {@code batch}
     * parity fact): {@value FfmRingQueue#BATCH} for {@code ring}, {@value P1C1BatchQueue#BATCH} for
     * {@code p1c1-batch}, 1 for every queue polled one value at a time.
     */
    public static int batch(String variant) {
        requireKnown(variant);
        return switch (variant) {
            case "ring" -> FfmRingQueue.BATCH;
            case "p1c1-batch" -> P1C1BatchQueue.BATCH;
            default -> 1;
        };
    }

    /**
     * Most values the producer sends per call, published at once ({@link IntQueue#offerSequence}):
     * {@value P1C1BatchQueue#BATCH} for {@code p1c1-batch}, 1 for every other queue (the record
     * rings write one record per offer).
     */
    public static int producerBatch(String variant) {
        requireKnown(variant);
        return variant.equals("p1c1-batch") ? P1C1BatchQueue.BATCH : 1;
    }

    /**
     * Bytes one value occupies in the slots the two threads share (the {@code slot_bytes} parity
     * fact): an int (4), a compressed reference to an {@code Integer} (4), a flag and an int
     * ({@code fastflow}: 8), a record of an 8-byte header and an int aligned to 8 ({@code ring},
     * {@code agrona-one-to-one}: 16). A linked queue's node is its slot: {@code concurrent-linked-queue}
     * says the reference in it (4).
     */
    public static int slotBytes(String variant) {
        requireKnown(variant);
        return switch (variant) {
            case "fastflow" -> FastFlowIntQueue.SLOT_BYTES;
            case "ring", "agrona-one-to-one" -> 16;
            default -> Integer.BYTES;
        };
    }

    /**
     * A queue of {@code capacity} messages, both of its ends in this process: {@code p1c1-ipc}'s is
     * its queue file with both roles claimed (the benchmark instead claims the producer's and
     * starts a consumer JVM: {@link IpcConsumer}).
     *
     * @throws IllegalArgumentException for an unknown variant or a bad capacity
     * @throws java.io.UncheckedIOException if the {@code ring} or {@code p1c1-ipc} variant cannot
     *     create its file
     */
    public static IntQueue create(String variant, int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1 || capacity > POOL / 2) {
            throw new IllegalArgumentException("queue: capacity must be a power of two in 2.." + POOL / 2 + ", got " + capacity);
        }
        return switch (variant) {
            case "p1c1" -> new P1C1IntQueue(capacity);
            case "p1c1-boxed" -> new P1C1BoxedQueue(capacity, Boxes.BOXES);
            case "p1c1-batch" -> new P1C1BatchQueue(capacity);
            case "p1c1-offheap" -> new P1C1OffHeapQueue(capacity);
            case "p1c1-ipc" -> P1C1FileQueue.create(capacity, P1C1FileQueue.PRODUCER_ROLE | P1C1FileQueue.CONSUMER_ROLE);
            case "fastflow" -> new FastFlowIntQueue(capacity);
            case "jctools-spsc" -> boxed(new SpscArrayQueue<>(capacity));
            case "array-blocking-queue" -> boxed(new ArrayBlockingQueue<>(capacity));
            case "concurrent-linked-queue" -> bounded(new ConcurrentLinkedQueue<>(), capacity);
            case "agrona-one-to-one" -> agrona(capacity);
            case "ring" -> FfmRingQueue.create(capacity);
            default -> throw new IllegalArgumentException("queue: unknown variant '" + variant
                    + "' (expected one of " + String.join(", ", VARIANTS) + ")");
        };
    }

    private static IntQueue boxed(Queue<Integer> queue) {
        return new IntQueue() {
            @Override
            public boolean offer(int value) {
                return queue.offer(Boxes.BOXES[value]);
            }

            @Override
            public int poll() {
                final Integer value = queue.poll();
                return value == null ? EMPTY : value;
            }
        };
    }

    /**
     * An unbounded queue made bounded: the producer counts what it sent, the consumer publishes
     * what it took, and an offer fails when {@code capacity} messages are in flight, so a fast
     * producer cannot fill the heap.
     */
    private static IntQueue bounded(Queue<Integer> queue, int capacity) {
        final AtomicLong taken = new AtomicLong();
        return new IntQueue() {
            private long sent;
            private long taken1;

            @Override
            public boolean offer(int value) {
                // SYNC POINT: clq taken -- pairs with poll's lazySet
                if (sent - taken.getAcquire() >= capacity || !queue.offer(Boxes.BOXES[value])) {
                    return false;
                }
                sent++;
                return true;
            }

            @Override
            public int poll() {
                final Integer value = queue.poll();
                if (value == null) {
                    return EMPTY;
                }
                // SYNC POINT: clq taken -- pairs with offer's getAcquire
                taken.setRelease(++taken1);
                return value;
            }
        };
    }

    private static IntQueue agrona(int capacity) {
        // A message is an 8-byte record header plus a 4-byte int, aligned to 8: 16 bytes.
        final int bytes = capacity * 16 + RingBufferDescriptor.TRAILER_LENGTH;
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(bytes)));
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(Integer.BYTES));
        return new IntQueue() {
            private int received;
            private final MessageHandler handler = (type, buffer, index, length) -> received = buffer.getInt(index);

            @Override
            public boolean offer(int value) {
                message.putInt(0, value);
                return ring.write(1, message, 0, Integer.BYTES);
            }

            @Override
            public int poll() {
                return ring.read(handler, 1) == 0 ? EMPTY : received;
            }
        };
    }
}
