package dev.sympathy.app;

import dev.sympathy.ring.ControlledMessageHandler;
import dev.sympathy.ring.ControlledMessageHandler.Action;
import dev.sympathy.ring.MessageFiller;
import dev.sympathy.ring.MessageHandler;
import dev.sympathy.ring.RingConsumer;
import dev.sympathy.ring.RingFile;
import dev.sympathy.ring.RingProducer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** {@code --impl ffm}: the pure-Java ring of the ring module (FFM, no Unsafe). */
final class FfmImpl implements RingImpl {
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Override
    public String name() {
        return "ffm";
    }

    @Override
    public ProducerEnd producer(RingFile ring) {
        RingProducer producer = ring.producer();
        RingProducer.Batch batch = producer.batch();
        return new ProducerEnd() {
            @Override
            public boolean offer(int typeId, byte[] src, int length) {
                return producer.write(typeId, src, 0, length);
            }

            @Override
            public boolean offerBatched(int typeId, byte[] src, int length) {
                if (!batch.write(typeId, src, 0, length)) {
                    batch.finish();
                    return false;
                }
                if (batch.size() >= BATCH) {
                    batch.finish();
                }
                return true;
            }

            @Override
            public void flush() {
                batch.finish();
            }

            private final PatternFiller filler = new PatternFiller();

            @Override
            public int writeRun(int typeId, int size, int max, long first) {
                batch.finish();
                filler.first = first;
                return producer.writeBatch(typeId, size, max, filler);
            }

            @Override
            public boolean claim(int typeId, byte[] src, int length, boolean commit) {
                long index = producer.tryClaim(typeId, length);
                if (index < 0) {
                    return false;
                }
                MemorySegment.copy(src, 0, producer.buffer(), ValueLayout.JAVA_BYTE, index, length);
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
            public void awaitRoom(long nanos) {
                producer.awaitRoom(nanos);
            }

            @Override
            public void close() {
                producer.close();
            }
        };
    }

    @Override
    public ConsumerEnd consumer(RingFile ring, MessageCheck check) {
        RingConsumer consumer = ring.consumer();
        // A message that fails is left at the head: the read ends before it.
        ControlledMessageHandler verifier = (typeId, buffer, offset, length) -> {
            try {
                verify(check, typeId, buffer, offset, length);
                return Action.CONTINUE;
            } catch (PatternMismatchException e) {
                check.reject(e);
                return Action.ABORT;
            }
        };
        Echo echo = new Echo();
        return new ConsumerEnd() {
            @Override
            public int poll(int limit) {
                int n = consumer.controlledRead(verifier, limit);
                if (check.failed()) {
                    throw check.failure(consumer.position());
                }
                return n;
            }

            @Override
            public int echo(ProducerEnd out, int limit) {
                echo.out = out;
                return consumer.read(echo, limit);
            }

            @Override
            public void awaitMessage(long nanos) {
                consumer.awaitMessage(nanos);
            }

            @Override
            public void heartbeat() {
                consumer.heartbeat();
            }

            @Override
            public void close() {
                consumer.close();
            }
        };
    }

    /** Fills record {@code k} of a {@link RingProducer#writeBatch} run with test message {@code first + k}. */
    private static final class PatternFiller implements MessageFiller {
        long first;

        @Override
        public void fill(int k, MemorySegment buffer, long offset, int length) {
            TestPattern.fill(buffer, offset, first + k, length);
        }
    }

    static void verify(MessageCheck check, int typeId, MemorySegment buffer, long offset, int length) {
        long head;
        if (length >= 8) {
            head = buffer.get(LONG_LE, offset);
        } else if (length == 4) {
            head = buffer.get(INT_LE, offset) & 0xFFFF_FFFFL;
        } else {
            head = 0;
            for (int k = 0; k < length; k++) {
                head |= (buffer.get(ValueLayout.JAVA_BYTE, offset + k) & 0xFFL) << (8 * k);
            }
        }
        long index = check.checkHead(typeId, length, head);
        for (int k = 8; k < length; k++) {
            byte actual = buffer.get(ValueLayout.JAVA_BYTE, offset + k);
            if (actual != TestPattern.tailByte(index, k)) {
                throw check.tailMismatch(index, length, k, actual);
            }
        }
        check.accept(length);
    }

    /**
     * Forwards each message to {@link #out}, copying through a scratch array. A message of at most
     * {@value #SHORT_COPY} bytes comes out of the ring in two overlapping word loads (as the
     * ring's own {@code copyShort} puts it in): a {@code MemorySegment.copy} of 4 bytes pays for
     * the bulk copy's checks and stub, several times the copy itself, once per echoed message.
     */
    private static final class Echo implements MessageHandler {
        ProducerEnd out;
        private byte[] scratch = new byte[1 << 16];

        @Override
        public void onMessage(int typeId, MemorySegment buffer, long offset, int length) {
            if (scratch.length < length) {
                scratch = new byte[length];
            }
            if (length >= 4 && length <= SHORT_COPY) {
                copyShort(buffer, offset, scratch, length);
            } else {
                MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, offset, scratch, 0, length);
            }
            while (!out.offer(typeId, scratch, length)) {
                Thread.onSpinWait();
            }
        }
    }

    /** Messages up to this many bytes leave the ring through {@link #copyShort}. */
    private static final int SHORT_COPY = 16;
    private static final VarHandle ARRAY_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN).withInvokeExactBehavior();
    private static final VarHandle ARRAY_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN).withInvokeExactBehavior();

    /**
     * Copies {@code 4 <= length <= 16} bytes from the ring to {@code dst[0, length)} with two
     * overlapping moves, one at the start and one ending at the end (8 bytes each from 8 on, else 4).
     */
    static void copyShort(MemorySegment src, long offset, byte[] dst, int length) {
        if (length >= 8) {
            long head = src.get(LONG_LE, offset);
            long tail = src.get(LONG_LE, offset + length - 8);
            ARRAY_LONG.set(dst, 0, head);
            ARRAY_LONG.set(dst, length - 8, tail);
        } else {
            int head = src.get(INT_LE, offset);
            int tail = src.get(INT_LE, offset + length - 4);
            ARRAY_INT.set(dst, 0, head);
            ARRAY_INT.set(dst, length - 4, tail);
        }
    }
}
