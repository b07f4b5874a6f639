package dev.sympathy.jmh.serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * {@code java-serialization}: the seed's first case, {@code Serializable} and object streams.
 * Each write resets a {@link ByteArrayOutputStream}, opens a new {@link ObjectOutputStream} on
 * it, writes the order and closes it; each read opens an {@link ObjectInputStream} on a copy of
 * those bytes ({@code toByteArray()}, as the seed) and reads the order back.
 */
final class JavaSerializationCodec implements OrderCodec {
    private final ByteArrayOutputStream[] slots = new ByteArrayOutputStream[BATCH];
    private int encodedBytes;

    JavaSerializationCodec() {
        for (int i = 0; i < BATCH; i++) {
            slots[i] = new ByteArrayOutputStream(512);
        }
    }

    @Override
    public String variant() {
        return "java-serialization";
    }

    @Override
    public void writeBatch(Order[] orders, int n) {
        OrderCodec.checkBatch(n);
        try {
            for (int i = 0; i < n; i++) {
                final ByteArrayOutputStream baos = slots[i];
                baos.reset();
                final ObjectOutputStream oos = new ObjectOutputStream(baos);
                oos.writeObject(orders[i]);
                oos.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("java-serialization: writing an order failed", e);
        }
        if (n > 0) {
            encodedBytes = slots[n - 1].size();
        }
    }

    @Override
    public void readBatch(Order[] out, int n) {
        OrderCodec.checkBatch(n);
        try {
            for (int i = 0; i < n; i++) {
                final ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(slots[i].toByteArray()));
                out[i] = (Order) ois.readObject();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("java-serialization: reading an order failed: " + e, e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("java-serialization: the order class is missing: " + e, e);
        }
    }

    @Override
    public int encodedBytes() {
        return encodedBytes;
    }
}
