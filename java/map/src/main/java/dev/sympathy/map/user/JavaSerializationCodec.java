package dev.sympathy.map.user;

import dev.sympathy.map.MapDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Users as the JDK's own serialization writes them ({@code ObjectOutputStream}): the seed's
 * "Use of JDK serialization would perform at least 5 to 10 times slower", the slow baseline of
 * the off-heap map (value format 3; Java only). {@link #encodedLength} serializes the user and
 * keeps the bytes for the {@link #encode} of the same user that follows (one thread).
 */
public final class JavaSerializationCodec implements UserCodec {
    private User last;
    private byte[] lastBytes;

    @Override
    public int format() {
        return MapDescriptor.VALUE_FORMAT_USER_JAVA_SERIALIZATION;
    }

    @Override
    public int encodedLength(User user) {
        return bytes(user).length;
    }

    @Override
    public void encode(User user, MemorySegment out, long offset) {
        byte[] bytes = bytes(user);
        MemorySegment.copy(bytes, 0, out, ValueLayout.JAVA_BYTE, offset, bytes.length);
    }

    private byte[] bytes(User user) {
        if (user != last) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
            try (ObjectOutputStream out = new ObjectOutputStream(buffer)) {
                out.writeObject(user);
            } catch (IOException e) {
                throw new UserCodecException("Java serialization failed", e);
            }
            last = user;
            lastBytes = buffer.toByteArray();
        }
        return lastBytes;
    }

    @Override
    public User decode(MemorySegment in, long offset, int length) {
        byte[] bytes = in.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
        try (ObjectInputStream stream = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (User) stream.readObject();
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new UserCodecException("not a serialized User", e);
        }
    }
}
