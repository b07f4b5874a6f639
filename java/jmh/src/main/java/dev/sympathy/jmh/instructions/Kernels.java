package dev.sympathy.jmh.instructions;

import dev.sympathy.jmh.queue.IntQueue;
import dev.sympathy.jmh.queue.P1C1BatchQueue;
import dev.sympathy.jmh.queue.P1C1IntQueue;
import dev.sympathy.jmh.queue.P1C1OffHeapQueue;
import dev.sympathy.jmh.serialization.Order;
import dev.sympathy.jmh.serialization.OrderCodec;
import dev.sympathy.jmh.serialization.OrderCodecs;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The Java twins of Rust's instruction-count kernels ({@code crates/instructions/src/kernels.rs}):
 * each {@code static} loop runs one hot path once per message, as its Rust twin does, and
 * {@link #byId} pairs it with its input and check under the Rust id.
 *
 * <ul>
 *   <li>{@code ring/write/4b}, {@code ring/write/256b}: one {@link RingProducer#write(int, byte[], int, int)}
 *       of a 4 / 256-byte payload of type {@value #TYPE_ID} into an empty in-memory ring.
 *   <li>{@code ring/read/4b}, {@code ring/read/256b}: one {@link RingConsumer#read}{@code (handler, 1)}
 *       per message of a filled ring; the handler adds up the first byte of each payload.
 *   <li>{@code queue/offer/u32}, {@code queue/poll/u32}: one offer / poll of an int on the heap
 *       P1C1 queue ({@link P1C1IntQueue}); {@code -offheap}: the same on {@link P1C1OffHeapQueue}
 *       (Java only); {@code -batch}: up to {@value P1C1BatchQueue#BATCH} values per
 *       {@link P1C1BatchQueue#offerSequence} / {@link P1C1BatchQueue#drain}, one publish each (the
 *       queue experiment's {@code p1c1-batch}).
 *   <li>{@code serialization/encode/<codec>}, {@code serialization/decode/<codec>}: one encode of
 *       the seed's order ({@link Order#seedItem}) / one decode of it, through the serialization
 *       experiment's Java codec paired with Rust's {@code codec}: {@code hand-codec} is
 *       {@code byte-buffer}, {@code zero-copy} is {@code unsafe}, {@code sbe} is {@code sbe}.
 * </ul>
 *
 * <p>Where Java's work differs from Rust's: a codec's one call is {@link OrderCodec#writeBatch} /
 * {@link OrderCodec#readBatch} of a batch of one order (the batch-size check and a one-pass loop
 * more than Rust's call), and a decode allocates its {@link Order} and its two arrays where Rust
 * returns the order by value. docs/instruction-counts.md lists the differences.
 *
 * <pre>{@code
 * long sum = Kernels.byId("ring/read/4b").runChecked(100); // 100 messages of first byte 7: 700
 * }</pre>
 */
public final class Kernels {
    /** The type id of every ring message (Rust's {@code TYPE_ID}). */
    public static final int TYPE_ID = 1;
    /** The byte every ring payload is filled with (Rust's: 7). */
    static final byte PAYLOAD_BYTE = 7;
    /** Bytes of a ring record's header. */
    private static final int RECORD_HEADER = 8;
    /** The smallest ring made: room for a 256-byte message (the most a ring takes is capacity / 8). */
    private static final long MIN_RING_CAPACITY = 4096;

    /** Messages of each warm-up call of the batch kernels: ten batches. */
    private static final int BATCH_WARMUP_MESSAGES = 10 * P1C1BatchQueue.BATCH;

    /** The seed's order, the one every codec kernel encodes (a batch of one). */
    private static final Order[] SEED = {Order.seedItem()};

    /** Every id, in the order of Rust's baseline groups. */
    private static final List<String> IDS = List.of("ring/write/4b", "ring/read/4b", "ring/write/256b", "ring/read/256b",
            "queue/offer/u32", "queue/poll/u32", "queue/offer/u32-batch", "queue/poll/u32-batch",
            "queue/offer/u32-offheap", "queue/poll/u32-offheap",
            "serialization/encode/hand-codec", "serialization/decode/hand-codec", "serialization/encode/zero-copy",
            "serialization/decode/zero-copy", "serialization/encode/sbe", "serialization/decode/sbe");

    private Kernels() {
    }

    /** Every id, in the order of Rust's baseline groups. */
    public static List<String> ids() {
        return IDS;
    }

    /**
     * The kernel of {@code id}, made on demand: a JVM that counts one kernel loads and links only
     * its classes (under callgrind every class and lambda linked at start-up costs seconds).
     *
     * @throws IllegalArgumentException for an id with no Java kernel
     */
    public static Kernel<?> byId(String id) {
        return switch (id) {
            case "ring/write/4b" -> ringWriteKernel(4);
            case "ring/write/256b" -> ringWriteKernel(256);
            case "ring/read/4b" -> ringReadKernel(4);
            case "ring/read/256b" -> ringReadKernel(256);
            case "queue/offer/u32" -> queueOfferKernel("u32", P1C1IntQueue::new);
            case "queue/poll/u32" -> queuePollKernel("u32", P1C1IntQueue::new);
            case "queue/offer/u32-batch" -> new Kernel<>(id, method("queueOfferBatch"),
                    n -> new P1C1BatchQueue(queueCapacity(n)), Kernels::queueOfferBatch,
                    (in, n, result) -> {
                        expect(id, n, result);
                        expect(id, sequenceSum(n), queuePollBatch(in, n));
                    }).warmingUpOver(BATCH_WARMUP_MESSAGES);
            case "queue/poll/u32-batch" -> new Kernel<>(id, method("queuePollBatch"), n -> {
                final P1C1BatchQueue queue = new P1C1BatchQueue(queueCapacity(n));
                queueOfferBatch(queue, n);
                return queue;
            }, Kernels::queuePollBatch, (in, n, result) -> expect(id, sequenceSum(n), result))
                    .warmingUpOver(BATCH_WARMUP_MESSAGES);
            case "queue/offer/u32-offheap" -> queueOfferKernel("u32-offheap", P1C1OffHeapQueue::new);
            case "queue/poll/u32-offheap" -> queuePollKernel("u32-offheap", P1C1OffHeapQueue::new);
            case "serialization/encode/hand-codec" -> encodeKernel("hand-codec", "byte-buffer");
            case "serialization/decode/hand-codec" -> decodeKernel("hand-codec", "byte-buffer");
            case "serialization/encode/zero-copy" -> encodeKernel("zero-copy", "unsafe");
            case "serialization/decode/zero-copy" -> decodeKernel("zero-copy", "unsafe");
            case "serialization/encode/sbe" -> encodeKernel("sbe", "sbe");
            case "serialization/decode/sbe" -> decodeKernel("sbe", "sbe");
            default -> throw new IllegalArgumentException("no Java kernel '" + id + "' (expected one of "
                    + String.join(", ", IDS) + ")");
        };
    }

    private static Kernel<RingWrite> ringWriteKernel(int len) {
        final String id = "ring/write/" + len + "b";
        return new Kernel<>(id, method("ringWrite"), n -> new RingWrite(ring(n, len), payload(len)),
                (in, n) -> ringWrite(in.producer, in.payload, n), (in, n, result) -> {
                    expect(id, n, result);
                    // Every message is in the ring, as written.
                    expect(id, (long) PAYLOAD_BYTE * n, ringRead(new RingRead(in.producer, in.consumer), n));
                });
    }

    private static Kernel<RingRead> ringReadKernel(int len) {
        final String id = "ring/read/" + len + "b";
        return new Kernel<>(id, method("ringRead"), n -> filledRing(n, len), Kernels::ringRead,
                (in, n, result) -> expect(id, (long) PAYLOAD_BYTE * n, result));
    }

    private static Kernel<IntQueue> queueOfferKernel(String param, IntFunction<IntQueue> make) {
        final String id = "queue/offer/" + param;
        return new Kernel<>(id, method("queueOffer"), n -> make.apply(queueCapacity(n)), Kernels::queueOffer,
                (in, n, result) -> expect(id, n, result));
    }

    private static Kernel<IntQueue> queuePollKernel(String param, IntFunction<IntQueue> make) {
        final String id = "queue/poll/" + param;
        return new Kernel<>(id, method("queuePoll"), n -> {
            final IntQueue queue = make.apply(queueCapacity(n));
            queueOffer(queue, n);
            return queue;
        }, Kernels::queuePoll, (in, n, result) -> expect(id, (long) n * (n - 1) / 2, result));
    }

    private static Kernel<OrderCodec> encodeKernel(String codec, String variant) {
        final String id = "serialization/encode/" + codec;
        return new Kernel<>(id, method("encode"), n -> OrderCodecs.create(variant), (in, n) -> encode(in, new Source(), n),
                (in, n, result) -> {
                    final Order[] back = new Order[1];
                    in.readBatch(back, 1);
                    expect(id, 1, SEED[0].equals(back[0]) ? 1 : 0);
                });
    }

    private static Kernel<Decode> decodeKernel(String codec, String variant) {
        final String id = "serialization/decode/" + codec;
        return new Kernel<>(id, method("decode"), n -> encoded(variant), (in, n) -> decode(in.codec, in.out, n),
                (in, n, result) -> expect(id, 1, SEED[0].equals(in.out[0]) ? 1 : 0));
    }

    // ---- the measured loops (never inlined into their caller when counted: InstructionCounts) ----

    /**
     * Writes {@code payload} {@code n} times, one {@link RingProducer#write(int, byte[], int, int)}
     * (claim, copy, publish) per message; returns {@code n}.
     *
     * @throws IllegalStateException when the ring is full: a measurement never skips a message
     */
    static long ringWrite(RingProducer producer, byte[] payload, int n) {
        for (int i = 0; i < n; i++) {
            if (!producer.write(TYPE_ID, payload, 0, payload.length)) {
                throw new IllegalStateException("the ring was full after " + i + " of " + n + " messages");
            }
        }
        return n;
    }

    /**
     * Reads {@code n} messages, one {@code read(handler, 1)} (one head release) per message;
     * returns the sum of their first bytes.
     *
     * @throws IllegalStateException when fewer than {@code n} messages were waiting
     */
    static long ringRead(RingRead in, int n) {
        final RingConsumer consumer = in.consumer;
        final FirstByteSum handler = in.handler;
        handler.sum = 0;
        for (int i = 0; i < n; i++) {
            if (consumer.read(handler, 1) != 1) {
                throw new IllegalStateException("the ring was empty after " + i + " of " + n + " messages");
            }
        }
        return handler.sum;
    }

    /**
     * Offers {@code 0..n} one value at a time; returns {@code n}.
     *
     * @throws IllegalStateException when the queue is full before {@code n} values
     */
    static long queueOffer(IntQueue queue, int n) {
        for (int value = 0; value < n; value++) {
            if (!queue.offer(value)) {
                throw new IllegalStateException("the queue was full after " + value + " of " + n + " values");
            }
        }
        return n;
    }

    /**
     * Polls {@code n} values one at a time; returns their sum.
     *
     * @throws IllegalStateException when fewer than {@code n} values were waiting
     */
    static long queuePoll(IntQueue queue, int n) {
        long sum = 0;
        for (int polled = 0; polled < n; polled++) {
            final int value = queue.poll();
            if (value == IntQueue.EMPTY) {
                throw new IllegalStateException("the queue was empty after " + polled + " of " + n + " values");
            }
            sum += value;
        }
        return sum;
    }

    /**
     * Encodes the seed's order into slot 0 {@code n} times, a batch of one; returns its bytes.
     * Each call reads the order's batch from a volatile field, the twin of Rust's
     * {@code black_box(order)}: without it C2 sees the same final fields stored to the same slot
     * every time and moves the whole encode out of the loop (2.5 instructions per "encode").
     */
    static long encode(OrderCodec codec, Source source, int n) {
        for (int i = 0; i < n; i++) {
            codec.writeBatch(source.orders, 1);
        }
        return codec.encodedBytes();
    }

    /** Where {@link #encode} reads the order from on every call. */
    static final class Source {
        volatile Order[] orders = SEED;
    }

    /** Decodes slot 0 into {@code out[0]} {@code n} times, a batch of one (the last order stays there); returns {@code n}. */
    static long decode(OrderCodec codec, Order[] out, int n) {
        for (int i = 0; i < n; i++) {
            codec.readBatch(out, 1);
        }
        return n;
    }

    // ---- inputs and checks (not measured) ----

    private static String method(String name) {
        return Kernels.class.getName() + "::" + name;
    }

    /** Room for {@code n} values: the next power of two, at least 2. */
    static int queueCapacity(int n) {
        return Math.max(2, Integer.highestOneBit(Math.max(1, n - 1)) << 1);
    }

    /** Ring capacity for {@code n} records of a {@code len}-byte payload without wrapping or filling. */
    static long ringCapacity(int n, int len) {
        final long record = (RECORD_HEADER + len + 7) & ~7L;
        return Math.max(MIN_RING_CAPACITY, Long.highestOneBit(record * n) << 1);
    }

    private static RingFile ring(int n, int len) {
        return RingFile.inMemory(ringCapacity(n, len));
    }

    private static byte[] payload(int len) {
        final byte[] payload = new byte[len];
        Arrays.fill(payload, PAYLOAD_BYTE);
        return payload;
    }

    private static RingRead filledRing(int n, int len) {
        final RingWrite write = new RingWrite(ring(n, len), payload(len));
        ringWrite(write.producer, write.payload, n);
        return new RingRead(write.producer, write.consumer);
    }

    private static Decode encoded(String variant) {
        final OrderCodec codec = OrderCodecs.create(variant);
        codec.writeBatch(SEED, 1);
        return new Decode(codec, new Order[1]);
    }

    private static void expect(String id, long expected, long result) {
        if (result != expected) {
            throw new IllegalStateException(id + ": the kernel returned " + result + ", expected " + expected);
        }
    }

    /** An empty ring with its producer and consumer (Rust's {@code RingPair}), and the payload. */
    record RingWrite(RingProducer producer, RingConsumer consumer, byte[] payload) {
        RingWrite(RingFile ring, byte[] payload) {
            this(ring.producer(), ring.consumer(), payload);
        }
    }

    /** A filled ring's consumer (its producer kept with it) and the handler. */
    record RingRead(RingProducer producer, RingConsumer consumer, FirstByteSum handler) {
        RingRead(RingProducer producer, RingConsumer consumer) {
            this(producer, consumer, new FirstByteSum());
        }
    }

    /** A codec holding the seed's order in slot 0, and where a decode puts it. */
    record Decode(OrderCodec codec, Order[] out) {
    }

    /**
     * Offers sequence numbers {@code 0..n} in batches of up to {@link P1C1BatchQueue#BATCH}, one
     * publish per batch (Rust's {@code queue_offer_batch}); returns how many.
     *
     * @throws IllegalStateException when the queue is full before {@code n} values
     */
    static long queueOfferBatch(P1C1BatchQueue queue, int n) {
        long sent = 0;
        while (sent < n) {
            final int batch = queue.offerSequence(sent, (int) Math.min(P1C1BatchQueue.BATCH, n - sent));
            if (batch == 0) {
                throw new IllegalStateException("the queue was full after " + sent + " of " + n + " values");
            }
            sent += batch;
        }
        return sent;
    }

    /**
     * Polls {@code n} values in batches of up to {@link P1C1BatchQueue#BATCH}, one head release per
     * batch (Rust's {@code queue_poll_batch}); returns their sum.
     *
     * @throws IllegalStateException when fewer than {@code n} values were waiting
     */
    static long queuePollBatch(P1C1BatchQueue queue, int n) {
        final ValueSum sum = new ValueSum();
        long polled = 0;
        while (polled < n) {
            final int taken = queue.drain(sum, (int) Math.min(P1C1BatchQueue.BATCH, n - polled));
            if (taken == 0) {
                throw new IllegalStateException("the queue was empty after " + polled + " of " + n + " values");
            }
            polled += taken;
        }
        return sum.sum;
    }

    /** The sum of the values of sequence numbers {@code 0..n} as {@link P1C1BatchQueue} writes them. */
    private static long sequenceSum(int n) {
        long sum = 0;
        for (long s = 0; s < n; s++) {
            sum += P1C1BatchQueue.valueOf(s);
        }
        return sum;
    }

    /** The batch consumer's sink: adds up the values (Rust's closure over {@code sum}). */
    static final class ValueSum implements IntQueue.Sink {
        long sum;

        @Override
        public void accept(int value) {
            sum += value;
        }
    }

    /** The read handler: adds up the first byte of each payload (Rust's closure over {@code sum}). */
    static final class FirstByteSum implements MessageHandler {
        long sum;

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            sum += Byte.toUnsignedLong(buffer.get(ValueLayout.JAVA_BYTE, offset));
        }
    }
}
