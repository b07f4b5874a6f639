package dev.sympathy.jni;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The Rust ring (crates/ring) through JNI; this class owns every {@code native} method of the
 * module. The library {@code libsympathy_jni.so} is built by {@code cargo build --release -p
 * sympathy-jni} and found on {@code java.library.path} (java/sidecar points it at
 * target/release).
 *
 * <p>Handles are Rust heap objects freed only by {@link #close()}; a closed object refuses
 * further calls. Errors are the ring module's exceptions, as with the FFM ring; a full ring is
 * back pressure ({@code false} / a short count / {@link Producer#INSUFFICIENT_CAPACITY}), never
 * an exception.
 *
 * <pre>{@code
 * try (NativeRing ring = NativeRing.open(path, Duration.ofSeconds(5));
 *      NativeRing.Producer producer = ring.producer(1 << 16)) {
 *     producer.buffer().putLong(0, 42);
 *     boolean written = producer.write(1, 0, 8);       // copied from the scratch buffer
 *     long index = producer.tryClaim(1, 8);             // or zero-copy, in place:
 *     if (index >= 0) {
 *         producer.recordArea().set(ValueLayout.JAVA_LONG_UNALIGNED, index, 42L);
 *         producer.commit(index);                       // or producer.abort(index)
 *     }
 * }
 * }</pre>
 */
public final class NativeRing implements AutoCloseable {
    static {
        loadLibrary();
    }

    /** Loading native code is restricted: the JVM needs --enable-native-access (the launcher gives it). */
    @SuppressWarnings("restricted")
    private static void loadLibrary() {
        try {
            System.loadLibrary("sympathy_jni");
        } catch (UnsatisfiedLinkError e) {
            throw new IllegalStateException("the native ring (libsympathy_jni) is not on java.library.path ("
                    + System.getProperty("java.library.path") + "): build it with `cargo build --release -p "
                    + "sympathy-jni` and run with -Djava.library.path=target/release (java/sidecar does both)", e);
        }
    }

    private long handle;
    private final int maxMessageLength;

    private NativeRing(long handle) {
        this.handle = handle;
        this.maxMessageLength = maxMessageLength0(handle);
    }

    /** Creates a ring file of {@code capacity} bytes (a power of two). */
    public static NativeRing create(Path path, long capacity) {
        if (capacity < 0) {
            throw new dev.sympathy.ring.CapacityNotPowerOfTwoException(capacity);
        }
        return new NativeRing(create0(path.toString(), capacity));
    }

    /** Opens a ring file, waiting up to {@code timeout} for its creator to finish it. */
    public static NativeRing open(Path path, Duration timeout) {
        return new NativeRing(open0(path.toString(), timeout.toMillis()));
    }

    /** The largest payload (capacity / 8). */
    public int maxMessageLength() {
        return maxMessageLength;
    }

    /** Attaches the producer, with a direct scratch buffer of {@code bufferBytes} for payloads. */
    public Producer producer(int bufferBytes) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bufferBytes).order(ByteOrder.LITTLE_ENDIAN);
        long producer = producer0(live(handle), buffer);
        try {
            return new Producer(producer, buffer, 8L * maxMessageLength); // capacity = 8 x max message
        } catch (RuntimeException e) {
            closeProducer0(producer);
            throw e;
        }
    }

    /** Attaches the consumer, with a direct buffer of {@code bufferBytes} that reads fill. */
    public Consumer consumer(int bufferBytes) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bufferBytes).order(ByteOrder.LITTLE_ENDIAN);
        return new Consumer(consumer0(live(handle), buffer), buffer);
    }

    /** Unmaps the ring (attached producers/consumers keep their own mapping). */
    @Override
    public void close() {
        long h = handle;
        handle = 0;
        closeRing0(h);
    }

    /** Pins the calling thread to {@code core} and verifies it; see {@link Affinity}. */
    static void pin(int core) {
        pinCurrentThread0(core);
    }

    private static long live(long handle) {
        if (handle == 0) {
            throw new IllegalStateException("the native ring is closed");
        }
        return handle;
    }

    /**
     * The one producer: {@link #write} and {@link #writeBatch} copy payloads from its direct
     * {@link #buffer()}; {@link #tryClaim} reserves a record that is filled in place through
     * {@link #recordArea()} and published by {@link #commit} or dropped by {@link #abort}
     * (one claim open at a time; closing the producer aborts an open claim).
     */
    public static final class Producer implements AutoCloseable {
        /** What {@link #tryClaim} returns when the ring is full (Agrona's value, as the FFM ring). */
        public static final long INSUFFICIENT_CAPACITY = -2;

        private long handle;
        private final ByteBuffer buffer;
        private final Arena arena;
        private final MemorySegment recordArea;

        private Producer(long handle, ByteBuffer buffer, long capacity) {
            this.handle = handle;
            this.buffer = buffer;
            this.arena = Arena.ofShared();
            this.recordArea = wrap(producerRecordArea0(handle), capacity, arena);
        }

        /**
         * The record area, mapped by the Rust producer, as a segment that lives until
         * {@link #close()} (any access after that throws instead of touching unmapped memory).
         * Reinterpreting a native address is restricted: the JVM needs --enable-native-access.
         */
        @SuppressWarnings("restricted")
        private static MemorySegment wrap(long address, long capacity, Arena arena) {
            return MemorySegment.ofAddress(address).reinterpret(capacity, arena, null);
        }

        /** The scratch buffer payloads are read from (little-endian, direct). */
        public ByteBuffer buffer() {
            return buffer;
        }

        /** The ring's record area: a claim's payload is written here at the index {@link #tryClaim} gave. */
        public MemorySegment recordArea() {
            return recordArea;
        }

        /** Writes {@code buffer[offset, offset+length)} as one message; false when the ring is full. */
        public boolean write(int typeId, int offset, int length) {
            return write0(live(handle), typeId, offset, length);
        }

        /**
         * Writes {@code count} messages of {@code length} bytes laid end to end from offset 0 of the
         * buffer in one native call, published together; returns how many fit (0 when full).
         */
        public int writeBatch(int typeId, int count, int length) {
            return writeBatch0(live(handle), typeId, count, length);
        }

        /**
         * Claims room for a message of {@code length} bytes, to be written in place into
         * {@link #recordArea()}; publish it with {@link #commit} or drop it with {@link #abort}.
         *
         * @return the index of the payload in {@link #recordArea()}, or {@link #INSUFFICIENT_CAPACITY}
         * @throws dev.sympathy.ring.InvalidTypeIdException if typeId < 1
         * @throws dev.sympathy.ring.MessageTooLongException if length is negative or too long
         * @throws IllegalStateException if a claim is already open
         */
        public long tryClaim(int typeId, int length) {
            return claim0(live(handle), typeId, length);
        }

        /**
         * Publishes the open claim.
         *
         * @throws IllegalArgumentException if index is not the one {@link #tryClaim} returned
         * @throws IllegalStateException if no claim is open (already committed or aborted)
         */
        public void commit(long index) {
            commit0(live(handle), index);
        }

        /** Drops the open claim: it becomes padding that consumers skip; errors as {@link #commit}. */
        public void abort(long index) {
            abort0(live(handle), index);
        }

        public void heartbeat() {
            producerHeartbeat0(live(handle));
        }

        /** Detaches the producer (aborting an open claim) and frees the handle. */
        @Override
        public void close() {
            long h = handle;
            if (h == 0) {
                return;
            }
            handle = 0;
            arena.close();
            closeProducer0(h);
        }
    }

    /**
     * The one consumer: {@link #read(int)} copies messages into its direct {@link #buffer()} as
     * {@code [type id: int][length: int][payload padded to 8 bytes]}, little-endian, from offset 0.
     */
    public static final class Consumer implements AutoCloseable {
        private long handle;
        private final ByteBuffer buffer;

        private Consumer(long handle, ByteBuffer buffer) {
            this.handle = handle;
            this.buffer = buffer;
        }

        public ByteBuffer buffer() {
            return buffer;
        }

        /** Reads up to {@code limit} messages into the buffer; returns how many (0 when none). */
        public int read(int limit) {
            return read0(live(handle), limit);
        }

        public void heartbeat() {
            consumerHeartbeat0(live(handle));
        }

        /** Detaches the consumer and frees the handle. */
        @Override
        public void close() {
            long h = handle;
            handle = 0;
            closeConsumer0(h);
        }
    }

    private static native long create0(String path, long capacity);

    private static native long open0(String path, long timeoutMs);

    private static native int maxMessageLength0(long ring);

    private static native void closeRing0(long ring);

    private static native long producer0(long ring, ByteBuffer buffer);

    private static native boolean write0(long producer, int typeId, int offset, int length);

    private static native int writeBatch0(long producer, int typeId, int count, int length);

    private static native long producerRecordArea0(long producer);

    private static native long claim0(long producer, int typeId, int length);

    private static native void commit0(long producer, long index);

    private static native void abort0(long producer, long index);

    private static native void producerHeartbeat0(long producer);

    private static native void closeProducer0(long producer);

    private static native long consumer0(long ring, ByteBuffer buffer);

    private static native int read0(long consumer, int limit);

    private static native void consumerHeartbeat0(long consumer);

    private static native void closeConsumer0(long consumer);

    private static native void pinCurrentThread0(int core);
}
