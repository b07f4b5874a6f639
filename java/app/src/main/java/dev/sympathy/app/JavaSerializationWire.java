package dev.sympathy.app;

import dev.sympathy.messages.PriceUpdate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code java-serialization} (Java's {@code serde} row): the price update as a value
 * ({@link MessageSample#update}, records of java/messages) through {@code java.io} serialization,
 * a stream per message so that each record decodes alone (the seed's "JDK Ser (no shared)"):
 * encoded into scratch and copied into the ring, copied out of the record and read back into a
 * new value, compared with {@link Object#equals}.
 */
final class JavaSerializationWire implements MessageWire {
    /** A stream whose buffer is reused, read through {@link #encoded}. */
    private static final class Bytes extends ByteArrayOutputStream {
        Bytes() {
            super(1024);
        }

        byte[] buffer() {
            return buf;
        }
    }

    private final Bytes bytes = new Bytes();
    private final Encoded encoded = new Encoded();
    private byte[] scratch = new byte[1024];

    @Override
    public String name() {
        return "java-serialization";
    }

    @Override
    public int typeId() {
        return 6;
    }

    @Override
    public int fixedLength() {
        return VARIABLE;
    }

    @Override
    public void encode(long seq, MemorySegment buffer, long offset, int length) {
        throw new UnsupportedOperationException("java-serialization messages each have their own length");
    }

    @Override
    public Encoded encode(long seq) {
        bytes.reset();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(MessageSample.update(seq));
        } catch (IOException e) {
            throw new IllegalStateException("java-serialization: writing message " + seq + ": " + e, e);
        }
        encoded.bytes = bytes.buffer();
        encoded.length = bytes.size();
        return encoded;
    }

    @Override
    public void verify(long seq, MemorySegment buffer, long offset, int length) {
        if (scratch.length < length) {
            scratch = new byte[length];
        }
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, offset, scratch, 0, length);
        Object decoded;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(scratch, 0, length))) {
            decoded = in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new Mismatch("message " + seq + " does not deserialize: " + e, e);
        }
        PriceUpdate expected = MessageSample.update(seq);
        if (!expected.equals(decoded)) {
            throw new Mismatch("decoded " + decoded + ", expected " + expected);
        }
    }
}
