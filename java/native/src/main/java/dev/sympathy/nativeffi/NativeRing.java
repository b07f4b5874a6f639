package dev.sympathy.nativeffi;

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
 * back pressure ({@code false} / a short count), never an exception.
 *
 * <pre>{@code
 * try (NativeRing ring = NativeRing.open(path, Duration.ofSeconds(5));
 *      NativeRing.Producer producer = ring.producer(1 << 16)) {
 *     producer.buffer().putLong(0, 42);
 *     boolean written = producer.write(1, 0, 8);
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
        return new Producer(producer0(live(handle), buffer), buffer);
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

    /** The one producer: payloads are taken from its direct {@link #buffer()}. */
    public static final class Producer implements AutoCloseable {
        private long handle;
        private final ByteBuffer buffer;

        private Producer(long handle, ByteBuffer buffer) {
            this.handle = handle;
            this.buffer = buffer;
        }

        /** The scratch buffer payloads are read from (little-endian, direct). */
        public ByteBuffer buffer() {
            return buffer;
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

        public void heartbeat() {
            producerHeartbeat0(live(handle));
        }

        /** Detaches the producer and frees the handle. */
        @Override
        public void close() {
            long h = handle;
            handle = 0;
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

    private static native void producerHeartbeat0(long producer);

    private static native void closeProducer0(long producer);

    private static native long consumer0(long ring, ByteBuffer buffer);

    private static native int read0(long consumer, int limit);

    private static native void consumerHeartbeat0(long consumer);

    private static native void closeConsumer0(long consumer);

    private static native void pinCurrentThread0(int core);
}
