package dev.sympathy.app;

import dev.sympathy.jni.NativeRing;
import dev.sympathy.ring.RingFile;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * {@code --impl jni}: the Rust ring through the native module. The Rust side maps the same file
 * and claims the producer/consumer slot itself; the Java {@link RingFile} is used only for its
 * path and the peer checks of the loops.
 *
 * <p>The binding has no controlled read: its consumer copies a batch out of the ring and
 * releases it before Java sees it, so a consume that finds a bad message has consumed it, and
 * the rest of its batch, already (the error says how many); {@code --impl ffm} and
 * {@code agrona} leave it at the head.
 */
final class JniImpl implements RingImpl {
    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public String name() {
        return "jni";
    }

    @Override
    public ProducerEnd producer(RingFile ring) {
        NativeRing nativeRing = NativeRing.open(ring.path(), OPEN_TIMEOUT);
        NativeRing.Producer producer;
        try {
            producer = nativeRing.producer(Math.max(ring.maxMessageLength(), 8));
        } catch (RuntimeException e) {
            nativeRing.close();
            throw e;
        }
        ByteBuffer buffer = producer.buffer();
        MemorySegment messages = MemorySegment.ofBuffer(buffer);
        return new ProducerEnd() {
            @Override
            public int writeRun(int typeId, int size, int max, long first) {
                // The native batch takes its messages end to end from the start of the buffer.
                int n = Math.min(max, buffer.capacity() / size);
                for (int k = 0; k < n; k++) {
                    TestPattern.fill(messages, (long) k * size, first + k, size);
                }
                return producer.writeBatch(typeId, n, size);
            }

            @Override
            public boolean offer(int typeId, byte[] src, int length) {
                buffer.put(0, src, 0, length);
                return producer.write(typeId, 0, length);
            }

            @Override
            public boolean claim(int typeId, byte[] src, int length, boolean commit) {
                long index = producer.tryClaim(typeId, length);
                if (index < 0) {
                    return false;
                }
                MemorySegment.copy(src, 0, producer.recordArea(), ValueLayout.JAVA_BYTE, index, length);
                if (commit) {
                    producer.commit(index);
                }
                return true;
            }

            @Override
            public void heartbeat() {
                producer.heartbeat();
            }

            @Override
            public void close() {
                producer.close();
                nativeRing.close();
            }
        };
    }

    @Override
    public ConsumerEnd consumer(RingFile ring, MessageCheck check) {
        NativeRing nativeRing = NativeRing.open(ring.path(), OPEN_TIMEOUT);
        NativeRing.Consumer consumer;
        try {
            consumer = nativeRing.consumer(Math.max(1 << 20, 8 + ((ring.maxMessageLength() + 7) & ~7)));
        } catch (RuntimeException e) {
            nativeRing.close();
            throw e;
        }
        ByteBuffer buffer = consumer.buffer();
        MemorySegment records = MemorySegment.ofBuffer(buffer);
        return new ConsumerEnd() {
            private byte[] scratch = new byte[1 << 16];

            @Override
            public int poll(int limit) {
                // The binding copies the batch out and releases it before it is verified (it
                // has no controlled read): a message that fails is consumed, with the rest of
                // its batch, and the error says so.
                int n = consumer.read(limit);
                int at = 0;
                for (int k = 0; k < n; k++) {
                    int typeId = buffer.getInt(at);
                    int length = buffer.getInt(at + 4);
                    try {
                        FfmImpl.verify(check, typeId, records, at + 8, length);
                    } catch (PatternMismatchException e) {
                        check.rejectConsumed(e, n - k - 1);
                        throw check.failure(ring.headPosition());
                    }
                    at += 8 + ((length + 7) & ~7);
                }
                return n;
            }

            @Override
            public int echo(ProducerEnd out, int limit) {
                int n = consumer.read(limit);
                int at = 0;
                for (int k = 0; k < n; k++) {
                    int typeId = buffer.getInt(at);
                    int length = buffer.getInt(at + 4);
                    if (scratch.length < length) {
                        scratch = new byte[length];
                    }
                    buffer.get(at + 8, scratch, 0, length);
                    while (!out.offer(typeId, scratch, length)) {
                        Thread.onSpinWait();
                    }
                    at += 8 + ((length + 7) & ~7);
                }
                return n;
            }

            @Override
            public void heartbeat() {
                consumer.heartbeat();
            }

            @Override
            public void close() {
                consumer.close();
                nativeRing.close();
            }
        };
    }
}
