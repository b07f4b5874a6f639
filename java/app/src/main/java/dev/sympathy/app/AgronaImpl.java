package dev.sympathy.app;

import dev.sympathy.ring.RingDescriptor;
import dev.sympathy.ring.RingFile;
import java.nio.ByteOrder;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

/**
 * {@code --impl agrona}: Agrona's own {@code OneToOneRingBuffer} wrapped around offset 4096 of
 * the mapped file: the reference peer that proves the format. Pids and heartbeats go through
 * {@link RingFile} (Agrona knows nothing of the header page).
 */
final class AgronaImpl implements RingImpl {
    @Override
    public String name() {
        return "agrona";
    }

    static OneToOneRingBuffer wrap(RingFile ring) {
        long address = ring.segment().address() + RingDescriptor.HEADER_LENGTH;
        int length = ring.capacity() + RingDescriptor.TRAILER_LENGTH;
        return new OneToOneRingBuffer(new UnsafeBuffer(address, length));
    }

    @Override
    public ProducerEnd producer(RingFile ring) {
        OneToOneRingBuffer rb = wrap(ring);
        ring.claimProducer();
        UnsafeBuffer source = new UnsafeBuffer(new byte[0]);
        return new ProducerEnd() {
            @Override
            public boolean offer(int typeId, byte[] src, int length) {
                if (source.byteArray() != src) {
                    source.wrap(src);
                }
                return rb.write(typeId, source, 0, length);
            }

            /** Agrona has no batch write: its zero-copy path, a claim filled in place, once per message. */
            @Override
            public int writeRun(int typeId, int size, int max, long first) {
                MutableDirectBuffer buffer = rb.buffer();
                int n = 0;
                while (n < max) {
                    int index = rb.tryClaim(typeId, size);
                    if (index < 0) {
                        break;
                    }
                    fill(buffer, index, first + n, size);
                    rb.commit(index);
                    n++;
                }
                return n;
            }

            @Override
            public boolean claim(int typeId, byte[] src, int length, boolean commit) {
                int index = rb.tryClaim(typeId, length);
                if (index < 0) {
                    return false;
                }
                rb.buffer().putBytes(index, src, 0, length);
                if (commit) {
                    rb.commit(index);
                }
                return true;
            }

            @Override
            public void heartbeat() {
                ring.producerHeartbeat();
            }

            @Override
            public void close() {
                ring.producerHeartbeat();
                ring.releaseProducer();
            }
        };
    }

    @Override
    public ConsumerEnd consumer(RingFile ring, MessageCheck check) {
        OneToOneRingBuffer rb = wrap(ring);
        ring.claimConsumer();
        // Agrona's controlled read: a message that fails is left at the head.
        ControlledMessageHandler verifier = (typeId, buffer, index, length) -> {
            try {
                verify(check, typeId, buffer, index, length);
                return ControlledMessageHandler.Action.CONTINUE;
            } catch (PatternMismatchException e) {
                check.reject(e);
                return ControlledMessageHandler.Action.ABORT;
            }
        };
        Echo echo = new Echo();
        return new ConsumerEnd() {
            @Override
            public int poll(int limit) {
                int n = rb.controlledRead(verifier, limit);
                if (check.failed()) {
                    throw check.failure(rb.consumerPosition());
                }
                return n;
            }

            @Override
            public int echo(ProducerEnd out, int limit) {
                echo.out = out;
                return rb.read(echo, limit);
            }

            @Override
            public void heartbeat() {
                rb.consumerHeartbeatTime(System.currentTimeMillis());
            }

            @Override
            public void close() {
                heartbeat();
                ring.releaseConsumer();
            }
        };
    }

    /** Writes test message {@code message} of {@code size} bytes at {@code index}, as {@link TestPattern#fill}. */
    static void fill(MutableDirectBuffer buffer, int index, long message, int size) {
        if (size >= 8) {
            buffer.putLong(index, message, ByteOrder.LITTLE_ENDIAN);
        } else {
            buffer.putInt(index, (int) message, ByteOrder.LITTLE_ENDIAN);
            for (int k = 4; k < size; k++) {
                buffer.putByte(index + k, (byte) (message >>> (8 * k)));
            }
        }
        for (int k = 8; k < size; k++) {
            buffer.putByte(index + k, TestPattern.tailByte(message, k));
        }
    }

    static void verify(MessageCheck check, int typeId, MutableDirectBuffer buffer, int index, int length) {
        long head;
        if (length >= 8) {
            head = buffer.getLong(index, ByteOrder.LITTLE_ENDIAN);
        } else if (length == 4) {
            head = buffer.getInt(index, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL;
        } else {
            head = 0;
            for (int k = 0; k < length; k++) {
                head |= (buffer.getByte(index + k) & 0xFFL) << (8 * k);
            }
        }
        long message = check.checkHead(typeId, length, head);
        for (int k = 8; k < length; k++) {
            byte actual = buffer.getByte(index + k);
            if (actual != TestPattern.tailByte(message, k)) {
                throw check.tailMismatch(message, length, k, actual);
            }
        }
        check.accept(length);
    }

    private static final class Echo implements MessageHandler {
        ProducerEnd out;
        private byte[] scratch = new byte[1 << 16];

        @Override
        public void onMessage(int typeId, MutableDirectBuffer buffer, int index, int length) {
            if (scratch.length < length) {
                scratch = new byte[length];
            }
            buffer.getBytes(index, scratch, 0, length);
            while (!out.offer(typeId, scratch, length)) {
                Thread.onSpinWait();
            }
        }
    }
}
